// Verbose Matrix Notation of small games, each matrix worked out by hand from the game's moves:
// which boards each timeline has per turn, what left each of them, and the column order.
#include "core/vmn_writer.h"

#include <gtest/gtest.h>

#include "core/pgn_syntax.h"
#include "core/replay.h"

namespace fived {
namespace {

// The VMN of a game's text, replayed with the builder as its move hook.
std::string Vmn(const std::string& text) {
  SyntaxResult syntax = ParseGameSyntax(text);
  EXPECT_TRUE(syntax.status.ok());
  VmnBuilder vmn;
  ReplayOutcome outcome =
      ReplayGame(syntax.game, {},
                 [&](const Position& before, const Move& move) { vmn.AddMove(before, move); });
  EXPECT_TRUE(outcome.status.ok()) << outcome.status.message();
  if (!outcome.replayer) return "";
  return vmn.Finish(outcome.replayer->position());
}

TEST(Vmn, OneTimeline) {
  // Four actions: after black's Qh4 white's board of turn 3 is the tip, and black has no board
  // in turn 3. The widest cell sets the column's width.
  EXPECT_EQ(Vmn("1. f3 / e5\n2. g4 / Qh4\n"),
            " L[0     ]\n"
            "T1[f3/e5 ]\n"
            "T2[g4/Qh4]\n"
            "T3[-/0   ]\n");
}

TEST(Vmn, BranchesOfBothPlayers) {
  // Black's 4...Bd7>>(0T3)d6 makes -1 (its first board is white's of turn 4), white's
  // 5. Qh5>>x(0T3)f7 makes +1 (from black's board of turn 3), black's 7...Ng8>>(0T4)g6 makes -2
  // (from white's board of turn 5). The tips no move left: +1 and -1 at black's turn 5 (black
  // played on 0 only), -2 at black's turn 5 (the game ended), 0 at white's turn 6.
  const std::string game =
      "[Board \"Standard\"]\n"
      "1. (0T1)e3 / (0T1)d5\n"
      "2. (0T2)c3 / (0T2)Bd7\n"
      "3. (0T3)b3 / (0T3)a5\n"
      "4. (0T4)Qh5 / (0T4)Bd7>>(0T3)d6~\n"
      "5. (0T5)Qh5>>x(0T3)f7+~ / (1T3)Kxf7\n"
      "6. (-1T4)Qh5 (1T4)Qh5+ / (-1T4)Bg4 (1T4)Kf6\n"
      "7. (-1T5)Bb5+ (1T5)Qf7# / (0T5)Ng8>>(0T4)g6~\n"
      "8. (-2T5)Bd3 1-0\n";
  EXPECT_EQ(Vmn(game),
            " L[+1      | 0                          | -1      | -2   ]\n"
            "T1[0       | e3/d5                      | 0       | 0    ]\n"
            "T2[0       | c3/Bd7                     | 0       | 0    ]\n"
            "T3[0/Kxf7  | b3/a5                      | 0       | 0    ]\n"
            "T4[Qh5/Kf6 | Qh5/Bd7>>(0T3)d6           | Qh5/Bg4 | 0    ]\n"
            "T5[Qf7/-   | Qh5>>x(0T3)f7/Ng8>>(0T4)g6 | Bb5/-   | Bd3/-]\n"
            "T6[0       | -/0                        | 0       | 0    ]\n");
}

TEST(Vmn, EvenStartAndAJumpOntoATip) {
  // Two starting timelines, +0 left of -0. The rook's jump from -0 onto +0's tip does not
  // branch: the board it lands on shows where it came from, and both timelines go on.
  const std::string game =
      "[Board \"custom\"]\n"
      "[Size \"3x3\"]\n"
      "[2k/3/R1K:-0:1:w]\n"
      "[2k/3/2K:+0:1:w]\n"
      "1. (-0T1)Ra1>(+0T1)a1 / (-0T1)Kb3 (+0T1)Kb3\n";
  EXPECT_EQ(Vmn(game),
            " L[+0          | -0              ]\n"
            "T1[<(-0T1)/Kb3 | Ra1>(+0T1)a1/Kb3]\n"
            "T2[-/0         | -/0             ]\n");
}

}  // namespace
}  // namespace fived
