// The walks over random games of tests/support/random_positions.h, held to the games read the
// long way (the whole collection's text, split, parsed and replayed with the replay's own state
// and move hooks): the same games in order, the same positions with the same action numbers,
// the same moves; and the error of a bad collection, before any game.
#include "tests/support/random_positions.h"

#include <gtest/gtest.h>

#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "core/game_splitter.h"
#include "core/pgn_syntax.h"
#include "core/replay.h"
#include "tests/support/random_game.h"

namespace fived {
namespace {

constexpr int kGames = 12;

CollectionOptions Options() {
  CollectionOptions options;
  options.seed = 3;
  options.min_actions = 4;
  options.max_actions = 20;
  options.jump_bias = 0.5;
  return options;
}

// What the long way gives: per game, its final position's MD5 and the MD5 of each state the
// replay reports (the start, then after each action); and every move with the state before it.
struct LongWay {
  std::vector<std::string> finals;
  std::vector<std::tuple<int, size_t, std::string>> states;  // game, action, MD5
  std::vector<std::pair<std::string, Move>> moves;
};

LongWay ReadTheLongWay() {
  LongWay out;
  std::istringstream in(GenerateCollection(kGames, Options()));
  GameSplitter splitter(in);
  int game = 0;
  while (std::optional<RawGame> raw = splitter.Next()) {
    const SyntaxResult syntax = ParseGameSyntax(raw->text, raw->first_line);
    EXPECT_TRUE(syntax.status.ok()) << raw->text;
    const ReplayOutcome outcome = ReplayGame(
        syntax.game,
        [&](int action, const Position& pos) {
          out.states.emplace_back(game, static_cast<size_t>(action), pos.StateMd5());
        },
        [&](const Position& pos, const Move& move) {
          out.moves.emplace_back(pos.StateMd5(), move);
        });
    EXPECT_TRUE(outcome.replayer && outcome.status.ok()) << raw->text;
    if (outcome.replayer) out.finals.push_back(outcome.replayer->position().StateMd5());
    ++game;
  }
  return out;
}

TEST(RandomPositions, GamesAreTheCollectionsInOrder) {
  const LongWay expected = ReadTheLongWay();
  ASSERT_EQ(expected.finals.size(), static_cast<size_t>(kGames));
  std::string texts;
  std::vector<int> indexes;
  std::vector<std::string> finals;
  EXPECT_EQ(ForEachRandomGame(Options(), kGames,
                              [&](const RandomGameReplay& game) {
                                indexes.push_back(game.index);
                                texts += game.text;
                                finals.push_back(game.replayer.position().StateMd5());
                              }),
            "");
  EXPECT_EQ(indexes, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
  EXPECT_EQ(texts, GenerateCollection(kGames, Options()));
  EXPECT_EQ(finals, expected.finals);
}

TEST(RandomPositions, PositionsAreTheReplaysStates) {
  const LongWay expected = ReadTheLongWay();
  std::vector<std::tuple<int, size_t, std::string>> states;
  int finals = 0, branched = 0;
  EXPECT_EQ(
      ForEachRandomPosition(Options(), kGames,
                            [&](const RandomGameReplay& game, const Position& pos, size_t action) {
                              states.emplace_back(game.index, action, pos.StateMd5());
                              if (action == game.replayer.actions().size()) {
                                ++finals;
                                EXPECT_EQ(pos.StateMd5(), game.replayer.position().StateMd5());
                              }
                              if (pos.timeline_count() > 1) ++branched;
                            }),
      "");
  EXPECT_EQ(states, expected.states);
  EXPECT_EQ(finals, kGames);
  // Not vacuous: the games are long enough and travel in time.
  EXPECT_GT(states.size(), static_cast<size_t>(kGames * 5));
  EXPECT_GT(branched, 10);
}

TEST(RandomPositions, MovesAreTheReplaysMoves) {
  const LongWay expected = ReadTheLongWay();
  std::vector<std::pair<std::string, Move>> moves;
  int jumps = 0;
  EXPECT_EQ(ForEachRandomMove(Options(), kGames,
                              [&](const Position& pos, const Move& move) {
                                moves.emplace_back(pos.StateMd5(), move);
                                jumps += move.IsJump();
                              }),
            "");
  EXPECT_EQ(moves, expected.moves);
  EXPECT_GT(moves.size(), expected.states.size());
  EXPECT_GT(jumps, 10);
}

TEST(RandomPositions, ABadCollectionIsAnErrorBeforeAnyGame) {
  CollectionOptions options = Options();
  options.variants = {"Standard", "Nonsense"};
  int calls = 0;
  EXPECT_EQ(ForEachRandomGame(options, kGames, [&](const RandomGameReplay&) { ++calls; }),
            "unknown variant \"Nonsense\"");
  EXPECT_EQ(
      ForEachRandomPosition(options, kGames,
                            [&](const RandomGameReplay&, const Position&, size_t) { ++calls; }),
      "unknown variant \"Nonsense\"");
  options = Options();
  options.min_actions = 20;
  options.max_actions = 10;
  EXPECT_EQ(ForEachRandomMove(options, kGames, [&](const Position&, const Move&) { ++calls; }),
            "action counts must satisfy 0 <= min <= max, got 20 and 10");
  EXPECT_EQ(calls, 0);
}

}  // namespace
}  // namespace fived
