// Playing moves and judging whole actions.
//
// An action is one player's sequence of moves in a turn. Each move adds boards (the source
// timeline always gets a new board; a jump also adds one to the target timeline or starts a new
// timeline). The action may be submitted when the present has passed to the opponent (every
// mandatory board was played, or the present moved back onto an opponent's board) and no royal
// piece of the mover can be captured by one opponent move.
#ifndef FIVED_CORE_ACTION_H_
#define FIVED_CORE_ACTION_H_

#include <vector>

#include "core/movegen.h"
#include "core/position.h"

namespace fived {

// What a move did to the multiverse, for notation and pictures.
struct MoveEffect {
  bool branching = false;  // a jump onto a past board: a new timeline was created
  int new_timeline = 0;    // its index, when branching
  Piece moved;             // the piece as it stood on the source board
  Piece captured;          // empty when nothing was captured
};

// Plays a move generated for the current position by its mover (the colour of its source board).
// The source board must be a tip; the target must exist. Cannot fail.
MoveEffect ApplyMove(Position* pos, const Move& move);

struct ActionVerdict {
  enum class Problem { kNone, kMandatoryBoardsLeft, kRoyalCapturable };
  Problem problem = Problem::kNone;
  std::vector<int>
      mandatory_left;  // timelines the mover still had to play, for kMandatoryBoardsLeft
  Move capture;        // one capturing move, for kRoyalCapturable
};

// Plays each move from the tip of `timeline` that stays on its timeline (no jump) on *pos, calls
// visit(*pos) after it and rolls it back, until visit returns true. *pos is left as it was.
template <typename Visit>
void ForEachMoveStaying(Position* pos, int timeline, PromotionSet promotions, Visit&& visit) {
  ForEachTipMove(*pos, timeline, promotions, [&](const Move& move, Piece) {
    if (move.IsJump()) return false;
    const Position::Mark mark = pos->GetMark();
    ApplyMove(pos, move);
    const bool stop = visit(*pos);
    pos->Rollback(mark);
    return stop;
  });
}

// Judges the position after `mover` played its moves. `promoting_captures`: whether a pawn's
// capture onto its last rank counts (PromotingCapturesCount in core/rules.h).
ActionVerdict JudgeAction(const Position& pos, Color mover, bool promoting_captures);

}  // namespace fived

#endif  // FIVED_CORE_ACTION_H_
