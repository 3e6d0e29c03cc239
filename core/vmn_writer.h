// Writing a game as Verbose Matrix Notation (VMN), a 5D notation by Kyle L. that lays a game
// out as a matrix: one row per turn, one column per timeline, each cell what happened on that
// timeline's boards in that turn. The notation leaves several things open; this writer's
// choices are the ones docs/5d-query.md (`show --format vmn`) documents:
//
//    L[+1        | 0               ]    the timelines of the columns
//   T1[0         | e3/f6           ]    a row per turn; a cell is white's half, '/', black's
//   T3[0/e5      | Qxg6/hxg6       ]    '0': no board on that half, or on either
//   T4[Nc3/d5    | Ng1>>(0T3)g3/Rh5]    a jump keeps its target board
//   T6[-/0       | -/0             ]    '-': a board no move left (here the last boards)
//
// Columns run from white's newest timeline on the left through the starting timelines (+0
// before -0 on even starts) to black's newest on the right, separated by '|'. A cell is "W/B",
// the moves played from the board of each half, or "0" alone when the timeline has neither board
// in that turn. A move is written as the canonical 5dpgn writer writes it (pgn_writer.h) without
// its source board, which the cell names: "e3", "O-O", "Qh5>>x(0T3)f7" (a jump keeps its
// target board). A board that a piece jumped onto without branching ('>', the target timeline's
// tip) shows where it came from: "<(-0T5)". A board nothing left is "-": a tip the game ended
// with or a timeline's tip while the present was elsewhere, or a board a start has before its
// present (turn zero's "T0[0/-]", a custom start's history). Cells are padded so that the columns
// line up.
#ifndef FIVED_CORE_VMN_WRITER_H_
#define FIVED_CORE_VMN_WRITER_H_

#include <map>
#include <string>
#include <utility>

#include "core/movegen.h"
#include "core/position.h"

namespace fived {

// Collects a game's moves as a replay plays them (Replayer::SetMoveHook or ReplayGame's
// on_move), then writes the matrix. Not thread-safe; one builder per game.
class VmnBuilder {
 public:
  // Records `move`, played in `before` (the position just before it).
  void AddMove(const Position& before, const Move& move);
  // The matrix of the moves added, `final` being the position after the last of them (its
  // boards say which cells have a board): the column line, then one line per turn, each ending
  // in a line break. Leaves the builder as it was.
  std::string Finish(const Position& final) const;

 private:
  // What happened on a board, by (timeline, half-turn).
  std::map<std::pair<int, int>, std::string> cells_;
};

}  // namespace fived

#endif  // FIVED_CORE_VMN_WRITER_H_
