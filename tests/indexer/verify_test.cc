// 5d-index verify (indexer/verify.h): a sound database is sound; a changed row, a lost posting or
// a damaged page is reported with the games concerned.
#include "indexer/verify.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <sstream>
#include <string>

#include "indexer/index.h"
#include "tests/indexer/run_as_tool.h"
#include "tests/temp_dir.h"

namespace fived {
namespace {

using ::fived::testing::TempDir;

std::string Corpus() { return std::string(FIVED_SOURCE_DIR) + "/corpus"; }

std::string Indexed(const TempDir& dir) {
  IndexOptions options;
  options.database = dir.File("games.sqlite");
  options.inputs = {Corpus()};
  options.jobs = 2;
  std::ostringstream out, err;
  EXPECT_EQ(testing::IndexAsTool(options, out, err), 1) << err.str();
  return options.database;
}

// Changes the database with SQL the programs never run (the sqlite3 shell's connection has no
// fived_game_check, so the checksum stays as it was).
void Tamper(const std::string& db, const std::string& sql) {
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(db.c_str(), &raw), SQLITE_OK);
  EXPECT_EQ(sqlite3_exec(raw, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sql;
  sqlite3_close(raw);
}

TEST(Verify, AFreshDatabaseIsSound) {
  TempDir dir;
  const VerifyReport report = VerifyDatabase(Indexed(dir));
  EXPECT_EQ(report.verdict, VerifyReport::Verdict::kSound)
      << (report.problems.empty() ? report.error : report.problems.front());
  EXPECT_EQ(report.games, 21);  // what 5d-index says it indexed from corpus/
  EXPECT_EQ(report.rejected, 1);
}

TEST(Verify, AChangedRowIsADamagedRecord) {
  TempDir dir;
  const std::string db = Indexed(dir);
  Tamper(db, "UPDATE games SET white = 'Someone Else' WHERE id = 3");
  const VerifyReport report = VerifyDatabase(db);
  EXPECT_EQ(report.verdict, VerifyReport::Verdict::kDamaged);
  ASSERT_FALSE(report.problems.empty());
  EXPECT_EQ(report.problems.front(), "game 3: record damaged");
  EXPECT_EQ(report.damaged_games, std::vector<int64_t>{3});
}

TEST(Verify, LostPostingsAndHeadersAreNamedByGame) {
  TempDir dir;
  const std::string db = Indexed(dir);
  Tamper(db, "DELETE FROM headers WHERE game_id = 5 AND position = 0");
  const VerifyReport report = VerifyDatabase(db);
  EXPECT_EQ(report.verdict, VerifyReport::Verdict::kDamaged);
  ASSERT_EQ(report.problems.size(), 1u);
  EXPECT_EQ(report.problems.front().rfind("game 5: headers disagree with its record", 0), 0u)
      << report.problems.front();
}

TEST(Verify, AnotherFileIsUnreadable) {
  TempDir dir;
  const std::string path = dir.File("not.sqlite");
  Tamper(path, "CREATE TABLE t(x)");
  const VerifyReport report = VerifyDatabase(path);
  EXPECT_EQ(report.verdict, VerifyReport::Verdict::kUnreadable);
  EXPECT_EQ(report.error, path + ": not a 5dpgn-db database (no meta table)");
}

}  // namespace
}  // namespace fived
