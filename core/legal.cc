// Legal actions and the check test; see legal.h.
#include "core/legal.h"

#include <algorithm>
#include <cassert>
#include <climits>
#include <tuple>

#include "core/action.h"
#include "core/check.h"

namespace fived {

namespace {

// A set of 64-bit keys with open addressing: no allocation per insert, half the memory of a
// node-based set. Key 0 marks an empty slot, so a key of 0 is stored as 1 (a collision of
// one in 2^64 at worst, as for the keys themselves).
class KeySet {
 public:
  // Returns true when the key was not in the set.
  bool Insert(uint64_t key) {
    if (key == 0) key = 1;
    if (2 * (size_ + 1) > slots_.size()) Grow();
    const size_t mask = slots_.size() - 1;
    for (size_t i = Spread(key) & mask;; i = (i + 1) & mask) {
      if (slots_[i] == key) return false;
      if (slots_[i] == 0) {
        slots_[i] = key;
        ++size_;
        return true;
      }
    }
  }

 private:
  static size_t Spread(uint64_t key) { return static_cast<size_t>(key ^ (key >> 29)); }
  void Grow() {
    std::vector<uint64_t> old(slots_.empty() ? 64 : 2 * slots_.size(), 0);
    old.swap(slots_);
    size_ = 0;
    for (uint64_t key : old) {
      if (key != 0) Insert(key);
    }
  }
  std::vector<uint64_t> slots_;
  size_t size_ = 0;
};

constexpr int kNoConstraint = INT_MIN;

// The key of a search node: the state, and the lowest source timeline its next physical move may
// have (two nodes with the same state but different constraints have different subtrees).
uint64_t NodeKey(uint64_t state_key, int constraint) {
  uint64_t mix = static_cast<uint64_t>(static_cast<int64_t>(constraint)) * 0x9e3779b97f4a7c15ull;
  mix ^= mix >> 31;
  return state_key ^ (mix * 0xbf58476d1ce4e5b9ull);
}

// Whether a move of `moves` promotes (then a pawn's capture onto its last rank counts: a piece to
// promote to is on a board).
bool AnyPromotion(const std::vector<Move>& moves) {
  for (const Move& m : moves) {
    if (m.promotion != PieceType::kNone) return true;
  }
  return false;
}

bool IsMandatory(const Position& pos, int timeline, int present) {
  return pos.IsActive(timeline) && pos.TipHalf(timeline) == present;
}

// Appends the moves of the pieces of `mover` on the tip of `timeline` to `out`.
void CollectBoardMoves(const Position& pos, int timeline, Color mover, PromotionSet promotions,
                       std::vector<Move>* out) {
  assert(ColorOf(pos.TipHalf(timeline)) == mover);
  (void)mover;
  ForEachTipMove(pos, timeline, promotions, [&](const Move& m, Piece) {
    out->push_back(m);
    return false;
  });
}

// The exhaustive depth-first search over move sequences of legal.h.
class ActionSearch {
 public:
  using Visit = std::function<bool(const std::vector<Move>&, const Position&)>;

  ActionSearch(const Position& pos, const SearchLimits& limits, const Visit& visit)
      : pos_(pos),
        limits_(limits),
        visit_(visit),
        mover_(pos.ToMove()),
        promoting_(PromotingCapturesCount(pos)) {}

  SearchStats Run() {
    Expand(kNoConstraint);
    stats_.end = out_of_budget_ ? SearchEnd::kOutOfBudget
                 : stopped_     ? SearchEnd::kStopped
                                : SearchEnd::kExhausted;
    return stats_;
  }

 private:
  // Visits the node reached by path_, then its children.
  void Expand(int constraint) {
    if (!path_.empty()) {
      if (!visited_.Insert(NodeKey(pos_.StateKey(), constraint))) return;
      // Monotone (legal.h): nothing after an exposed royal piece can be legal.
      if (RoyalCapturable(pos_, Opponent(mover_), promoting_ || AnyPromotion(path_))) return;
      if (ColorOf(pos_.Present()) != mover_ && results_.Insert(pos_.StateKey())) {
        ++stats_.actions;
        if (visit_(path_, pos_)) {
          stopped_ = true;
          return;
        }
      }
    }
    const size_t depth = path_.size();
    if (levels_.size() <= depth) levels_.resize(depth + 1);
    // Moves of the mandatory boards first (Decide finds a playable action sooner), then the
    // other tips of the mover's colour.
    const int present = pos_.Present();
    levels_[depth].clear();
    for (int pass = 0; pass < 2; ++pass) {
      for (int l = pos_.min_timeline(); l <= pos_.max_timeline(); ++l) {
        if (!pos_.HasTimeline(l) || ColorOf(pos_.TipHalf(l)) != mover_) continue;
        if (IsMandatory(pos_, l, present) != (pass == 0)) continue;
        CollectBoardMoves(pos_, l, mover_, limits_.promotions, &levels_[depth]);
      }
    }
    // levels_ may grow below; index it afresh each time.
    for (size_t i = 0; i < levels_[depth].size(); ++i) {
      const Move move = levels_[depth][i];
      if (!move.IsJump() && move.src_timeline <= constraint) continue;
      if (limits_.budget != 0 && stats_.work >= limits_.budget) {
        out_of_budget_ = true;
        return;
      }
      ++stats_.work;
      const Position::Mark mark = pos_.GetMark();
      ApplyMove(&pos_, move);
      path_.push_back(move);
      Expand(move.IsJump() ? kNoConstraint : move.src_timeline);
      path_.pop_back();
      pos_.Rollback(mark);
      if (stopped_ || out_of_budget_) return;
    }
  }

  Position pos_;
  const SearchLimits& limits_;
  const Visit& visit_;
  const Color mover_;
  const bool promoting_;  // PromotingCapturesCount before the action
  std::vector<Move> path_;
  std::vector<std::vector<Move>> levels_;  // the moves tried at each depth, reused
  KeySet visited_;                         // expanded nodes
  KeySet results_;                         // states of the actions visited
  SearchStats stats_;
  bool stopped_ = false;
  bool out_of_budget_ = false;
};

// The player to move passes: every mandatory board gets a copy of its tip as the opponent's next
// board (InCheck's and Checks' first step).
void PassMandatoryBoards(Position* pos) {
  const int present = pos->Present();
  for (int l = pos->min_timeline(); l <= pos->max_timeline(); ++l) {
    if (!pos->HasTimeline(l) || !IsMandatory(*pos, l, present)) continue;
    Board passed = pos->Tip(l);
    passed.ClearEnPassant();
    pos->Append(l, passed);
  }
}

}  // namespace

bool InCheck(Position* pos) {
  const Color mover = pos->ToMove();
  const Position::Mark mark = pos->GetMark();
  PassMandatoryBoards(pos);
  const bool check = RoyalCapturable(*pos, Opponent(mover), PromotingCapturesCount(*pos));
  pos->Rollback(mark);
  return check;
}

bool InCheck(const Position& pos) {
  Position copy = pos;
  return InCheck(&copy);
}

std::vector<Move> Checks(const Position& pos) {
  Position passed = pos;
  const Color mover = pos.ToMove();
  const Color attacker = Opponent(mover);
  PassMandatoryBoards(&passed);
  // Any one piece to become: a capture onto the last rank is listed once (GenMode::kCaptures).
  PromotionSet promotions;
  if (PromotingCapturesCount(passed)) promotions.Add(PieceType::kQueen);
  std::vector<Move> checks;
  const MoveView view(passed);
  for (int l = passed.min_timeline(); l <= passed.max_timeline(); ++l) {
    if (!passed.HasTimeline(l)) continue;
    const int half = passed.TipHalf(l);
    if (ColorOf(half) != attacker) continue;
    const Board& board = passed.Tip(l);
    for (int rank = 0; rank < board.height(); ++rank) {
      for (int file = 0; file < board.width(); ++file) {
        const Piece piece = board.at(file, rank);
        if (piece.empty() || piece.color() != attacker) continue;
        const Square from{static_cast<int8_t>(file), static_cast<int8_t>(rank)};
        ForEachPieceMove(
            view, l, half, from, piece, GenMode::kCaptures, promotions,
            [&](const Move& m, Piece captured) {
              if (!captured.empty() && captured.color() == mover && IsRoyal(captured.type())) {
                checks.push_back(m);
              }
              return false;
            });
      }
    }
  }
  std::sort(checks.begin(), checks.end(), [](const Move& a, const Move& b) {
    return std::tie(a.dst_timeline, a.dst_half, a.src_timeline, a.src_half, a.from.file,
                    a.from.rank, a.to.file,
                    a.to.rank) < std::tie(b.dst_timeline, b.dst_half, b.src_timeline, b.src_half,
                                          b.from.file, b.from.rank, b.to.file, b.to.rank);
  });
  return checks;
}

int BoardsInCheck(std::span<const Move> checks) {
  int boards = 0;
  for (size_t i = 0; i < checks.size(); ++i) {
    if (i == 0 || checks[i].dst_timeline != checks[i - 1].dst_timeline ||
        checks[i].dst_half != checks[i - 1].dst_half) {
      ++boards;
    }
  }
  return boards;
}

SearchStats ForEachLegalAction(
    const Position& pos, const SearchLimits& limits,
    const std::function<bool(const std::vector<Move>& moves, const Position& after)>& visit) {
  ActionSearch search(pos, limits, visit);
  return search.Run();
}

ActionCount CountActions(const Position& pos, const SearchLimits& limits, uint64_t cap) {
  ActionCount result;
  const SearchStats stats =
      ForEachLegalAction(pos, limits, [&](const std::vector<Move>&, const Position&) {
        ++result.count;
        return cap != 0 && result.count >= cap;
      });
  result.capped = stats.end != SearchEnd::kExhausted;
  return result;
}

ActionCount CountActions(const Position& pos, PromotionSet promotions, uint64_t cap) {
  SearchLimits limits;
  limits.promotions = promotions;
  return CountActions(pos, limits, cap);
}

}  // namespace fived
