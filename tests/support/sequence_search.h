// The legal actions of a position by the slow, plain method that core/legal.h used before the
// hypercuboid enumeration replaced it, kept for tests to compare with: a depth-first search over
// move sequences, the state reached after each one judged as JudgeAction judges it.
//
// Actions are told apart by the state they lead to, as ForEachLegalAction tells them. What keeps
// the search exhaustive while it prunes:
// - Two physical moves on different boards commute (a physical move reads and writes its own
//   board only), so of two consecutive physical moves only the order with increasing source
//   timelines is tried: any sequence can be sorted that way by swapping neighbours.
// - A (state, constraint) pair already expanded is not expanded again.
// - Whether a royal piece of the mover is capturable never goes from true to false as the mover
//   adds moves: the attackers stand on the opponent's tips, which the mover cannot extend; the
//   boards they cross and the royal pieces they reach never change; new boards only open lines.
//   So a sequence that exposes a royal piece is abandoned with everything after it.
// Exponential in the number of boards the mover may play on (whole cuboids of failing points
// are tried one by one): for small positions only. Not thread-safe per call.
#ifndef FIVED_TESTS_SUPPORT_SEQUENCE_SEARCH_H_
#define FIVED_TESTS_SUPPORT_SEQUENCE_SEARCH_H_

#include "core/legal.h"

namespace fived {

// Calls visit(moves, after) once per legal action (per state reached), mandatory boards' moves
// first; stops when visit returns true or limits.budget moves were tried (0: no limit).
SearchStats ForEachActionBySequence(const Position& pos, const SearchLimits& limits,
                                    const ActionVisitor& visit);

// The number of legal actions by that search; capped when it stopped at `cap` (0: none) or
// at the budget.
ActionCount CountActionsBySequence(const Position& pos, const SearchLimits& limits, uint64_t cap);

}  // namespace fived

#endif  // FIVED_TESTS_SUPPORT_SEQUENCE_SEARCH_H_
