// How game endings are stored (schema/ending.h): the frozen integers of games.verdict and
// games.checked_side, the database's own checks on them, and the rules that read a verdict
// against a result.
#include "schema/ending.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>

#include "schema/db.h"
#include "tests/temp_dir.h"

namespace fived {
namespace {

using Verdict = Decision::Verdict;

TEST(Ending, StoredValuesAreFrozen) {
  // Golden: every database of schema version 5 holds these numbers (schema/README.md).
  EXPECT_EQ(VerdictToSql(Verdict::kCheckmate), 1);
  EXPECT_EQ(VerdictToSql(Verdict::kStalemate), 2);
  EXPECT_EQ(VerdictToSql(Verdict::kPlayable), 3);
  EXPECT_EQ(VerdictToSql(Verdict::kUnknown), 4);
  EXPECT_EQ(SideToSql(Color::kWhite), 0);
  EXPECT_EQ(SideToSql(Color::kBlack), 1);
  for (int64_t value = 1; value <= 4; ++value) {
    ASSERT_TRUE(VerdictFromSql(value).has_value()) << value;
    EXPECT_EQ(VerdictToSql(*VerdictFromSql(value)), value);
  }
  EXPECT_FALSE(VerdictFromSql(0).has_value());
  EXPECT_FALSE(VerdictFromSql(5).has_value());
  EXPECT_EQ(SideFromSql(0), Color::kWhite);
  EXPECT_EQ(SideFromSql(1), Color::kBlack);
}

TEST(Ending, NamesAreTheEnginesNames) {
  EXPECT_EQ(VerdictFromName("checkmate"), Verdict::kCheckmate);
  EXPECT_EQ(VerdictFromName("Stalemate"), Verdict::kStalemate);
  EXPECT_EQ(VerdictFromName("PLAYABLE"), Verdict::kPlayable);
  EXPECT_EQ(VerdictFromName("unknown"), Verdict::kUnknown);
  EXPECT_FALSE(VerdictFromName("mate").has_value());
  EXPECT_FALSE(VerdictFromName("").has_value());
  EXPECT_FALSE(VerdictFromName("checkmates").has_value());
}

TEST(Ending, TheDatabaseRefusesValuesNoVersionWrites) {
  testing::TempDir dir;
  Result<Database> opened = OpenDatabase(dir.File("games.db"), OpenMode::kReadWrite);
  ASSERT_TRUE(opened.ok()) << opened.error().message();
  Database& db = opened.value();
  ASSERT_TRUE(db.Exec("INSERT INTO sources(id, path) VALUES (1, '/x')").ok());
  auto insert = [&](const std::string& columns, const std::string& values) {
    return db.Exec(
        "INSERT INTO games(source_id, byte_offset, game_index, text_hash, variant, width, height, "
        "even_start, actions, timelines, final_md5, start_key, final_key, identity, record, "
        "checksum" +
        columns + ") VALUES (1, 0, 1, 0, 'Standard', 8, 8, 0, 0, 1, '', 0, 0, 0, x'', 0" + values +
        ")");
  };
  EXPECT_TRUE(insert("", "").ok()) << "verdict NULL: not decided";
  EXPECT_TRUE(db.Exec("DELETE FROM games").ok());
  EXPECT_TRUE(insert(", verdict, checked_side, result_conflict", ", 1, 1, 1").ok());
  EXPECT_TRUE(db.Exec("DELETE FROM games").ok());
  EXPECT_FALSE(insert(", verdict", ", 0").ok());
  EXPECT_FALSE(insert(", verdict", ", 5").ok());
  EXPECT_FALSE(insert(", checked_side", ", 2").ok());
  EXPECT_FALSE(insert(", result_conflict", ", 2").ok());
  EXPECT_FALSE(insert(", verdict_work", ", -1").ok());
}

TEST(Ending, ResultsOfEndings) {
  // A checkmate is lost by the side to move (mated); a stalemate is a draw.
  EXPECT_EQ(ResultOfEnding(Verdict::kCheckmate, Color::kWhite), "0-1");
  EXPECT_EQ(ResultOfEnding(Verdict::kCheckmate, Color::kBlack), "1-0");
  EXPECT_EQ(ResultOfEnding(Verdict::kStalemate, Color::kWhite), "1/2-1/2");
  EXPECT_EQ(ResultOfEnding(Verdict::kStalemate, Color::kBlack), "1/2-1/2");
  EXPECT_EQ(ResultOfEnding(Verdict::kPlayable, Color::kWhite), "");
  EXPECT_EQ(ResultOfEnding(Verdict::kUnknown, Color::kBlack), "");
}

TEST(Ending, ConflictsWithTheResult) {
  struct Case {
    const char* claimed;
    Verdict verdict;
    Color to_move;
    bool conflict;
  } cases[] = {
      // Black mated: white won. Saying black won, a draw or "unfinished" is wrong.
      {"1-0", Verdict::kCheckmate, Color::kBlack, false},
      {"0-1", Verdict::kCheckmate, Color::kBlack, true},
      {"1/2-1/2", Verdict::kCheckmate, Color::kBlack, true},
      {"*", Verdict::kCheckmate, Color::kBlack, true},
      // White mated.
      {"0-1", Verdict::kCheckmate, Color::kWhite, false},
      {"1-0", Verdict::kCheckmate, Color::kWhite, true},
      // Stalemate is a draw whoever is to move.
      {"1/2-1/2", Verdict::kStalemate, Color::kWhite, false},
      {"1-0", Verdict::kStalemate, Color::kBlack, true},
      {"0-1", Verdict::kStalemate, Color::kWhite, true},
      {"*", Verdict::kStalemate, Color::kWhite, true},
      // A game that can go on may have ended by resignation, time or agreement: anything goes.
      {"1-0", Verdict::kPlayable, Color::kWhite, false},
      {"0-1", Verdict::kPlayable, Color::kWhite, false},
      {"1/2-1/2", Verdict::kPlayable, Color::kBlack, false},
      {"*", Verdict::kPlayable, Color::kBlack, false},
      {"*", Verdict::kUnknown, Color::kBlack, false},
      {"1-0", Verdict::kUnknown, Color::kBlack, false},
      // No result, or one that is not a standard token, claims nothing.
      {"", Verdict::kCheckmate, Color::kWhite, false},
      {"white wins", Verdict::kCheckmate, Color::kWhite, false},
      {"1-0 ", Verdict::kCheckmate, Color::kWhite, false},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(ResultContradicts(c.claimed, c.verdict, c.to_move), c.conflict)
        << "'" << c.claimed << "' " << VerdictName(c.verdict) << " "
        << (c.to_move == Color::kWhite ? "white" : "black") << " to move";
  }
}

TEST(Ending, ResultsCountedInStatistics) {
  const auto white = std::optional<Color>(Color::kWhite);
  const auto black = std::optional<Color>(Color::kBlack);
  const std::optional<Color> none;
  struct Case {
    std::string_view stored;
    std::optional<Verdict> verdict;
    std::optional<Color> checked;
    std::string_view counted;
    bool derived;
  } cases[] = {
      // No result, or "*": a proven ending settles it.
      {"", Verdict::kCheckmate, white, "0-1", true},
      {"", Verdict::kCheckmate, black, "1-0", true},
      {"*", Verdict::kCheckmate, black, "1-0", true},
      {"", Verdict::kStalemate, none, "1/2-1/2", true},
      {"*", Verdict::kStalemate, none, "1/2-1/2", true},
      // Nothing proven: nothing derived.
      {"", Verdict::kPlayable, white, "", false},
      {"*", Verdict::kPlayable, none, "*", false},
      {"", Verdict::kUnknown, none, "", false},
      {"", std::nullopt, none, "", false},
      {"*", std::nullopt, none, "*", false},
      // A checkmate without the side in check (never written) names no loser.
      {"", Verdict::kCheckmate, none, "", false},
      // A game's own result stays, even a conflicting one (reported apart).
      {"1-0", Verdict::kCheckmate, black, "1-0", false},
      {"0-1", Verdict::kCheckmate, black, "0-1", false},
      {"1/2-1/2", Verdict::kStalemate, none, "1/2-1/2", false},
      {"1-0 (time)", Verdict::kStalemate, none, "1-0 (time)", false},
  };
  for (const Case& c : cases) {
    const CountedResult counted = ResultToCount(c.stored, c.verdict, c.checked);
    EXPECT_EQ(counted.result, c.counted) << "'" << c.stored << "'";
    EXPECT_EQ(counted.derived, c.derived) << "'" << c.stored << "'";
  }
}

}  // namespace
}  // namespace fived
