// The quick try of the mate search (decide.h): plays the mandatory boards one after the other
// until the present passes to the opponent, most promising choices first.
#include <algorithm>
#include <cassert>
#include <climits>
#include <cstdint>
#include <vector>

#include "core/decide_internal.h"

namespace fived::decide_internal {
namespace {

// Moves the quick try may play, in all and in its first attempt: the larger of a fixed budget
// and one per mandatory board. Where it succeeds it usually takes a few per board; past this the
// local proof and the hypercuboid search are the cheaper ways on. With many boards (20 to 30
// in the long benchmark games) the fixed budgets alone left a quick try a few moves per board,
// and one board stuck late sent the position to the search, which costs milliseconds: with
// these, the search decides 309 of those games' playable positions instead of 775 and the
// decision takes 20% less time (bench_verdict); positions of a few boards are as before.
constexpr uint64_t kQuickTryBudget = 250;
constexpr uint64_t kQuickTryPerBoard = 40;
constexpr uint64_t kFirstAttemptBudget = 100;
constexpr uint64_t kFirstAttemptPerBoard = 10;
constexpr int kQuickAttempts = 8;

}  // namespace

// The board the quick try plays next: the first of mandatory_ still to play, or, when a branch
// moved the present onto other boards of the mover, the first mandatory one.
int Decider::NextMandatory(int present) const {
  for (int l : mandatory_) {
    if (IsMandatory(scratch_, l, present)) return l;
  }
  for (int l = scratch_.min_timeline(); l <= scratch_.max_timeline(); ++l) {
    if (IsMandatory(scratch_, l, present)) return l;
  }
  assert(false && "the present is the mover's, so some board of theirs is on it");
  return INT_MIN;
}

// Appends to *out the moves of the next piece of the mover's on the tip of `timeline` that has
// some, looking from square *next on (rank by rank), and moves *next past it: its moves on the
// board, or with `jumps` all of them; of a threatened board only those that may break the
// threat (for `fate`, when given, a piece whose jumps were all left out fails by leaving, as
// in CollectBoardMoves). Returns false when no piece was left. Piece by piece, so that a board
// whose first move will do never has the rest of its moves generated.
bool Decider::CollectNextPieceMoves(int timeline, bool jumps, int* next, std::vector<Move>* out,
                                    BoardFate* fate) const {
  const TargetBoard own{timeline, scratch_.TipHalf(timeline)};
  const Threat* threat = ThreatOf(timeline);
  const Board& board = scratch_.Tip(timeline);
  const MoveView view(scratch_);
  const size_t before = out->size();
  for (; *next < board.width() * board.height() && out->size() == before; ++*next) {
    const Square from{static_cast<int8_t>(*next % board.width()),
                      static_cast<int8_t>(*next / board.width())};
    const Piece piece = board.at(from);
    if (piece.empty() || piece.color() != mover_) continue;
    ForEachPieceMove(
        view, timeline, own.half_turn, from, piece, GenMode::kAll, limits_.promotions,
        [&](const Move& m, Piece) {
          // The target restricts the lines walked (not a pawn's), not where moves land.
          if (m.IsJump() && !jumps) return false;
          if (threat == nullptr || MayBreak(*threat, m)) {
            out->push_back(m);
          } else if (fate != nullptr && m.IsJump()) {
            fate->LeaveFails(m.from);
          }
          return false;
        },
        jumps ? nullptr : &own);
  }
  return out->size() > before;
}

// The quick try (QuickFrom), attempted again with the board it got stuck on (every choice
// of it failed, the deepest such) played earlier, before the boards it followed: the boards
// that leave it no way out are then the ones that must find one around it. True with the
// action in path_.
bool Decider::QuickTry() {
  const uint64_t boards = mandatory_.size();
  const uint64_t budget = std::max(kQuickTryBudget, kQuickTryPerBoard * boards);
  const uint64_t first = std::max(kFirstAttemptBudget, kFirstAttemptPerBoard * boards);
  const uint64_t limit = limits_.budget == 0 ? budget : std::min(limits_.budget, budget);
  size_t promoted = 0;  // boards moved to the front so far
  for (int attempt = 0;; ++attempt) {
    // The first attempt may backtrack more; the others are shorter.
    quick_limit_ = std::min(limit, work_ + (attempt == 0 ? first : first / 2));
    quick_stopped_ = false;
    stuck_board_ = INT_MIN;
    stuck_depth_ = 0;
    first_attempt_ = attempt == 0;
    if (QuickFrom(0)) return true;
    if (work_ >= limit || attempt + 1 >= kQuickAttempts || stuck_board_ == INT_MIN) return false;
    auto stuck = std::find(mandatory_.begin(), mandatory_.end(), stuck_board_);
    if (stuck == mandatory_.end() || stuck - mandatory_.begin() <= static_cast<long>(promoted)) {
      return false;  // not one of the boards ordered (the present moved), or already early
    }
    std::rotate(mandatory_.begin() + promoted, stuck, stuck + 1);
    ++promoted;
  }
}

// The quick try: plays the next mandatory board by each of its moves, then by each piece that
// can arrive on it from another playable board, and goes on from every one that exposes
// nothing; on the first board, when a new timeline could be active, then also tries the
// escapes of the other boards. True with the action in path_ once the present has passed to
// the opponent. Records what the first board's choices (first_fate_) and the escapes did.
bool Decider::QuickFrom(size_t depth) {
  const int present = scratch_.Present();
  if (ColorOf(present) != mover_) return !path_.empty();
  const int board = NextMandatory(present);
  const bool first = depth == 0 && first_attempt_;  // the first board's fate is recorded
  if (first) first_fate_.emplace(board);
  if (levels_.size() <= depth) levels_.resize(depth + 1);
  levels_[depth].clear();
  // The first board offers every move, which its fate needs. Past it, the moves on the board
  // come first, then its jumps onto the other tips still to play, and no branches: a new
  // timeline could move the present back or activate others and leave more to answer (the
  // search finds the actions that need one); generating the moves kind by kind also spares
  // the jumps of most boards.
  enum class Phase { kOwn, kJumps, kArrivals, kEscapes, kDone } phase = Phase::kOwn;
  int next_piece = 0;  // where CollectNextPieceMoves goes on
  // The choices of the board are levels_[depth][0, own_end); escapes follow them.
  size_t own_end = SIZE_MAX;
  bool escapes_onto_tip = false, escape_survived = false, any_survived = false;
  // levels_ may grow below; index it afresh each time.
  for (size_t i = 0;; ++i) {
    while (i == levels_[depth].size() && phase != Phase::kDone) {
      if (phase == Phase::kOwn) {
        if (CollectNextPieceMoves(board, depth == 0, &next_piece, &levels_[depth],
                                  first ? &*first_fate_ : nullptr)) {
          continue;
        }
        phase = Phase::kJumps;
        if (depth == 0) continue;  // the first board's jumps were among its moves
        // One pass over the board's moves keeps the jumps onto other tips still to play.
        jumps_.clear();
        CollectBoardMoves(board, &jumps_);
        for (const Move& m : jumps_) {
          if (!m.IsJump() || m.dst_half != scratch_.TipHalf(m.dst_timeline)) continue;
          const Threat* onto = ThreatOf(m.dst_timeline);
          if (onto == nullptr || MayBreak(*onto, m)) levels_[depth].push_back(m);
        }
      } else if (phase == Phase::kJumps) {
        phase = Phase::kArrivals;
        CollectArrivals(board, &levels_[depth]);
      } else if (phase == Phase::kArrivals) {
        phase = Phase::kDone;
        own_end = i;
        if (depth == 0 && ActiveNewTimelines() > 0) {
          phase = Phase::kEscapes;
          CollectEscapes(board, &levels_[depth], &escapes_onto_tip);
        }
      } else {
        phase = Phase::kDone;
      }
    }
    if (i == levels_[depth].size()) break;
    if (work_ >= quick_limit_) {
      quick_stopped_ = true;
      return false;
    }
    const Move move = levels_[depth][i];
    const Position::Mark mark = scratch_.GetMark();
    Move capture;
    bool by_own_promotion = false;
    const bool exposed = PlayAndTest(move, &capture, &by_own_promotion);
    if (first && i < own_end) {
      first_fate_->Add(move, exposed,
                       exposed ? HowItFails(board, move, fresh_[1], capture, by_own_promotion)
                               : Failure::kFails);
    }
    if (!exposed) {
      any_survived = true;
      escape_survived = escape_survived || i >= own_end;
      path_.push_back(move);
      if (QuickFrom(depth + 1)) return true;
      path_.pop_back();
    }
    scratch_.Rollback(mark);
    if (quick_stopped_) return false;
  }
  if (!any_survived && depth > 0 && depth >= stuck_depth_) {
    stuck_board_ = board;  // no choice of it survived what the boards before it did
    stuck_depth_ = depth;
  }
  if (first) {
    first_fate_settled_ = true;  // every choice of the first board was tried
    escapes_settled_ = own_end != SIZE_MAX && ActiveNewTimelines() > 0;
    escapes_fail_ = escapes_settled_ && !escapes_onto_tip && !escape_survived;
  }
  return false;
}

}  // namespace fived::decide_internal
