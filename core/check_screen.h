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
// give them. Only timelines that may be mandatory for the opponent after the action have one:
// unless the action moves the present back, every board on the present (half-turn P) must be
// played for the present to pass, so the present after the action is at most P + 1; an active
// timeline has a copy only when its tip is the mover's on P (played, copied on P + 2) or the
// opponent's on P + 1; an inactive timeline of the opponent's side may be activated by the
// timelines the action creates (copied one half-turn past whatever its tip becomes), one of the
// mover's side never; and of the timelines the action may create, only as many as would be active
// (numbered beyond the existing ones on the mover's side, in any order), two half-turns past a
// board at or before P that a branching jump lands on. Where the opponent has created two
// timelines more or more, an action that creates one leaves the present no later than the board
// of their first inactive timeline (LatestPresentAfterBranching, core/rules.h): the copies of the
// boards of the opponent after that, on new or inactive timelines, are none.
// An action whose new (or newly active) timeline starts before P moves the present back, and may
// then end with boards on P unplayed: their pieces attack too, from P, onto the copies at or
// before P (the boards of the position they reach are quiet), and are searched as such.
// A copy holds its board's pieces and, on each square, whatever some move from, onto or across
// it could leave there (a vacated square may be empty, a target square may hold the piece that
// arrives, promoted or not, castling's rook and en passant's victim included); a new timeline's
// copy holds the union of every board a branch could start it from. A move of a royal piece that
// exposes a royal piece of the mover through boards it alone fixes is left out (no legal action
// holds it; a king stepping next to a king is the common case). A capture is then searched for
// with every square that may be empty counted as crossable and every square that may hold a
// piece counted as holding it. Finding none proves that no action gives check: the union covers
// every board of every action (combinations included: a line through a board one move creates
// and a piece another move places is a line of the union), so a real capture would be one of the
// union's.
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

// Screens the actions of pos.ToMove() whose pawns and brawns promote to pieces of `promotions`
// (the actions the legal search of the same promotions tries). Never fails; positions of any
// board size are accepted. Costs about one move generation of every
// board the mover may play plus a walk of the union's lines.
CheckScreen ScreenChecks(const Position& pos, PromotionSet promotions);

// "no check", "may check", "not applicable".
const char* CheckScreenName(CheckScreen screen);

}  // namespace fived

#endif  // FIVED_CORE_CHECK_SCREEN_H_
