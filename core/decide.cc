// Deciding a position (decide.h): the steps in order and what they share. The quick try is
// quick_try.cc, the local proof local_proof.cc, the hypercuboid search hypercuboid.cc.
#include "core/decide.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <climits>
#include <cstdint>
#include <vector>

#include "core/check.h"
#include "core/decide_internal.h"
#include "core/hypercuboid.h"
#include "core/rules.h"

namespace fived {
namespace decide_internal {

Decider::Decider(Position* pos, const SearchLimits& limits)
    : pos_(*pos),
      scratch_(*pos),
      limits_(limits),
      mover_(pos->ToMove()),
      promoting_(PromotingCapturesCount(*pos)),
      keys_were_on_(pos->keys()),
      start_(pos->GetMark()),
      min_timeline_(pos->min_timeline()) {
  scratch_.DropKeys();  // nothing here reads a key
  for (int l = pos_.min_timeline(); l <= pos_.max_timeline(); ++l) {
    tips_.push_back(pos_.HasTimeline(l) ? pos_.TipHalf(l) : INT_MIN);
  }
}

Decider::~Decider() {
  scratch_.Rollback(start_);  // the quick try's action stays played when it succeeds
  if (keys_were_on_) scratch_.RestoreKeys();  // every board added was rolled back
}

Decision Decider::Run() {
  Decision decision = Settle();
  decision.in_check = InCheckHere();
  if (decision.verdict == Decision::Verdict::kCheckmate && !decision.in_check) {
    decision.verdict = Decision::Verdict::kStalemate;
  }
  return decision;
}

// Decide's steps; a position without an action comes out as kCheckmate, which Run turns into
// kStalemate when the mover is not in check.
Decision Decider::Settle() {
  Decision decision;
  const Color opponent = Opponent(mover_);
  capturable_ = RoyalCapturable(pos_, opponent, promoting_);
  // A royal piece capturable already stays so whatever the action: the search says so at once.
  if (!capturable_) {
    // With no royal capturable before the action even by a promoting capture, every capture
    // after a move involves a board the move added: only those are looked at (with promoting_,
    // the test above counted promoting captures already).
    touching_ = promoting_ || !RoyalCapturable(pos_, opponent, true);
    OrderMandatoryBoards();
    // A step's decision: what it found, with the work so far.
    auto settled = [&](Decision::Step step, Decision::Verdict verdict, std::vector<Move> witness) {
      decision.verdict = verdict;
      decision.witness = std::move(witness);
      decision.work = work_;
      decision.step = step;
      return decision;
    };
    if (QuickTry()) {
      return settled(Decision::Step::kQuickTry, Decision::Verdict::kPlayable, path_);
    }
    if (OutOfBudget()) return settled(Decision::Step::kQuickTry, Decision::Verdict::kUnknown, {});
    std::vector<Move> escape;
    if (LocalProof(&escape)) {
      return settled(Decision::Step::kLocalProof, Decision::Verdict::kCheckmate, {});
    }
    if (!escape.empty()) {
      return settled(Decision::Step::kLocalProof, Decision::Verdict::kPlayable, escape);
    }
    if (OutOfBudget()) {
      return settled(Decision::Step::kLocalProof, Decision::Verdict::kUnknown, {});
    }
  }
  SearchLimits rest = limits_;
  if (rest.budget != 0) rest.budget -= work_;
  LegalActionSearch search = FindLegalAction(pos_, rest);
  decision.work = work_ + search.work;
  decision.step = Decision::Step::kSearch;
  switch (search.end) {
    case SearchEnd::kStopped:
      decision.verdict = Decision::Verdict::kPlayable;
      decision.witness = std::move(search.action);
      break;
    case SearchEnd::kOutOfBudget:
      decision.verdict = Decision::Verdict::kUnknown;
      break;
    case SearchEnd::kExhausted:
      decision.verdict = Decision::Verdict::kCheckmate;
      break;
  }
  return decision;
}

// InCheck (legal.h) of the position, from what Settle found where it can: a royal piece
// capturable already, or a mandatory board whose pass alone exposes one, is check (passing
// every mandatory board only adds captures); otherwise the mandatory boards are passed and,
// when no royal was capturable before even by a promoting capture, only the captures
// involving the passed boards are looked for.
bool Decider::InCheckHere() {
  scratch_.Rollback(start_);  // the quick try's action stays played when it succeeds
  if (capturable_ || !threats_.empty()) return true;
  if (!touching_) return InCheck(&scratch_);
  const Position::Mark mark = scratch_.GetMark();
  std::vector<BoardPlace> passed;
  for (int l : mandatory_) {
    Board board = scratch_.Tip(l);
    board.ClearEnPassant();
    scratch_.Append(l, board);
    passed.push_back({l, scratch_.TipHalf(l)});
  }
  const bool check = RoyalCapturableTouching(scratch_, Opponent(mover_), promoting_, passed);
  scratch_.Rollback(mark);
  return check;
}

// The mandatory boards, those whose pass alone exposes a royal piece first: they have the
// fewest ways out, so the quick try meets their trouble before it has played the others, and
// the local proof finds a board without a way out sooner. Of each such board, the squares of
// the capture its pass exposes that lie on it are kept (threats_): a move from or onto one of
// them (the royal piece moving, the attacker taken, the line blocked) is the likeliest way out.
void Decider::OrderMandatoryBoards() {
  const int present = pos_.Present();
  std::vector<int> quiet;
  for (int l = pos_.min_timeline(); l <= pos_.max_timeline(); ++l) {
    if (!IsMandatory(pos_, l, present)) continue;
    const Position::Mark mark = scratch_.GetMark();
    Board passed = scratch_.Tip(l);
    passed.ClearEnPassant();
    scratch_.Append(l, passed);
    fresh_[0] = {l, present + 1};
    Move capture;
    const bool exposed = Exposed(promoting_, 1, &capture);
    if (exposed) {
      Threat& threat = threats_.emplace_back();
      threat.timeline = l;
      ForEachCaptureCell(scratch_, capture, [&](int cl, int ch, Square square) {
        if (cl == l && ch == present + 1) threat.squares.set(SquareIndex(square));
      });
    }
    scratch_.Rollback(mark);
    (exposed ? mandatory_ : quiet).push_back(l);
  }
  mandatory_.insert(mandatory_.end(), quiet.begin(), quiet.end());
}

// Appends the moves of the mover's pieces on the tip of `timeline` to *out; of a threatened
// board only those that may break the threat. Every other one leaves the capture its pass
// exposes as it was (the squares of the capture hold the same pieces on the board the move
// makes, the other boards of the capture were there before the action, and the attacker's
// board is still a tip), so it fails whatever else the action holds. For `fate` (when given),
// the pieces whose jumps were all left out so fail by leaving.
void Decider::CollectBoardMoves(int timeline, std::vector<Move>* out, BoardFate* fate) const {
  const Threat* threat = ThreatOf(timeline);
  ForEachTipMove(scratch_, timeline, limits_.promotions, [&](const Move& m, Piece) {
    if (threat == nullptr || MayBreak(*threat, m)) {
      out->push_back(m);
    } else if (fate != nullptr && m.IsJump()) {
      fate->LeaveFails(m.from);
    }
    return false;
  });
}

// Appends to *out the moves of pieces on the mover's other tips still to play that arrive on
// the tip of `timeline`, which is still to play (there they land without branching).
void Decider::CollectArrivals(int timeline, std::vector<Move>* out) {
  for (const Move& m : ArrivalsOnto(timeline)) {
    if (scratch_.TipHalf(m.src_timeline) == m.src_half) out->push_back(m);
  }
}

// The moves of pieces on the mover's other tips before the action that arrive on the tip of
// `timeline` before the action (of a threatened board only those that may break the threat),
// made once per board: a move's path crosses only boards of the mover's colour, which the
// action never adds to, so it stays a move while its two tips are unplayed.
const std::vector<Move>& Decider::ArrivalsOnto(int timeline) {
  for (const auto& [target, moves] : arrivals_) {
    if (target == timeline) return moves;
  }
  std::vector<Move>& out = arrivals_.emplace_back(timeline, std::vector<Move>()).second;
  const TargetBoard target{timeline, tips_[timeline - min_timeline_]};
  const Threat* threat = ThreatOf(timeline);
  const MoveView view(scratch_);
  for (int s = min_timeline_; s < min_timeline_ + static_cast<int>(tips_.size()); ++s) {
    const int half = tips_[s - min_timeline_];
    if (s == timeline || half == INT_MIN || ColorOf(half) != mover_) continue;
    const int dt = (target.half_turn - half) / 2, dl = timeline - s;
    if (!MayLandOnBoard(dt, dl)) continue;
    const Board& board = *scratch_.BoardAt(s, half);
    // Which of the board's piece types may land on the target at all (most cannot, timelines
    // away), asked once per type.
    std::array<int8_t, kPieceTypeCount> lands;
    lands.fill(-1);
    auto may_land = [&](PieceType type) {
      int8_t& known = lands[static_cast<int>(type)];
      if (known < 0) {
        known = PieceTypeMayLandOnBoard(type, dt, dl, board.width(), board.height()) ? 1 : 0;
      }
      return known == 1;
    };
    auto arrivals_of = [&](Square from, Piece piece) {
      ForEachPieceMove(
          view, s, half, from, piece, GenMode::kAll, limits_.promotions,
          [&](const Move& m, Piece) {
            // The target restricts the lines walked, not where their moves land. Onto a
            // threatened board, only an arrival that may break the threat can survive.
            if (m.dst_timeline == target.timeline && m.dst_half == target.half_turn &&
                (threat == nullptr || MayBreak(*threat, m))) {
              out.push_back(m);
            }
            return false;
          },
          &target);
    };
    if (board.fits_bitboards()) {
      // The squares in the order of the scan below (rank by rank, file by file).
      uint64_t pieces = 0;
      for (int t = 1; t < kPieceTypeCount; ++t) {
        const PieceType type = static_cast<PieceType>(t);
        if (board.type_bits(type) != 0 && may_land(type)) pieces |= board.type_bits(type);
      }
      for (pieces &= board.colour_bits(mover_); pieces != 0; pieces &= pieces - 1) {
        const int bit = std::countr_zero(pieces);
        const Square from{static_cast<int8_t>(bit % Board::kBitboardSide),
                          static_cast<int8_t>(bit / Board::kBitboardSide)};
        arrivals_of(from, board.at(from));
      }
      continue;
    }
    for (int rank = 0; rank < board.height(); ++rank) {
      for (int file = 0; file < board.width(); ++file) {
        const Piece piece = board.at(file, rank);
        if (piece.empty() || piece.color() != mover_ || !may_land(piece.type())) continue;
        arrivals_of(Square{static_cast<int8_t>(file), static_cast<int8_t>(rank)}, piece);
      }
    }
  }
  return out;
}

// Plays `move` on scratch_ (after path_) and tells whether it exposes a royal piece of the
// mover; *capture names the capture, *by_own_promotion says whether it counts only because
// the move promotes; *effect (when given) what the move did. The caller rolls back.
bool Decider::PlayAndTest(const Move& move, Move* capture, bool* by_own_promotion,
                          MoveEffect* effect_out) {
  ++work_;
  const MoveEffect effect = ApplyMove(&scratch_, move);
  if (effect_out != nullptr) *effect_out = effect;
  bool promoted_before = promoting_;
  for (const Move& m : path_) promoted_before = promoted_before || m.promotion != PieceType::kNone;
  const bool counts = promoted_before || move.promotion != PieceType::kNone;
  const int arrival = effect.branching ? effect.new_timeline : move.dst_timeline;
  fresh_[0] = {move.src_timeline, scratch_.TipHalf(move.src_timeline)};
  fresh_[1] = {arrival, scratch_.TipHalf(arrival)};
  bool exposed;
  if (counts == promoted_before) {
    // The position before the move had no capturable royal (tested one level up, or before
    // the action): only captures involving the move's boards can be new.
    exposed = Exposed(counts, move.IsJump() ? 2 : 1, capture);
    *by_own_promotion = false;
  } else {
    // A promotion that makes promoting captures count may expose a royal to a capture that
    // involves earlier boards: the whole test.
    exposed = RoyalCapturable(scratch_, Opponent(mover_), counts, capture);
    *by_own_promotion =
        exposed && !RoyalCapturable(scratch_, Opponent(mover_), promoted_before, nullptr);
  }
  return exposed;
}

}  // namespace decide_internal

Decision Decide(Position* pos, const SearchLimits& limits) {
  decide_internal::Decider decider(pos, limits);
  return decider.Run();
}

Decision Decide(const Position& pos, const SearchLimits& limits) {
  Position scratch = pos;
  return Decide(&scratch, limits);
}

const char* VerdictName(Decision::Verdict verdict) {
  switch (verdict) {
    case Decision::Verdict::kCheckmate:
      return "checkmate";
    case Decision::Verdict::kStalemate:
      return "stalemate";
    case Decision::Verdict::kPlayable:
      return "playable";
    case Decision::Verdict::kUnknown:
      return "unknown";
  }
  return "unknown";
}

}  // namespace fived
