// 5d-index verify (indexer/verify.h): a sound database is sound; a changed row, a lost posting or
// a damaged page is reported with the games concerned.
#include "indexer/verify.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <fstream>
#include <sstream>
#include <string>

#include "indexer/index.h"
#include "schema/page_checksums.h"
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

// Changes the database with SQL the programs never run (the raw connection has no
// fived_game_check, so the rows' checksum stays as it was), through the page checksum VFS as the
// programs write (a change made without it is a damaged page: PageChecksums.*).
void Tamper(const std::string& db, const std::string& sql) {
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open_v2(db.c_str(), &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                            PageChecksumVfs()),
            SQLITE_OK);
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

// A byte flipped in a page of the games table (a value SQLite's checks accept, such as a result)
// is found by the page's checksum.
TEST(Verify, AFlippedByteIsAPageFailingItsChecksum) {
  TempDir dir;
  const std::string db = Indexed(dir);
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open_v2(db.c_str(), &raw, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  sqlite3_stmt* s = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(raw,
                               "SELECT pageno FROM dbstat WHERE name = 'games' AND "
                               "pagetype = 'leaf' ORDER BY pageno LIMIT 1",
                               -1, &s, nullptr),
            SQLITE_OK);
  ASSERT_EQ(sqlite3_step(s), SQLITE_ROW);
  const int64_t page = sqlite3_column_int64(s, 0);
  sqlite3_finalize(s);
  sqlite3_close(raw);
  {
    std::fstream file(db, std::ios::in | std::ios::out | std::ios::binary);
    const std::streamoff at = (page - 1) * 16384 + 16000;  // the cells are at the page's end
    file.seekg(at);
    char byte = 0;
    file.read(&byte, 1);
    file.seekp(at);
    byte = static_cast<char>(byte ^ 0x01);
    file.write(&byte, 1);
  }
  const VerifyReport report = VerifyDatabase(db);
  EXPECT_EQ(report.verdict, VerifyReport::Verdict::kDamaged);
  ASSERT_FALSE(report.problems.empty());
  EXPECT_EQ(report.problems.front(), "page " + std::to_string(page) + ": fails its checksum");
}

// meta.tactics_version is missing (a database made before it) or a version number.
TEST(Verify, ATacticsVersionIsANumber) {
  TempDir dir;
  const std::string db = Indexed(dir);
  Tamper(db, "INSERT INTO meta(key, value) VALUES ('tactics_version', '2')");
  EXPECT_EQ(VerifyDatabase(db).verdict, VerifyReport::Verdict::kSound);
  Tamper(db, "UPDATE meta SET value = '2x' WHERE key = 'tactics_version'");
  const VerifyReport report = VerifyDatabase(db);
  EXPECT_EQ(report.verdict, VerifyReport::Verdict::kDamaged);
  ASSERT_EQ(report.problems.size(), 1u);
  EXPECT_EQ(report.problems.front(), "meta: tactics_version is '2x'");
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
