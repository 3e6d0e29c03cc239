// The check screen (core/check_screen.h) and the shortcuts of the mate-in-one search it serves
// (core/tactics.h), held to plain enumeration: on positions built by hand, and on every position
// of random legal games with time travel, where the screen's "no check" must agree with trying
// every action (none of them leaves the opponent in check), and the search with its shortcuts
// must give the answer and the count of mates the enumeration alone gives wherever that
// completes.
#include "core/check_screen.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "core/action.h"
#include "core/decide.h"
#include "core/legal.h"
#include "core/rules.h"
#include "core/tactics.h"
#include "tests/core/game_util.h"
#include "tests/core/proof_check.h"
#include "tests/support/random_game.h"
#include "tests/support/random_positions.h"

namespace fived {
namespace {

constexpr uint64_t kBudget = 2'000'000;

CheckScreen Screen(const testing::Game& game) {
  return ScreenChecks(game.pos, game.limits.promotions);
}

TEST(CheckScreen, HandBuiltPositions) {
  struct Case {
    const char* board;
    CheckScreen expected;
    const char* why;
  };
  // 5x5, white to move, black king e5.
  const Case cases[] = {
      {"[4k/5/5/5/K4:0:1:w]", CheckScreen::kNoCheck, "kings alone, far apart"},
      {"[4k/1R3/5/5/K4:0:1:w]", CheckScreen::kMayCheck, "Rb5+ and Re4+"},
      {"[4k/5/5/5/K3R:0:1:w]", CheckScreen::kNotApplicable, "Re1 already attacks e5"},
      // A knight on c2 cannot reach c4 or d3 (a knight's move from e5 on the board), but Ne3
      // checks through time: after black's pass, the knight on e3 of the T2 board goes two ranks
      // up and one turn back, onto e5 of the T1 board.
      {"[4k/5/5/2N2/K4:0:1:w]", CheckScreen::kMayCheck, "Ne3, through time"},
      // Only a discovered check: the white king on c5 steps off rank 5 (b4, c4), opening the a5
      // rook's line to e5; no move of the rook checks, nor does any square the king may reach.
      {"[R1K1k/5/5/5/5:0:1:w]", CheckScreen::kMayCheck, "discovered by the king"},
  };
  for (const Case& c : cases) {
    const testing::Game game = testing::Custom("5x5", {c.board}, kBudget);
    EXPECT_EQ(Screen(game), c.expected) << c.why;
    // Counted by trying every action.
    MateInOneLimits plain;
    plain.search = game.limits;
    plain.reply_budget = kBudget;
    plain.shortcuts = false;
    const MateInOne reference = FindMateInOne(game.pos, plain);
    ASSERT_TRUE(reference.complete) << c.why;
    if (c.expected == CheckScreen::kNoCheck) {
      EXPECT_EQ(reference.checking, 0u) << c.why;
    } else {
      EXPECT_GT(reference.checking, 0u) << c.why;
    }
  }
}

// 8x8, white to move, two timelines (every timeline of a custom game is initial, so white's first
// new timeline is active). L1's tip, at T2, is on the present: white king h8, rook a1 (boxed in
// by a black pawn a2 and knight b1), black king e5. L0's tip is ahead, at T3: white rook c3,
// black king f5; L0's board at T2 holds a white knight on a1 (no rook lands there) and its board
// at T1 the black king on a1. (0T3)Rc3>>(0T1)c3 branches into the past: the new timeline L2,
// active, starts at T1 with black to move, the present moves back there, and white's action may
// end with L1 unplayed. After black's pass on L2 the rook a1 of L1 captures the black king on a1
// of L2 one timeline up: a check from a board of the present the action left unplayed, the only
// check of the position, which the screen missed when it took every board of the present as
// played.
TEST(CheckScreen, ABranchIntoThePastLeavesTheBoardsOfThePresentUnplayed) {
  const testing::Game game = testing::Custom(
      "8x8",
      {"[7K/8/8/8/8/8/8/k7:0:1:w]", "[7K/8/8/4k3/8/8/8/8:0:1:b]", "[7K/8/8/4k3/8/8/8/N7:0:2:w]",
       "[7K/8/8/4k3/8/8/8/N7:0:2:b]", "[8/8/8/5k2/8/2R5/8/8:0:3:w]", "[7K/8/8/4k3/8/8/8/8:1:1:w]",
       "[7K/8/8/4k3/8/8/8/8:1:1:b]", "[7K/8/8/4k3/8/8/p7/Rn6:1:2:w]"},
      kBudget);
  std::vector<std::string> checking;
  ForEachLegalAction(game.pos, game.limits,
                     [&](const std::vector<Move>& moves, const Position& after) {
                       if (InCheck(after)) checking.push_back(testing::ActionText(game.pos, moves));
                       return false;
                     });
  ASSERT_EQ(checking.size(), 1u);
  EXPECT_EQ(checking[0], "(0T3)Rc3>>(0T1)c3");
  EXPECT_EQ(Screen(game), CheckScreen::kMayCheck);
}

// 6x6, found by random positions held to brute force (bench_shortcut_fuzz): after white's branch
// (0T4)Ka6>>(0T3)a6 black is to move on L0 (T4) and on L+1 (T3), a king on each. Played alone,
// (+1T3)Ka2>>(0T2)a2 makes black's first new timeline, L-1, where white can take its king: the
// screen left it out as a move no legal action holds. But after (0T4)Ka1>>(0T3)a1, which makes
// L-1, the same jump makes L-2 instead, its king is safe there, and the action checks (every
// checking action holds both branches). A branch's new timeline is numbered by the branches played
// before it.
TEST(CheckScreen, ABranchPlayedAfterAnotherIsNumberedFurtherOut) {
  const testing::Game game = testing::Custom(
      "6x6",
      {"[5K/1k4/6/6/4R1/6:0:1:w]", "[4rK/6/5k/6/6/6:0:1:b]", "[6/6/2k3/6/4Kr/6:0:2:w]",
       "[6/2K3/3b2/5R/6/k5:0:2:b]", "[6/K5/6/2R3/k5/6:0:3:w]"},
      kBudget, "1. (0T3)Ka6 / (0T3)Ka1\n2. (0T4)Ka6>>(0T3)a6\n");
  std::vector<std::string> checking;
  ForEachLegalAction(game.pos, game.limits,
                     [&](const std::vector<Move>& moves, const Position& after) {
                       if (InCheck(after)) checking.push_back(testing::ActionText(game.pos, moves));
                       return false;
                     });
  ASSERT_FALSE(checking.empty());
  EXPECT_EQ(checking[0], "(0T4)Ka1>>(0T3)a1 (+1T3)Ka2>>(0T2)a2");
  EXPECT_NE(Screen(game), CheckScreen::kNoCheck);
}

TEST(CheckScreen, NamesAreStable) {
  EXPECT_STREQ(CheckScreenName(CheckScreen::kNoCheck), "no check");
  EXPECT_STREQ(CheckScreenName(CheckScreen::kMayCheck), "may check");
  EXPECT_STREQ(CheckScreenName(CheckScreen::kNotApplicable), "not applicable");
}

// Every position of random legal games (time travel, up to four timelines), each searched by
// plain enumeration (shortcuts off) and with the shortcuts: the screen's kNoCheck must never
// meet an action that checks, and wherever the enumeration completes both searches must agree
// on the answer and on the number of mating actions; a mate from the targeted search must
// replay as a legal action after which Decide proves the checkmate.
TEST(CheckScreen, AgreesWithEnumerationOnRandomGames) {
  CollectionOptions options;
  options.seed = 20261127;
  options.min_actions = 4;
  options.max_actions = 14;
  options.jump_bias = 0.5;
  options.max_timelines = 4;
  constexpr int kGames = 40;
  int positions = 0, compared = 0, screened = 0, with_checks = 0, with_mates = 0, targeted = 0;
  const std::string error = ForEachRandomPosition(
      options, kGames, [&](const RandomGameReplay& game, const Position& pos, size_t action) {
        ++positions;
        const std::string where = "game " + std::to_string(game.index + 1) + " before action " +
                                  std::to_string(action) + ": " + pos.StateFen();
        MateInOneLimits plain;
        plain.search.promotions = PromotionChoices(game.replayer.setup(), pos);
        plain.search.budget = 3000;
        plain.reply_budget = 3000;
        plain.shortcuts = false;
        MateInOneLimits fast = plain;
        fast.shortcuts = true;
        const MateInOne reference = FindMateInOne(pos, plain);
        const CheckScreen screen = ScreenChecks(pos, plain.search.promotions);
        if (screen == CheckScreen::kNoCheck) {
          ++screened;
          // Among the actions tried (all of them when complete), none checks.
          EXPECT_EQ(reference.checking, 0u) << where;
          EXPECT_NE(reference.answer, MateInOne::Answer::kMates) << where;
        }
        const MateInOne found = FindMateInOne(pos, fast);
        if (reference.complete) {
          ++compared;
          if (reference.checking > 0) ++with_checks;
          if (reference.mating > 0) ++with_mates;
          EXPECT_EQ(found.answer, reference.answer) << where;
          if (found.complete) {
            EXPECT_EQ(found.mating, reference.mating) << where;
          }
        } else if (reference.mating > 0) {
          EXPECT_NE(found.answer, MateInOne::Answer::kNone) << where;
        }
        if (found.answer == MateInOne::Answer::kMates) {
          if (found.found_by_targeted_search) ++targeted;
          Position after = pos;
          for (const Move& move : found.solution) ApplyMove(&after, move);
          EXPECT_EQ(JudgeAction(after, pos.ToMove(), PromotingCapturesCount(after)).problem,
                    ActionVerdict::Problem::kNone)
              << where;
          EXPECT_EQ(Decide(after, plain.search).verdict, Decision::Verdict::kCheckmate) << where;
        }
      });
  ASSERT_EQ(error, "");
  std::printf(
      "%d positions, %d searched completely (%d with a checking action, %d with a mate), %d "
      "proved without a check by the screen, %d mates from the targeted search\n",
      positions, compared, with_checks, with_mates, screened, targeted);
  // Not vacuous: the screen proves some positions, and many others have checks and mates.
  EXPECT_GT(screened, 20);
  EXPECT_GT(with_checks, 50);
  EXPECT_GT(with_mates, 5);
}

// Where the opponent has created two timelines more or more, the screen leaves out the boards of
// the opponent, on new or inactive timelines, after the latest present an action creating a
// timeline can leave (LatestPresentAfterBranching, core/rules.h). On every position of jump-heavy
// random games where that bound lies before P + 1, its "no check" is held to every legal action:
// none may leave the opponent in check.
TEST(CheckScreen, LeavesOutOnlyBoardsNoBranchingActionPasses) {
  int bounded = 0, screened = 0, searched = 0, actions = 0, late_actions = 0;
  for (const CollectionOptions& options : testing::FarAheadCollections(20261129)) {
    const std::string error = ForEachRandomPosition(
        options, 200, [&](const RandomGameReplay& game, const Position& pos, size_t action) {
          if (LatestPresentAfterBranching(pos, 1) > pos.Present()) return;
          ++bounded;
          SearchLimits limits;
          limits.promotions = PromotionChoices(game.replayer.setup(), pos);
          limits.budget = 200000;
          if (ScreenChecks(pos, limits.promotions) != CheckScreen::kNoCheck) return;
          ++screened;
          const SearchStats stats =
              ForEachLegalAction(pos, limits, [&](const std::vector<Move>&, const Position& after) {
                ++actions;
                if (after.Present() < pos.Present()) ++late_actions;
                EXPECT_FALSE(InCheck(after)) << "game " << game.index + 1 << " before action "
                                             << action << ": " << pos.StateFen();
                return false;
              });
          if (stats.end == SearchEnd::kExhausted) ++searched;
        });
    EXPECT_EQ(error, "");
  }
  std::printf(
      "%d positions where the bound lies before P + 1, %d said no check, %d of them searched "
      "completely: %d actions tried (%d moving the present back)\n",
      bounded, screened, searched, actions, late_actions);
  // Not vacuous: the screen says no check where the bound holds, on positions searched to the end
  // with actions that move the present back.
  EXPECT_GT(screened, 20);
  EXPECT_GT(searched, 10);
  EXPECT_GT(late_actions, 1000);
}

}  // namespace
}  // namespace fived
