// Whether any action of the player to move could give check, answered without enumerating the
// actions: the mate-in-one search (core/tactics.h) skips the positions where none can, since a
// checkmate needs a check.
//
// Why it can be answered. After an action of the mover and the opponent's pass (InCheck's
// passing, core/legal.h), every board of the mover's colour is either a board of the position
// before the action or a passing copy: the action itself only makes boards of the opponent's
// colour. A capture of a royal piece runs on boards of the attacker's colour alone (every vector
// changes time by whole turns), so a capture that involves no passing copy (its attacker, a
// square it crosses and its target all on old boards) was already a capture in the position
// before the action, and the opponent's last action, being legal, left none. The screen checks
// that this holds (no piece of the mover can capture an opponent royal now, promoting captures
// counted) rather than assume it, and answers kNotApplicable when it does not.
//
// The passing copies are then over-approximated by a union of every version any action could
// give them: the tip of a timeline the mover may play, at two half-turns past it, holds its own
// pieces and, on each square, whatever some move from, onto or across it could leave there
// (a vacated square may be empty, a target square may hold the piece that arrives, promoted or
// not, castling's rook and en passant's victim included); a tip of the opponent's colour, one
// half-turn past it, holds its own pieces; and each timeline the action might create (as many as
// there are boards the mover may play, numbered beyond the existing ones on the mover's side)
// holds, two half-turns past the board a branching jump lands on, the union of every such
// board's pieces and the piece arriving. A capture is then searched for with every square that
// may be empty counted as crossable and every square that may hold a piece counted as holding
// it. Finding none proves that no action gives check: the union covers every board of every
// action (combinations included: a line through a board one move creates and a piece another
// move places is a line of the union), so a real capture would be one of the union's.
//
// Thread-safe: no state is kept between calls.
#ifndef FIVED_CORE_CHECK_SCREEN_H_
#define FIVED_CORE_CHECK_SCREEN_H_

#include <cstdint>

#include "core/movegen.h"
#include "core/position.h"

namespace fived {

enum class CheckScreen : uint8_t {
  kNoCheck,        // proved: after no action of the player to move is the opponent in check
  kMayCheck,       // some action might give check (the union holds a capture)
  kNotApplicable,  // the mover can already capture an opponent royal: the argument fails
};

// Screens the actions of pos.ToMove(), whose pawns and brawns promote to `promotions`. Never
// fails; positions of any board size are accepted. Costs about one move generation of every
// board the mover may play plus a walk of the union's lines.
CheckScreen ScreenChecks(const Position& pos, PromotionSet promotions);

// "no check", "may check", "not applicable".
const char* CheckScreenName(CheckScreen screen);

}  // namespace fived

#endif  // FIVED_CORE_CHECK_SCREEN_H_
