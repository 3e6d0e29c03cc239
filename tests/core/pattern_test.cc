// Board patterns (core/pattern.h): every token, the unmoved mark, sizes from 1x1 to 16x16, pins,
// canonical writing and the errors, each pinned to its column.
#include "core/pattern.h"

#include <gtest/gtest.h>

#include <string>

#include "core/fen.h"

namespace fived {
namespace {

// n wildcards ("?" repeated; written out, "??/" would read as a trigraph to a C++14 compiler).
std::string Any(int n) { return std::string(static_cast<size_t>(n), '?'); }

BoardPattern Parse(const std::string& text) {
  Result<BoardPattern> parsed = ParseBoardPattern(text);
  if (!parsed.ok()) {
    ADD_FAILURE() << text << ": " << parsed.error().message();
    return {};
  }
  return std::move(parsed).value();
}

Status Error(const std::string& text) {
  Result<BoardPattern> parsed = ParseBoardPattern(text);
  if (!parsed.ok()) return parsed.error();
  ADD_FAILURE() << text << " parsed";
  return Status::InvalidArgument("parsed").At({});
}

Board FromFen(const std::string& fen) {
  auto parsed = ParseFenBoard(fen + ":0:1:w");
  if (!parsed.ok()) {
    ADD_FAILURE() << fen << ": " << parsed.error().message();
    return {};
  }
  return parsed.value().board;
}

constexpr const char* kStart = "r*nbqk*bnr*/p*p*p*p*p*p*p*p*/8/8/8/8/P*P*P*P*P*P*P*P*/R*NBQK*BNR*";

TEST(PatternTest, AWholeBoardMatchesItselfOnly) {
  const BoardPattern pattern = Parse(kStart);
  EXPECT_EQ(pattern.width, 8);
  EXPECT_EQ(pattern.height, 8);
  EXPECT_EQ(pattern.constrained.size(), 64u);
  EXPECT_TRUE(pattern.Matches(FromFen(kStart)));
  // One pawn moved: e2 empty, e3 a moved pawn.
  EXPECT_FALSE(pattern.Matches(
      FromFen("r*nbqk*bnr*/p*p*p*p*p*p*p*p*/8/8/8/4P3/P*P*P*P*1P*P*P*/R*NBQK*BNR*")));
}

TEST(PatternTest, EachToken) {
  // a1 holds the token; every other square is '?'.
  auto one = [](const std::string& token) {
    std::string ranks;
    for (int r = 0; r < 7; ++r) ranks += Any(8) + "/";
    return Parse(ranks + token + Any(7));
  };
  auto with_a1 = [](const std::string& a1) {
    return FromFen("8/8/8/8/8/8/8/" + a1 + (a1.empty() ? "8" : "7"));
  };
  const Board empty = with_a1("");
  const Board white_rook = with_a1("R");
  const Board unmoved_rook = with_a1("R*");
  const Board black_queen = with_a1("q");
  const Board white_princess = with_a1("S");

  // A letter: that piece, moved or not.
  EXPECT_TRUE(one("R").Matches(white_rook));
  EXPECT_TRUE(one("R").Matches(unmoved_rook));
  EXPECT_FALSE(one("R").Matches(empty));
  EXPECT_FALSE(one("r").Matches(white_rook));
  // With '*': unmoved only.
  EXPECT_TRUE(one("R*").Matches(unmoved_rook));
  EXPECT_FALSE(one("R*").Matches(white_rook));
  // '?' anything; '!' any piece; 'A' / 'a' a colour.
  for (const Board* board : {&empty, &white_rook, &black_queen}) {
    EXPECT_TRUE(one("?").Matches(*board));
  }
  EXPECT_FALSE(one("!").Matches(empty));
  EXPECT_TRUE(one("!").Matches(black_queen));
  EXPECT_TRUE(one("A").Matches(white_princess));
  EXPECT_FALSE(one("A").Matches(black_queen));
  EXPECT_TRUE(one("a").Matches(black_queen));
  EXPECT_FALSE(one("a").Matches(empty));
  // A number: empty squares.
  EXPECT_TRUE(Parse("8/8/8/8/8/8/8/1" + Any(7)).Matches(empty));
  EXPECT_FALSE(Parse("8/8/8/8/8/8/8/1" + Any(7)).Matches(white_rook));
  // Sets.
  EXPECT_TRUE(one("[RQq]").Matches(black_queen));
  EXPECT_TRUE(one("[RQq]").Matches(white_rook));
  EXPECT_FALSE(one("[RQq]").Matches(white_princess));
  EXPECT_TRUE(one("[.q]").Matches(empty));
  EXPECT_FALSE(one("[.q]").Matches(white_rook));
  EXPECT_TRUE(one("[R*]").Matches(unmoved_rook));
  EXPECT_FALSE(one("[R*]").Matches(white_rook));
  EXPECT_TRUE(one("[^.]").Matches(white_rook));
  EXPECT_FALSE(one("[^.]").Matches(empty));
  EXPECT_FALSE(one("[^Ra]").Matches(unmoved_rook));
  EXPECT_FALSE(one("[^Ra]").Matches(black_queen));
  EXPECT_TRUE(one("[^Ra]").Matches(white_princess));
  EXPECT_TRUE(one("[^Ra]").Matches(empty));
  EXPECT_TRUE(one("[A.]").Matches(empty));
  EXPECT_FALSE(one("[A.]").Matches(black_queen));
  // Every piece letter, both colours.
  for (const char* letter : {"P", "B", "N", "R", "Q", "K", "S", "W", "C", "Y", "U", "D"}) {
    const std::string upper = letter;
    const std::string lower(1, static_cast<char>(std::tolower(letter[0])));
    EXPECT_TRUE(one(upper).Matches(with_a1(upper))) << upper;
    EXPECT_FALSE(one(upper).Matches(with_a1(lower))) << upper;
    EXPECT_TRUE(one(lower).Matches(with_a1(lower))) << lower;
  }
}

TEST(PatternTest, OnlyBoardsOfItsSize) {
  std::string eight = Any(8), five = Any(5);
  for (int r = 1; r < 8; ++r) eight += "/" + Any(8);
  for (int r = 1; r < 5; ++r) five += "/" + Any(5);
  EXPECT_FALSE(Parse(eight).Matches(FromFen("5/5/5/5/5")));
  EXPECT_TRUE(Parse(five).Matches(FromFen("5/5/5/5/5")));
  EXPECT_FALSE(Parse(five.substr(6)).Matches(FromFen("5/5/5/5/5")));
}

TEST(PatternTest, FiveByFive) {
  // Very Small - Open style: kings in the corners.
  const Board board = FromFen("k*4/5/5/5/4K*");
  EXPECT_TRUE(Parse("a4/5/5/5/4K").Matches(board));
  const std::string middle = "/" + Any(5) + "/" + Any(5) + "/" + Any(5) + "/";
  EXPECT_TRUE(Parse("k*" + Any(4) + middle + Any(4) + "[KC]").Matches(board));
  EXPECT_FALSE(Parse("k" + Any(4) + middle + Any(4) + "[QC]").Matches(board));
}

TEST(PatternTest, SixteenBySixteen) {
  Board board(16, 16);
  board.Set(15, 15, Piece(PieceType::kQueen, Color::kBlack));  // p16
  board.Set(0, 0, Piece(PieceType::kKing, Color::kWhite, true));
  std::string rows;
  for (int r = 0; r < 16; ++r) {
    if (r > 0) rows += '/';
    rows += r == 0 ? "15q" : r == 15 ? "K*15" : "16";
  }
  EXPECT_TRUE(Parse(rows).Matches(board));
  std::string wild;
  for (int r = 0; r < 16; ++r) {
    if (r > 0) wild += '/';
    wild += r == 0 ? Any(15) + "[qQ]" : Any(16);
  }
  const BoardPattern pattern = Parse(wild);
  EXPECT_EQ(pattern.constrained.size(), 1u);
  EXPECT_TRUE(pattern.Matches(board));
  board.Set(15, 15, Piece());
  EXPECT_FALSE(pattern.Matches(board));
}

TEST(PatternTest, Pins) {
  const BoardPattern none = Parse("8/8/8/8/8/8/8/8");
  EXPECT_FALSE(none.timeline || none.turn || none.color);
  const BoardPattern all = Parse("[8/8/8/8/8/8/8/8:+1:5:b]");
  ASSERT_TRUE(all.timeline && all.turn && all.color);
  const TimelineLabeling odd{false}, even{true};
  EXPECT_TRUE(all.PinsAccept(odd, 1, HalfTurn(5, Color::kBlack)));
  EXPECT_FALSE(all.PinsAccept(odd, 1, HalfTurn(5, Color::kWhite)));
  EXPECT_FALSE(all.PinsAccept(odd, 0, HalfTurn(5, Color::kBlack)));
  EXPECT_FALSE(all.PinsAccept(odd, 1, HalfTurn(6, Color::kBlack)));
  const BoardPattern minus_zero = Parse("8/8/8/8/8/8/8/8:-0:*:*");
  EXPECT_TRUE(minus_zero.PinsAccept(even, -1, 7));  // -0 of an even game is index -1
  EXPECT_FALSE(minus_zero.PinsAccept(even, 0, 7));
  EXPECT_TRUE(minus_zero.PinsAccept(odd, 0, 7));  // "-0" is 0 in an odd game
  const BoardPattern colour = Parse("8/8/8/8/8/8/8/8:*:*:w");
  EXPECT_TRUE(colour.PinsAccept(odd, 3, HalfTurn(9, Color::kWhite)));
  EXPECT_FALSE(colour.PinsAccept(odd, 3, HalfTurn(9, Color::kBlack)));
}

TEST(PatternTest, EnclosingBrackets) {
  // Brackets around the whole pattern are optional; a pattern may start with a set.
  EXPECT_EQ(Parse("[8/8/8/8/8/8/8/8]").ToString(), "8/8/8/8/8/8/8/8");
  EXPECT_EQ(Parse("[Qq]7/8/8/8/8/8/8/7[Kk]").ToString(), "[Qq]7/8/8/8/8/8/8/7[Kk]");
  EXPECT_EQ(Parse("[[Qq]7/8/8/8/8/8/8/7[Kk]]").ToString(), "[Qq]7/8/8/8/8/8/8/7[Kk]");
  EXPECT_EQ(Parse("[Qq]").width, 1);
  EXPECT_EQ(Parse("  8/8/8/8/8/8/8/8  ").ToString(), "8/8/8/8/8/8/8/8");
}

TEST(PatternTest, WrittenBackCanonically) {
  for (const char* text :
       {"r*nbqk*bnr*/p*p*p*p*p*p*p*p*/8/8/8/8/P*P*P*P*P*P*P*P*/R*NBQK*BNR*", "8/8/8/8/3Q4/8/8/7k",
        "?Q?q?k?K/8/8/8/8/8/8/8", "!A3a2/[.Q]7/[Qq]7/8/8/8/8/8:+1:*:b", "8/8/8/8/8/8/8/8:*:12:*",
        "k4/5/5/5/4K:-0:3:w", "8/8/8/8/8/8/8/8:=+1:=:=", "8/8/8/8/8/8/8/8:=:=-2:*",
        "8/8/8/8/8/8/8/8:=-1:4:b",
        // A king that has moved, written by what it leaves out (found by fuzz_pattern: "7K"
        // would also take an unmoved king).
        "7[^.K*]", "[^K*k*]7/8/8/8/8/8/8/8"}) {
    EXPECT_EQ(Parse(text).ToString(), text);
    EXPECT_EQ(Parse(Parse(text).ToString()).squares, Parse(text).squares) << text;
  }
}

TEST(PatternTest, ErrorsPointAtTheCharacter) {
  struct Case {
    const char* text;
    size_t column;
    const char* message;
  } cases[] = {
      {"8/8/8/8/8/8/8/7X", 16, "unknown piece letter or token 'X'"},
      {"8/8/8/8/8/8/8/Q*7", 16,
       "'*' after 'Q': only P, W, K and R (pawns, brawns, kings, rooks) "
       "carry the unmoved mark"},
      {"8/8/8/8/8/8/8/*8", 15, "'*' must follow a piece letter"},
      {"8/8/8/8/8/8/8/[Qq7", 15, "'[' is not closed"},
      {"8/8/8/8/8/8/8/[]7", 15, "'[]' lists nothing"},
      {"8/8/8/8/8/8/8/[^.KQRBNPSWCYUDkqrbnpswcyud]7", 15, "this set accepts nothing"},
      {"8/8/8/8/8/8/8/8]", 16, "']' without '['"},
      {"8/8/8/7/8/8/8/8", 7, "rank 4 from the top has 7 squares, the first has 8"},
      {"8/8/8/8/8/8/8/9", 15, "rank 8 from the top has 9 squares, the first has 8"},
      {"17/8", 1, "a run of more than 16 empty squares"},
      {"0/8", 1, "a run of 0 empty squares"},
      {"", 1, "empty pattern"},
      {"8/8/8/8/8/8/8/8:1:2", 20,
       "expected three pins after the pieces, ':timeline:turn:colour' ('*' for any)"},
      {"8/8/8/8/8/8/8/8:x:2:w", 17, "timeline 'x' is not a timeline (0, +1, -1, -0, +0) or '*'"},
      {"8/8/8/8/8/8/8/8:0:-2:w", 19, "turn '-2' is not a turn number or '*'"},
      {"8/8/8/8/8/8/8/8:0:2:white", 21, "colour 'white' is not w, b, = or '*'"},
      {"8/8/8/8/8/8/8/8:=x:*:*", 17,
       "timeline '=x' is not =, =+N or =-N (relative to the previous pattern's board)"},
      {"8/8/8/8/8/8/8/8:*:=2:*", 19,
       "turn '=2' is not =, =+N or =-N (relative to the previous pattern's board)"},
      {"8/8/8/8/8/8/8/8:0:2:w:", 22, "too many ':' fields (expected pieces:L:T:c)"},
      {"8/8/8/8/8/8/8/?[?]6", 17, "unknown piece letter or token '?'"},
  };
  for (const Case& c : cases) {
    const Status error = Error(c.text);
    EXPECT_EQ(error.code(), StatusCode::kInvalidArgument) << c.text;
    ASSERT_TRUE(error.place().has_value()) << c.text;
    EXPECT_EQ(error.place()->column, c.column) << c.text;
    EXPECT_EQ(error.place()->reason, c.message) << c.text;
  }
  EXPECT_EQ(Error("8/8/8/8/8/8/8/7X").message(),
            "col 16: unknown piece letter or token 'X'\n  8/8/8/8/8/8/8/7X\n                 ^");
}

}  // namespace
}  // namespace fived
