// The local proof of the mate search (decide.h): a mandatory board none of whose choices
// survives alone, or (the pair proof) none of whose choices can go with some choice of every
// other board that must be played, proves that no legal action exists.
//
// Why the local proof's failures are final. The local proof tries each choice of a mandatory
// board T on the position as it is, alone: a move of T, or a move of another playable board
// whose piece arrives on T's tip. Suppose it exposes a royal piece of the mover: some opponent
// piece on a tip of the opponent's colour can capture it, across squares of existing boards.
// In any action holding the same choice, the boards the choice made are there with the same
// contents (the tip of T once played is the opponent's, and no later move of the action lands
// on it; a piece arriving from S leaves S's tip as it leaves it here), the boards that existed
// before never change, the tips the attacker moves from stay tips (the mover only adds boards
// after tips of their own colour), and adding boards never blocks a line (legal.h). So the
// capture is there in every such action, which is illegal, if the capture needs no board but
// those: always true for a move on T alone (it makes only T's next board) and for an arrival
// on T (T's next board and the board it left); for a piece that jumps away from T, when the
// capture avoids the board it arrives on (then every jump of that piece fails, for all leave T
// the same board behind), or when it lies on that board alone (then this jump fails: the board
// it makes has the same contents wherever it is, on a tip or on a new timeline whatever its
// number). A capture that counts only because the move promotes fails only the choice that
// promotes, so a promoting jump names no failure of its piece's other jumps. With every
// choice of T failing and T unable to stay unplayed (no timeline could take the present back:
// LocalProof), no action is legal. The pair proof (PairProof) stands on the same ground for two
// choices played together.
#include <algorithm>
#include <cassert>
#include <climits>
#include <cstdint>
#include <vector>

#include "core/decide_internal.h"

namespace fived::decide_internal {
namespace {

// Moves a pair proof may try, domains and pairs together, before it gives up.
constexpr uint64_t kPairProofBudget = 1000;

}  // namespace

// How a move of `board` (or onto it) that exposed a royal piece alone fails (Failure), from
// the capture it exposed; `arrival` is the board it made where it landed.
Failure Decider::HowItFails(int board, const Move& move, const BoardPlace& arrival,
                            const Move& capture, bool by_own_promotion) const {
  if (move.src_timeline != board || !move.IsJump()) return Failure::kFails;
  const auto existed = ExistedBefore();
  bool leaving_fails = !by_own_promotion, on_arrival_alone = true;
  ForEachCaptureCell(scratch_, capture, [&](int l, int h, Square) {
    const bool left_board = l == board && h == tips_[board - min_timeline_] + 1;
    if (!left_board && !existed(l, h)) leaving_fails = false;
    if (l != arrival.timeline || h != arrival.half_turn) on_arrival_alone = false;
  });
  if (leaving_fails) return Failure::kLeaveFails;
  return on_arrival_alone ? Failure::kFails : Failure::kUnsettled;
}

// Whether timelines the mover creates could activate one of the opponent's whose tip is before
// the present (a timeline is activated by the other side's new timelines only; the mover's
// inactive ones stay so, and every active timeline's tip is at or after the present).
bool Decider::MayActivateEarlier() const {
  const int present = pos_.Present();
  for (int l = pos_.min_timeline(); l <= pos_.max_timeline(); ++l) {
    if (!pos_.HasTimeline(l) || pos_.IsActive(l) || pos_.TipHalf(l) >= present) continue;
    const bool by_opponent =
        mover_ == Color::kWhite ? l < pos_.initial_min() : l > pos_.initial_max();
    if (by_opponent) return true;
  }
  return false;
}

// Appends to *out the jumps of the mover's playable boards but `except` that land before the
// present: the escapes, which create a timeline there (the present moves back onto it when it
// is active). A jump onto a tip before the present (an inactive timeline's) may branch or not
// depending on the order of the moves: *onto_tip says one was met.
void Decider::CollectEscapes(int except, std::vector<Move>* out, bool* onto_tip) const {
  const int present = pos_.Present();
  for (int s = scratch_.min_timeline(); s <= scratch_.max_timeline(); ++s) {
    if (s == except || !scratch_.HasTimeline(s) || ColorOf(scratch_.TipHalf(s)) != mover_) {
      continue;
    }
    ForEachTipMove(
        scratch_, s, limits_.promotions,
        [&](const Move& m, Piece) {
          if (!m.IsJump() || m.dst_half >= present) return false;
          if (m.dst_half == scratch_.TipHalf(m.dst_timeline)) *onto_tip = true;
          out->push_back(m);
          return false;
        },
        present);
  }
}

// Whether every escape but those of board `dead` (INT_MIN: every escape) fails in every
// action, when `active` (one or more) of the timelines the mover may create would be active. An
// action that leaves `dead` unplayed moves the present back onto one of those: it holds an escape
// created among the first `active`. The escape's new board has the contents the jump gives it,
// and so has the board it left; its place (the new timeline's number) is the first new timeline's
// when only one can be active, and otherwise depends on the timelines created before it. So a
// capture that the escape alone exposes is in every such action when one timeline at most can be
// active, or when the capture lies on the new board alone or does not touch it. An escape that
// exposes nothing is a legal action by itself (the present passed back to the opponent): then
// *action receives it.
bool Decider::EveryEscapeFails(int dead, int active, std::vector<Move>* action) {
  assert(active >= 1 && path_.empty());
  std::vector<Move> escapes;
  bool onto_tip = false;
  CollectEscapes(dead, &escapes, &onto_tip);
  if (onto_tip) return false;
  for (const Move& move : escapes) {
    if (OutOfBudget()) return false;
    const Position::Mark mark = scratch_.GetMark();
    Move capture;
    bool by_own_promotion = false;
    MoveEffect effect;
    const bool exposed = PlayAndTest(move, &capture, &by_own_promotion, &effect);
    assert(effect.branching);  // onto a board before the present that is not a tip
    const bool passed = ColorOf(scratch_.Present()) != mover_;
    bool fails = exposed;
    if (exposed && active > 1) {
      int on_new = 0, elsewhere = 0;
      ForEachCaptureCell(scratch_, capture, [&](int l, int, Square) {
        ++(l == effect.new_timeline ? on_new : elsewhere);
      });
      fails = on_new == 0 || elsewhere == 0;
    }
    scratch_.Rollback(mark);
    if (!exposed && passed) action->assign(1, move);
    if (!fails) return false;
  }
  return true;
}

// Tries every choice of mandatory board `board` alone, until one survives.
BoardFate Decider::FateOf(int board) {
  BoardFate fate(board);
  std::vector<Move>& moves = levels_.empty() ? levels_.emplace_back() : levels_[0];
  moves.clear();
  CollectBoardMoves(board, &moves, &fate);
  bool arrivals = false;
  for (size_t i = 0; !fate.alive(); ++i) {
    if (i == moves.size()) {
      if (arrivals) break;
      arrivals = true;
      CollectArrivals(board, &moves);
      if (i == moves.size()) break;
    }
    if (OutOfBudget()) return BoardFate(board);  // nothing settled
    const Position::Mark mark = scratch_.GetMark();
    Move capture;
    bool by_own_promotion = false;
    const bool exposed = PlayAndTest(moves[i], &capture, &by_own_promotion);
    fate.Add(moves[i], exposed,
             exposed ? HowItFails(board, moves[i], fresh_[1], capture, by_own_promotion)
                     : Failure::kFails);
    scratch_.Rollback(mark);
  }
  return fate;
}

// The pair proof, when every mandatory board must be played (no new timeline of the mover
// would be active before the present, and none of the opponent's could be activated there)
// but none fails alone. A board whose pass exposes a royal piece has few choices that survive
// alone (its moves and the arrivals onto it); one of them can be in an action only if every other
// mandatory board has some choice that can go with it. When no choice of such a board has that
// support, no action is legal. Two choices cannot go together when they leave the same board
// (a board is moved from once), when one moves from the other's board, or when played together
// they expose a royal piece through boards whose places and contents the two fix (the boards
// they leave, the board an arrival lands on) and boards that were there before, or on one
// board they make alone: then every action holding both fails (a choice that fails alone so
// fails with any other). A pair of jumps onto the same third board (which of them branches
// depends on the order) is kept.
bool Decider::PairProof() {
  const uint64_t stop = work_ + kPairProofBudget;
  std::vector<Move> candidates, others;
  for (const Threat& threat : threats_) {
    const int board = threat.timeline;
    candidates.clear();
    CollectBoardMoves(board, &candidates);
    CollectArrivals(board, &candidates);
    bool supported = false;
    for (size_t i = 0; i < candidates.size() && !supported; ++i) {
      const Move& c1 = candidates[i];
      if (work_ >= stop || OutOfBudget()) return false;
      const Position::Mark mark = scratch_.GetMark();
      Move capture;
      bool by_own_promotion = false;
      const bool exposed = PlayAndTest(c1, &capture, &by_own_promotion);
      const Failure failure = exposed ? HowItFails(board, c1, fresh_[1], capture, by_own_promotion)
                                      : Failure::kUnsettled;
      scratch_.Rollback(mark);
      if (failure == Failure::kLeaveFails) {
        // Every jump of the piece fails: those still to come are left out unplayed.
        while (i + 1 < candidates.size() && candidates[i + 1].src_timeline == board &&
               candidates[i + 1].IsJump() && candidates[i + 1].from == c1.from) {
          ++i;
        }
      }
      if (exposed && failure != Failure::kUnsettled) continue;
      // c1 survives alone: is every other mandatory board able to go with it?
      supported = true;
      for (int other : mandatory_) {
        if (other == board || !supported) continue;
        others.clear();
        CollectBoardMoves(other, &others);
        CollectArrivals(other, &others);
        supported = false;
        for (const Move& c2 : others) {
          if (work_ >= stop || OutOfBudget()) return false;
          if (MayGoTogether(board, c1, other, c2)) {
            supported = true;
            break;
          }
        }
      }
    }
    if (!supported) return true;  // no choice of this board can be in an action
  }
  return false;
}

// Whether `jump`, from one mandatory board onto another's tip, may play both in one action:
// then it lands without branching, so the two boards it makes are in fixed places, and a
// capture it alone exposes on them and boards that were there before fails every such action.
bool Decider::PlaysBothBoards(const Move& jump) {
  const Position::Mark mark = scratch_.GetMark();
  Move capture;
  bool by_own_promotion = false;
  const bool exposed = PlayAndTest(jump, &capture, &by_own_promotion);
  bool fixed_only = exposed;
  if (exposed) {
    const auto existed = ExistedBefore();
    ForEachCaptureCell(scratch_, capture, [&](int l, int h, Square) {
      const bool made = (l == fresh_[0].timeline && h == fresh_[0].half_turn) ||
                        (l == fresh_[1].timeline && h == fresh_[1].half_turn);
      fixed_only = fixed_only && (made || existed(l, h));
    });
  }
  scratch_.Rollback(mark);
  return !fixed_only;
}

// Whether choice c1 of board b1 and choice c2 of board b2 may be in one action (PairProof).
bool Decider::MayGoTogether(int b1, const Move& c1, int b2, const Move& c2) {
  if (c1 == c2) return PlaysBothBoards(c1);
  if (c1.src_timeline == b2 || c2.src_timeline == b1 || c1.src_timeline == c2.src_timeline) {
    return false;  // a board moved from twice, or played and then moved from
  }
  // A jump onto the other's board (the board it plays or leaves) comes after it in any action
  // holding both: the other was played first, or it could not be played. Two jumps onto the
  // same third board: which one branches depends on the order, so the pair is kept.
  const bool c1_first = c2.dst_timeline == b1 || c2.dst_timeline == c1.src_timeline;
  const bool c2_first = c1.dst_timeline == b2 || c1.dst_timeline == c2.src_timeline;
  if (c1_first && c2_first) return false;
  if (c1.IsJump() && c2.IsJump() && c1.dst_timeline == c2.dst_timeline && !c1_first && !c2_first) {
    return true;
  }
  const Position::Mark mark = scratch_.GetMark();
  work_ += 2;
  MoveEffect e1, e2;
  if (c2_first) {
    e2 = ApplyMove(&scratch_, c2);
    e1 = ApplyMove(&scratch_, c1);
  } else {
    e1 = ApplyMove(&scratch_, c1);
    e2 = ApplyMove(&scratch_, c2);
  }
  auto landed = [&](const Move& m, const MoveEffect& e) {
    const int l = e.branching ? e.new_timeline : m.dst_timeline;
    return BoardPlace{l, scratch_.TipHalf(l)};
  };
  const BoardPlace made[4] = {{c1.src_timeline, scratch_.TipHalf(c1.src_timeline)},
                              landed(c1, e1),
                              {c2.src_timeline, scratch_.TipHalf(c2.src_timeline)},
                              landed(c2, e2)};
  const bool counts =
      promoting_ || c1.promotion != PieceType::kNone || c2.promotion != PieceType::kNone;
  Move capture;
  const bool exposed =
      touching_ ? RoyalCapturableTouching(scratch_, Opponent(mover_), counts, made, &capture)
                : RoyalCapturable(scratch_, Opponent(mover_), counts, &capture);
  bool together = true;
  if (exposed) {
    // The boards whose places and contents do not depend on the rest of the action: those the
    // two leave, and where an arrival onto b1 or b2 lands (that board is played by it).
    auto onto = [&](const Move& m, int board) {
      return m.dst_timeline == board && m.dst_half == tips_[board - min_timeline_];
    };
    const BoardPlace fixed[4] = {made[0], made[2], onto(c1, b1) ? made[1] : made[0],
                                 onto(c2, b2) ? made[3] : made[2]};
    // A capture on one board alone holds wherever that board is.
    const auto existed = ExistedBefore();
    bool on_fixed = true, on_one_board = true;
    const BoardPlace first{capture.src_timeline, capture.src_half};
    ForEachCaptureCell(scratch_, capture, [&](int l, int h, Square) {
      on_one_board = on_one_board && l == first.timeline && h == first.half_turn;
      if (existed(l, h)) return;
      bool is_fixed = false;
      for (const BoardPlace& f : fixed) {
        is_fixed = is_fixed || (f.timeline == l && f.half_turn == h);
      }
      on_fixed = on_fixed && is_fixed;
    });
    together = !on_fixed && !on_one_board;
  }
  scratch_.Rollback(mark);
  return together;
}

// The local proof (decide.h): true when no legal action exists. May find a legal action
// instead (an escape that exposes nothing): then *action receives it.
bool Decider::LocalProof(std::vector<Move>* action) {
  const int active_new = ActiveNewTimelines();
  if (MayActivateEarlier()) return false;
  assert(path_.empty());
  int dead = INT_MIN;
  const bool first_tried = first_fate_.has_value();
  if (first_tried && first_fate_settled_ && first_fate_->AllFail()) {
    dead = first_fate_->timeline();
  }
  for (size_t i = 0; i < mandatory_.size() && dead == INT_MIN; ++i) {
    const int l = mandatory_[i];
    // The quick try's first board was tried already: every choice, or until one survived.
    if (first_tried && l == first_fate_->timeline() &&
        (first_fate_settled_ || first_fate_->alive())) {
      continue;
    }
    const BoardFate fate = FateOf(l);
    if (OutOfBudget()) return false;
    if (fate.AllFail()) dead = l;
  }
  if (dead == INT_MIN) {
    // Every mandatory board must be played when no timeline could move the present back, or
    // when every escape fails; then the pair proof may show they cannot all be.
    if (threats_.empty()) return false;  // the pair proof starts from threatened boards
    if (active_new > 0 && !EveryEscapeFails(INT_MIN, active_new, action)) return false;
    return PairProof();
  }
  // The board must be played unless an escape moves the present back.
  if (active_new == 0) return true;
  if (first_tried && dead == first_fate_->timeline() && escapes_settled_ && active_new == 1) {
    return escapes_fail_;
  }
  return EveryEscapeFails(dead, active_new, action);
}

}  // namespace fived::decide_internal
