// The versions proof (core/version_proof.h) held to plain enumeration on every position of random
// jump-heavy games, where the brute force's answer is computed independently (every action tried,
// every check decided): its "no mate" for every action, as the mate search asks it; its "no mate"
// for the actions that create no timeline, held to each of those actions; and the mates it
// reports, replayed and decided.
#include "core/version_proof.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "core/action.h"
#include "core/branch_escape.h"
#include "core/decide.h"
#include "core/legal.h"
#include "core/rules.h"
#include "core/tactics.h"
#include "tests/core/game_util.h"
#include "tests/core/proof_check.h"

namespace fived {
namespace {

using testing::JumpHeavyGames;

// How many timelines more the opponent has created than the player to move.
int Ahead(const Position& pos) {
  return pos.CreatedBy(Opponent(pos.ToMove())) - pos.CreatedBy(pos.ToMove());
}

TEST(VersionProof, AReplyThatBranchesMayActivateATimelineTheActionCreated) {
  // Black has created one timeline more. Their mate jumps back from their one mandatory board
  // and creates an inactive timeline; the worst position (that board's version alone) lets
  // white escape only by a branch, which after the real action also activates black's new
  // timeline, whose first board, white's, lies earlier: white must play it too, and is mated
  // (no move of white on that board answers). Found by the proof's first version, which took
  // any legal reply of white.
  const testing::Game game = testing::Play(
      "[Board \"Misc - Royal Queen Showdown\"]\n"
      "1. (0T1)Yc1 / (0T1)Yd5\n"
      "2. (0T2)Ya3 / (0T2)Ye5\n"
      "3. (0T3)Ya3>>(0T1)c1 / (+1T1)Ye6>>(0T1)d6\n"
      "4. (+1T2)Yb5 (-1T2)Yf1 / (-1T2)Ye6>(+1T2)e4 (0T3)Ya1\n"
      "5. (-1T3)Yc1 (+1T3)Ya6 / (+1T3)Yf5 (-1T3)Yd6>>(0T2)e5\n"
      "6. (-2T3)Yb4\n",
      2000);
  ASSERT_EQ(Ahead(game.pos), -1);
  // Every legal action of white on that worst position is tried: none answers.
  const VersionProof proof = ProveNoMateByVersions(game.pos, game.limits.promotions, 0, 0);
  EXPECT_FALSE(proof.proved);
  EXPECT_EQ(proof.stop, VersionProof::Stop::kReplyBranches);
  const MateInOne reference = testing::BruteForce(game.pos, game.limits);
  EXPECT_EQ(reference.answer, MateInOne::Answer::kMates);
}

TEST(VersionProof, AReplyThatBranchesMayActivateATimelineWhoseTipTheActionPlayed) {
  // White has created five timelines, black two. White's mate plays the tip of its fourth
  // timeline, inactive (T3), among the mandatory boards. On the worst position of its versions
  // black's only answer is the king's branch (-1T9)Ke8>>(-2T8)e7, which activates white's fourth
  // timeline: there its tip is unplayed, and the present after the branch is that very board,
  // white's; after the real action that timeline's tip is black's (T3, black to move), and the
  // branch leaves black to move. The present read without that tip is what decides, not a bound
  // the present may equal. Found by a first version of the refined bound, which read it so.
  const std::string game =
      "[Board \"Standard - Turn Zero\"]\n"
      "1. (0T1)e3 / (0T1)Ng8>>(0T0)g6\n"
      "2. (-1T1)Ng1>>(0T1)g3 / (-1T1)d5 (+1T1)Ng8>>(0T1)g6\n"
      "3. (0T2)h4 (+1T2)Nf3 (-2T2)a3 (-1T2)e4 / (0T2)Qd8>(-1T2)d7 (-2T2)e6 (+1T2)b5\n"
      "4. (-1T3)h3 (-2T3)Ng1>>(-1T3)g3 (0T3)Pe3>>(-1T3)e3 (+1T3)Qd1>>(0T2)e2 / (-2T3)Ng6>(-1T3)e6 "
      "(+3T3)Ng6>(+1T3)h6 (0T3)d6 (+2T3)Qg4\n"
      "5. (0T4)g4 (+1T4)d4 (+2T4)b4 (+3T4)g3 (-1T4)c3 (-2T4)Ke2 / (-1T4)h6 (0T4)Na6 (-2T4)h6 "
      "(+3T4)a6 (+2T4)Qh4 (+1T4)Bb7\n"
      "6. (+1T5)Ne5 (+3T5)Qe2 (+2T5)a3 (-2T5)c3 (-1T5)a3 (0T5)Bb5 / (-1T5)Nf6 (+3T5)Qd8>(-2T5)d3 "
      "(+2T5)Na6 (+1T5)Rg8 (0T5)Kd8\n"
      "7. (-1T6)h4 (+3T6)h4 (-2T6)Kxd3 (+1T6)Ke1>>(+1T5)d1 (0T6)Bc4 (+2T6)Ke2 / (-1T6)Rh7 "
      "(+2T6)Qd6 (+3T6)dxe4 (-2T6)f6 (+1T6)b4 (0T6)Nb4\n"
      "8. (+1T7)Ne5>(+2T7)c5 (-2T7)Qc2 (0T7)Bc4>(-1T7)d4 (+3T7)Qb5 / (0T7)Nb4>(+2T7)b3 "
      "(-1T7)Qd8>(+1T7)d6 (+3T7)c5 (-2T7)d5 (+5T5)Ng4 (+4T2)b6\n"
      "9. (-1T8)Qb3 (+3T8)Bh3 (+2T8)d4 (0T8)d3 (+1T8)d5 (-2T8)Ke2 (+5T6)Kdd2 / (-2T8)Nc6 "
      "(0T8)Rh8>(+1T8)h8 (+2T8)Be6 (+3T8)h5 (-1T8)Qd6\n";
  const testing::Game before = testing::Play(game, 3000);
  ASSERT_EQ(Ahead(before.pos), -3);
  // The mate, replayed (the replay checks that it is a legal action) and decided.
  testing::Game after = testing::Play(
      game + "10. (-2T9)Qg6 (-1T9)Bb5 (0T9)Nd2 (+1T9)Nd2 (+2T9)Nxe6 (+3T9)Bxd7 (+4T3)Qb5\n");
  SearchLimits limits = after.limits;
  limits.budget = 100000;
  ASSERT_EQ(Decide(after.pos, limits).verdict, Decision::Verdict::kCheckmate);
  // At the mate search's budget (the refinement's first version claimed within it).
  EXPECT_FALSE(
      ProveNoMateByVersions(before.pos, before.limits.promotions, kVersionProofFactor * 2000, 2000)
          .proved);
}

TEST(VersionProof, BoxesAnswerManyCombinationsAtOnce) {
  // The claims where the proof built fewer worst positions than there are combinations (boxes
  // answered together: by their union, or by one branch of the opponent), held to the brute
  // force.
  int together = 0, by_branch = 0;
  const testing::ProofCheck check = testing::HoldToBruteForce(
      JumpHeavyGames(20261201), 60, [&](const Position& pos, PromotionSet promotions) {
        const int ahead = Ahead(pos);
        if (ahead > 0) return false;
        const VersionProof proof = ProveNoMateByVersions(pos, promotions, 20000, 3000);
        if (!proof.proved || static_cast<double>(proof.positions) >= proof.combinations) {
          return false;
        }
        ++together;
        by_branch += proof.box_branches > 0 ? 1 : 0;
        return true;
      });
  check.Print("the versions proof's boxes");
  std::printf("claims with boxes answered together %d, of which by one branch %d\n", together,
              by_branch);
  EXPECT_GT(check.proved_and_compared, 30);
  EXPECT_GT(check.checks_answered, 10);
  EXPECT_GT(by_branch, 5);
}

// The versions proof's claims (every action, the mover not behind in timelines) on the positions
// of `games` jump-heavy random games of `seed` where `counts` (what the proof did) is nonzero,
// held to the brute force with a larger budget than HoldToBruteForce's (these positions have many
// actions). Returns the claims, those searched completely and those among them with checks.
struct ClaimsHeld {
  int claims = 0, compared = 0, with_checks = 0;
};
ClaimsHeld HoldClaimsToBruteForce(const CollectionOptions& options, int games,
                                  const std::function<uint64_t(const VersionProof&)>& counts) {
  ClaimsHeld held;
  const std::string error = ForEachRandomPosition(
      options, games, [&](const RandomGameReplay& game, const Position& pos, size_t action) {
        if (Ahead(pos) > 0) return;
        SearchLimits limits;
        limits.promotions = PromotionChoices(game.replayer.setup(), pos);
        const VersionProof proof = ProveNoMateByVersions(pos, limits.promotions, 20000, 3000);
        if (!proof.proved || counts(proof) == 0) return;
        ++held.claims;
        limits.budget = 100000;
        const MateInOne reference = testing::BruteForce(pos, limits);
        EXPECT_EQ(reference.mating, 0u)
            << "game " << game.index + 1 << " before action " << action << ": " << pos.StateFen();
        if (!reference.complete) return;
        ++held.compared;
        if (reference.checking > 0) ++held.with_checks;
      });
  EXPECT_EQ(error, "");
  std::printf("claims %d, searched completely %d, with checks %d\n", held.claims, held.compared,
              held.with_checks);
  return held;
}

TEST(VersionProof, ABoxInCheckThroughoutIsAnsweredByOneActionOfTheOpponent) {
  // The claims where a box whose every combination leaves the opponent in check was answered by
  // one action of theirs, found on its first combination and read on the others as unions.
  const ClaimsHeld held = HoldClaimsToBruteForce(
      JumpHeavyGames(20261202), 150, [](const VersionProof& proof) { return proof.box_witnesses; });
  EXPECT_GT(held.compared, 10);
  EXPECT_GT(held.with_checks, 5);
}

TEST(VersionProof, AReplyThatActivatesABranchAnswersItOnItsBoard) {
  // The claims where a reply of the opponent that creates a timeline activated a branch of the
  // mover landing before the present it makes, and was shown to answer it by a move on that
  // branch's board.
  const ClaimsHeld held =
      HoldClaimsToBruteForce(JumpHeavyGames(20261203), 50,
                             [](const VersionProof& proof) { return proof.branches_answered; });
  EXPECT_GT(held.compared, 10);
  EXPECT_GT(held.with_checks, 5);
}

// Jump-heavy games on small boards, so that the brute force searches most positions completely.
CollectionOptions SmallBoardGames(uint64_t seed) {
  CollectionOptions options = JumpHeavyGames(seed);
  options.variants = {"Very Small - Open", "Very Small", "Focused - Just Kings"};
  options.max_actions = 40;
  options.max_timelines = 12;
  return options;
}

TEST(VersionProof, AWitnessThatBranchesOntoABoardItPlayedReadsItsWholeVersion) {
  // A box's witness that plays a used board, then jumps back onto it, starts its timeline on a
  // copy of that board's version: every square of it is read, and the box split until they agree
  // (builds with assertions play each combination of the small boxes; the first version of the
  // witness failed that here).
  const ClaimsHeld held =
      HoldClaimsToBruteForce(SmallBoardGames(20261204), 400,
                             [](const VersionProof& proof) { return proof.box_witnesses; });
  EXPECT_GT(held.compared, 50);
  EXPECT_GT(held.with_checks, 50);
}

TEST(VersionProof, AReplyThatActivatesATimelineWhoseTipAnActionMayPlayAnswersEachVersion) {
  // The claims where a reply of the opponent that creates a timeline activated one of the
  // mover's whose tip, on an inactive timeline before the present the reply makes, an action may
  // have played, and was shown to answer each board such an action leaves there by a move on it.
  const ClaimsHeld held =
      HoldClaimsToBruteForce(SmallBoardGames(20261205), 1500,
                             [](const VersionProof& proof) { return proof.played_tips_answered; });
  EXPECT_GT(held.compared, 10);
  EXPECT_GT(held.with_checks, 5);
}

TEST(VersionProof, NoMateHoldsForEveryAction) {
  // As FindMateInOne asks it: every action where the opponent has created no more timelines;
  // where they have created one more, the actions that create none, with the branch escape for
  // the others.
  int mover_ahead = 0, equal = 0, one_behind = 0;
  const testing::ProofCheck check = testing::HoldToBruteForce(
      JumpHeavyGames(20261130), 60, [&](const Position& pos, PromotionSet promotions) {
        const int ahead = Ahead(pos);
        bool proved = false;
        if (ahead <= 0) {
          proved = ProveNoMateByVersions(pos, promotions, 20000, 3000).proved;
        } else if (ahead == 1) {
          uint64_t work = 0;
          BranchEscape escape(pos, promotions, &work);
          proved = escape.ProveForBranchingActions() &&
                   ProveNoMateByVersions(pos, promotions, 20000, 3000, 0).proved;
        }
        if (proved) ++(ahead < 0 ? mover_ahead : ahead == 0 ? equal : one_behind);
        return proved;
      });
  check.Print("the versions proof");
  std::printf("proved with the mover ahead in timelines %d, as many %d, one behind %d\n",
              mover_ahead, equal, one_behind);
  // Not vacuous: claims of each kind, on positions searched to the end, with checks answered.
  EXPECT_GT(check.proved_and_compared, 100);
  EXPECT_GT(check.checks_answered, 20);
  EXPECT_GT(mover_ahead, 10);
  EXPECT_GT(equal, 10);
  EXPECT_GT(one_behind, 0);
}

TEST(VersionProof, NoMateAmongTheActionsThatCreateNoTimeline) {
  // Wherever the opponent has created more timelines, the proof for the actions that create
  // none is held to each of them: none may leave the opponent checkmated.
  int claims = 0, searched = 0, checks = 0, ahead_by_more = 0;
  const std::string error = ForEachRandomPosition(
      JumpHeavyGames(20261131), 60,
      [&](const RandomGameReplay& game, const Position& pos, size_t action) {
        const int ahead = Ahead(pos);
        if (ahead < 1) return;
        SearchLimits limits;
        limits.promotions = PromotionChoices(game.replayer.setup(), pos);
        limits.budget = 3000;
        if (!ProveNoMateByVersions(pos, limits.promotions, 20000, 3000, 0).proved) return;
        ++claims;
        ahead_by_more += ahead > 1 ? 1 : 0;
        const Color mover = pos.ToMove();
        const SearchStats stats =
            ForEachLegalAction(pos, limits, [&](const std::vector<Move>&, const Position& after) {
              if (after.CreatedBy(mover) != pos.CreatedBy(mover) || !InCheck(after)) return false;
              ++checks;
              EXPECT_NE(Decide(after, limits).verdict, Decision::Verdict::kCheckmate)
                  << "game " << game.index + 1 << " before action " << action << ": "
                  << pos.StateFen();
              return false;
            });
        if (stats.end == SearchEnd::kExhausted) ++searched;
      });
  EXPECT_EQ(error, "");
  std::printf(
      "the versions proof for the actions creating no timeline: %d claims (%d with the opponent "
      "two or more ahead), %d searched completely, %d checking actions decided\n",
      claims, ahead_by_more, searched, checks);
  EXPECT_GT(claims, 50);
  EXPECT_GT(ahead_by_more, 10);
  EXPECT_GT(searched, 30);
  EXPECT_GT(checks, 20);
}

TEST(VersionProof, TheMatesItReportsMate) {
  // A mate the proof reports (a worst position whose versions one action makes, checkmate) is a
  // legal action after which the opponent is checkmated, replayed here and decided again.
  int mates = 0, positions = 0;
  const std::string error = ForEachRandomPosition(
      JumpHeavyGames(20261130), 60,
      [&](const RandomGameReplay& game, const Position& pos, size_t action) {
        const int ahead = Ahead(pos);
        const PromotionSet promotions = PromotionChoices(game.replayer.setup(), pos);
        const VersionProof proof =
            ProveNoMateByVersions(pos, promotions, 20000, 3000, ahead <= 0 ? -1 : 0);
        ++positions;
        if (proof.mate.empty()) return;
        ++mates;
        EXPECT_FALSE(proof.proved);
        EXPECT_EQ(proof.stop, VersionProof::Stop::kMated);
        Position after = pos;
        for (const Move& move : proof.mate) ApplyMove(&after, move);
        EXPECT_NE(after.ToMove(), pos.ToMove());
        EXPECT_EQ(JudgeAction(after, pos.ToMove(), PromotingCapturesCount(after)).problem,
                  ActionVerdict::Problem::kNone);
        SearchLimits limits;
        limits.promotions = promotions;
        EXPECT_EQ(Decide(after, limits).verdict, Decision::Verdict::kCheckmate)
            << "game " << game.index + 1 << " before action " << action;
      });
  EXPECT_EQ(error, "");
  std::printf("%d positions, %d mates reported by the versions proof\n", positions, mates);
  EXPECT_GT(mates, 5);
}

}  // namespace
}  // namespace fived
