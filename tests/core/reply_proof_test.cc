// The reply proof (core/reply_proof.h) held to plain enumeration: its "no mate" must never be
// said where trying every action finds a mate, on positions built by hand where a mate exists (on
// one board, through time travel, across timelines), and on every position of random legal games
// with time travel, where the brute force's answer is computed independently (every action tried,
// every check decided).
#include "core/reply_proof.h"

#include <gtest/gtest.h>

#include <cstdio>
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
#include "tests/support/random_game.h"
#include "tests/support/random_positions.h"

namespace fived {
namespace {

using Result = ReplyProof::Result;

constexpr uint64_t kBudget = 2'000'000;

using testing::BruteForce;

// Expects the brute force to search `game` completely and find checking actions but no mate, and
// the proof to prove it; returns the proof. `what` names the position in failures.
ReplyProof ExpectProvedWhereChecksExist(const testing::Game& game, const std::string& what) {
  const MateInOne reference = BruteForce(game.pos, game.limits);
  EXPECT_TRUE(reference.complete) << what;
  EXPECT_EQ(reference.answer, MateInOne::Answer::kNone) << what;
  EXPECT_GT(reference.checking, 0u) << what;
  const ReplyProof proof = ProveNoMateByReplies(game.pos, game.limits.promotions);
  EXPECT_EQ(proof.result, Result::kNoMate) << what;
  return proof;
}

TEST(ReplyProof, NeverWhereAMateExists) {
  struct Case {
    const char* size;
    std::vector<std::string> boards;
    const char* why;
  };
  const Case cases[] = {
      // One board: Ra5 mates (the rook b4 holds rank 4); the reply to Ra5 has no safe move.
      {"5x5", {"[4k/1R3/R4/5/K4:0:1:w]"}, "a board with no safe reply"},
      // Through time: the black king e5 cannot leave rank 5 (rook a4 on rank 4); Ne3 attacks
      // e5 of the T1 board from the T2 board (two ranks up, one turn back), a king standing in
      // the past, which no move on the T2 board can take away unless it takes the knight.
      {"5x5", {"[4k/5/R4/2N2/K4:0:1:w]"}, "a mate through time travel"},
      // Across timelines: Rb5 checks the black king e5 of L0 along rank 5; its flight squares d4
      // and e4 of L0 are attacked from L1 (the rooks d4 and e4 move one timeline down), and so
      // are the squares of L1 it could step onto. The reply that steps away on its own board is
      // safe there, but not across boards.
      {"5x5", {"[4k/5/5/1R3/2K2:0:1:w]", "[5/3RR/5/5/k1K2:1:1:w]"}, "a mate across timelines"},
      // Two rooks, two mates on rank 8.
      {"8x8", {"[k7/8/1K6/8/8/8/6R1/7R:0:1:w]"}, "two mates"},
      // A reply across two boards taken away: Ra5 checks the black king e5 of L0, which has no
      // answer on L0 (rook b4 holds rank 4); the rook c5 of L1 could block on c5 of L0, and the
      // king could step onto L1, but Rcxc5 on L1 takes the rook and holds rank 5 of L1, and the
      // rook a4 of L1 rank 4. Ra5 with Rxc5 mates, though most versions of L1 keep the rook (and
      // every one leaves black a move on L1: the pawn e3).
      {"5x5",
       {"[4k/1R3/5/5/R1K2:0:1:w]", "[2r2/R4/4p/5/K1R2:1:1:w]"},
       "a reply across two boards that one version of the other board takes away"},
      // The same without the pawn: after Rxc5 black has no move on L1 either, and both boards
      // ask a reply across two boards; one move cannot answer both.
      {"5x5",
       {"[4k/1R3/5/5/R1K2:0:1:w]", "[2r2/R4/5/5/K1R2:1:1:w]"},
       "two boards that each ask the other for a reply"},
      // Found by random custom positions held to brute force: black to move, two timelines, L1's
      // tip (T3, black) on the present and L0's (T3, black) too. (0T3)Ka1>>(0T2)a1 branches into
      // the past: black's new timeline is active, the present moves back onto it, and black's
      // action ends there with L1 unplayed. Its rook b5 then attacks the white boards white must
      // play, and white has no legal action: a mate the proof denied while it took every board of
      // the present as played.
      {"6x6",
       {"[4k1/4K1/6/6/6/6:0:1:w]", "[3k2/1r4/6/K5/6/6:0:1:b]", "[6/6/1k4/6/3K2/6:0:2:w]",
        "[K5/1b4/6/2k3/5r/6:0:2:b]", "[6/4k1/6/6/2Kq1q/6:0:3:w]", "[6/K3P1/6/6/6/k5:0:3:b]",
        "[1k4/6/6/p5/K5/R5:1:1:w]", "[6/K5/1k4/6/6/r1K3:1:1:b]", "[6/4k1/6/2Q3/1K4/4B1:1:2:w]",
        "[Kk2R1/2R3/6/6/6/6:1:2:b]", "[6/2Q3/6/1K4/kr4/6:1:3:w]", "[4K1/1r4/6/6/6/k5:1:3:b]"},
       "a mate that leaves a board of the present unplayed"},
  };
  int with_mates = 0;
  for (const Case& c : cases) {
    const testing::Game game = testing::Custom(c.size, c.boards, kBudget);
    const MateInOne reference = BruteForce(game.pos, game.limits);
    EXPECT_TRUE(reference.complete) << c.why;
    if (reference.mating > 0) ++with_mates;
    const ReplyProof proof = ProveNoMateByReplies(game.pos, game.limits.promotions);
    if (reference.mating > 0) {
      EXPECT_NE(proof.result, Result::kNoMate) << c.why;
    }
  }
  // The positions do have mates (counted by brute force), so the assertions above bite.
  EXPECT_EQ(with_mates, 7);
}

TEST(ReplyProof, ProvesWhereEveryCheckHasAnAnswer) {
  // 5x5, white to move: black king e5, white rook b4, king a1. Rb5+ and Re4+ check, and the
  // king steps out of each (the brute force finds no mate): the proof settles it without
  // enumerating, where the check screen cannot (a check exists).
  const testing::Game game = testing::Custom("5x5", {"[4k/1R3/5/5/K4:0:1:w]"}, kBudget);
  const ReplyProof proof = ExpectProvedWhereChecksExist(game, "the position");
  EXPECT_GT(proof.versions, 5u);
}

TEST(ReplyProof, AnswersAcrossTwoBoards) {
  // 5x5, white to move on two timelines. L0: black king e5, white rooks b4 and a1, king c1; L1:
  // black rook c5, white king a1. After Ra5 the king e5 has no answer on L0 (d4 and e4 on rank 4,
  // d5 on rank 5), but black may play L1 and L0 with one move: the rook c5 of L1 blocks on c5 of
  // L0, or the king steps onto L1, and no move of white on L1 stops both (the brute force finds
  // no mate). The proof answers that version across the two boards.
  const testing::Game game =
      testing::Custom("5x5", {"[4k/1R3/5/5/R1K2:0:1:w]", "[2r2/5/5/5/K4:1:1:w]"}, kBudget);
  ExpectProvedWhereChecksExist(game, "the position");
}

TEST(ReplyProof, ANewTimelineHasOneBoardToAttackFrom) {
  // Focused - Just Unicorns, black to move: black pieces may jump back to boards of two earlier
  // times, each making the one new timeline black may activate, whose board after white's reply
  // is then at one time or the other, never both. A piece on it sees no other board of its own
  // timeline. Before that was ruled out, the rounds marked squares of one of those boards as
  // attacked from the other, and some version (the king's jump to T2) had no safe reply left.
  // Now the proof settles both positions (checks exist; the brute force finds no mate).
  const char* games[] = {
      "[Board \"Focused - Just Unicorns\"]\n[Mode \"5D\"]\n"
      "1. (0T1)Kb2 / (0T1)Ke4\n2. (0T2)Ka1 / (0T2)Kd4\n3. (0T3)Ka2\n",
      "[Board \"Focused - Just Unicorns\"]\n[Mode \"5D\"]\n"
      "1. (0T1)Kb2 / (0T1)Ke4\n2. (0T2)Ka3 / (0T2)Ke5\n3. (0T3)Kb2\n",
  };
  for (const char* text : games) {
    const testing::Game game = testing::Play(text, kBudget);
    ExpectProvedWhereChecksExist(game, text);
  }
}

TEST(ReplyProof, LaterRoundsSettleWhatTheFirstThreeCouldNot) {
  // Focused - Just Brawns, white to move on two timelines: 50 of the 142 actions check (the
  // brute force finds no mate). Each round's union still holds a capture across boards until the
  // fourth, whose replies keep the black king off every square the earlier rounds marked.
  const testing::Game game = testing::Play(
      "[Board \"Focused - Just Brawns\"]\n[Mode \"5D\"]\n"
      "1. (0T1)Wd3 / (0T1)Wc3\n"
      "2. (0T2)Ka1>>(0T1)b2 / (+1T1)Ke5>(0T2)d4\n"
      "3. (+1T2)Ka3 / (+1T2)Wd3\n"
      "4. (+1T3)Ka3>(0T3)a2 / (0T3)Kxd3 (+1T3)Wa3\n",
      kBudget);
  const ReplyProof proof = ExpectProvedWhereChecksExist(game, "the position");
  EXPECT_GE(proof.rounds, 4);
}

TEST(ReplyProof, CapturesAcrossTwoBoardsAPieceThatChecksAcrossBoards) {
  // 5x5, white to move on two timelines. L1: the black king a5, boxed in by its pawns a4, b4 and
  // b5, a black knight a3, the white king e1. L0: a white rook a1 and king c1, the black king e4.
  // Ra5 on L0 checks the king a5 of L1 along the timelines; nothing on L0 takes the rook and the
  // king cannot step aside, but the knight a3 of L1 takes it on L0 (one timeline down, two ranks
  // up), whatever white plays on L1 (the brute force finds no mate).
  const testing::Game game =
      testing::Custom("5x5", {"[5/4k/5/5/R1K2:0:1:w]", "[kp3/pp3/n4/5/4K:1:1:w]"}, kBudget);
  ExpectProvedWhereChecksExist(game, "the position");
}

TEST(ReplyProof, APairMoveLeavesItsOwnBoard) {
  // A random game of Misc - Timeline Marauders, black to move on six timelines: black mates (the
  // brute force, stopping at the first mate, finds one), and the L3 board of one action has no
  // reply of its own. A move that stays on the other board is no reply across two boards: taking
  // one (as the generator gives them alongside the moves onto the target board) proved "no mate".
  const testing::Game game = testing::Play(
      "[Board \"Misc - Timeline Marauders\"]\n[Mode \"5D\"]\n"
      "1. (0T1)Wc1>(-1T1)c1 (+1T1)Wb2>>(0T1)b2 / (-1T1)Rb5>(+1T1)b5 (0T1)We5>>(+1T1)e5 "
      "(+2T1)Wc4\n"
      "2. (0T2)We3 (+1T2)Rd1>(+2T2)d1 (-1T2)Wc2 (-2T2)Kc1>>(-1T2)d1 / (0T2)Wc5>(+1T2)c5 "
      "(+3T2)Wa3 (+2T2)Wa3 (-1T2)We4 (-2T2)We4\n"
      "3. (+1T3)Kd1 (-2T3)Rb1>(-1T3)b1 (0T3)We4 (+3T3)Kd1>(+2T3)c2\n",
      3000);
  MateInOneLimits plain;
  plain.search = game.limits;
  plain.reply_budget = game.limits.budget;
  plain.shortcuts = false;
  plain.stop_at_first = true;
  ASSERT_GT(FindMateInOne(game.pos, plain).mating, 0u);
  EXPECT_NE(ProveNoMateByReplies(game.pos, game.limits.promotions).result, Result::kNoMate);
}

TEST(ReplyProof, ABoardOfThePresentLeftUnplayedAttacksTheNewTimeline) {
  // The position of CheckScreen.ABranchIntoThePastLeavesTheBoardsOfThePresentUnplayed, with a black
  // pawn h7 on L0's board at T1: (0T3)Rc3>>(0T1)c3 makes L2 from that board, black to move, and
  // white's action may end there with L1's board at T2 unplayed, whose rook a1 then reaches a1 of
  // L2. Black's first reply there moves the pawn and keeps the king on a1: the union must hold that
  // capture, so that a second round moves the king (the brute force finds no mate). Taking L1 as
  // played, the proof stopped after one round on a reply white's rook could capture.
  const testing::Game game = testing::Custom(
      "8x8",
      {"[7K/7p/8/8/8/8/8/k7:0:1:w]", "[7K/8/8/4k3/8/8/8/8:0:1:b]", "[7K/8/8/4k3/8/8/8/N7:0:2:w]",
       "[7K/8/8/4k3/8/8/8/N7:0:2:b]", "[8/8/8/5k2/8/2R5/8/8:0:3:w]", "[7K/8/8/4k3/8/8/8/8:1:1:w]",
       "[7K/8/8/4k3/8/8/8/8:1:1:b]", "[7K/8/8/4k3/8/8/p7/Rn6:1:2:w]"},
      kBudget);
  const ReplyProof proof = ExpectProvedWhereChecksExist(game, "the position");
  EXPECT_GE(proof.rounds, 2);
}

TEST(ReplyProof, AnswersAVersionByTheBranchEscape) {
  // A random game of Misc - Timeline Invasion (seed 20261128 of the collection below with jumps
  // more likely, game 137), white to move after one turn: two versions of a board have no reply
  // on their own board, and black's branch into the past answers every action that makes them,
  // so they ask nothing of the other board. The escape alone does not prove the position (other
  // versions have no such branch), nor does the proof without it.
  const testing::Game game = testing::Play(
      "[Board \"Misc - Timeline Invasion\"]\n[Mode \"5D\"]\n"
      "1. (+0T1)Bb1>(-0T1)b2 / (-0T1)Pb4>(+0T1)b4\n",
      kBudget);
  const ReplyProof proof = ExpectProvedWhereChecksExist(game, "the position");
  EXPECT_GT(proof.escaped, 0u);
  uint64_t work = 0;
  EXPECT_FALSE(ProveNoMateByBranchEscape(game.pos, game.limits.promotions, &work));
}

TEST(ReplyProof, NotApplicableWhenARoyalIsAlreadyCapturable) {
  const testing::Game game = testing::Custom("5x5", {"[4k/5/5/5/K3R:0:1:w]"}, kBudget);
  EXPECT_EQ(ProveNoMateByReplies(game.pos, game.limits.promotions).result, Result::kNotApplicable);
}

TEST(ReplyProof, NamesAreStable) {
  EXPECT_STREQ(ReplyProofResultName(Result::kNoMate), "no mate");
  EXPECT_STREQ(ReplyProofResultName(Result::kNoSafeReply), "no safe reply");
  EXPECT_STREQ(ReplyProofResultName(Result::kCrossCapture), "cross capture");
  EXPECT_STREQ(ReplyProofResultName(Result::kNotApplicable), "not applicable");
}

TEST(ReplyProof, BoardAttackTableAgreesWithTheGenerator) {
  // Every square of every board of random games of every default variant (fairy pieces
  // included), for both colours: the table's answer against SquareAttackedOnBoard's walk of each
  // type's vectors.
  CollectionOptions options;
  options.seed = 7;
  options.min_actions = 8;
  options.max_actions = 16;
  long squares = 0, attacked = 0;
  const std::string error = ForEachRandomGame(options, 30, [&](const RandomGameReplay& game) {
    const Position& pos = game.replayer.position();
    pos.ForEachBoard([&](int timeline, int half, const Board& board) {
      for (int rank = 0; rank < board.height(); ++rank) {
        for (int file = 0; file < board.width(); ++file) {
          const Square square{static_cast<int8_t>(file), static_cast<int8_t>(rank)};
          for (Color color : {Color::kWhite, Color::kBlack}) {
            const bool expected = SquareAttackedOnBoard(board, square, color);
            ++squares;
            attacked += expected ? 1 : 0;
            ASSERT_EQ(reply_proof_internal::AttackedOnBoard(board, square, color), expected)
                << "L" << timeline << " half " << half << " square " << file << "," << rank;
          }
        }
      }
    });
  });
  ASSERT_EQ(error, "");
  EXPECT_GT(squares, 10000);
  EXPECT_GT(attacked, squares / 10);
}

TEST(ReplyProof, NeverContradictsEnumerationOnRandomGames) {
  CollectionOptions options;
  options.seed = 20261128;
  options.min_actions = 6;
  options.max_actions = 18;
  options.jump_bias = 0.5;
  options.max_timelines = 5;
  int with_escapes = 0;
  const testing::ProofCheck check =
      testing::HoldToBruteForce(options, 60, [&](const Position& pos, PromotionSet promotions) {
        const ReplyProof proof = ProveNoMateByReplies(pos, promotions);
        const bool proved = proof.result == Result::kNoMate;
        if (proved && proof.escaped > 0) ++with_escapes;
        return proved;
      });
  check.Print("the reply proof");
  std::printf("of which with versions answered by the branch escape: %d\n", with_escapes);
  // Not vacuous: mates are common, and the proof settles positions where checks exist.
  EXPECT_GT(check.with_mates, 20);
  EXPECT_GT(check.proved_and_compared, 20);
  EXPECT_GT(check.checks_answered, 10);
  EXPECT_GT(with_escapes, 3);
}

TEST(ReplyProof, EachKindOfBranchingActionHoldsForItsActions) {
  // Where the opponent has created two timelines more or more, every action that creates a
  // timeline leaves the present no later than the board of the opponent's first inactive
  // timeline (of the first j, for one that creates j or more), and the proof leaves out every
  // board of the opponent after that (created_at_least j; ProveNoMateByBranchingActions runs it
  // by kinds of action). Each claim, and each claim of the whole proof that left a late board
  // out, is held to every action of its kind, tried and decided: a mate among them where the
  // proof claims none fails.
  int positions = 0, ahead_by_two = 0, claims = 0, left_out = 0, searched = 0;
  int checks_decided = 0, late_checks_decided = 0, mates_compared = 0, branching_claims = 0;
  for (const CollectionOptions& options : testing::FarAheadCollections(20261129)) {
    const std::string error = ForEachRandomPosition(
        options, 100, [&](const RandomGameReplay& game, const Position& pos, size_t action) {
          ++positions;
          const Color mover = pos.ToMove();
          const int ahead = pos.CreatedBy(Opponent(mover)) - pos.CreatedBy(mover);
          if (ahead < 2) return;
          ++ahead_by_two;
          SearchLimits limits;
          limits.promotions = PromotionChoices(game.replayer.setup(), pos);
          limits.budget = 30000;
          // The kinds claimed: created_at_least j (at_most -1) or exactly j, and the whole
          // proof (j 0) where it left a late board out.
          struct Claim {
            int least;
            int most;
          };
          std::vector<Claim> claimed;
          for (int j = 0; j <= ahead; ++j) {
            for (const int most : {-1, j}) {
              if (j == 0 && most == 0) continue;
              const ReplyProof proof =
                  ProveNoMateByReplies(pos, limits.promotions, nullptr, most, j);
              if (proof.result != Result::kNoMate || (j == 0 && !proof.left_out_late)) continue;
              claimed.push_back({j, most});
              left_out += proof.left_out_late;
              branching_claims += j > 0;
            }
          }
          if (claimed.empty()) return;
          claims += static_cast<int>(claimed.size());
          const SearchStats stats =
              ForEachLegalAction(pos, limits, [&](const std::vector<Move>&, const Position& after) {
                const int created = after.CreatedBy(mover) - pos.CreatedBy(mover);
                bool asked = false;
                for (const Claim& claim : claimed) {
                  asked = asked ||
                          (created >= claim.least && (claim.most < 0 || created <= claim.most));
                }
                if (!asked || !InCheck(after)) return false;
                ++checks_decided;
                if (created > 0 && after.Present() < pos.Present()) ++late_checks_decided;
                const Decision decision = Decide(after, limits);
                if (decision.verdict == Decision::Verdict::kCheckmate) ++mates_compared;
                EXPECT_NE(decision.verdict, Decision::Verdict::kCheckmate)
                    << "game " << game.index + 1 << " before action " << action
                    << ": an action creating " << created << " timelines mates: " << pos.StateFen();
                return false;
              });
          if (stats.end == SearchEnd::kExhausted) ++searched;
        });
    EXPECT_EQ(error, "");
  }
  std::printf(
      "%d positions, %d with the opponent two timelines ahead or more: %d claims (%d for the "
      "branching actions alone, %d leaving a late board out), %d positions searched completely, "
      "%d checking actions decided (%d branching that moved the present back)\n",
      positions, ahead_by_two, claims, branching_claims, left_out, searched, checks_decided,
      late_checks_decided);
  EXPECT_EQ(mates_compared, 0);
  // Not vacuous: the kinds claim, late boards are left out, and checks of the kinds asked are
  // decided on positions searched to the end.
  EXPECT_GT(ahead_by_two, 50);
  EXPECT_GT(claims, 50);
  EXPECT_GT(left_out, 20);
  EXPECT_GT(branching_claims, 20);
  EXPECT_GT(searched, 20);
  EXPECT_GT(checks_decided, 20);
  EXPECT_GT(late_checks_decided, 5);
}

}  // namespace
}  // namespace fived
