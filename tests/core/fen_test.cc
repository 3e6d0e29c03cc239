// 5DFEN reading and canonical writing, and the specification's golden hashes.
#include "core/fen.h"

#include <gtest/gtest.h>

#include <string>

#include "core/keys.h"
#include "core/position.h"
#include "core/variants.h"

namespace fived {
namespace {

FenBoard MustParse(std::string_view text, int width = 0, int height = 0) {
  auto result = ParseFenBoard(text, width, height);
  if (!result.ok()) {
    ADD_FAILURE() << text << ": " << result.error().message();
    return FenBoard{};
  }
  return result.value();
}

// The starting position of an official variant.
Position Start(std::string_view name) {
  const Variant* variant = FindVariant(name);
  EXPECT_NE(variant, nullptr) << name;
  std::vector<Position::InitialBoard> boards;
  bool even = false;
  for (const std::string& text : variant->boards)
    even = even || MustParse(text).timeline_signed_zero;
  TimelineLabeling labeling{even};
  for (const std::string& text : variant->boards) {
    FenBoard fen = MustParse(text, variant->width, variant->height);
    boards.push_back({fen.board,
                      labeling.FromNotation(fen.timeline_negative, fen.timeline_magnitude),
                      HalfTurn(fen.turn, fen.color)});
  }
  Position pos;
  const Status status = pos.Init(variant->width, variant->height, even, boards);
  EXPECT_TRUE(status.ok()) << status.message();
  return pos;
}

TEST(Fen, GoldenHashesOfTheSpecification) {
  EXPECT_EQ(Start("Standard").StateMd5(), "d574889fd9da3f2bc65249ff27249b00");
  EXPECT_EQ(Start("Standard - Two Timelines").StateMd5(), "3672761404ffcd15ae644c75401812be");
  EXPECT_EQ(Md5Hex("[r*nbqk*bnr*/p*p*p*p*p*p*p*p*/8/8/8/8/P*P*P*P*P*P*P*P*/R*NBQK*BNR*:0:1:w]"),
            "d574889fd9da3f2bc65249ff27249b00");
  EXPECT_EQ(Md5Hex(""), "d41d8cd98f00b204e9800998ecf8427e");
}

TEST(Fen, EveryOfficialVariantRoundTrips) {
  for (const Variant& variant : OfficialVariants()) {
    Position pos = Start(variant.name);
    // The variants table writes "1" where the canonical form writes "+1".
    std::string expected;
    for (std::string text : variant.boards) {
      const size_t field = text.find(':') + 1;
      if (text[field] != '-' && text[field] != '+' && text[field] != '0') text.insert(field, "+");
      expected += text;
    }
    EXPECT_EQ(pos.StateFen(), expected) << variant.name;
  }
}

TEST(Fen, CanonicalFormMarksOnlyTrackedPieces) {
  // '*' on a knight, queen or common king is accepted and dropped.
  const FenBoard fen = MustParse("[n*q*c*k*/4/4/R*P*W*K*:0:1:w]");
  EXPECT_EQ(FenPieces(fen.board), "nqck*/4/4/R*P*W*K*");
}

TEST(Fen, TimelineFields) {
  struct Case {
    std::string text;
    bool negative, signed_zero;
    int magnitude;
  } cases[] = {{"[1:0:1:w]", false, false, 0},
               {"[1:-0:1:w]", true, true, 0},
               {"[1:+0:1:b]", false, true, 0},
               {"[1:-3:7:b]", true, false, 3},
               {"[1:+2:0:b]", false, false, 2}};
  for (const Case& c : cases) {
    const FenBoard fen = MustParse(c.text);
    EXPECT_EQ(fen.timeline_negative, c.negative) << c.text;
    EXPECT_EQ(fen.timeline_signed_zero, c.signed_zero) << c.text;
    EXPECT_EQ(fen.timeline_magnitude, c.magnitude) << c.text;
  }
}

// What the fuzzing harness checks (tests/fuzz/fuzz_fen.cc), on its first input: a board string
// without brackets, an unsigned timeline, turn 0 and a capital colour reads, and its canonical
// text reads back to the same board and is written the same again.
TEST(Fen, LenientBoardStringsWriteBackCanonically) {
  const FenBoard fen = MustParse("5:10:0:B");
  EXPECT_EQ(fen.board.width(), 5);
  EXPECT_EQ(fen.board.height(), 1);
  EXPECT_EQ(fen.timeline_magnitude, 10);
  EXPECT_EQ(fen.turn, 0);
  EXPECT_EQ(fen.color, Color::kBlack);
  std::string canonical;
  AppendFenBoard(fen.board, "+10", fen.turn, fen.color, &canonical);
  EXPECT_EQ(canonical, "[5:+10:0:b]");
  const FenBoard again = MustParse(canonical);
  std::string rewritten;
  AppendFenBoard(again.board, "+10", again.turn, again.color, &rewritten);
  EXPECT_EQ(rewritten, canonical);
}

TEST(Fen, LargeBoards) {
  const FenBoard fen = MustParse("[16/16/16/16/16/16/16/16/16/16/16/16/16/16/16/K*14k*:0:1:w]");
  EXPECT_EQ(fen.board.width(), 16);
  EXPECT_EQ(fen.board.height(), 16);
  EXPECT_EQ(fen.board.at(0, 0).type(), PieceType::kKing);
  EXPECT_EQ(fen.board.at(15, 0).color(), Color::kBlack);
  EXPECT_EQ(FenPieces(fen.board), "16/16/16/16/16/16/16/16/16/16/16/16/16/16/16/K*14k*");
}

TEST(Fen, Errors) {
  struct Case {
    std::string text;
    int width, height;
    std::string error;
  } cases[] = {
      {"[8/8:0:1:w]", 8, 8, "2 rows, expected 8"},
      {"[7/8/8/8/8/8/8/8:0:1:w]", 8, 8, "row 1 has 7 squares, expected 8"},
      {"[8/8/8/8/8/8/8/8:0:1:x]", 8, 8, "bad colour 'x' (expected w or b)"},
      {"[8/8/8/8/8/8/8/8:a:1:w]", 8, 8, "bad timeline 'a'"},
      {"[8/8/8/8/8/8/8/8:0:1]", 8, 8, "expected 4 fields pieces:timeline:turn:colour"},
      {"[Xp6/8/8/8/8/8/8/8:0:1:w]", 8, 8, "unknown piece letter 'X'"},
      {"[17:0:1:w]", 0, 0, "run of 17 empty squares is too long"},
  };
  for (const Case& c : cases) {
    auto result = ParseFenBoard(c.text, c.width, c.height);
    ASSERT_FALSE(result.ok()) << c.text;
    EXPECT_EQ(result.error().code(), StatusCode::kInvalidArgument) << c.text;
    EXPECT_EQ(result.error().message(), c.error) << c.text;
  }
}

TEST(Keys, GoldenValuesAreFrozen) {
  // These keys are stored in databases (kKeyVersion 1). The expected values were computed by
  // scripts/golden-keys.py from the layouts documented in keys.h, with the xxhsum tool, not by
  // this code. If this test fails the key algorithm changed: bump kKeyVersion and the schema.
  EXPECT_EQ(kKeyVersion, 1u);
  const Position standard = Start("Standard");
  EXPECT_EQ(BoardContentKey(standard.Tip(0)), 0x67029a4532b5d859ull);
  EXPECT_EQ(standard.StateKey(), 0x7aff8a476d5d46f9ull);
  EXPECT_EQ(Start("Standard - Two Timelines").StateKey(), 0x4e977e24297f7b91ull);
}

TEST(Keys, StateKeyGrowsWithBoardsAndRollsBack) {
  Position pos = Start("Standard");
  const uint64_t before = pos.StateKey();
  const Position::Mark mark = pos.GetMark();
  Board next = pos.Tip(0);
  next.Set(4, 3, next.at(4, 1).Moved());
  next.Set(4, 1, Piece());
  pos.Append(0, next);
  EXPECT_EQ(pos.StateKey(), before + PlacedBoardKey(BoardContentKey(next), 0, 3));
  pos.Rollback(mark);
  EXPECT_EQ(pos.StateKey(), before);
  EXPECT_EQ(pos.board_count(), 1u);
}

}  // namespace
}  // namespace fived
