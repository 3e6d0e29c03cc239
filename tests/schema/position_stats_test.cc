// Per-position action statistics (schema/position_stats.h): the persisted encodings (action
// hashes, days) pinned, and counts that add up across transactions.
#include "schema/position_stats.h"

#include <gtest/gtest.h>

#include "schema/meta.h"
#include "tests/temp_dir.h"

namespace fived {
namespace {

TEST(PositionStatsTest, ActionHashIsOfTheSortedTextsAndFrozen) {
  EXPECT_EQ(ActionHash({"(0T1)e3"}), ActionHash({"(0T1)e3"}));
  EXPECT_EQ(ActionHash({"(-1T1)e3", "(1T1)e3"}), ActionHash({"(1T1)e3", "(-1T1)e3"}));
  EXPECT_NE(ActionHash({"(0T1)e3"}), ActionHash({"(0T1)e4"}));
  // Golden: XXH3-64 of "(-1T1)e3 (1T1)e3" (the sorted texts), as every database stores it
  // (checked with libxxhash from Python, outside this code).
  EXPECT_EQ(ActionHash({"(1T1)e3", "(-1T1)e3"}), 0x4d72519da840a41aull);
}

TEST(PositionStatsTest, DaysOrderAsTheTreeDatesDo) {
  struct Case {
    std::string date;
    int32_t day;
  } cases[] = {{"2021.03.01", 20210301},
               {"2021.??.??", 20219999},
               {"2021.04.??", 20210499},
               {"", 0},
               {"junk", 0}};
  for (const Case& c : cases) {
    EXPECT_EQ(TreeDay(c.date), c.day) << c.date;
    if (c.day != 0) {
      EXPECT_EQ(DayTreeDate(c.day), c.date);
    }
  }
  EXPECT_LT(TreeDay("2021.12.31"), TreeDay("2021.??.??"));
  EXPECT_LT(std::string("2021.12.31"), std::string("2021.??.??"));
}

TEST(PositionStatsTest, CountsAddUpAcrossTransactionsAndTheFirstTextStays) {
  testing::TempDir dir;
  Result<Database> opened = OpenDatabase(dir.File("db.sqlite"), OpenMode::kReadWrite);
  ASSERT_TRUE(opened.ok());
  Database& db = opened.value();
  Result<int> depth = PositionStatsActions(db);
  ASSERT_TRUE(depth.ok());
  EXPECT_EQ(depth.value(), kPositionStatsActions);
  Result<PositionStatsWriter> writer = PositionStatsWriter::Create(db);
  ASSERT_TRUE(writer.ok());
  ActionStat played;
  played.hash = ActionHash({"(0T1)e3"});
  played.text = "(0T1)e3";
  played.games = 1;
  played.white_wins = 1;
  played.first_date = played.last_date = "2021.03.01";
  ActionStat ended;
  ended.games = 1;
  writer.value().Add(42, played);
  writer.value().Add(42, ended);
  ASSERT_TRUE(writer.value().Write().ok());
  played.text = "(0T1)e3 later";  // a later game's text does not replace the first
  played.white_wins = 0;
  played.draws = 1;
  played.first_date = played.last_date = "2020.??.??";
  writer.value().Add(42, played);
  ASSERT_TRUE(writer.value().Write().ok());
  Result<std::vector<ActionStat>> rows = ReadPositionStats(db, 42);
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows.value().size(), 2u);
  const ActionStat& e3 = rows.value()[0].hash == 0 ? rows.value()[1] : rows.value()[0];
  EXPECT_EQ(e3.text, "(0T1)e3");
  EXPECT_EQ(e3.games, 2);
  EXPECT_EQ(e3.white_wins, 1);
  EXPECT_EQ(e3.draws, 1);
  EXPECT_EQ(e3.first_date, "2020.??.??");
  EXPECT_EQ(e3.last_date, "2021.03.01");
  EXPECT_TRUE(ReadPositionStats(db, 43).value().empty());
}

}  // namespace
}  // namespace fived
