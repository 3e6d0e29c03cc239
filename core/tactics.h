// Mates in one: whether the player to move can end the game at once, with how many actions, and
// one of them; the ground the tactics of every game (found, missed and allowed mates) and the
// puzzles mined from them stand on.
//
// A mating action is a legal action (core/legal.h) after which the opponent is checkmated, as
// Decide (core/decide.h) proves it. Every claim is proved: a mate by Decide's proof of the
// checkmate after the action (the action itself is one the legal search produced), "no mate in
// one" only once every legal action was tried and none of them left the opponent checkmated.
// When a budget runs out first, the answer says what was found and that it is incomplete.
//
// The search tries every legal action, but decides only those after which the opponent is in
// check (a checkmate needs a check; InCheck is cheap next to Decide). Thread-safe: no state is
// kept between calls.
#ifndef FIVED_CORE_TACTICS_H_
#define FIVED_CORE_TACTICS_H_

#include <cstdint>
#include <vector>

#include "core/legal.h"
#include "core/movegen.h"
#include "core/position.h"

namespace fived {

struct MateInOne {
  enum class Answer : uint8_t {
    kMates,    // at least `mating` mating actions (all of them when `complete`)
    kNone,     // proved: no legal action mates
    kUnknown,  // no mate found, and not every action could be tried or decided
  };
  Answer answer = Answer::kUnknown;
  uint64_t mating = 0;         // mating actions found
  bool complete = false;       // every legal action was tried and decided: `mating` is exact
  std::vector<Move> solution;  // the first mating action found, in play order (kMates)
  uint64_t actions = 0;        // legal actions tried
  uint64_t undecided = 0;      // actions after which Decide ran out of its budget
  uint64_t work = 0;           // moves tried by the legal search and the decisions
};

struct MateInOneLimits {
  SearchLimits search;         // the legal actions' search: promotions, and its budget
  uint64_t reply_budget = 0;   // Decide's budget for each position after an action (0: none)
  bool stop_at_first = false;  // stop at the first mate (then `complete` is false when more
                               // actions remained)
};

// Looks for the mates in one of pos.ToMove().
MateInOne FindMateInOne(const Position& pos, const MateInOneLimits& limits);

// "mates", "none", "unknown".
const char* MateInOneAnswerName(MateInOne::Answer answer);

}  // namespace fived

#endif  // FIVED_CORE_TACTICS_H_
