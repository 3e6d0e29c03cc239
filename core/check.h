// The check test: whether some piece of a side can capture a royal piece (king or royal queen)
// of the other side in one move, from a board it may move from onto any board of its colour.
// Reading the boards backwards from each royal piece, and on bitboards for boards up to 8x8,
// rather than generating every move: it runs after every move a search tries.
// Thread-safe (read-only tables, per-thread scratch).
#ifndef FIVED_CORE_CHECK_H_
#define FIVED_CORE_CHECK_H_

#include <algorithm>
#include <cstdlib>
#include <span>

#include "core/movegen.h"
#include "core/position.h"

namespace fived {

// A board of a position, by timeline and half-turn.
struct BoardPlace {
  int timeline = 0;
  int half_turn = 0;
};

// Whether any piece of `attacker` can capture a royal piece of the other side in one move from
// a board where it may move (a tip of its colour), onto any board of its colour, past ones
// included. After an action by `mover`, RoyalCapturable(pos, Opponent(mover), ...) must be false.
// A pawn's or brawn's capture onto the attacker's last rank promotes: it counts when
// `promoting_captures` (PromotingCapturesCount in core/rules.h: some board holds a piece to
// promote to). If `found` is given, it receives the first capturing move found.
bool RoyalCapturable(const Position& pos, Color attacker, bool promoting_captures,
                     Move* found = nullptr);

// The same test for the captures that involve one of the boards `fresh`: from a piece on one of
// them, or along a path that crosses one or ends on one. When a position had no capturable
// royal (RoyalCapturable false, with promoting captures counting at least as much) and `fresh`
// lists every board added since, every capture of the new position involves one of them, so
// this answers RoyalCapturable for it while reading far fewer boards: the searches that add a
// few boards to a position and test it again use it.
bool RoyalCapturableTouching(const Position& pos, Color attacker, bool promoting_captures,
                             std::span<const BoardPlace> fresh, Move* found = nullptr);

// The squares of an 8x8 grid (bit rank * 8 + file, as Position::royal_squares) from which a piece
// of any kind may capture on one of `royal_squares`, on whatever board: on a line with one of them
// in one of the 8 directions of the board, on it (a move through time or timelines alone), or
// within two squares of it (a knight's leap). The tests above skip the pieces standing elsewhere.
uint64_t SquaresReachingRoyals(uint64_t royal_squares);

// Calls f(timeline, half_turn, square) for each square of `pos` that a capture found by the tests
// above depends on: the attacker's, those a slider crosses (empty), and the captured royal
// piece's. A position holding these squares' contents has the same capture.
template <typename F>
void ForEachCaptureCell(const Position& pos, const Move& capture, F&& f) {
  const Piece attacker = pos.BoardAt(capture.src_timeline, capture.src_half)->at(capture.from);
  const int d[4] = {capture.to.file - capture.from.file, capture.to.rank - capture.from.rank,
                    (capture.dst_half - capture.src_half) / 2,
                    capture.dst_timeline - capture.src_timeline};
  int steps = 1;
  if (IsSlider(attacker.type())) {
    steps = 0;
    for (int c : d) steps = std::max(steps, std::abs(c));
  }
  for (int j = 0; j < steps; ++j) {
    f(capture.src_timeline + j * (d[3] / steps), capture.src_half + 2 * j * (d[2] / steps),
      Square{static_cast<int8_t>(capture.from.file + j * (d[0] / steps)),
             static_cast<int8_t>(capture.from.rank + j * (d[1] / steps))});
  }
  f(capture.dst_timeline, capture.dst_half, capture.to);
}

namespace movegen_internal {

// The two implementations of RoyalCapturable, exposed so that tests can hold them to each other:
// one on bitboards (only for positions whose boards are no larger than 8x8), and one that reads
// the boards square by square (any size). Both name a capturing move.
bool RoyalCapturableByBits(const Position& pos, Color attacker, bool promoting_captures,
                           Move* found = nullptr);
bool RoyalCapturableByScan(const Position& pos, Color attacker, bool promoting_captures,
                           Move* found);

}  // namespace movegen_internal

}  // namespace fived

#endif  // FIVED_CORE_CHECK_H_
