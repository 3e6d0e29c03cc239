// A game's final position and the limits its legal-action searches use, from 5dpgn text or from
// custom boards, and an action written as 5dpgn: shared by the tests of legal actions, verdicts
// and tactics.
#ifndef FIVED_TESTS_CORE_GAME_UTIL_H_
#define FIVED_TESTS_CORE_GAME_UTIL_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/action.h"
#include "core/legal.h"
#include "core/pgn_syntax.h"
#include "core/pgn_writer.h"
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
  if (!syntax.status.ok()) {
    ADD_FAILURE() << "syntax error: " << syntax.status.place()->reason;
    return out;
  }
  ReplayOutcome outcome = ReplayGame(syntax.game);
  if (!outcome.status.ok()) ADD_FAILURE() << outcome.status.message();
  if (!outcome.replayer) return out;
  out.pos = outcome.replayer->position();
  out.limits.promotions = PromotionChoices(outcome.replayer->setup(), out.pos);
  out.limits.budget = budget;
  return out;
}

// A custom game of `size` ("4x4") from its boards, one 5DFEN string each, and optional moves.
inline Game Custom(const std::string& size, const std::vector<std::string>& boards, uint64_t budget,
                   const std::string& moves = "") {
  std::string text = "[Board \"custom\"]\n[Size \"" + size + "\"]\n";
  for (const std::string& board : boards) text += board + "\n";
  return Play(text + moves, budget);
}

// An action as 5dpgn move texts (core/pgn_writer.h), as the tests have long named it.
using ::fived::ActionText;

}  // namespace fived::testing

#endif  // FIVED_TESTS_CORE_GAME_UTIL_H_
