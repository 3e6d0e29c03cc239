// A game's final position and the limits its legal-action searches use, from 5dpgn text: shared
// by the tests of legal actions and verdicts.
#ifndef FIVED_TESTS_CORE_GAME_UTIL_H_
#define FIVED_TESTS_CORE_GAME_UTIL_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "core/legal.h"
#include "core/pgn_syntax.h"
#include "core/replay.h"

namespace fived::testing {

// A game's position after its moves, and its rules.
struct Game {
  Position pos;
  SearchLimits limits;
};

// Replays `text` (failing the test on a syntax or replay error); the limits offer the game's
// promotion choices and `budget` moves (0: no limit).
inline Game Play(const std::string& text, uint64_t budget = 0) {
  Game out;
  SyntaxResult syntax = ParseGameSyntax(text);
  if (syntax.error) {
    ADD_FAILURE() << "syntax error: " << syntax.error->reason;
    return out;
  }
  ReplayOutcome outcome = ReplayGame(syntax.game);
  if (outcome.error) ADD_FAILURE() << outcome.error->Message();
  if (!outcome.replayer) return out;
  out.pos = outcome.replayer->position();
  out.limits.promotions = PromotionChoices(outcome.replayer->setup(), out.pos);
  out.limits.budget = budget;
  return out;
}

}  // namespace fived::testing

#endif  // FIVED_TESTS_CORE_GAME_UTIL_H_
