// Legal actions of a position: enumerating and counting them, and the check test. Deciding
// whether the side to move is checkmated, stalemated or can play is core/decide.h.
//
// An action of the player to move (the mover, pos.ToMove()) is a sequence of moves, each from a
// tip of the mover's colour (any timeline, active or not; a board moved from gets a new board of
// the opponent's colour, so each board is moved from at most once), after which JudgeAction
// accepts it: the present has passed to the opponent and no royal piece of the mover can be
// captured by one opponent move. Actions are told apart by the state they lead to: two move
// sequences that reach the same state (the same physical moves in another order, or two branches
// that put the same piece on the same square of the same board, in either order) are one action,
// and the same moves in an order that numbers new timelines differently are two. Optional moves
// (on tips that are not mandatory) are part of actions, as in 5D engines' perft-style counts.
//
// Actions are enumerated by the hypercuboid search (core/hypercuboid.h), which cuts away whole
// blocks of failing move combinations at once and cuts each legal one away alone once visited;
// the states reached are kept in a set, so that each is visited once. Costs grow with the number
// of actions and of the blocks that fail; every search here takes a work budget, counted in moves
// tried (applied to the position), and says when it ran out.
// Not thread-safe per call site; the functions keep no state between calls.
#ifndef FIVED_CORE_LEGAL_H_
#define FIVED_CORE_LEGAL_H_

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "core/rules.h"

namespace fived {

// Whether the player to move (pos.ToMove()) is in check: if they passed, some opponent piece could
// capture a royal piece of theirs in one move. Passing means every mandatory board (an active
// timeline whose tip is the mover's and lies on the present) gets a copy of its tip as the
// opponent's next board; then every opponent piece on a tip of the opponent's colour is tried
// against every board of its colour it reaches, past boards included (RoyalCapturable, with a
// pawn's capture onto its last rank counted by PromotingCapturesCount). Tips of the mover's colour
// off the present or on inactive timelines are not passed: the mover need not play them, and the
// oracle's in-check flag agrees (passing them too disagreed on 52 of its 1494 final positions, this
// on 2). A position without royal pieces of the mover is never in check. The position is left
// unchanged (the passing boards are rolled back); it is taken by pointer only for that.
bool InCheck(Position* pos);
// InCheck's first step: the player to move passes, every mandatory board (a tip on the present on
// an active timeline) getting a copy of itself, without its en passant square, as the opponent's
// next board. Appended to *pos (roll back to undo).
void PassMandatoryBoards(Position* pos);
// The same on a copy.
bool InCheck(const Position& pos);

// Every capture InCheck looks for, rather than the first: each move by which an opponent piece
// could capture a royal piece of the player to move if they passed (the same passing, tips and
// promoting captures), generated forwards from each attacker by the move generator, where
// RoyalCapturable reads backwards from each royal piece. A pawn's capture onto its last rank is
// listed once, whatever it would become. Empty exactly when InCheck is false. Sorted by target
// board (timeline, half-turn), then source board and squares. The checks a picture draws, and
// the boards in check that "checks>=2" counts (docs/patterns.md).
std::vector<Move> Checks(const Position& pos);

// The number of boards a move of Checks(pos) lands on: the boards on which the player to move
// is in check.
int BoardsInCheck(std::span<const Move> checks);

// How a search ended.
enum class SearchEnd : uint8_t {
  kExhausted,    // every action was visited
  kStopped,      // the visitor asked to stop, or the cap was reached
  kOutOfBudget,  // the work budget ran out first: more actions may exist
};

struct SearchLimits {
  PromotionSet promotions;  // pieces a pawn or brawn may become (GameSetup::promotions)
  uint64_t budget = 0;      // moves tried before giving up; 0 for no limit
  // Moves to try first: each board's moves listed here come before its other moves in the
  // hypercuboid search's order, which changes the order of the actions visited (so which are met
  // before a budget runs out), never which actions exist. Empty: the move generator's order.
  // The moves must outlive the search.
  std::span<const Move> first;
};

struct SearchStats {
  SearchEnd end = SearchEnd::kExhausted;
  uint64_t actions = 0;  // distinct legal actions visited
  uint64_t work = 0;     // moves tried
};

// A visitor of legal actions: the action's moves in play order and the position after them, both
// valid only during the call; returns true to stop.
using ActionVisitor = std::function<bool(const std::vector<Move>& moves, const Position& after)>;

// Calls visit(moves, after) once per legal action of `pos`'s player to move (once per state
// reached): the action's moves in play order (the moves that create no timeline by source
// timeline, then the branching jumps in the order they create timelines; where two orders of
// branches reach one state, the one the search meets first), and the position after them (both
// valid only during the call). visit returns true to stop. Actions come in the hypercuboid
// search's order, stable for a given position and build; stats.actions counts the states visited.
SearchStats ForEachLegalAction(const Position& pos, const SearchLimits& limits,
                               const ActionVisitor& visit);

struct ActionCount {
  uint64_t count = 0;   // distinct legal actions found
  bool capped = false;  // the count stopped at the cap or the budget: a lower bound
};

// Counts the legal actions of the player to move, stopping at `cap` (0: no cap) or when the work
// budget of `limits` runs out; both make the count a lower bound (capped).
ActionCount CountActions(const Position& pos, const SearchLimits& limits, uint64_t cap);
// With every promotion piece allowed by `promotions` and no work budget.
ActionCount CountActions(const Position& pos, PromotionSet promotions, uint64_t cap);

}  // namespace fived

#endif  // FIVED_CORE_LEGAL_H_
