// Page checksums (schema/page_checksums.h): a new database carries them on every page but the
// first; a byte flipped in a page fails the statement that reads it, whether SQLite reads the page
// or maps it, with a message naming the page, and CheckPageChecksums finds it from the file; a
// database made without them (another program's, or an older one) is read as it is; copies made
// with SQLite's backup keep them.
#include "schema/page_checksums.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "schema/db.h"
#include "tests/temp_dir.h"

namespace fived {
namespace {

using ::fived::testing::TempDir;

// A database made as the programs make it, with a table `t` of `rows` rows of 300 bytes each
// (about 50 rows a 16 KiB page), written, checkpointed and closed.
std::string Made(const TempDir& dir, int rows) {
  const std::string path = dir.File("games.sqlite");
  Result<Database> db = OpenDatabase(path, OpenMode::kReadWrite);
  EXPECT_TRUE(db.ok()) << db.error().message();
  if (!db.ok()) return path;
  EXPECT_TRUE(db.value().Exec("CREATE TABLE t(n INTEGER PRIMARY KEY, x BLOB)").ok());
  EXPECT_TRUE(db.value()
                  .Exec("WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c "
                        "WHERE i < " +
                        std::to_string(rows) + ") INSERT INTO t SELECT i, randomblob(300) FROM c")
                  .ok());
  return path;
}

// The page holding row `n` of t (dbstat: the leaf whose cells include it), through a raw
// connection.
int64_t PageOfRow(const std::string& path, int n) {
  sqlite3* raw = nullptr;
  EXPECT_EQ(sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  // Leaves in key order: the row's leaf is the first whose last key is at least n. dbstat lists
  // pages in b-tree order, so count rows page by page.
  sqlite3_stmt* s = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(raw,
                               "SELECT pageno, ncell FROM dbstat WHERE name = 't' AND "
                               "pagetype = 'leaf' ORDER BY path",
                               -1, &s, nullptr),
            SQLITE_OK);
  int64_t page = -1, seen = 0;
  while (sqlite3_step(s) == SQLITE_ROW) {
    seen += sqlite3_column_int64(s, 1);
    if (seen >= n) {
      page = sqlite3_column_int64(s, 0);
      break;
    }
  }
  sqlite3_finalize(s);
  sqlite3_close(raw);
  return page;
}

void Flip(const std::string& path, int64_t page, int offset_in_page) {
  std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
  file.seekg((page - 1) * 16384 + offset_in_page);
  char byte = 0;
  file.read(&byte, 1);
  byte = static_cast<char>(byte ^ 0x20);
  file.seekp((page - 1) * 16384 + offset_in_page);
  file.write(&byte, 1);
}

// Reads every row of t; the error, or success.
Status ReadAll(const std::string& path, bool mapped) {
  Result<Database> db = OpenDatabase(path, OpenMode::kReadOnly);
  if (!db.ok()) return db.error();
  if (mapped) {
    EXPECT_TRUE(db.value().Exec("PRAGMA mmap_size = 1073741824").ok());
  }
  Result<Statement> s = db.value().Prepare("SELECT sum(length(x)) FROM t");
  if (!s.ok()) return s.error();
  Result<StepResult> step = s.value().Step();
  if (!step.ok()) return step.error();
  return Status();
}

TEST(PageChecksums, ANewDatabaseCarriesThemOnEveryPage) {
  TempDir dir;
  const std::string path = Made(dir, 2000);
  const PageChecksumReport report = CheckPageChecksums(path);
  EXPECT_TRUE(report.error.empty()) << report.error;
  EXPECT_TRUE(report.checked);
  EXPECT_EQ(report.page_size, 16384);
  EXPECT_EQ(report.pages * 16384, static_cast<int64_t>(std::filesystem::file_size(path)));
  EXPECT_GT(report.pages, 30);  // 2,000 rows of 300 bytes
  EXPECT_TRUE(report.bad_pages.empty());
  EXPECT_TRUE(ReadAll(path, false).ok());
  EXPECT_TRUE(ReadAll(path, true).ok());
}

TEST(PageChecksums, AFlippedByteFailsTheStatementThatReadsItsPage) {
  for (const bool mapped : {false, true}) {
    SCOPED_TRACE(mapped ? "memory-mapped" : "read");
    TempDir dir;
    const std::string path = Made(dir, 2000);
    const int64_t page = PageOfRow(path, 1000);
    ASSERT_GT(page, 1);
    // A byte of a row's blob: SQLite's own checks see nothing wrong with it.
    Flip(path, page, 8000);
    const Status error = ReadAll(path, mapped);
    ASSERT_FALSE(error.ok());
    EXPECT_EQ(error.detail(), SQLITE_IOERR_DATA);
    EXPECT_NE(error.message().find("the database file is damaged: page " + std::to_string(page) +
                                   " of " + path + " fails its checksum"),
              std::string::npos)
        << error.message();
    const PageChecksumReport report = CheckPageChecksums(path);
    EXPECT_EQ(report.bad_pages, std::vector<int64_t>{page});
    // Other tables' pages still read.
    Result<Database> db = OpenDatabase(path, OpenMode::kReadOnly);
    ASSERT_TRUE(db.ok()) << db.error().message();
    Result<Statement> meta = db.value().Prepare("SELECT count(*) FROM meta");
    ASSERT_TRUE(meta.ok());
    Result<StepResult> step = meta.value().Step();
    EXPECT_TRUE(step.ok()) << step.error().message();
  }
}

TEST(PageChecksums, TheReservedBytesAreTheChecksumOfTheRest) {
  std::vector<uint8_t> page(4096);
  for (size_t i = 0; i < page.size(); ++i) page[i] = static_cast<uint8_t>(i * 7);
  const uint64_t sum = PageChecksum(page.data(), 4096);
  for (size_t i : {size_t{0}, size_t{100}, size_t{4087}}) {
    page[i] ^= 1;
    EXPECT_NE(PageChecksum(page.data(), 4096), sum) << "byte " << i;
    page[i] ^= 1;
  }
  page[4088] ^= 1;  // the checksum's own bytes
  EXPECT_EQ(PageChecksum(page.data(), 4096), sum);
}

TEST(PageChecksums, AFileWithoutThemIsReadAsItIs) {
  TempDir dir;
  const std::string path = dir.File("other.sqlite");
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &raw), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(raw, "CREATE TABLE t(x); INSERT INTO t VALUES (randomblob(5000))", nullptr,
                         nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(raw);
  const PageChecksumReport report = CheckPageChecksums(path);
  EXPECT_TRUE(report.error.empty()) << report.error;
  EXPECT_FALSE(report.checked);
  Result<Database> db = Database::Connect(path, OpenMode::kReadOnly);
  ASSERT_TRUE(db.ok()) << db.error().message();
  Result<Statement> s = db.value().Prepare("SELECT length(x) FROM t");
  ASSERT_TRUE(s.ok());
  Result<StepResult> step = s.value().Step();
  ASSERT_TRUE(step.ok()) << step.error().message();
  EXPECT_EQ(s.value().Int64(0), 5000);
}

TEST(PageChecksums, ABackupCopyKeepsThem) {
  TempDir dir;
  const std::string path = Made(dir, 500);
  const std::string copy = dir.File("copy.sqlite");
  sqlite3* from = nullptr;
  sqlite3* to = nullptr;
  ASSERT_EQ(sqlite3_open_v2(path.c_str(), &from, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_open(copy.c_str(), &to), SQLITE_OK);
  sqlite3_backup* backup = sqlite3_backup_init(to, "main", from, "main");
  ASSERT_NE(backup, nullptr);
  EXPECT_EQ(sqlite3_backup_step(backup, -1), SQLITE_DONE);
  sqlite3_backup_finish(backup);
  sqlite3_close(to);
  sqlite3_close(from);
  const PageChecksumReport report = CheckPageChecksums(copy);
  EXPECT_TRUE(report.checked);
  EXPECT_TRUE(report.bad_pages.empty());
  EXPECT_TRUE(ReadAll(copy, false).ok());
}

}  // namespace
}  // namespace fived
