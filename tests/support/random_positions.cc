// Makes, parses and replays the games of a random collection for the walks of
// random_positions.h.
#include "tests/support/random_positions.h"

#include <string>
#include <utility>
#include <vector>

#include "core/action.h"
#include "core/pgn_syntax.h"

namespace fived {
namespace {

// Makes and replays each game, passing on_move to the replay and then the replayed game to
// on_game (either may be empty). Returns "" or the first error, as the header says.
std::string ReplayRandomGames(const CollectionOptions& options, int games,
                              const std::function<void(const Position&, const Move&)>& on_move,
                              const std::function<void(const RandomGameReplay&)>& on_game) {
  CollectionGenerator generator;
  if (std::string error = generator.Init(options); !error.empty()) return error;
  for (int i = 0; i < games; ++i) {
    const std::string text = generator.Game(i);
    const auto failed = [&](const std::string& what) {
      return "game " + std::to_string(i) + " (seed " + std::to_string(options.seed) + "): " + what +
             "\n" + text;
    };
    const SyntaxResult syntax = ParseGameSyntax(text, 1);
    if (!syntax.status.ok()) return failed("syntax: " + syntax.status.message());
    const ReplayOutcome outcome = ReplayGame(syntax.game, nullptr, on_move);
    if (!outcome.replayer) return failed("no setup: " + outcome.status.message());
    if (!outcome.status.ok()) return failed("replay: " + outcome.status.message());
    if (on_game) on_game(RandomGameReplay{i, text, *outcome.replayer});
  }
  return "";
}

}  // namespace

std::string ForEachRandomGame(const CollectionOptions& options, int games,
                              const std::function<void(const RandomGameReplay& game)>& f) {
  return ReplayRandomGames(options, games, nullptr, f);
}

std::string ForEachRandomPosition(
    const CollectionOptions& options, int games,
    const std::function<void(const RandomGameReplay& game, const Position& position,
                             size_t action)>& f) {
  return ReplayRandomGames(options, games, nullptr, [&](const RandomGameReplay& game) {
    // Walked again from the start rather than collected during the replay, so that f sees the
    // whole replayer (the number of actions, the final position) at every position.
    const std::vector<PlayedAction>& actions = game.replayer.actions();
    Position pos = game.replayer.setup().start;
    for (size_t action = 0;; ++action) {
      f(game, pos, action);
      if (action == actions.size()) break;
      for (const PlayedMove& played : actions[action].moves) ApplyMove(&pos, played.move);
    }
  });
}

std::string ForEachRandomMove(
    const CollectionOptions& options, int games,
    const std::function<void(const Position& position, const Move& move)>& f) {
  return ReplayRandomGames(options, games, f, nullptr);
}

}  // namespace fived
