// The branch escape (core/branch_escape.h) held to plain enumeration: its "no mate" must never be
// said where trying every action finds a mate, on games where it once was (a timeline the reply
// activates), and on every position of random jump-heavy games, where the brute force's answer is
// computed independently (every action tried, every check decided); and it settles positions the
// reply proof cannot.
#include "core/branch_escape.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "core/decide.h"
#include "core/legal.h"
#include "core/reply_proof.h"
#include "core/rules.h"
#include "core/tactics.h"
#include "tests/core/game_util.h"
#include "tests/core/proof_check.h"

namespace fived {
namespace {

using testing::BruteForce;
using testing::JumpHeavyGames;

// Expects the brute force to search `game` completely and find more than 100 checking actions but
// no mate, the reply proof to fail and the escape to prove it; returns how many branches the
// escape answered on their own boards.
uint64_t ExpectEscapeWhereTheReplyProofFails(const testing::Game& game) {
  const MateInOne reference = BruteForce(game.pos, game.limits);
  EXPECT_TRUE(reference.complete);
  EXPECT_EQ(reference.answer, MateInOne::Answer::kNone);
  EXPECT_GT(reference.checking, 100u);
  EXPECT_NE(ProveNoMateByReplies(game.pos, game.limits.promotions).result,
            ReplyProof::Result::kNoMate);
  uint64_t work = 0, answered = 0;
  EXPECT_TRUE(ProveNoMateByBranchEscape(game.pos, game.limits.promotions, &work, &answered));
  return answered;
}

// Whether the escape proves the position.
bool Escapes(const testing::Game& game) {
  uint64_t work = 0;
  return ProveNoMateByBranchEscape(game.pos, game.limits.promotions, &work);
}

TEST(BranchEscape, AnswersEveryActionWhereTheReplyProofCannot) {
  // A random game of Focused - Just Unicorns (gen_games seed 9191, game 111), white to move on
  // three timelines after three turns: most of white's actions check, none mates. The reply proof
  // fails (a version of a board has no safe reply); black's king branching back onto an earlier
  // board answers every action at once, since the new timeline moves the present back.
  const testing::Game game = testing::Play(
      "[Board \"Focused - Just Unicorns\"]\n[Mode \"5D\"]\n"
      "1. (0T1)Ka2 / (0T1)Ke4\n"
      "2. (0T2)Ud1>>(0T1)e2 / (+1T1)Ud5>(0T2)e5\n"
      "3. (+1T2)Ue2>(0T3)d2 / (+1T2)Ke5>>(0T2)e5\n",
      2'000'000);
  ExpectEscapeWhereTheReplyProofFails(game);
  // And the search says so without enumerating.
  MateInOneLimits limits;
  limits.search = game.limits;
  limits.search.budget = 2000;
  limits.reply_budget = 2000;
  const MateInOne found = FindMateInOne(game.pos, limits);
  EXPECT_EQ(found.answer, MateInOne::Answer::kNone);
  EXPECT_TRUE(found.proved_by_branch);
  EXPECT_EQ(found.actions, 0u);
}

TEST(BranchEscape, AnswersABranchItsTimelineActivatesOnThatBranchsBoard) {
  // A random game of Misc - Royal Queen Showdown (the random-games test's collection below, game
  // 37), white to move after three turns: white has created one timeline, black one. Most
  // actions check, none mates, and the reply proof fails. Black's branch answers every action
  // but those whose first branch does not move the present back and whose second lands before
  // black's: black's new timeline activates that second one, whose first board is then on the
  // present, and black answers it there too.
  const testing::Game game = testing::Play(
      "[Board \"Misc - Royal Queen Showdown\"]\n[Mode \"5D\"]\n"
      "1. (0T1)Yb2 / (0T1)Yc6\n"
      "2. (0T2)Yb4 / (0T2)Yf3\n"
      "3. (0T3)Yb4>>(0T1)d2 / (+1T1)Ye6>>(0T2)d5\n",
      2'000'000);
  EXPECT_GT(ExpectEscapeWhereTheReplyProofFails(game), 0u);
}

TEST(BranchEscape, NeverWhereTheReplyActivatesAnEarlierBoard) {
  // A random game of Misc - Timeline Invasion (gen_games seed 4242, game 67), white to move:
  // white has created three timelines, black one, so white's timeline +3 (its tip on T4, far
  // behind the present) is inactive, and black's branch would make it active. An action that
  // plays it leaves a black board there on T4, before the board black's branch starts: the
  // present stays black's, and the branch is no answer. White mates that way; the escape once
  // said no mate here.
  const testing::Game game = testing::Play(
      "[Board \"Misc - Timeline Invasion\"]\n[Mode \"5D\"]\n"
      "1. (-0T1)c2 (+0T1)Nb3 / (-0T1)Na5>(+0T1)a3\n"
      "2. (-0T2)b2 (+0T2)c4 / (+0T2)Na3>>(+0T1)c3\n"
      "3. (-1T2)Nb3>>x(-0T2)b5 (+0T3)Nb3>>(+0T1)c3 / (+2T1)d3\n"
      "4. (+2T2)Nc3>>(+0T2)d3 / (+1T2)Kxb5 (-0T2)d2 (-1T2)Nc3>(+0T3)c3 (+2T2)c4\n"
      "5. (-1T3)Be1>(-0T3)e2 (+2T3)Kc1>(+1T3)c1 / (+1T3)d2 (+2T3)Pd3>x(+3T2)d3 (-1T3)d3 "
      "(-0T3)dxe1=Q\n"
      "6. (-1T4)e4 (+2T4)e3 (+1T4)exd2 (-0T4)d2 (+0T4)bxc3 (+3T3)e3 / (-1T4)a3 (+2T4)b3 "
      "(+0T4)a3 (+1T4)Be5>(-0T4)e3 (+3T3)e4\n"
      "7. (+1T5)Kc1>(+2T5)c1 (-1T5)Rd1>(-0T5)d1 (+0T5)d3 / (-0T5)Be3>x(+0T5)d3 (+2T5)bxc2 "
      "(-1T5)c4 (+1T5)b3\n"
      "8. (+2T6)Bb1>x(-0T6)b4 (-1T6)cxd3 (+1T6)c3 (+0T6)Rxd3 / (+2T6)cxd1=U "
      "(+0T6)Pa3>(+1T6)a3 (-0T6)Kc5>(-1T6)c5\n"
      "9. (-0T7)Bb4>x(-1T7)b5 (+1T7)Pa1>(+0T7)a1 (+2T7)b4 / (-0T7)Pa4>(+0T7)a4 "
      "(+1T7)Pa4>(+2T7)a4 (-1T7)Kxb5\n",
      200'000);
  MateInOneLimits plain;
  plain.search = game.limits;
  plain.reply_budget = game.limits.budget;
  plain.shortcuts = false;
  plain.stop_at_first = true;
  const MateInOne reference = FindMateInOne(game.pos, plain);
  ASSERT_GT(reference.mating, 0u);
  EXPECT_FALSE(Escapes(game)) << ActionText(game.pos, reference.solution);
}

TEST(BranchEscape, NeverContradictsEnumerationOnRandomGames) {
  const CollectionOptions options = JumpHeavyGames(20261128);
  int with_branches_answered = 0;
  const testing::ProofCheck check =
      testing::HoldToBruteForce(options, 60, [&](const Position& pos, PromotionSet promotions) {
        uint64_t work = 0, answered = 0;
        const bool proved = ProveNoMateByBranchEscape(pos, promotions, &work, &answered);
        if (answered > 0) ++with_branches_answered;
        return proved;
      });
  check.Print("the branch escape");
  std::printf("of which answering a branch its own timeline activates on its board: %d\n",
              with_branches_answered);
  // Not vacuous: mates are common, and the escape settles positions where checks exist, some of
  // them by answering a branch of the mover on its own board.
  EXPECT_GT(check.with_mates, 20);
  EXPECT_GT(check.proved_and_compared, 5);
  EXPECT_GT(check.checks_answered, 3);
  EXPECT_GT(with_branches_answered, 5);
}

TEST(BranchEscape, EachPartOfTheProofInPartsHoldsForItsActions) {
  // Where the opponent has created d timelines more, FindMateInOne proves "no mate" in two parts:
  // the escape for the actions that create d timelines or more (ProveForBranchingActions), the
  // reply proof for those that create fewer (created_at_most d - 1). Each part is held to every
  // action of its own kind, tried and decided: a mate among them where the part claims none
  // fails.
  const CollectionOptions options = JumpHeavyGames(20261129);
  int positions = 0, ahead_by_one = 0, ahead_by_more = 0, searched = 0, mates_compared = 0;
  int escape_claims = 0, reply_claims = 0, both = 0, branching_checks = 0, quiet_checks = 0;
  int in_parts = 0;  // of `both`, those FindMateInOne proved so
  const std::string error = ForEachRandomPosition(
      options, 80, [&](const RandomGameReplay& game, const Position& pos, size_t action) {
        ++positions;
        const Color mover = pos.ToMove();
        const int ahead = pos.CreatedBy(Opponent(mover)) - pos.CreatedBy(mover);
        if (ahead < 1) return;
        ++(ahead == 1 ? ahead_by_one : ahead_by_more);
        SearchLimits limits;
        limits.promotions = PromotionChoices(game.replayer.setup(), pos);
        limits.budget = 3000;
        uint64_t work = 0;
        BranchEscape escape(pos, limits.promotions, &work);
        const bool escape_claims_none = escape.ProveForBranchingActions();
        const bool reply_claims_none =
            ProveNoMateByReplies(pos, limits.promotions, &escape, ahead - 1).result ==
            ReplyProof::Result::kNoMate;
        escape_claims += escape_claims_none;
        reply_claims += reply_claims_none;
        both += escape_claims_none && reply_claims_none;
        if (escape_claims_none && reply_claims_none) {
          // The search proves it so where nothing before settles it (and never finds a mate).
          MateInOneLimits search;
          search.search = limits;
          search.search.budget = 2000;
          search.reply_budget = 2000;
          const MateInOne found = FindMateInOne(pos, search);
          EXPECT_EQ(found.answer, MateInOne::Answer::kNone) << pos.StateFen();
          in_parts += found.proved_in_parts;
        }
        if (!escape_claims_none && !reply_claims_none) return;
        const SearchStats stats =
            ForEachLegalAction(pos, limits, [&](const std::vector<Move>&, const Position& after) {
              if (!InCheck(after)) return false;
              const bool branches = after.CreatedBy(mover) >= pos.CreatedBy(mover) + ahead;
              ++(branches ? branching_checks : quiet_checks);
              if (branches ? !escape_claims_none : !reply_claims_none) return false;
              const Decision decision = Decide(after, limits);
              if (decision.verdict == Decision::Verdict::kCheckmate) ++mates_compared;
              EXPECT_NE(decision.verdict, Decision::Verdict::kCheckmate)
                  << "game " << game.index + 1 << " before action " << action << ": "
                  << (branches ? "an action that creates enough timelines"
                               : "one that creates fewer")
                  << " mates: " << pos.StateFen();
              return false;
            });
        if (stats.end == SearchEnd::kExhausted) ++searched;
      });
  EXPECT_EQ(error, "");
  std::printf(
      "%d positions, %d with the opponent one timeline ahead and %d more: the escape claimed "
      "%d, the reply proof for the actions creating fewer %d, both %d (FindMateInOne proved %d "
      "in parts); %d searched completely, checking actions tried %d creating enough timelines "
      "and %d creating fewer\n",
      positions, ahead_by_one, ahead_by_more, escape_claims, reply_claims, both, in_parts, searched,
      branching_checks, quiet_checks);
  EXPECT_EQ(mates_compared, 0);
  // Not vacuous: both parts claim, on positions searched to the end, with checks of both kinds.
  EXPECT_GT(escape_claims, 5);
  EXPECT_GT(reply_claims, 20);
  EXPECT_GT(searched, 10);
  EXPECT_GT(branching_checks, 20);
  EXPECT_GT(quiet_checks, 20);
  EXPECT_GT(in_parts, 0);
  EXPECT_GT(ahead_by_more, 20);
}

}  // namespace
}  // namespace fived
