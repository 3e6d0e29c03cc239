// Replaying written games: timeline numbering, the present and active timelines, promotion,
// castling and en passant through notation, exact error messages, and the canonical writer's
// round trip.
#include "core/replay.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/pgn_writer.h"
#include "tests/core/test_util.h"

namespace fived {
namespace {

struct Replayed {
  std::optional<Replayer> replayer;
  Status error;
  std::vector<Status> warnings;
};

Replayed Replay(const std::string& text) {
  SyntaxResult syntax = ParseGameSyntax(text);
  Replayed out;
  if (!syntax.status.ok()) {
    ADD_FAILURE() << "syntax error: " << syntax.status.place()->reason << " at "
                  << syntax.status.place()->token;
    return out;
  }
  ReplayOutcome outcome = ReplayGame(syntax.game);
  out.replayer = std::move(outcome.replayer);
  out.error = std::move(outcome.status);
  out.warnings = std::move(outcome.warnings);
  return out;
}

const Position& MustReplay(const Replayed& r) {
  EXPECT_TRUE(r.error.ok()) << r.error.message();
  EXPECT_TRUE(r.replayer.has_value());
  return r.replayer->position();
}

std::string ErrorOf(const std::string& text) {
  const Replayed r = Replay(text);
  EXPECT_FALSE(r.error.ok()) << text;
  return r.error.message();
}

std::vector<std::string> Labels(const Position& pos) {
  std::vector<std::string> out;
  for (int l = pos.min_timeline(); l <= pos.max_timeline(); ++l) {
    if (pos.HasTimeline(l)) out.push_back(pos.labeling().Label(l));
  }
  return out;
}

TEST(Replay, OddStartTimelineNumbering) {
  // White branches first (+1), then black (-1); the present moves back to T1 each time.
  Replayed r =
      Replay("[Board \"Standard\"]\n1. Nf3 / Nf6\n2. (0T2)Nf3>>(0T1)f5 / (1T1)Ng8>>(0T1)g6\n");
  const Position& pos = MustReplay(r);
  EXPECT_EQ(Labels(pos), (std::vector<std::string>{"-1", "0", "+1"}));
  EXPECT_EQ(pos.StartHalf(1), HalfTurn(1, Color::kBlack));
  EXPECT_EQ(pos.StartHalf(-1), HalfTurn(2, Color::kWhite));
  EXPECT_EQ(pos.ToMove(), Color::kWhite);
  EXPECT_EQ(pos.Present(), HalfTurn(2, Color::kWhite));
}

TEST(Replay, EvenStartTimelineNumbering) {
  // On -0/+0 starts white's first new timeline is +1 and black's is -1.
  Replayed r = Replay(
      "[Board \"Standard - Two Timelines\"]\n"
      "1. (-0T1)Nf3 (+0T1)Nf3 / (-0T1)Nf6 (+0T1)Nf6\n"
      "2. (+0T2)Nf3>>(+0T1)f5 (-0T2)e3 / (1T1)Ng8>>(+0T1)g6\n");
  const Position& pos = MustReplay(r);
  EXPECT_EQ(Labels(pos), (std::vector<std::string>{"-1", "-0", "+0", "+1"}));
  EXPECT_NE(pos.StateFen().find(":-1:2:w]"), std::string::npos);  // starts at T2 white
}

TEST(Replay, ThreeTimelineStartNumbering) {
  // Timeline Battlegrounds starts with -1, 0 and +1: new timelines are +2 and -2.
  Replayed r = Replay(
      "[Board \"Misc - Timeline Battlegrounds\"]\n"
      "1. (-1T1)a2 (0T1)a3 (1T1)a4 / (-1T1)b2 (0T1)b3 (1T1)b4\n"
      "2. (0T2)Nb1>>(0T1)b3 / (2T1)Nc5>>x(1T1)c3\n");
  const Position& pos = MustReplay(r);
  EXPECT_EQ(Labels(pos).front(), "-2");
  EXPECT_EQ(Labels(pos).back(), "+2");
}

TEST(Replay, ActiveTimelinesAndThePresent) {
  // White creates two timelines in a row: the second is inactive until black creates one, so
  // it does not hold the present back.
  Replayed r = Replay(
      "[Board \"Standard\"]\n1. Nf3 / Nf6\n2. (0T2)Nf3>>(0T1)f5 / (1T1)e6\n"
      "3. (1T2)Ng1>>(0T2)g3 / (0T2)e6 (1T2)e5\n");
  const Position& pos = MustReplay(r);
  ASSERT_TRUE(pos.HasTimeline(2));
  EXPECT_TRUE(pos.IsActive(1));
  EXPECT_FALSE(pos.IsActive(2));
  // Timeline 2's tip (T2 black) is earlier than the present, but it is inactive.
  EXPECT_EQ(pos.TipHalf(2), HalfTurn(2, Color::kBlack));
  EXPECT_EQ(pos.Present(), HalfTurn(3, Color::kWhite));
  EXPECT_EQ(pos.ToMove(), Color::kWhite);
}

TEST(Replay, TurnZero) {
  const Replayed pos_game = Replay("[Board \"Standard - Turn Zero\"]\n1. e3 / e6\n");
  const Position& pos = MustReplay(pos_game);
  EXPECT_EQ(pos.StartHalf(0), HalfTurn(0, Color::kBlack));
  EXPECT_EQ(pos.board_count(), 4u);
  // Black may branch onto the turn-zero board: a jump to (0T0) starts timeline -1 at T1 white.
  Replayed r = Replay("[Board \"Standard - Turn Zero\"]\n1. e3 / (0T1)Ng8>>(0T0)g6\n");
  const Position& branched = MustReplay(r);
  EXPECT_EQ(branched.StartHalf(-1), HalfTurn(1, Color::kWhite));
}

TEST(Replay, PromotionDefaultsAndHeader) {
  const std::string start = "[Board \"custom\"]\n[Size \"4x4\"]\n";
  // Without a letter a pawn becomes the default piece, a queen.
  const Replayed queen_game = Replay(start + "[k3/2P1/4/K3:0:1:w]\n1. c4\n");
  const Position& queen = MustReplay(queen_game);
  EXPECT_EQ(FenPieces(queen.Tip(0)), "k1Q1/4/4/K3");
  // Under-promotion is accepted.
  const Replayed knight_game = Replay(start + "[k3/2P1/4/K3:0:1:w]\n1. c4=N\n");
  const Position& knight = MustReplay(knight_game);
  EXPECT_EQ(FenPieces(knight.Tip(0)), "k1N1/4/4/K3");
  // A Promotions header limits the choice and its first piece is the default.
  EXPECT_EQ(ErrorOf(start + "[Promotions \"R,B\"]\n[k3/2P1/4/K3:0:1:w]\n1. c4=N\n"),
            "line 5, col 4: c4=N: promotion to N is not allowed in this game");
  const Replayed rook_game = Replay(start + "[Promotions \"R,B\"]\n[k3/2P1/4/K3:0:1:w]\n1. c4\n");
  const Position& rook = MustReplay(rook_game);
  EXPECT_EQ(FenPieces(rook.Tip(0)), "k1R1/4/4/K3");
}

TEST(Replay, CastlingAndEnPassantThroughNotation) {
  const Replayed castled_game =
      Replay("[Board \"Standard\"]\n1. e4 / e5\n2. Nf3 / Nc6\n3. Bc4 / Bc5\n4. O-O / Nf6\n");
  const Position& castled = MustReplay(castled_game);
  EXPECT_EQ(FenPieces(castled.Tip(0)).substr(FenPieces(castled.Tip(0)).rfind('/') + 1),
            "R*NBQ1RK1");
  const Replayed king_move_game = Replay(
      "[Board \"Standard\"]\n1. e4 / e5\n2. Nf3 / Nc6\n3. Bc4 / Bc5\n4. (0T4)Ke1(0T4)g1 / Nf6\n");
  const Position& king_move = MustReplay(king_move_game);
  EXPECT_EQ(king_move.StateMd5(), castled.StateMd5());
  const Replayed ep_game = Replay("[Board \"Standard\"]\n1. e4 / a6\n2. e5 / d5\n3. exd6\n");
  const Position& ep = MustReplay(ep_game);
  EXPECT_EQ(FenPieces(ep.Tip(0)),
            "r*nbqk*bnr*/1p*p*1p*p*p*p*/p2P4/8/8/8/P*P*P*P*1P*P*P*/R*NBQK*BNR*");
}

TEST(Replay, ErrorMessagesArePrecise) {
  struct Case {
    std::string text;
    std::string message;
  } cases[] = {
      {"[Board \"Standard\"]\n1. e4 / e5\n2. Nxe5 / Nf6\n",
       "line 3, col 4: Nxe5: no knight on board (0T2) can reach e5"},
      {"[Board \"Standard\"]\n1. e4 / e5\n2. (0T5)Nf3\n",
       "line 3, col 4: (0T5)Nf3: board (0T5) does not exist for white"},
      {"[Board \"Standard\"]\n1. e4 / e5\n2. (1T2)Nf3\n",
       "line 3, col 4: (1T2)Nf3: there is no timeline +1"},
      {"[Board \"Standard\"]\n1. e4 / e5\n2. (0T1)Nf3\n",
       "line 3, col 4: (0T1)Nf3: board (0T1) is not the last board of its timeline, white cannot "
       "move from it"},
      // (The queen on e4 could also reach back one turn to the king's old square e3 of T3; captures
      // on the attacker's own board are looked at first.)
      {"[Board \"Standard\"]\n1. f3 / e5\n2. Kf2 / Qh4\n3. Ke3 / Qe4\n4. Kd3\n",
       "line 5, col 4: Kd3: action leaves white's king on (0T4)d3 capturable from (0T4)e4"},
      {"[Board \"Nonsense\"]\n1. e4\n",
       "line 1, col 1: [Board \"Nonsense\"]: unknown variant \"Nonsense\""},
      {"[Board \"Standard\"]\n1. O-O\n",
       "line 2, col 4: O-O: castling O-O is not possible on board (0T1)"},
      {"[Board \"Standard\"]\n1. e9\n", "line 2, col 4: e9: square e9 is off the 8x8 board"},
      {"[Board \"Standard\"]\n1. nf3\n", "line 2, col 4: nf3: file n is off the 8x8 board"},
  };
  for (const Case& c : cases) EXPECT_EQ(ErrorOf(c.text), c.message) << c.text;
}

TEST(Replay, IncompleteActionIsAnErrorUnlessLast) {
  const std::string text =
      "[Board \"Standard\"]\n1. Nf3 / Nf6\n2. (0T2)Nf3>>(0T1)f5 / (1T1)e6\n"
      "3. (1T2)e3 / (0T2)e5 (1T2)e5\n";
  // After the branch (0T2) is black's board, so white's only mandatory board is (1T2).
  EXPECT_TRUE(Replay(text).error.ok());
  const std::string incomplete =
      "[Board \"Standard - Two Timelines\"]\n1. (-0T1)e3 / (-0T1)e6 (+0T1)e6\n";
  EXPECT_EQ(ErrorOf(incomplete),
            "line 2, col 4: (-0T1)e3: action is incomplete: white must also move on (+0T1)");
  const Replayed last = Replay(incomplete.substr(0, incomplete.find(" /")) + "\n");
  EXPECT_TRUE(last.error.ok());
  ASSERT_EQ(last.warnings.size(), 1u);
  EXPECT_EQ(last.warnings[0].message(),
            "line 2, col 4: (-0T1)e3: action is incomplete: white must also move on (+0T1); the "
            "moves of this unfinished action are kept but not counted");
  EXPECT_EQ(last.replayer->actions().size(), 0u);
}

TEST(Replay, ErrorsKeepTheirPlaceApart) {
  // The second action's knight move is written at line 3, column 4 (counted by hand).
  const Replayed r = Replay("[Board \"Standard\"]\n1. e3 / e6\n2. Nc5\n");
  ASSERT_FALSE(r.error.ok());
  EXPECT_EQ(r.error.code(), StatusCode::kInvalidArgument);
  ASSERT_TRUE(r.error.place().has_value());
  EXPECT_EQ(r.error.place()->line, 3u);
  EXPECT_EQ(r.error.place()->column, 4u);
  EXPECT_EQ(r.error.place()->token, "Nc5");
  EXPECT_EQ(r.error.place()->action, 3);
  EXPECT_EQ(r.error.message(), "line 3, col 4: Nc5: " + r.error.place()->reason);
  // A setup error has no action.
  const Replayed setup = Replay("[Board \"Nonsense\"]\n1. e3\n");
  ASSERT_TRUE(setup.error.place().has_value());
  EXPECT_EQ(setup.error.place()->line, 1u);
  EXPECT_EQ(setup.error.place()->column, 1u);
  EXPECT_EQ(setup.error.place()->token, "[Board \"Nonsense\"]");
  EXPECT_EQ(setup.error.place()->reason, "unknown variant \"Nonsense\"");
  EXPECT_EQ(setup.error.place()->action, 0);
}

// Writes a replayed game canonically, reads it back and compares every state.
void ExpectRoundTrip(const std::string& text, const std::string& what) {
  SyntaxResult syntax = ParseGameSyntax(text);
  ASSERT_TRUE(syntax.status.ok()) << what;
  std::vector<std::string> hashes;
  ReplayOutcome outcome =
      ReplayGame(syntax.game, [&](int, const Position& pos) { hashes.push_back(pos.StateMd5()); });
  ASSERT_TRUE(outcome.status.ok()) << what << ": " << outcome.status.message();
  std::vector<std::pair<std::string, std::string>> headers;
  for (const Header& h : syntax.game.headers) headers.emplace_back(h.name, h.value);
  const std::string written = WriteGame(headers, outcome.replayer->setup(),
                                        outcome.replayer->actions(), syntax.game.result);
  SyntaxResult again = ParseGameSyntax(written);
  ASSERT_TRUE(again.status.ok()) << what << "\n" << written;
  std::vector<std::string> rehashes;
  ReplayOutcome replayed =
      ReplayGame(again.game, [&](int, const Position& pos) { rehashes.push_back(pos.StateMd5()); });
  ASSERT_TRUE(replayed.status.ok()) << what << ": " << replayed.status.message() << "\n" << written;
  EXPECT_EQ(rehashes, hashes) << what << "\n" << written;
}

TEST(Writer, CanonicalGameReadsBackToTheSameStates) {
  ExpectRoundTrip(
      "[Board \"Standard\"]\n1. e4 / e5\n2. Nf3 / Nc6\n3. Bc4 / Bc5\n4. O-O / Nf6\n"
      "5. (0T5)Nf3>>(0T4)f5 / (1T4)Nf6\n",
      "small game");
  const std::string shared = testing::SharedDir();
  if (shared.empty()) GTEST_SKIP() << "../shared is absent: the oracle round trip is skipped";
  std::ifstream in(shared + "/oracle/public/all.5dpgn", std::ios::binary);
  ASSERT_TRUE(in) << "cannot open the oracle games";
  GameSplitter splitter(in);
  int games = 0;
  while (std::optional<RawGame> raw = splitter.Next()) {
    ExpectRoundTrip(raw->text, "oracle game " + std::to_string(raw->index));
    ++games;
    if (HasFailure()) break;
  }
  EXPECT_EQ(games, 1494);
}

// Moves keep timelines and half-turns in 16 bits (core/types.h kMaxTimelineIndex, kMaxHalfTurn):
// a start or a game beyond them is an error, not a move that wraps (fuzz_pgn found a board on
// timeline 99999 that crashed the ending's decision).
TEST(Replay, TimelinesAndTurnsBeyondTheLimitsAreErrors) {
  EXPECT_NE(ErrorOf("[k*1p*/3/K*R*1:099999:1:w]\n").find("a board on timeline 99999, turn 1"),
            std::string::npos);
  EXPECT_NE(ErrorOf("[k*1p*/3/K*R*1:0:99999:w]\n").find("a board on timeline 0, turn 99999"),
            std::string::npos);
  EXPECT_NE(ErrorOf("[k*2/3/K*2:10001:1:w]\n1. (+10001T1)Kb1\n").find("timeline 10001"),
            std::string::npos);
  // The last timeline and turn within them replay.
  MustReplay(Replay("[k*2/3/K*2:10000:1:w]\n1. (+10000T1)Kb1\n"));
  MustReplay(Replay("[k*2/3/K*2:0:14999:w]\n1. (0T14999)Kb1 / (0T14999)Kb3\n"));
  // An action from turn 15000 is refused, and says where.
  const std::string reached =
      ErrorOf("[k*2/3/K*2:0:14999:w]\n1. (0T14999)Kb1 / (0T14999)Kb3\n2. (0T15000)Ka1\n");
  EXPECT_NE(reached.find("line 3, col 4: the game has reached turn 15000"), std::string::npos)
      << reached;
}

}  // namespace
}  // namespace fived

namespace fived {
namespace {

TEST(Replay, SixteenBySixteenBoards) {
  // Files run to 'p' and ranks to 16 in the notation.
  const std::string empty = "16/16/16/16/16/16/16/16/16/16/16/16/16/16/";
  const Replayed r = Replay("[Board \"custom\"]\n[Size \"16x16\"]\n[k15/" + empty +
                            "R14K:0:1:w]\n" + "1. Ra15 / Kb16\n2. Kp2 / Kc16\n3. Ra15a16+\n");
  const Position& pos = MustReplay(r);
  std::string expected = "R1k13/";
  for (int i = 0; i < 13; ++i) expected += "16/";
  EXPECT_EQ(FenPieces(pos.Tip(0)), expected + "15K/16");
}

}  // namespace
}  // namespace fived
