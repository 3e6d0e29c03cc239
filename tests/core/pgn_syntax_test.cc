// Tests of the 5dpgn syntax layer: every accepted form of NOTATION.md, exact positions of moves and
// errors, game splitting (offsets, lines, BOM, CRLF, comments that hide '[' and blank lines),
// inputs built to expose quadratic or crashing behaviour, and the shared corpus and oracle files.
#include "core/pgn_syntax.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fived {
namespace {

// The timeline as written: "-0" and "+0" stay apart from "0".
std::string TimelineText(const BoardRef& board) {
  std::string sign;
  if (board.negative) {
    sign = "-";
  } else if (board.explicit_sign) {
    sign = "+";
  }
  return sign + std::to_string(board.timeline);
}

std::string BoardText(const BoardRef& board) {
  return TimelineText(board) + "T" + std::to_string(board.turn);
}

// A compact, stable description of everything a move carries, to keep the tables readable.
std::string Describe(const SyntaxMove& move) {
  std::vector<std::string> parts;
  if (move.source) parts.push_back("src=" + BoardText(*move.source));
  if (move.piece != 0) parts.push_back(std::string("piece=") + move.piece);
  if (move.from_file >= 0 || move.from_rank >= 0) {
    std::string from = "from=";
    from += move.from_file >= 0 ? static_cast<char>('a' + move.from_file) : '?';
    from += move.from_rank >= 0 ? static_cast<char>('1' + move.from_rank) : '?';
    parts.push_back(from);
  }
  switch (move.jump) {
    case SyntaxMove::Jump::kNone:
      break;
    case SyntaxMove::Jump::kUnmarked:
      parts.push_back("jump=?");
      break;
    case SyntaxMove::Jump::kNonBranching:
      parts.push_back("jump=>");
      break;
    case SyntaxMove::Jump::kBranching:
      parts.push_back("jump=>>");
      break;
  }
  if (move.target) parts.push_back("tgt=" + BoardText(*move.target));
  if (move.to_file >= 0) {
    parts.push_back(std::string("to=") + static_cast<char>('a' + move.to_file) +
                    static_cast<char>('1' + move.to_rank));
  }
  if (move.promotion != 0) parts.push_back(std::string("promo=") + move.promotion);
  if (move.castle == SyntaxMove::Castle::kKingside) parts.push_back("castle=O-O");
  if (move.castle == SyntaxMove::Castle::kQueenside) parts.push_back("castle=O-O-O");
  if (move.capture) parts.push_back("x");
  if (move.check) parts.push_back("+");
  if (move.mate) parts.push_back("#");
  if (move.softmate) parts.push_back("*");
  if (move.present_moved) parts.push_back("~");
  if (move.present_turn_hint) parts.push_back("~T=" + std::to_string(*move.present_turn_hint));
  if (move.new_timeline_hint) parts.push_back(">L=" + TimelineText(*move.new_timeline_hint));
  if (!move.glyphs.empty()) parts.push_back("glyphs=" + move.glyphs);
  if (move.null_move) parts.push_back("null");
  std::string out;
  for (const std::string& part : parts) out += (out.empty() ? "" : " ") + part;
  return out;
}

// "1w:e4,Nf3 1b:e5": turn, colour and move texts of every action.
std::string DescribeActions(const SyntaxGame& game) {
  std::string out;
  for (const SyntaxAction& action : game.actions) {
    if (!out.empty()) out += ' ';
    out += std::to_string(action.turn_number) + (action.black ? "b:" : "w:");
    for (size_t i = 0; i < action.moves.size(); ++i) {
      out += (i == 0 ? "" : ",") + action.moves[i].text;
    }
  }
  return out;
}

std::string DescribeError(const Status& error) {
  if (error.ok()) return "no error";
  const Place& place = *error.place();
  return std::to_string(place.line) + ":" + std::to_string(place.column) + " '" + place.token +
         "' " + place.reason;
}

std::vector<RawGame> SplitAll(const std::string& input) {
  std::istringstream in(input);
  GameSplitter splitter(in);
  std::vector<RawGame> games;
  while (std::optional<RawGame> game = splitter.Next()) games.push_back(std::move(*game));
  return games;
}

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// --- Moves -------------------------------------------------------------------------------------

struct MoveCase {
  std::string token;
  std::string text;  // SyntaxMove::text
  std::string description;
};

TEST(PgnSyntax, MoveForms) {
  const std::vector<MoveCase> cases = {
      // SAN.
      {"e4", "e4", "to=e4"},
      {"Nf3", "Nf3", "piece=N to=f3"},
      {"exd5", "exd5", "from=e? to=d5 x"},
      {"Raxd5", "Raxd5", "piece=R from=a? to=d5 x"},
      {"N1c3", "N1c3", "piece=N from=?1 to=c3"},
      {"Kaa2", "Kaa2", "piece=K from=a? to=a2"},
      {"e8=Q", "e8=Q", "to=e8 promo=Q"},
      {"e8Q", "e8Q", "to=e8 promo=Q"},
      {"b7xc8=S", "b7xc8=S", "from=b7 to=c8 promo=S x"},
      // Long algebraic.
      {"e2e4", "e2e4", "from=e2 to=e4"},
      {"Pe2e4", "Pe2e4", "piece=P from=e2 to=e4"},
      {"Ng1f3", "Ng1f3", "piece=N from=g1 to=f3"},
      {"e2-e4", "e2-e4", "from=e2 to=e4"},
      {"(3T11)Qg7g6", "(3T11)Qg7g6", "src=3T11 piece=Q from=g7 to=g6"},
      {"a4a5=Q", "a4a5=Q", "from=a4 to=a5 promo=Q"},
      {"b4xa5=Q", "b4xa5=Q", "from=b4 to=a5 promo=Q x"},
      {"d2xc1=B", "d2xc1=B", "from=d2 to=c1 promo=B x"},
      {"(0T5)Rxe4+", "(0T5)Rxe4+", "src=0T5 piece=R to=e4 x +"},
      // Castling.
      {"O-O", "O-O", "castle=O-O"},
      {"O-O-O", "O-O-O", "castle=O-O-O"},
      {"0-0", "0-0", "castle=O-O"},
      {"0-0-0", "0-0-0", "castle=O-O-O"},
      {"(0T5)O-O", "(0T5)O-O", "src=0T5 castle=O-O"},
      {"(-1T13)O-O-O+", "(-1T13)O-O-O+", "src=-1T13 castle=O-O-O +"},
      // Jumps.
      {"(-1T4)Nc3>>x(0T2)c3+~", "(-1T4)Nc3>>x(0T2)c3+~",
       "src=-1T4 piece=N from=c3 jump=>> tgt=0T2 to=c3 x + ~"},
      {"(0T6)Pd5>(1T6)d5", "(0T6)Pd5>(1T6)d5", "src=0T6 piece=P from=d5 jump=> tgt=1T6 to=d5"},
      {"(-1T12)Qg6>>x(-1T9)d6~", "(-1T12)Qg6>>x(-1T9)d6~",
       "src=-1T12 piece=Q from=g6 jump=>> tgt=-1T9 to=d6 x ~"},
      {"(0T1)Pe2(0T1)e3", "(0T1)Pe2(0T1)e3", "src=0T1 piece=P from=e2 jump=? tgt=0T1 to=e3"},
      {"(0T6)Ke1(0T6)g1", "(0T6)Ke1(0T6)g1", "src=0T6 piece=K from=e1 jump=? tgt=0T6 to=g1"},
      {"(0T2)e2(0T2)e4", "(0T2)e2(0T2)e4", "src=0T2 from=e2 jump=? tgt=0T2 to=e4"},
      {"(1T3)Pc7>x(0T3)c8=Q", "(1T3)Pc7>x(0T3)c8=Q",
       "src=1T3 piece=P from=c7 jump=> tgt=0T3 to=c8 promo=Q x"},
      {"(0T14)c3>(-1T13)c3", "(0T14)c3>(-1T13)c3", "src=0T14 from=c3 jump=> tgt=-1T13 to=c3"},
      // ftxi's engine omits the source square, even the boards, of jumps.
      {"(-1T3)K>>(0T2)c3", "(-1T3)K>>(0T2)c3", "src=-1T3 piece=K jump=>> tgt=0T2 to=c3"},
      {"Q>>xf7+~", "Q>>xf7+~", "piece=Q jump=>> to=f7 x + ~"},
      // Boards as written.
      {"(+0T3)e4", "(+0T3)e4", "src=+0T3 to=e4"},
      {"(-0T3)e4", "(-0T3)e4", "src=-0T3 to=e4"},
      {"(L-1 T6)e4", "(L-1 T6)e4", "src=-1T6 to=e4"},
      {"(L0T1)e4", "(L0T1)e4", "src=0T1 to=e4"},
      {"(L+1T3)e4", "(L+1T3)e4", "src=+1T3 to=e4"},
      {"(L1T5)Qf4>>x(L0T5)e4~", "(L1T5)Qf4>>x(L0T5)e4~",
       "src=1T5 piece=Q from=f4 jump=>> tgt=0T5 to=e4 x ~"},
      // Piece letters and 5d-chess-js's two-letter names.
      {"We4", "We4", "piece=W to=e4"},
      {"Ce4", "Ce4", "piece=C to=e4"},
      {"Ye4", "Ye4", "piece=Y to=e4"},
      {"Se4", "Se4", "piece=S to=e4"},
      {"Ue4", "Ue4", "piece=U to=e4"},
      {"De4", "De4", "piece=D to=e4"},
      {"RQxc7", "RQxc7", "piece=Y to=c7 x"},
      {"PRa1", "PRa1", "piece=S to=a1"},
      {"BRa2", "BRa2", "piece=W to=a2"},
      {"CKe2", "CKe2", "piece=C to=e2"},
      // Marks, glyphs and hints glued on.
      {"Qf7#", "Qf7#", "piece=Q to=f7 #"},
      {"(1T4)Qh5*", "(1T4)Qh5*", "src=1T4 piece=Q to=h5 *"},
      {"(3T11)Qg7g6*!", "(3T11)Qg7g6*", "src=3T11 piece=Q from=g7 to=g6 * glyphs=!"},
      {"e4!?", "e4", "to=e4 glyphs=!?"},
      {"e4?!", "e4", "to=e4 glyphs=?!"},
      {"e4!!", "e4", "to=e4 glyphs=!!"},
      {"e4??", "e4", "to=e4 glyphs=??"},
      {"e4?", "e4", "to=e4 glyphs=?"},
      {"(1T5)Ng4>>(1T3)h4*~", "(1T5)Ng4>>(1T3)h4*~",
       "src=1T5 piece=N from=g4 jump=>> tgt=1T3 to=h4 * ~"},
      {"(0T3)Nb3>>(0T1)a3~(+L1)", "(0T3)Nb3>>(0T1)a3~",
       "src=0T3 piece=N from=b3 jump=>> tgt=0T1 to=a3 ~ >L=1"},
      {"(-1T20)Bc4>>x(-1T18)a4~(+L-2)", "(-1T20)Bc4>>x(-1T18)a4~",
       "src=-1T20 piece=B from=c4 jump=>> tgt=-1T18 to=a4 x ~ >L=-2"},
      {"(0T2)Nb1>>(0T1)b3~(~T4)(>L2)", "(0T2)Nb1>>(0T1)b3~",
       "src=0T2 piece=N from=b1 jump=>> tgt=0T1 to=b3 ~ ~T=4 >L=2"},
      {"(2T13)Qg4>>x(2T10)g7~!", "(2T13)Qg4>>x(2T10)g7~",
       "src=2T13 piece=Q from=g4 jump=>> tgt=2T10 to=g7 x ~ glyphs=!"},
      // Null moves.
      {"0000", "0000", "null"},
      {"(-2T1)0000", "(-2T1)0000", "src=-2T1 null"},
  };
  for (const MoveCase& c : cases) {
    SCOPED_TRACE(c.token);
    const SyntaxResult result = ParseGameSyntax("1. " + c.token + "\n");
    ASSERT_TRUE(result.status.ok()) << DescribeError(result.status);
    ASSERT_EQ(result.game.actions.size(), 1u);
    ASSERT_EQ(result.game.actions[0].moves.size(), 1u);
    const SyntaxMove& move = result.game.actions[0].moves[0];
    EXPECT_EQ(move.text, c.text);
    EXPECT_EQ(Describe(move), c.description);
    EXPECT_EQ(move.pos.line, 1);
    EXPECT_EQ(move.pos.column, 4);
  }
}

TEST(PgnSyntax, EmptyInput) {
  for (std::string_view text :
       {std::string_view(), std::string_view(""), std::string_view(" \n")}) {
    const SyntaxResult result = ParseGameSyntax(text);
    EXPECT_TRUE(result.status.ok()) << DescribeError(result.status);
    EXPECT_TRUE(result.game.actions.empty());
    EXPECT_TRUE(result.game.headers.empty());
  }
}

TEST(PgnSyntax, MoveWithoutBoardHasNoSource) {
  const SyntaxResult result = ParseGameSyntax("1. e4 (0T1)d4");
  ASSERT_TRUE(result.status.ok()) << DescribeError(result.status);
  ASSERT_EQ(result.game.actions.at(0).moves.size(), 2u);
  EXPECT_FALSE(result.game.actions[0].moves[0].source.has_value());
  EXPECT_TRUE(result.game.actions[0].moves[1].source.has_value());
  EXPECT_FALSE(result.game.actions[0].moves[0].target.has_value());
}

// Hints, '~' and glyphs written as tokens of their own attach to the move before them.
TEST(PgnSyntax, SeparateAnnotationTokens) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"(0T3)Nf3>>(0T1)f4 (~T2) (>L1)", "~T=2 >L=1"},
      {"(0T3)Nf3>>(0T1)f4 (>L+3)", ">L=+3"},
      {"(0T3)Nf3>>(0T1)f4 (>L-4)", ">L=-4"},
      {"(0T3)Nf3>>(0T1)f4 (+L1)", ">L=1"},
      {"(0T3)Nf3>>(0T1)f4 (+L-2)", ">L=-2"},
      {"(0T3)Nf3>>(0T1)f4 ~", "~"},
      {"(0T3)Nf3>>(0T1)f4 !?", "glyphs=!?"},
      {"(0T3)Nf3>>(0T1)f4*  (>L+1)", "* >L=+1"},
      {"(0T3)Nf3>>(0T1)f4 {a comment} (~T1)", "~T=1"},
      {"(0T3)Nf3>>(0T1)f4 (~T2)(>L1)", "~T=2 >L=1"},
  };
  for (const auto& [movetext, expected_tail] : cases) {
    SCOPED_TRACE(movetext);
    const SyntaxResult result = ParseGameSyntax("1. " + movetext + " / (1T1)Nf6");
    ASSERT_TRUE(result.status.ok()) << DescribeError(result.status);
    ASSERT_EQ(result.game.actions.size(), 2u);
    const std::string description = Describe(result.game.actions[0].moves.at(0));
    EXPECT_TRUE(description.ends_with(expected_tail)) << description;
    EXPECT_EQ(result.game.actions[1].moves.size(), 1u);
  }
}

// --- Sub-turns ---------------------------------------------------------------------------------

struct ActionCase {
  std::string movetext;
  std::string actions;  // DescribeActions
  std::string result;
};

TEST(PgnSyntax, ActionStructure) {
  const std::vector<ActionCase> cases = {
      {"1. e4 / e5 2. Nf3", "1w:e4 1b:e5 2w:Nf3", ""},
      {"1. e4 / e5\n2. Nf3 / Nc6\n", "1w:e4 1b:e5 2w:Nf3 2b:Nc6", ""},
      {"1.(-0T1)f3 (+0T1)e3 / (-0T1)Ng8>(+0T1)g6", "1w:(-0T1)f3,(+0T1)e3 1b:(-0T1)Ng8>(+0T1)g6",
       ""},
      {"1w. e4\n1b. e5\n2w. Nf3", "1w:e4 1b:e5 2w:Nf3", ""},
      {"w. (0T1)Pe2(0T1)e3\nb. (0T1)Pe7(0T1)e6\n", "0w:(0T1)Pe2(0T1)e3 0b:(0T1)Pe7(0T1)e6", ""},
      {"1... e5 2. e4", "1b:e5 2w:e4", ""},
      {"1b. e5 2. e4", "1b:e5 2w:e4", ""},
      {"1. Nf3\n/ Nf6\n2. d4", "1w:Nf3 1b:Nf6 2w:d4", ""},
      {"8. (3T4)Nxd1 (1T4)Nd2 /\n   (3T4)Rc1 (1T4)Kd2",
       "8w:(3T4)Nxd1,(1T4)Nd2 8b:(3T4)Rc1,(1T4)Kd2", ""},
      // Without turn markers: a move starting a line opens the next sub-turn.
      {"e3 / e6\nQe2 / Qe7", "0w:e3 0b:e6 0w:Qe2 0b:Qe7", ""},
      {"e4\ne5\nNf3", "0w:e4 0b:e5 0w:Nf3", ""},
      {"1. e4 / e5\nNf3", "1w:e4 1b:e5 0w:Nf3", ""},
      {"1.\ne4 d4", "1w:e4,d4", ""},
      {"1. e4 {comment on its own line}\n/ e5", "1w:e4 1b:e5", ""},
      {"1. e4 / e5\n{3:09} Nf3", "1w:e4 1b:e5 0w:Nf3", ""},
      {"1. e4 {a comment\nover lines} d4", "1w:e4,d4", ""},
      {"0. 0000", "0w:0000", ""},
      {"1.", "", ""},
      {"3.(1T2)Kb3  / ", "3w:(1T2)Kb3", ""},
      // Results.
      {"1. e4 / e5 1-0", "1w:e4 1b:e5", "1-0"},
      {"1. e4 / 0-1", "1w:e4", "0-1"},
      {"1. e4 /1/2-1/2", "1w:e4", "1/2-1/2"},
      {"1. e4 / e5 *", "1w:e4 1b:e5", "*"},
      {"1. e4 / e5*", "1w:e4 1b:e5*", ""},
      {"1. e4 1-0 {Black forfeits}", "1w:e4", "1-0"},
      // Side lines are kept apart.
      {"1. e4 (1. d4 {alt} / d5) / e5", "1w:e4 1b:e5", ""},
  };
  for (const ActionCase& c : cases) {
    SCOPED_TRACE(c.movetext);
    const SyntaxResult result = ParseGameSyntax(c.movetext);
    ASSERT_TRUE(result.status.ok()) << DescribeError(result.status);
    EXPECT_EQ(DescribeActions(result.game), c.actions);
    EXPECT_EQ(result.game.result, c.result);
  }
}

TEST(PgnSyntax, ActionAndMovePositions) {
  const SyntaxResult result =
      ParseGameSyntax("[Board \"Standard\"]\n\n1. e4 / e5\n2.  (0T2)Nf3 {x} (0T2)d4 / Nc6\n", 7);
  ASSERT_TRUE(result.status.ok()) << DescribeError(result.status);
  const std::vector<SyntaxAction>& actions = result.game.actions;
  ASSERT_EQ(actions.size(), 4u);
  EXPECT_EQ(actions[0].pos.line, 9);
  EXPECT_EQ(actions[0].pos.column, 4);
  EXPECT_EQ(actions[1].pos.column, 9);
  EXPECT_EQ(actions[2].pos.line, 10);
  EXPECT_EQ(actions[2].pos.column, 5);
  EXPECT_EQ(actions[2].moves[1].pos.line, 10);
  EXPECT_EQ(actions[2].moves[1].pos.column, 18);
  EXPECT_EQ(actions[3].moves[0].pos.column, 28);
  EXPECT_EQ(result.game.headers.at(0).pos.line, 7);
  EXPECT_EQ(result.game.headers.at(0).pos.column, 1);
}

TEST(PgnSyntax, Comments) {
  const SyntaxResult result = ParseGameSyntax(
      "{before}\n1. e4 {white} / {3:09} e5 {black}\n2. {1:23} Nf3 {after the last} 1-0 {end}");
  ASSERT_TRUE(result.status.ok()) << DescribeError(result.status);
  const SyntaxGame& game = result.game;
  ASSERT_EQ(game.actions.size(), 3u);
  EXPECT_EQ(game.actions[0].comments, std::vector<std::string>({"white"}));
  EXPECT_EQ(game.actions[1].comments, std::vector<std::string>({"3:09", "black"}));
  EXPECT_EQ(game.actions[2].comments, std::vector<std::string>({"1:23"}));
  EXPECT_EQ(game.comments, std::vector<std::string>({"before", "after the last", "end"}));
  EXPECT_EQ(game.result, "1-0");
}

TEST(PgnSyntax, Variations) {
  const SyntaxResult result = ParseGameSyntax(
      "1. e3 / Nf6\n2w. Bb5 {Beware!}\n(2b. d5 {The right response})\n2b. c6\n"
      "(3. (0T3)Nc3 (0T3)c3 / (0T3)e5 (4. Ke2))\n3. c3");
  ASSERT_TRUE(result.status.ok()) << DescribeError(result.status);
  EXPECT_EQ(DescribeActions(result.game), "1w:e3 1b:Nf6 2w:Bb5 2b:c6 3w:c3");
  EXPECT_EQ(result.game.variations,
            std::vector<std::string>(
                {"2b. d5 {The right response}", "3. (0T3)Nc3 (0T3)c3 / (0T3)e5 (4. Ke2)"}));
}

// --- Headers -----------------------------------------------------------------------------------

TEST(PgnSyntax, Headers) {
  const SyntaxResult result = ParseGameSyntax(
      "[Event \"Say \\\"hi\\\" \\\\o/\"] [size \"5x5\"]\n"
      "  [Board \"custom\"]\n"
      "[White \"Zoë Achterberg\"][Black \"\"]\n"
      "[4k/5/5/5/K1R2:0:1:w]\n"
      "[r*nbqk*bnr*/p*p*p*p*p*p*p*p*/8/8/8/8/P*P*P*P*P*P*P*P*/R*NBQK*BNR*:-1:1:w]\n"
      "[5dchess_tools \"^0.2.0\"]\n"
      "\n1. Kb2\n");
  ASSERT_TRUE(result.status.ok()) << DescribeError(result.status);
  const SyntaxGame& game = result.game;
  ASSERT_EQ(game.headers.size(), 6u);
  EXPECT_EQ(game.headers[0].name, "Event");
  EXPECT_EQ(game.headers[0].value, "Say \"hi\" \\o/");
  EXPECT_EQ(game.headers[1].name, "size");
  EXPECT_EQ(game.headers[1].pos.line, 1);
  EXPECT_EQ(game.headers[1].pos.column, 27);
  EXPECT_EQ(game.headers[2].pos.line, 2);
  EXPECT_EQ(game.headers[2].pos.column, 3);
  EXPECT_EQ(game.headers[3].value, "Zoë Achterberg");
  EXPECT_EQ(game.headers[4].value, "");
  EXPECT_EQ(game.headers[5].name, "5dchess_tools");
  ASSERT_EQ(game.boards.size(), 2u);
  EXPECT_EQ(game.boards[0].text, "4k/5/5/5/K1R2:0:1:w");
  EXPECT_EQ(game.boards[0].pos.line, 4);
  EXPECT_EQ(game.boards[1].text,
            "r*nbqk*bnr*/p*p*p*p*p*p*p*p*/8/8/8/8/P*P*P*P*P*P*P*P*/R*NBQK*BNR*:-1:1:w");
  ASSERT_NE(game.FindHeader("SIZE"), nullptr);
  EXPECT_EQ(game.FindHeader("Size")->value, "5x5");
  EXPECT_EQ(game.FindHeader("board")->value, "custom");
  EXPECT_EQ(game.FindHeader("Round"), nullptr);
  EXPECT_EQ(DescribeActions(game), "1w:Kb2");
}

// --- Errors ------------------------------------------------------------------------------------

struct ErrorCase {
  std::string text;
  int first_line;
  std::string error;  // DescribeError
};

TEST(PgnSyntax, Errors) {
  const std::vector<ErrorCase> cases = {
      {"1. e4 {never closed\n2. d4", 1, "1:7 '{never' unterminated comment"},
      {"[Event \"x]\n1. e4", 1, "1:1 '[Event \"x]' header value is not terminated"},
      {"[Event x]", 1, "1:1 '[Event x]' malformed header"},
      {"[Event \"x\" junk]", 1, "1:1 '[Event \"x\" junk]' expected ']' after the header value"},
      {"[ \"x\"]", 1, "1:1 '[ \"x\"]' malformed header"},
      {"1. e4 zz5", 1, "1:7 'zz5' unexpected token"},
      // Files run to 'p' and ranks to 16 (16x16 boards): "nf3" and "e9" are moves for the
      // syntax; the replay says they are off the board (replay_test.cc).
      {"1. qz3", 1, "1:4 'qz3' unexpected token"},
      {"1. Xe4", 1, "1:4 'Xe4' unknown piece letter"},
      {"1. e17", 1, "1:4 'e17' malformed move"},
      {"1. Nf3x", 1, "1:4 'Nf3x' malformed move"},
      {"1. N", 1, "1:4 'N' missing destination square"},
      {"1. Nf3.", 1, "1:4 'Nf3.' unexpected token"},
      {"1. e8=X", 1, "1:4 'e8=X' malformed promotion"},
      {"1. e4!!!", 1, "1:4 'e4!!!' unknown annotation glyph"},
      {"1. (0T1)Nc3>>>(0T2)c3", 1, "1:4 '(0T1)Nc3>>>(0T2)c3' malformed move"},
      {"1. (0T1)Nc3>>(0T2", 1, "1:4 '(0T1)Nc3>>(0T2' malformed board reference"},
      {"1. (0T1)Nc3>>x", 1, "1:4 '(0T1)Nc3>>x' missing destination square"},
      {"1. (0T)e4", 1, "1:4 '(0T)e4' malformed board reference"},
      {"1. (1,1)e4", 1, "1:4 '(1,1)e4' malformed board reference"},
      {"1. e4 (2. d4", 1, "1:7 '(2.' unterminated variation"},
      {"1. e4 (1. d4 zz)", 1, "1:14 'zz' unexpected token"},
      {"1. e4 1-0 e5", 1, "1:11 'e5' unexpected token after the result"},
      {"1. e4 / e5 / Nf3", 1, "1:12 '/' a second '/' in one turn"},
      {"~ 1. e4", 1, "1:1 '~' annotation without a move"},
      {"1. (~T2) e4", 1, "1:4 '(~T2)' annotation without a move"},
      {"1. e4\n[Event \"x\"]", 1, "2:1 '[Event \"x\"]' header after the movetext"},
      {"1. e4 1234567890. e5", 1, "1:7 '1234567890.' malformed turn number"},
      {"1. e4 *x", 1, "1:7 '*x' unexpected token"},
      // Positions are file positions: first_line and CRLF.
      {"1. e4\n  1. zz", 10, "11:6 'zz' unexpected token"},
      {"[A \"1\"]\r\n\r\n1. e4\r\n2. !! e5\r\n", 3, "6:4 '!!' annotation without a move"},
      {"1. e4 {multi\nline\ncomment} $1", 5, "7:10 '$1' unexpected token"},
  };
  for (const ErrorCase& c : cases) {
    SCOPED_TRACE(c.text);
    EXPECT_EQ(DescribeError(ParseGameSyntax(c.text, c.first_line).status), c.error);
  }
}

TEST(PgnSyntax, ErrorTokensAreShort) {
  const std::string junk(100000, 'z');
  const SyntaxResult result = ParseGameSyntax("1. e4 " + junk);
  ASSERT_FALSE(result.status.ok());
  EXPECT_EQ(result.status.place()->token.size(), 64u);
  EXPECT_EQ(result.status.place()->reason, "unexpected token");
}

// --- Splitting ---------------------------------------------------------------------------------

struct CutGame {
  uint64_t byte_offset;
  int first_line;
  std::string text;
};

struct SplitCase {
  std::string name;
  std::string input;
  std::vector<CutGame> games;
};

TEST(PgnSyntax, Splitting) {
  const std::vector<SplitCase> cases = {
      {"empty", "", {}},
      {"blank only", "\n \r\n\t\n", {}},
      {"blank lines between games",
       "[Event \"a\"]\n1. e4\n\n[Event \"b\"]\n1. d4\n",
       {{0, 1, "[Event \"a\"]\n1. e4\n"}, {19, 4, "[Event \"b\"]\n1. d4\n"}}},
      {"next header block only",
       "[A \"1\"]\n1. e4\n[B \"2\"]\n1. d4",
       {{0, 1, "[A \"1\"]\n1. e4\n"}, {14, 3, "[B \"2\"]\n1. d4"}}},
      {"leading blank lines and indented headers",
       "\n\n  [A \"1\"]\n    [B \"2\"]\n    1. e4\n\n\n",
       {{2, 3, "  [A \"1\"]\n    [B \"2\"]\n    1. e4\n"}}},
      {"headers, blank line, movetext",
       "[A \"1\"]\n[4k/5/5/5/K1R2:0:1:w]\n\n1. Kb2\n",
       {{0, 1, "[A \"1\"]\n[4k/5/5/5/K1R2:0:1:w]\n\n1. Kb2\n"}}},
      {"several headers on one line",
       "[A \"1\"] [B \"2\"]\n1. e4\n[C \"3\"][D \"4\"]\n",
       {{0, 1, "[A \"1\"] [B \"2\"]\n1. e4\n"}, {22, 3, "[C \"3\"][D \"4\"]\n"}}},
      {"empty games", "[A \"1\"]\n\n[B \"2\"]\n\n", {{0, 1, "[A \"1\"]\n"}, {9, 3, "[B \"2\"]\n"}}},
      {"headerless games after a result",
       "1. e4 / e5 1-0\n\n1. d4 0-1 {resigns}\n \n1. c4\n",
       {{0, 1, "1. e4 / e5 1-0\n"}, {16, 3, "1. d4 0-1 {resigns}\n"}, {38, 5, "1. c4\n"}}},
      {"result after a slash",
       "1. e4 / 1-0\n\n1. d4\n",
       {{0, 1, "1. e4 / 1-0\n"}, {13, 3, "1. d4\n"}}},
      {"blank line without a result stays in the game",
       "1. e4\n\n2. d4\n\n{analysis}\n",
       {{0, 1, "1. e4\n\n2. d4\n\n{analysis}\n"}}},
      {"comment hides '[' and blank lines",
       "[A \"1\"]\n1. e4 {see\n\n[B \"2\"]\n} / e5 1-0 {x\n\ny}\n\n[C \"3\"]\n",
       {{0, 1, "[A \"1\"]\n1. e4 {see\n\n[B \"2\"]\n} / e5 1-0 {x\n\ny}\n"},
        {47, 9, "[C \"3\"]\n"}}},
      {"header value hides '{'",
       "[A \"{\"]\n1. e4\n\n[B \"\\\"{\"]\n",
       {{0, 1, "[A \"{\"]\n1. e4\n"}, {15, 4, "[B \"\\\"{\"]\n"}}},
      {"byte-order mark", "\xEF\xBB\xBF[A \"1\"]\n1. e4", {{3, 1, "[A \"1\"]\n1. e4"}}},
      {"CRLF",
       "[A \"1\"]\r\n1. e4\r\n\r\n[B \"2\"]\r\n1. d4\r\n",
       {{0, 1, "[A \"1\"]\r\n1. e4\r\n"}, {18, 4, "[B \"2\"]\r\n1. d4\r\n"}}},
  };
  for (const SplitCase& c : cases) {
    SCOPED_TRACE(c.name);
    const std::vector<RawGame> games = SplitAll(c.input);
    ASSERT_EQ(games.size(), c.games.size());
    for (size_t i = 0; i < games.size(); ++i) {
      SCOPED_TRACE(i);
      EXPECT_EQ(games[i].index, static_cast<int>(i) + 1);
      EXPECT_EQ(games[i].byte_offset, c.games[i].byte_offset);
      EXPECT_EQ(games[i].first_line, c.games[i].first_line);
      EXPECT_EQ(games[i].text, c.games[i].text);
    }
  }
}

// The splitter's games parse with positions that point into the original file.
TEST(PgnSyntax, SplitThenParsePositions) {
  const std::string file =
      "\xEF\xBB\xBF[Event \"a\"]\r\n\r\n1. e4 / e5\r\n\r\n"
      "[Event \"b\"]\r\n1. d4 / zz\r\n";
  const std::vector<RawGame> games = SplitAll(file);
  ASSERT_EQ(games.size(), 2u);
  const SyntaxResult first = ParseGameSyntax(games[0].text, games[0].first_line);
  ASSERT_TRUE(first.status.ok()) << DescribeError(first.status);
  EXPECT_EQ(first.game.actions.at(1).moves.at(0).pos.line, 3);
  EXPECT_EQ(first.game.actions.at(1).moves.at(0).pos.column, 9);
  EXPECT_EQ(DescribeError(ParseGameSyntax(games[1].text, games[1].first_line).status),
            "6:9 'zz' unexpected token");
  EXPECT_EQ(file.substr(games[1].byte_offset, games[1].text.size()), games[1].text);
}

// Quadratic work (rescanning, or moving the whole buffer for every game) would take minutes here;
// linear work; the times are printed, never asserted (benchmarks judge speed, not tests).
TEST(PgnSyntax, HundredThousandEmptyGames) {
  constexpr int kGames = 100000;
  std::string input;
  for (int i = 0; i < kGames; ++i) input += "[Event \"x\"]\n\n";
  std::istringstream in(input);
  GameSplitter splitter(in);
  std::vector<RawGame> games;
  const auto start = std::chrono::steady_clock::now();
  while (std::optional<RawGame> game = splitter.Next()) games.push_back(std::move(*game));
  const auto split = std::chrono::steady_clock::now();
  size_t headers = 0;
  size_t errors = 0;
  for (const RawGame& game : games) {
    const SyntaxResult result = ParseGameSyntax(game.text, game.first_line);
    headers += result.game.headers.size();
    errors += !result.status.ok() ? 1 : 0;
  }
  const auto parsed = std::chrono::steady_clock::now();
  const double split_seconds = std::chrono::duration<double>(split - start).count();
  const double parse_seconds = std::chrono::duration<double>(parsed - split).count();
  std::printf("100000 empty games: split in %.3f s, parsed in %.3f s\n", split_seconds,
              parse_seconds);
  ASSERT_EQ(games.size(), static_cast<size_t>(kGames));
  EXPECT_EQ(headers, static_cast<size_t>(kGames));
  EXPECT_EQ(errors, 0u);
  const RawGame& last = games.back();
  EXPECT_EQ(last.index, kGames);
  EXPECT_EQ(last.byte_offset, uint64_t{13} * (kGames - 1));
  EXPECT_EQ(last.first_line, 2 * (kGames - 1) + 1);
  EXPECT_EQ(last.text, "[Event \"x\"]\n");
}

TEST(PgnSyntax, TenMegabyteComment) {
  std::string comment;
  while (comment.size() < 10 * 1000 * 1000) comment += "words [Event \"no\"]\n\n1-0 ( e4 ";
  const std::string input = "[Event \"big\"]\n1. e4 {" + comment + "} e5\n\n[Event \"next\"]\n";
  const std::vector<RawGame> games = SplitAll(input);
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(games[1].first_line, 4 + 2 * static_cast<int>(comment.size() / 29));
  const SyntaxResult result = ParseGameSyntax(games[0].text, games[0].first_line);
  ASSERT_TRUE(result.status.ok()) << DescribeError(result.status);
  ASSERT_EQ(result.game.actions.size(), 1u);
  EXPECT_EQ(DescribeActions(result.game), "1w:e4,e5");
  ASSERT_EQ(result.game.actions[0].comments.size(), 1u);
  EXPECT_EQ(result.game.actions[0].comments[0], comment);
}

// Random bytes, biased towards the characters the grammar cares about: no crash, no hang, and the
// games are exact slices of the input in order.
TEST(PgnSyntax, RandomJunk) {
  std::mt19937 random(20240601);
  const std::string alphabet = "[]{}()\"\\/\n\n\r 0123456789.-+*#~!?xOKQNBRe4:T>L\xEF\xBB\xBF\xFF";
  for (int round = 0; round < 20; ++round) {
    std::string input;
    const size_t size = 1 + random() % 100000;
    for (size_t i = 0; i < size; ++i) {
      input += (random() % 4 == 0) ? static_cast<char>(random() % 256)
                                   : alphabet[random() % alphabet.size()];
    }
    uint64_t previous_end = 0;
    int games = 0;
    for (const RawGame& game : SplitAll(input)) {
      ++games;
      EXPECT_EQ(game.index, games);
      ASSERT_GE(game.byte_offset, previous_end);
      ASSERT_LE(game.byte_offset + game.text.size(), input.size());
      EXPECT_EQ(input.compare(game.byte_offset, game.text.size(), game.text), 0);
      previous_end = game.byte_offset + game.text.size();
      const SyntaxResult result = ParseGameSyntax(game.text, game.first_line);
      if (!result.status.ok()) {
        EXPECT_GE(static_cast<int>(result.status.place()->line), game.first_line);
        EXPECT_GE(result.status.place()->column, 1u);
        EXPECT_LE(result.status.place()->token.size(), 64u);
      }
    }
  }
  // Deep nesting must not exhaust the stack.
  const SyntaxResult nested =
      ParseGameSyntax("1. e4 " + std::string(200000, '(') + std::string(200000, ')'));
  EXPECT_EQ(DescribeError(nested.status),
            "1:23 '" + std::string(64, '(') + "' variations nested too deeply");
}

// Small random edits of a real game: every outcome is a game or a precise error, never a crash.
TEST(PgnSyntax, MutatedGames) {
  const std::string game =
      "[Board \"Standard - Turn Zero\"]\n[Size \"8x8\"]\n\n"
      "1. e3 / f6 2. Qe2 / (0T2)Nb8>>(0T1)b6 (~T1) (>L-1)\n"
      "3. (-1T2)Nf3 {x} / (-1T2)Na6 4. (-1T3)Nd4>x(0T3)d4+~! (2b. e8=Q) 1-0\n";
  std::mt19937 random(7);
  const std::string alphabet = "[]{}()\"/\n 0123456789.-+*#~!?xOKQNBRe4:T>L=";
  for (int round = 0; round < 5000; ++round) {
    std::string text = game;
    for (int edits = 1 + random() % 3; edits > 0; --edits) {
      const size_t at = random() % text.size();
      const char c = alphabet[random() % alphabet.size()];
      switch (random() % 3) {
        case 0:
          text[at] = c;
          break;
        case 1:
          text.insert(text.begin() + at, c);
          break;
        default:
          text.erase(at, 1);
          break;
      }
    }
    const SyntaxResult result = ParseGameSyntax(text);
    if (!result.status.ok()) {
      ASSERT_GE(result.status.place()->line, 1u);
      ASSERT_GE(result.status.place()->column, 1u);
      ASSERT_FALSE(result.status.place()->reason.empty());
    }
  }
}

// --- Shared files ------------------------------------------------------------------------------

TEST(PgnSyntax, PublicCorpus) {
  const std::filesystem::path root = FIVED_SHARED_DIR "/corpus/public";
  if (!std::filesystem::is_directory(root)) {
    GTEST_SKIP() << "no shared corpus at " << root << " (../shared is not checked out)";
  }
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    // The corpus's own metadata is not 5dpgn.
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && name != "MANIFEST.tsv" && name != "SOURCES.md") {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  // The files the reference implementation replays (MANIFEST.tsv's js_replay "ok"): each must
  // read without a syntax error, so that a file that replays today cannot stop parsing unseen.
  std::set<std::string> replayed;
  {
    std::istringstream lines(ReadFile(root / "MANIFEST.tsv"));
    std::string line;
    std::getline(lines, line);  // the column names
    while (std::getline(lines, line)) {
      std::vector<std::string> fields;
      std::istringstream cells(line);
      for (std::string cell; std::getline(cells, cell, '\t');) fields.push_back(cell);
      if (fields.size() > 4 && fields[4] == "ok") replayed.insert(fields[0]);
    }
  }
  int games = 0;
  int errors = 0;
  for (const std::filesystem::path& file : files) {
    const std::string name = std::filesystem::relative(file, root).string();
    std::ifstream in(file, std::ios::binary);
    GameSplitter splitter(in);
    while (std::optional<RawGame> game = splitter.Next()) {
      ++games;
      const SyntaxResult result = ParseGameSyntax(game->text, game->first_line);
      if (!result.status.ok()) {
        ++errors;
        std::printf("%s:%zu:%zu: '%s': %s\n", name.c_str(), result.status.place()->line,
                    result.status.place()->column, result.status.place()->token.c_str(),
                    result.status.place()->reason.c_str());
        EXPECT_EQ(replayed.count(name), 0u)
            << name << " replays with the reference implementation but no longer parses";
      }
    }
  }
  std::printf("corpus: %zu files (%zu the reference replays), %d games, %d syntax errors\n",
              files.size(), replayed.size(), games, errors);
  EXPECT_GE(files.size(), 200u);
  EXPECT_GE(replayed.size(), 150u) << "MANIFEST.tsv was not read";
}

TEST(PgnSyntax, OracleGames) {
  const std::filesystem::path dir = FIVED_SHARED_DIR "/oracle/public";
  if (!std::filesystem::is_directory(dir)) {
    GTEST_SKIP() << "no shared oracle at " << dir << " (../shared is not checked out)";
  }
  // "actions":N of each line of oracle.jsonl, in the order of all.5dpgn.
  std::vector<int> expected_actions;
  {
    std::istringstream lines(ReadFile(dir / "oracle.jsonl"));
    std::string line;
    while (std::getline(lines, line)) {
      const size_t at = line.find("\"actions\":");
      ASSERT_NE(at, std::string::npos) << line.substr(0, 80);
      expected_actions.push_back(std::stoi(line.substr(at + 10)));
    }
  }
  // byte_offset and byte_length of each game, from all.index.tsv.
  std::vector<std::pair<uint64_t, size_t>> expected_slices;
  {
    std::istringstream lines(ReadFile(dir / "all.index.tsv"));
    std::string line;
    std::getline(lines, line);  // column names
    while (std::getline(lines, line)) {
      std::istringstream fields(line);
      std::string file;
      uint64_t offset = 0;
      size_t length = 0;
      fields >> file >> offset >> length;
      expected_slices.emplace_back(offset, length);
    }
  }
  std::ifstream in(dir / "all.5dpgn", std::ios::binary);
  GameSplitter splitter(in);
  size_t games = 0;
  while (std::optional<RawGame> game = splitter.Next()) {
    SCOPED_TRACE("game " + std::to_string(game->index));
    const SyntaxResult result = ParseGameSyntax(game->text, game->first_line);
    EXPECT_TRUE(result.status.ok()) << DescribeError(result.status);
    if (games < expected_actions.size()) {
      EXPECT_EQ(result.game.actions.size(), static_cast<size_t>(expected_actions[games]));
    }
    if (games < expected_slices.size()) {
      EXPECT_EQ(game->byte_offset, expected_slices[games].first);
      EXPECT_EQ(game->text.size(), expected_slices[games].second);
    }
    ++games;
  }
  EXPECT_EQ(games, 1494u);
  EXPECT_EQ(expected_actions.size(), 1494u);
}

}  // namespace
}  // namespace fived
