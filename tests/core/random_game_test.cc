// Random legal games: the same seed gives the same text; every game reads back through the
// syntax layer and the replay without an error, to the generator's final state, and is written
// canonically; the games really travel in time; lengths stay within the asked range.
#include "tests/support/random_game.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/pgn_syntax.h"
#include "core/pgn_writer.h"
#include "core/replay.h"
#include "core/variants.h"

namespace fived {
namespace {

TEST(GameRng, PinnedOutputs) {
  // splitmix64's first output for seed 0 is the published one; the xoshiro256** outputs are
  // pinned so that a collection made from a seed stays the same everywhere.
  EXPECT_EQ(MixSeed(0), 0xe220a8397b1dcdafULL);
  GameRng rng(0);
  EXPECT_EQ(rng.Next(), 0x99ec5f36cb75f2b4ULL);
  EXPECT_EQ(rng.Next(), 0xbf6e1f784956452aULL);
  EXPECT_EQ(rng.Next(), 0x1a5f849d4933e6e0ULL);
}

TEST(GameRng, BelowStaysInRange) {
  GameRng rng(42);
  std::vector<int> counts(7, 0);
  for (int i = 0; i < 7000; ++i) {
    const uint32_t value = rng.Below(7);
    ASSERT_LT(value, 7u);
    ++counts[value];
  }
  for (int count : counts) EXPECT_GT(count, 800);
}

TEST(RandomGame, SameSeedSameText) {
  CollectionOptions options;
  options.seed = 7;
  const std::string first = GenerateCollection(14, options);
  EXPECT_EQ(first, GenerateCollection(14, options));
  options.seed = 8;
  EXPECT_NE(first, GenerateCollection(14, options));

  // Game i does not depend on the games made before it (so --jobs cannot change the output).
  options.seed = 7;
  CollectionGenerator generator;
  ASSERT_EQ(generator.Init(options), "");
  std::string backwards;
  for (int i = 13; i >= 0; --i) backwards = generator.Game(i) + backwards;
  EXPECT_EQ(first, backwards);
}

TEST(RandomGame, InitErrors) {
  CollectionOptions options;
  options.variants = {"Standard", "Nonsense"};
  CollectionGenerator generator;
  EXPECT_EQ(generator.Init(options), "unknown variant \"Nonsense\"");
  options.variants = {"custom"};
  EXPECT_EQ(generator.Init(options), "unknown variant \"custom\"");
  options.variants = {};
  EXPECT_EQ(generator.Init(options), "no variant to play");
  options = CollectionOptions();
  options.min_actions = 20;
  options.max_actions = 10;
  EXPECT_EQ(generator.Init(options), "action counts must satisfy 0 <= min <= max, got 20 and 10");
  std::string error;
  EXPECT_EQ(GenerateCollection(3, options, &error), "");
  EXPECT_EQ(error, "action counts must satisfy 0 <= min <= max, got 20 and 10");
}

TEST(RandomGame, LenientVariantNamesAreWrittenCanonically) {
  CollectionOptions options;
  options.variants = {"princess"};
  CollectionGenerator generator;
  ASSERT_EQ(generator.Init(options), "");
  EXPECT_NE(generator.Game(0).find("[Board \"Standard - Princess\"]\n"), std::string::npos);
}

TEST(RandomGame, DefaultVariantsAreOfficial) {
  const std::vector<std::string> names = DefaultCollectionVariants();
  EXPECT_GE(names.size(), 9u);
  for (const std::string& name : names) {
    const Variant* variant = FindVariant(name);
    ASSERT_NE(variant, nullptr) << name;
    EXPECT_EQ(variant->name, name);
  }
}

TEST(RandomGame, ZeroLengthGame) {
  SyntaxGame syntax;
  syntax.headers.push_back(Header{"Board", "Standard", TextPos{}});
  auto setup = SetupGame(syntax);
  ASSERT_TRUE(setup.ok());
  RandomGameOptions options;
  options.min_actions = 0;
  options.max_actions = 0;
  std::optional<RandomGame> game = GenerateGame(setup.value(), options);
  ASSERT_TRUE(game.has_value());
  EXPECT_TRUE(game->actions.empty());
  EXPECT_EQ(game->final_position.StateMd5(), "d574889fd9da3f2bc65249ff27249b00");
}

// Per-variant tallies for the report.
struct Tally {
  int games = 0;
  int actions = 0;
  int short_games = 0;  // fewer than min_actions
  int max_timelines = 0;
};

TEST(RandomGame, GamesReplayToTheSameStatesAndTravelInTime) {
  CollectionOptions options;
  options.seed = 2024;
  CollectionGenerator generator;
  ASSERT_EQ(generator.Init(options), "");
  const int kGames = 15 * static_cast<int>(options.variants.size());

  int branching = 0, non_branching = 0, games_with_three_timelines = 0, in_range = 0;
  std::map<std::string, Tally> tallies;
  for (int i = 0; i < kGames; ++i) {
    RandomGame game;
    const std::string text = generator.Game(i, &game);
    const std::string& variant = options.variants[i % options.variants.size()];
    SCOPED_TRACE("game " + std::to_string(i) + " (" + variant + ")\n" + text);

    // Reads back: no syntax error, no replay error or warning, the same actions and final state.
    SyntaxResult syntax = ParseGameSyntax(text);
    ASSERT_TRUE(syntax.status.ok()) << syntax.status.place()->reason;
    ReplayOutcome outcome = ReplayGame(syntax.game);
    ASSERT_TRUE(outcome.status.ok()) << outcome.status.message();
    EXPECT_TRUE(outcome.warnings.empty());
    ASSERT_TRUE(outcome.replayer.has_value());
    const Replayer& replayer = *outcome.replayer;
    ASSERT_EQ(replayer.actions().size(), game.actions.size());
    EXPECT_EQ(replayer.position().StateMd5(), game.final_position.StateMd5());
    EXPECT_EQ(syntax.game.result, "*");
    ASSERT_NE(syntax.game.FindHeader("Board"), nullptr);
    EXPECT_EQ(syntax.game.FindHeader("Board")->value, variant);
    EXPECT_EQ(replayer.setup().variant, variant);

    // Canonical: writing the replayed game again gives the same bytes.
    std::vector<std::pair<std::string, std::string>> headers;
    for (const Header& header : syntax.game.headers)
      headers.emplace_back(header.name, header.value);
    EXPECT_EQ(WriteGame(headers, replayer.setup(), replayer.actions(), "*"), text);

    // Time travel and lengths.
    for (const PlayedAction& action : game.actions) {
      for (const PlayedMove& played : action.moves) {
        if (!played.move.IsJump()) continue;
        ++(played.effect.branching ? branching : non_branching);
      }
    }
    const int timelines = game.final_position.timeline_count();
    const int actions = static_cast<int>(game.actions.size());
    if (timelines >= 3) ++games_with_three_timelines;
    EXPECT_LE(actions, options.max_actions);
    EXPECT_LE(actions, game.target_actions);
    EXPECT_GE(game.target_actions, options.min_actions);
    EXPECT_LE(game.target_actions, options.max_actions);
    if (actions >= options.min_actions) ++in_range;

    Tally& tally = tallies[variant];
    ++tally.games;
    tally.actions += actions;
    tally.short_games += actions < options.min_actions;
    tally.max_timelines = std::max(tally.max_timelines, timelines);
  }

  EXPECT_GT(branching, kGames);
  EXPECT_GT(non_branching, kGames / 4);
  EXPECT_GT(games_with_three_timelines, kGames / 2);
  // Games shorter than min_actions end in a position where no legal action was found, after
  // every retry; they are rare.
  EXPECT_GE(in_range, kGames * 95 / 100);

  std::printf(
      "random games: %d, %d in [%d, %d] actions, %d with >= 3 timelines, jumps: %d "
      "branching, %d non-branching\n",
      kGames, in_range, options.min_actions, options.max_actions, games_with_three_timelines,
      branching, non_branching);
  for (const auto& [name, tally] : tallies) {
    std::printf("  %-30s %2d games, %5.1f actions on average, %d short, up to %d timelines\n",
                name.c_str(), tally.games, static_cast<double>(tally.actions) / tally.games,
                tally.short_games, tally.max_timelines);
  }
}

// Custom starts (gen_games --custom, for the differential against ftxi on 5DFEN boards): each
// game its own legal 8x8 board, written as a custom game that reads back to the same state, the
// same board for the same seed, and kings where the rules allow them.
TEST(RandomGame, CustomBoardsReadBackAndDiffer) {
  CollectionOptions options;
  options.seed = 77;
  options.min_actions = 2;
  options.max_actions = 8;
  options.custom_boards = true;
  CollectionGenerator generator;
  ASSERT_EQ(generator.Init(options), "");
  std::set<std::string> boards;
  int with_actions = 0;
  for (int i = 0; i < 40; ++i) {
    RandomGame game;
    const std::string text = generator.Game(i, &game);
    SCOPED_TRACE("game " + std::to_string(i) + "\n" + text);
    SyntaxResult syntax = ParseGameSyntax(text);
    ASSERT_TRUE(syntax.status.ok()) << syntax.status.place()->reason;
    ASSERT_NE(syntax.game.FindHeader("Board"), nullptr);
    EXPECT_EQ(syntax.game.FindHeader("Board")->value, "custom");
    ASSERT_NE(syntax.game.FindHeader("Promotions"), nullptr);
    EXPECT_EQ(syntax.game.FindHeader("Promotions")->value, "Q");
    ReplayOutcome outcome = ReplayGame(syntax.game);
    ASSERT_TRUE(outcome.status.ok()) << outcome.status.message();
    ASSERT_TRUE(outcome.replayer.has_value());
    EXPECT_EQ(outcome.replayer->position().StateMd5(), game.final_position.StateMd5());
    const Position& start = outcome.replayer->setup().start;
    EXPECT_EQ(start.width(), 8);
    EXPECT_EQ(start.height(), 8);
    EXPECT_EQ(start.ToMove(), Color::kWhite);
    // One king each, never side by side.
    const Board& board = start.Tip(0);
    std::vector<Square> kings[2];
    for (int rank = 0; rank < 8; ++rank) {
      for (int file = 0; file < 8; ++file) {
        const Piece piece = board.at(file, rank);
        if (!piece.empty() && piece.type() == PieceType::kKing) {
          kings[static_cast<int>(piece.color())].push_back(
              Square{static_cast<int8_t>(file), static_cast<int8_t>(rank)});
        }
        // No pawn on the first or last rank.
        if (!piece.empty() && piece.type() == PieceType::kPawn) {
          EXPECT_NE(rank, 0);
          EXPECT_NE(rank, 7);
        }
      }
    }
    ASSERT_EQ(kings[0].size(), 1u);
    ASSERT_EQ(kings[1].size(), 1u);
    EXPECT_FALSE(std::abs(kings[0][0].file - kings[1][0].file) <= 1 &&
                 std::abs(kings[0][0].rank - kings[1][0].rank) <= 1);
    boards.insert(start.StateMd5());
    with_actions += game.actions.empty() ? 0 : 1;
    // The same seed, the same board.
    EXPECT_EQ(RandomCustomBoard(1000 + i), RandomCustomBoard(1000 + i));
  }
  EXPECT_EQ(boards.size(), 40u);
  EXPECT_GE(with_actions, 36);
}

// gen_games --promotions: every game gets the header, and its pawns promote to those pieces only;
// a letter no piece has is an error of Init.
TEST(RandomGame, PromotionsHeader) {
  CollectionOptions options;
  options.seed = 5;
  options.min_actions = 20;
  options.max_actions = 40;
  options.variants = {"Very Small - Open"};
  options.promotions = "Q";
  CollectionGenerator generator;
  ASSERT_EQ(generator.Init(options), "");
  int promotions = 0;
  for (int i = 0; i < 40; ++i) {
    RandomGame game;
    const std::string text = generator.Game(i, &game);
    SCOPED_TRACE(text);
    const SyntaxResult syntax = ParseGameSyntax(text);
    ASSERT_TRUE(syntax.status.ok());
    ASSERT_NE(syntax.game.FindHeader("Promotions"), nullptr);
    EXPECT_EQ(syntax.game.FindHeader("Promotions")->value, "Q");
    EXPECT_TRUE(ReplayGame(syntax.game).status.ok());
    for (const PlayedAction& action : game.actions) {
      for (const PlayedMove& played : action.moves) {
        if (played.move.promotion == PieceType::kNone) continue;
        ++promotions;
        EXPECT_EQ(played.move.promotion, PieceType::kQueen);
      }
    }
  }
  EXPECT_GT(promotions, 0);  // pawns reach the last rank of a 4x4 board often
  options.promotions = "X";
  EXPECT_NE(generator.Init(options), "");
}

TEST(RandomGame, JumpBiasZeroJumpsOnlyWhenNothingElseWill) {
  // Without the bias, a jump is played only when no physical move of its board is safe.
  CollectionOptions options;
  options.variants = {"Standard"};
  options.jump_bias = 0;
  CollectionGenerator generator;
  ASSERT_EQ(generator.Init(options), "");
  int moves = 0, jumps = 0;
  for (int i = 0; i < 5; ++i) {
    RandomGame game;
    generator.Game(i, &game);
    for (const PlayedAction& action : game.actions) {
      for (const PlayedMove& played : action.moves) {
        ++moves;
        jumps += played.move.IsJump();
      }
    }
  }
  EXPECT_GT(moves, 50);
  EXPECT_LT(jumps * 20, moves);
}

TEST(RandomGame, MaxTimelinesStopsBranching) {
  CollectionOptions options;
  options.variants = {"Standard", "Misc - Timeline Battlegrounds"};
  options.max_timelines = 4;
  CollectionGenerator generator;
  ASSERT_EQ(generator.Init(options), "");
  for (int i = 0; i < 8; ++i) {
    RandomGame game;
    generator.Game(i, &game);
    EXPECT_LE(game.final_position.timeline_count(), 4);
  }
}

}  // namespace
}  // namespace fived
