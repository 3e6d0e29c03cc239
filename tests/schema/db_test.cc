// The SQLite wrapper and the schema of this version: opening and creating databases, the version
// check, binding and reading every type, transactions, key storage, WAL and concurrent readers, and
// the example SQL of schema/README.md.
#include "schema/db.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <stdlib.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "core/keys.h"
#include "schema/page_checksums.h"
#include "schema/pattern_index.h"
#include "schema/position_stats.h"
#include "schema/postings.h"
#include "schema/sql.h"
#include "tests/temp_dir.h"

namespace fived {
namespace {

namespace fs = std::filesystem;

using ::fived::testing::TempDir;

Database MustOpen(const std::string& path, OpenMode mode) {
  Result<Database> db = OpenDatabase(path, mode);
  if (!db.ok()) {
    ADD_FAILURE() << db.error().message();
    std::abort();
  }
  return std::move(db).value();
}

Statement MustPrepare(Database& db, std::string_view sql) {
  Result<Statement> statement = db.Prepare(sql);
  if (!statement.ok()) {
    ADD_FAILURE() << statement.error().message();
    std::abort();
  }
  return std::move(statement).value();
}

void MustExec(Database& db, std::string_view sql) {
  Status error = db.Exec(sql);
  ASSERT_TRUE(error.ok()) << error.message();
}

// The first column of the first row of a query, as text.
std::string QueryText(Database& db, std::string_view sql) {
  Statement statement = MustPrepare(db, sql);
  Result<StepResult> step = statement.Step();
  if (!step.ok()) return "error: " + step.error().message();
  if (step.value() != StepResult::kRow) return "no row";
  return std::string(statement.Text(0));
}

std::string OpenError(const std::string& path, OpenMode mode) {
  Result<Database> db = OpenDatabase(path, mode);
  if (db.ok()) return "opened";
  return db.error().message();
}

TEST(DatabaseTest, CreatesVersionNineDatabase) {
  TempDir dir;
  const std::string path = dir.File("games.db");
  {
    Database db = MustOpen(path, OpenMode::kReadWrite);
    EXPECT_EQ(db.Path(), path);
    EXPECT_EQ(QueryText(db, "SELECT value FROM meta WHERE key = 'schema_version'"), "9");
    EXPECT_EQ(QueryText(db, "SELECT value FROM meta WHERE key = 'key_version'"),
              std::to_string(kKeyVersion));
    EXPECT_EQ(QueryText(db, "SELECT value FROM meta WHERE key = 'application'"), "5dpgn-db");
    EXPECT_EQ(QueryText(db, "SELECT value FROM meta WHERE key = 'position_stats_actions'"),
              std::to_string(kPositionStatsActions));
    // Final states' MD5s only, until 5d-index --all-state-md5 says otherwise on a new database.
    EXPECT_EQ(QueryText(db, "SELECT value FROM meta WHERE key = 'state_md5'"), "final");
    // No mates in one, until 5d-index --tactics says otherwise on a new database.
    EXPECT_EQ(QueryText(db, "SELECT value FROM meta WHERE key = 'tactics'"), "off");
    // 16 KiB pages hold posting chunks of up to about 4,000 bytes (schema/README.md).
    EXPECT_EQ(QueryText(db, "PRAGMA page_size"), "16384");
    EXPECT_EQ(QueryText(db,
                        "SELECT value GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T*Z' "
                        "FROM meta WHERE key = 'created_at'"),
              "1");
    EXPECT_EQ(QueryText(db,
                        "SELECT group_concat(name, ' ') FROM (SELECT name FROM sqlite_schema "
                        "WHERE type = 'table' ORDER BY name)"),
              "board_keys board_streams dictionaries games headers md5_postings meta piece_counts "
              "piece_postings position_actions rejected sources state_postings tactics");
    EXPECT_EQ(QueryText(db,
                        "SELECT group_concat(name, ' ') FROM (SELECT name FROM sqlite_schema "
                        "WHERE type = 'index' AND sql IS NOT NULL ORDER BY name)"),
              "games_black_key games_date games_duplicate_of games_final_md5 games_identity "
              "games_result_conflict games_self_play games_variant games_verdict games_white_key");
  }
  EXPECT_TRUE(fs::exists(path));
  Database again = MustOpen(path, OpenMode::kReadWrite);
  EXPECT_EQ(QueryText(again, "SELECT count(*) FROM meta"), "7");
  Database reader = MustOpen(path, OpenMode::kReadOnly);
  EXPECT_EQ(reader.mode(), OpenMode::kReadOnly);
  EXPECT_EQ(QueryText(reader, "SELECT value FROM meta WHERE key = 'schema_version'"), "9");
}

TEST(DatabaseTest, EmbeddedSqlIsTheSchemaFiles) {
  for (auto [name, embedded] :
       {std::pair{"schema.sql", sql::kSchemaSql}, std::pair{"indexes.sql", sql::kIndexesSql},
        std::pair{"drop_indexes.sql", sql::kDropIndexesSql}}) {
    std::ifstream file(fs::path(FIVED_SOURCE_DIR) / "schema" / name, std::ios::binary);
    ASSERT_TRUE(file) << name;
    std::stringstream text;
    text << file.rdbuf();
    EXPECT_EQ(embedded, text.str()) << name;
  }
}

TEST(DatabaseTest, RefusesOtherSchemaVersions) {
  TempDir dir;
  const std::string path = dir.File("games.db");
  {
    Database db = MustOpen(path, OpenMode::kReadWrite);
    MustExec(db, "UPDATE meta SET value = '1' WHERE key = 'schema_version'");
  }
  const std::string expected =
      path + ": schema version 1 is not supported; this build reads version 9";
  EXPECT_EQ(OpenError(path, OpenMode::kReadOnly), expected);
  EXPECT_EQ(OpenError(path, OpenMode::kReadWrite), expected);
  Result<Database> refused = OpenDatabase(path, OpenMode::kReadOnly);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().detail(), SQLITE_NOTADB);
  // The versions before this one (8: no mates in one; 7: no checksum of the games' rows; 6: any
  // game with the moves of an earlier one was its copy, whatever its headers; 5: sources without
  // members or what re-indexing needs; 4: no endings) are refused the same way.
  for (const char* old : {"8", "7", "6", "5", "4"}) {
    sqlite3* raw = nullptr;
    // Written as the programs write (page_checksums.h), so that only the version differs.
    ASSERT_EQ(sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READWRITE, PageChecksumVfs()),
              SQLITE_OK);
    const std::string update =
        std::string("UPDATE meta SET value = '") + old + "' WHERE key = 'schema_version'";
    ASSERT_EQ(sqlite3_exec(raw, update.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(raw);
    EXPECT_EQ(OpenError(path, OpenMode::kReadOnly),
              path + ": schema version " + old + " is not supported; this build reads version 9");
  }
}

TEST(DatabaseTest, RefusesOtherKeyVersions) {
  TempDir dir;
  const std::string path = dir.File("games.db");
  {
    Database db = MustOpen(path, OpenMode::kReadWrite);
    MustExec(db, "UPDATE meta SET value = '999' WHERE key = 'key_version'");
  }
  EXPECT_EQ(OpenError(path, OpenMode::kReadOnly),
            path + ": keys were computed by key version 999; this build computes version " +
                std::to_string(kKeyVersion) + " (index the games into a new database)");
}

TEST(DatabaseTest, ReadOnlyOpenOfMissingFileFailsAndCreatesNothing) {
  TempDir dir;
  const std::string path = dir.File("missing.db");
  Result<Database> db = OpenDatabase(path, OpenMode::kReadOnly);
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.error().detail(), SQLITE_CANTOPEN);
  EXPECT_EQ(db.error().message(), path + ": no such database file");
  EXPECT_TRUE(dir.Entries().empty());
}

TEST(DatabaseTest, RefusesADirectoryPlainly) {
  TempDir dir;
  const std::string path = dir.File("games");
  fs::create_directory(path);
  for (OpenMode mode : {OpenMode::kReadOnly, OpenMode::kReadWrite}) {
    Result<Database> db = OpenDatabase(path, mode);
    ASSERT_FALSE(db.ok());
    EXPECT_EQ(db.error().detail(), SQLITE_CANTOPEN);
    EXPECT_EQ(db.error().message(), path + ": is a directory, not a database file");
  }
  EXPECT_EQ(dir.Entries(), std::vector<std::string>{"games"});
  EXPECT_TRUE(fs::is_empty(path));
}

TEST(DatabaseTest, SaysWhetherItCreatedTheFile) {
  TempDir dir;
  const std::string path = dir.File("games.db");
  EXPECT_TRUE(MustOpen(path, OpenMode::kReadWrite).created());
  EXPECT_FALSE(MustOpen(path, OpenMode::kReadWrite).created());
  EXPECT_FALSE(MustOpen(path, OpenMode::kReadOnly).created());
  // An empty file is filled in place: it was there before.
  const std::string empty_path = dir.File("empty.db");
  std::ofstream(empty_path, std::ios::binary).flush();
  EXPECT_FALSE(MustOpen(empty_path, OpenMode::kReadWrite).created());
}

TEST(DatabaseTest, RefusesFilesThatAreNotOurDatabases) {
  TempDir dir;
  const std::string text_path = dir.File("notes.txt");
  const std::string junk(8192, 'x');
  std::ofstream(text_path, std::ios::binary) << "[White \"someone\"]\n" << junk;
  const std::string not_sqlite = text_path + ": not a 5dpgn-db database (file is not a database)";
  EXPECT_EQ(OpenError(text_path, OpenMode::kReadOnly), not_sqlite);
  EXPECT_EQ(OpenError(text_path, OpenMode::kReadWrite), not_sqlite);
  EXPECT_EQ(fs::file_size(text_path), 18 + junk.size()) << "the file was changed";

  const std::string empty_path = dir.File("empty.db");
  std::ofstream(empty_path, std::ios::binary).flush();
  EXPECT_EQ(OpenError(empty_path, OpenMode::kReadOnly),
            empty_path + ": not a 5dpgn-db database (no meta table)");

  // Another program's SQLite database: refused, and no table of ours is added to it.
  const std::string foreign_path = dir.File("foreign.db");
  {
    sqlite3* raw = nullptr;
    ASSERT_EQ(sqlite3_open(foreign_path.c_str(), &raw), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(raw, "CREATE TABLE notes(x)", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(raw);
  }
  const std::string no_meta = foreign_path + ": not a 5dpgn-db database (no meta table)";
  EXPECT_EQ(OpenError(foreign_path, OpenMode::kReadOnly), no_meta);
  EXPECT_EQ(OpenError(foreign_path, OpenMode::kReadWrite), no_meta);
  {
    sqlite3* raw = nullptr;
    ASSERT_EQ(sqlite3_open(foreign_path.c_str(), &raw), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(raw, "CREATE TABLE meta(key, value)", nullptr, nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(raw);
  }
  EXPECT_EQ(OpenError(foreign_path, OpenMode::kReadOnly),
            foreign_path + ": not a 5dpgn-db database (meta has no application)");
  {
    sqlite3* raw = nullptr;
    ASSERT_EQ(sqlite3_open(foreign_path.c_str(), &raw), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(raw, "INSERT INTO meta VALUES ('application', 'other')", nullptr,
                           nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(raw);
  }
  EXPECT_EQ(OpenError(foreign_path, OpenMode::kReadWrite),
            foreign_path + ": not a 5dpgn-db database (application is 'other')");
}

TEST(DatabaseTest, ReadWriteOpenOfAnEmptyFileCreatesTheSchema) {
  TempDir dir;
  const std::string path = dir.File("empty.db");
  std::ofstream(path, std::ios::binary).flush();
  Database db = MustOpen(path, OpenMode::kReadWrite);
  EXPECT_EQ(QueryText(db, "SELECT value FROM meta WHERE key = 'application'"), "5dpgn-db");
}

TEST(DatabaseTest, ConnectionSettings) {
  TempDir dir;
  const std::string path = dir.File("games.db");
  Database db = MustOpen(path, OpenMode::kReadWrite);
  EXPECT_EQ(QueryText(db, "PRAGMA journal_mode"), "wal");
  EXPECT_EQ(QueryText(db, "PRAGMA synchronous"), "1");  // NORMAL
  EXPECT_EQ(QueryText(db, "PRAGMA foreign_keys"), "1");
  EXPECT_EQ(QueryText(db, "PRAGMA busy_timeout"), "5000");
  Database reader = MustOpen(path, OpenMode::kReadOnly);
  EXPECT_EQ(QueryText(reader, "PRAGMA journal_mode"), "wal");
  EXPECT_EQ(QueryText(reader, "PRAGMA foreign_keys"), "1");
  Status error = reader.Exec("INSERT INTO sources(path) VALUES ('x')");
  ASSERT_FALSE(error.ok());
  EXPECT_EQ(error.primary_detail(), SQLITE_READONLY);
}

TEST(DatabaseTest, IntegrityCheckSaysOk) {
  TempDir dir;
  Database db = MustOpen(dir.File("games.db"), OpenMode::kReadWrite);
  Result<std::string> report = db.IntegrityCheck();
  ASSERT_TRUE(report.ok()) << report.error().message();
  EXPECT_EQ(report.value(), "ok");
}

TEST(StatementTest, BindsAndReadsEveryType) {
  TempDir dir;
  Database db = MustOpen(dir.File("games.db"), OpenMode::kReadWrite);
  MustExec(db, "CREATE TABLE t(i, d, s, b, n)");
  Statement insert = MustPrepare(db, "INSERT INTO t VALUES (?1, ?2, ?3, ?4, ?5)");
  Statement select =
      MustPrepare(db, "SELECT i, d, s, b, n, typeof(s), typeof(b) FROM t WHERE rowid = ?1");
  const std::vector<uint8_t> bytes = {0, 1, 0xfe, 0xff};
  const std::string text("zero\0byte", 9);

  ASSERT_TRUE(insert
                  .BindAll(std::numeric_limits<int64_t>::min(), 0.25, text,
                           std::span<const uint8_t>(bytes), nullptr)
                  .Run()
                  .ok());
  const int64_t first = db.LastInsertRowId();
  ASSERT_FALSE(select.BindAll(first).Step().value() != StepResult::kRow);
  EXPECT_EQ(select.ColumnCount(), 7);
  EXPECT_EQ(select.Int64(0), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(select.Double(1), 0.25);
  EXPECT_EQ(select.Text(2), text);
  const std::span<const uint8_t> blob = select.Blob(3);
  EXPECT_EQ(std::vector<uint8_t>(blob.begin(), blob.end()), bytes);
  EXPECT_TRUE(select.IsNull(4));
  EXPECT_FALSE(select.IsNull(0));
  EXPECT_EQ(select.Text(4), "");
  EXPECT_EQ(select.Int64(4), 0);
  EXPECT_EQ(select.Blob(4).size(), 0u);
  EXPECT_EQ(select.Step().value(), StepResult::kDone);
  select.Reset();

  // Empty text and blobs stay text and blobs; optionals bind their value or NULL; integers of
  // every width; the statement is reused.
  std::optional<std::string> absent;
  std::optional<std::string> present = "p";
  ASSERT_TRUE(insert.Reset()
                  .Bind(1, uint32_t{4000000000u})
                  .Bind(2, 1.5f)
                  .Bind(3, std::string_view())
                  .Bind(4, std::span<const uint8_t>())
                  .Bind(5, absent)
                  .Run()
                  .ok());
  ASSERT_EQ(select.Reset().Bind(1, db.LastInsertRowId()).Step().value(), StepResult::kRow);
  EXPECT_EQ(select.Int64(0), 4000000000);
  EXPECT_EQ(select.Double(1), 1.5);
  EXPECT_FALSE(select.IsNull(2));
  EXPECT_EQ(select.Text(5), "text");
  EXPECT_EQ(select.Text(6), "blob");
  EXPECT_TRUE(select.IsNull(4));
  select.Reset();
  ASSERT_TRUE(insert.Reset().BindAll(size_t{7}, int16_t{-3}, "literal", present, true).Run().ok());
  ASSERT_EQ(select.Reset().Bind(1, db.LastInsertRowId()).Step().value(), StepResult::kRow);
  EXPECT_EQ(select.Int64(0), 7);
  EXPECT_EQ(select.Int64(1), -3);
  EXPECT_EQ(select.Text(2), "literal");
  EXPECT_EQ(select.Text(3), "p");
  EXPECT_EQ(select.Int64(4), 1);
  select.Reset();
  EXPECT_EQ(QueryText(db, "SELECT count(*) FROM t"), "3");
}

TEST(StatementTest, ErrorsCarryTheMessageAndTheStatement) {
  TempDir dir;
  Database db = MustOpen(dir.File("games.db"), OpenMode::kReadWrite);

  Result<Statement> bad = db.Prepare("SELEC 1");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message(), "near \"SELEC\": syntax error (statement: SELEC 1)");
  Result<Statement> two = db.Prepare("SELECT 1; SELECT 2");
  ASSERT_FALSE(two.ok());
  EXPECT_EQ(two.error().message(), "more than one SQL statement (statement: SELECT 1; SELECT 2)");
  EXPECT_TRUE(db.Prepare("SELECT 1; -- one\n").ok());
  EXPECT_FALSE(db.Prepare("  -- nothing\n").ok());

  Statement insert = MustPrepare(db, "INSERT INTO sources(path)\n    VALUES (?1)");
  ASSERT_TRUE(insert.Bind(1, "/a.5dpgn").Run().ok());
  Status duplicate = insert.Reset().Run();
  ASSERT_FALSE(duplicate.ok());
  EXPECT_EQ(duplicate.detail(), SQLITE_CONSTRAINT_UNIQUE);
  EXPECT_EQ(duplicate.primary_detail(), SQLITE_CONSTRAINT);
  EXPECT_EQ(duplicate.message(),
            "UNIQUE constraint failed: sources.path, sources.member (statement: INSERT INTO "
            "sources(path) VALUES (?1))");
  // The failed statement was reset and can run again with new values.
  EXPECT_TRUE(insert.Bind(1, "/b.5dpgn").Run().ok());

  // Binding failures surface at the next Step and keep the statement from running.
  Status range = insert.Bind(1, "/c.5dpgn").Bind(2, 5).Run();
  ASSERT_FALSE(range.ok());
  EXPECT_EQ(range.message(),
            "cannot bind parameter 2: column index out of range (statement: INSERT INTO "
            "sources(path) VALUES (?1))");
  Status too_big = insert.Bind(1, uint64_t{1} << 63).Run();
  ASSERT_FALSE(too_big.ok());
  EXPECT_EQ(too_big.message(),
            "cannot bind parameter 1: unsigned value does not fit in an SQLite integer (use "
            "KeyToSql) (statement: INSERT INTO sources(path) VALUES (?1))");
  EXPECT_EQ(QueryText(db, "SELECT count(*) FROM sources"), "2");

  Status exec = db.Exec("CREATE TABLE a(x);\n  CREATE TABLE a(y); SELECT 1");
  ASSERT_FALSE(exec.ok());
  EXPECT_EQ(exec.message(), "table a already exists (statement: CREATE TABLE a(y))");
}

TEST(StatementTest, ForeignKeysAreEnforced) {
  TempDir dir;
  Database db = MustOpen(dir.File("games.db"), OpenMode::kReadWrite);
  Status error = db.Exec(
      "INSERT INTO rejected(source_id, byte_offset, game_index, "
      "text_hash, message, text) VALUES (42, 0, 1, 0, 'm', 't')");
  ASSERT_FALSE(error.ok());
  EXPECT_EQ(error.detail(), SQLITE_CONSTRAINT_FOREIGNKEY);
}

TEST(TransactionTest, RollsBackUnlessCommitted) {
  TempDir dir;
  Database db = MustOpen(dir.File("games.db"), OpenMode::kReadWrite);
  {
    Result<Transaction> transaction = Transaction::Begin(db);
    ASSERT_TRUE(transaction.ok()) << transaction.error().message();
    MustExec(db, "INSERT INTO sources(path) VALUES ('/dropped.5dpgn')");
    EXPECT_EQ(QueryText(db, "SELECT count(*) FROM sources"), "1");
  }
  EXPECT_EQ(QueryText(db, "SELECT count(*) FROM sources"), "0");
  {
    Result<Transaction> transaction = Transaction::Begin(db);
    ASSERT_TRUE(transaction.ok());
    MustExec(db, "INSERT INTO sources(path) VALUES ('/kept.5dpgn')");
    EXPECT_TRUE(transaction.value().Commit().ok());
    EXPECT_FALSE(transaction.value().active());
    EXPECT_FALSE(transaction.value().Commit().ok());  // nothing left to commit
  }
  EXPECT_EQ(QueryText(db, "SELECT path FROM sources"), "/kept.5dpgn");
  {
    Result<Transaction> transaction = Transaction::Begin(db);
    ASSERT_TRUE(transaction.ok());
    MustExec(db, "DELETE FROM sources");
    EXPECT_TRUE(transaction.value().Rollback().ok());
    EXPECT_FALSE(transaction.value().active());
  }
  EXPECT_EQ(QueryText(db, "SELECT count(*) FROM sources"), "1");
}

TEST(TransactionTest, SecondWriterWaitsThenGivesUp) {
  TempDir dir;
  const std::string path = dir.File("games.db");
  Database writer = MustOpen(path, OpenMode::kReadWrite);
  Database other = MustOpen(path, OpenMode::kReadWrite);
  other.SetBusyTimeout(std::chrono::milliseconds(10));
  Result<Transaction> held = Transaction::Begin(writer);
  ASSERT_TRUE(held.ok());
  Result<Transaction> refused = Transaction::Begin(other);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().detail(), SQLITE_BUSY);
}

TEST(KeyTest, RoundTripsThroughSqlite) {
  static_assert(KeyToSql(0) == 0);
  static_assert(KeyToSql(1) == 1);
  static_assert(KeyToSql(uint64_t{1} << 63) == std::numeric_limits<int64_t>::min());
  static_assert(KeyToSql(std::numeric_limits<uint64_t>::max()) == -1);
  static_assert(KeyFromSql(-1) == std::numeric_limits<uint64_t>::max());

  TempDir dir;
  Database db = MustOpen(dir.File("games.db"), OpenMode::kReadWrite);
  MustExec(db, "INSERT INTO sources(id, path) VALUES (1, '/a.5dpgn')");
  Statement insert = MustPrepare(
      db,
      "INSERT INTO games(source_id, byte_offset, game_index, text_hash, variant, width, height, "
      "even_start, actions, timelines, final_md5, start_key, final_key, identity, record, "
      "checksum) VALUES (1, ?2, 1, 0, 'Standard', 8, 8, 0, 0, 1, '', ?1, 0, 0, x'', 0)");
  Statement select = MustPrepare(db, "SELECT start_key FROM games WHERE start_key = ?1");
  const uint64_t keys[] = {0, 1, uint64_t{1} << 63, std::numeric_limits<uint64_t>::max()};
  int action = 0;
  for (uint64_t key : keys) ASSERT_TRUE(insert.Reset().BindAll(KeyToSql(key), action++).Run().ok());
  for (uint64_t key : keys) {
    ASSERT_EQ(select.Reset().Bind(1, KeyToSql(key)).Step().value(), StepResult::kRow) << key;
    EXPECT_EQ(KeyFromSql(select.Int64(0)), key);
    EXPECT_EQ(select.Step().value(), StepResult::kDone);
  }
}

TEST(SchemaTest, ReindexingAddsNothingAndHeaderNamesIgnoreCase) {
  TempDir dir;
  Database db = MustOpen(dir.File("games.db"), OpenMode::kReadWrite);
  MustExec(db, "INSERT INTO sources(id, path) VALUES (1, '/a.5dpgn')");
  Statement insert = MustPrepare(
      db,
      "INSERT OR IGNORE INTO games(source_id, byte_offset, game_index, text_hash, variant, width, "
      "height, even_start, actions, timelines, final_md5, start_key, final_key, identity, "
      "record, checksum) VALUES (1, ?1, 1, ?2, 'Standard', 8, 8, 0, 0, 1, '', 0, 0, 0, x'', 0)");
  ASSERT_TRUE(insert.BindAll(0, KeyToSql(~uint64_t{0})).Run().ok());
  EXPECT_EQ(db.Changes(), 1);
  ASSERT_TRUE(insert.Run().ok());
  EXPECT_EQ(db.Changes(), 0);
  ASSERT_TRUE(insert.BindAll(100, KeyToSql(~uint64_t{0})).Run().ok());
  EXPECT_EQ(db.Changes(), 1);
  EXPECT_EQ(QueryText(db, "SELECT count(*) FROM games"), "2");

  MustExec(db,
           "INSERT INTO headers(game_id, position, name, value) VALUES (1, 0, 'White', 'Alice'), "
           "(2, 0, 'WHITE', 'alice')");
  EXPECT_EQ(QueryText(db,
                      "SELECT group_concat(game_id) FROM headers "
                      "WHERE name = 'white' AND value = 'Alice'"),
            "1");
  EXPECT_EQ(QueryText(db, "SELECT count(*) FROM headers WHERE name = 'wHiTe'"), "2");
}

// The query plan of each statement, its steps joined by ';'.
std::string Plan(Database& db, std::string_view sql) {
  Statement explain = MustPrepare(db, "EXPLAIN QUERY PLAN " + std::string(sql));
  std::string plan;
  while (explain.Step().value() == StepResult::kRow) plan += std::string(explain.Text(3)) + ";";
  return plan;
}

TEST(SchemaTest, IndexesServeTheCommonSearches) {
  TempDir dir;
  Database db = MustOpen(dir.File("games.db"), OpenMode::kReadWrite);
  EXPECT_EQ(Plan(db,
                 "SELECT variant, count(*) FROM games WHERE duplicate_of IS NULL "
                 "GROUP BY variant"),
            "SCAN games USING COVERING INDEX games_variant;");
  EXPECT_EQ(Plan(db, "SELECT game_id FROM headers WHERE name = 'date' AND value > '2021'"),
            "SEARCH headers USING PRIMARY KEY (name=? AND value>?);");
  EXPECT_EQ(Plan(db, "SELECT id FROM games WHERE identity = ?1"),
            "SEARCH games USING COVERING INDEX games_identity (identity=?);");
  // The originals of an identity, as the indexer asks for them: one range, copies left out.
  EXPECT_EQ(Plan(db,
                 "SELECT id, white_key, black_key, date, result FROM games "
                 "WHERE identity = ?1 AND duplicate_of IS NULL ORDER BY id"),
            "SEARCH games USING INDEX games_identity (identity=? AND duplicate_of=?);");
  EXPECT_EQ(Plan(db, "SELECT id FROM games WHERE white_key = ?1"),
            "SEARCH games USING COVERING INDEX games_white_key (white_key=?);");
  EXPECT_EQ(Plan(db, "SELECT id FROM games WHERE black_key GLOB 'ada*'"),
            "SEARCH games USING COVERING INDEX games_black_key (black_key>? AND black_key<?);");
  EXPECT_EQ(Plan(db, "SELECT id FROM games WHERE date_min <= 20211231 AND date_max >= 20210101"),
            "SEARCH games USING INDEX games_date (date_min<?);");
  EXPECT_EQ(Plan(db,
                 "SELECT id FROM games WHERE substr(final_md5, 1, 8) = substr(?1, 1, 8) "
                 "AND +final_md5 = ?1"),
            "SEARCH games USING INDEX games_final_md5 (<expr>=?);");
  EXPECT_EQ(
      Plan(db, PostingBucketSql(PostingTable::kStates)),
      "MATERIALIZE numbers;SETUP;SCAN CONSTANT ROW;RECURSIVE STEP;SCAN numbers;SCALAR "
      "SUBQUERY 2;SEARCH state_postings USING PRIMARY KEY;SCAN numbers;SEARCH state_postings USING "
      "PRIMARY KEY (chunk=? AND bucket=?);");
  // The pattern index: a feature's chunks one primary-key search per chunk number, as the posting
  // tables; a game's block one search of the primary key.
  EXPECT_EQ(Plan(db, PatternIndexSql::kFeatureChunks),
            "MATERIALIZE numbers;SETUP;SCAN CONSTANT ROW;RECURSIVE STEP;SCAN numbers;SCALAR "
            "SUBQUERY 2;SEARCH piece_postings USING PRIMARY KEY;SCAN numbers;SEARCH "
            "piece_postings USING PRIMARY KEY (chunk=? AND feature=?);");
  EXPECT_EQ(Plan(db, PatternIndexSql::kBlockOf),
            "SEARCH board_streams USING INTEGER PRIMARY KEY (rowid<?);");
}

TEST(ConcurrencyTest, ReaderSeesCommittedRowsWhileWriterHoldsATransaction) {
  TempDir dir;
  const std::string path = dir.File("games.db");
  Database writer = MustOpen(path, OpenMode::kReadWrite);
  MustExec(writer, "INSERT INTO sources(path) VALUES ('/committed.5dpgn')");
  Result<Transaction> transaction = Transaction::Begin(writer);
  ASSERT_TRUE(transaction.ok());
  MustExec(writer, "INSERT INTO sources(path) VALUES ('/pending.5dpgn')");

  Database reader = MustOpen(path, OpenMode::kReadOnly);
  reader.SetBusyTimeout(std::chrono::milliseconds(0));  // a reader must never wait for the writer
  EXPECT_EQ(QueryText(reader, "SELECT group_concat(path) FROM sources"), "/committed.5dpgn");

  ASSERT_TRUE(transaction.value().Commit().ok());
  EXPECT_EQ(QueryText(reader, "SELECT count(*) FROM sources"), "2");
}

TEST(ConcurrencyTest, ReadSnapshotKeepsOneStateUntilItEnds) {
  TempDir dir;
  const std::string path = dir.File("games.db");
  Database writer = MustOpen(path, OpenMode::kReadWrite);
  MustExec(writer, "INSERT INTO sources(path) VALUES ('/first.5dpgn')");
  Database reader = MustOpen(path, OpenMode::kReadOnly);
  {
    const ReadSnapshot snapshot(reader);
    EXPECT_EQ(QueryText(reader, "SELECT count(*) FROM sources"), "1");
    MustExec(writer, "INSERT INTO sources(path) VALUES ('/second.5dpgn')");
    EXPECT_EQ(QueryText(reader, "SELECT count(*) FROM sources"), "1");
    {
      const ReadSnapshot nested(reader);  // inside a transaction: changes nothing
      EXPECT_EQ(QueryText(reader, "SELECT count(*) FROM sources"), "1");
    }
    EXPECT_EQ(QueryText(reader, "SELECT count(*) FROM sources"), "1");
  }
  EXPECT_EQ(QueryText(reader, "SELECT count(*) FROM sources"), "2");
}

TEST(DatabaseTest, MovedDatabaseAndStatementsKeepWorking) {
  TempDir dir;
  Database db = MustOpen(dir.File("games.db"), OpenMode::kReadWrite);
  Statement count = MustPrepare(db, "SELECT count(*) FROM meta");
  Database moved = std::move(db);
  Statement moved_count = std::move(count);
  EXPECT_FALSE(count.valid());
  ASSERT_EQ(moved_count.Step().value(), StepResult::kRow);
  EXPECT_EQ(moved_count.Int64(0), 7);  // a new database's meta rows
  moved_count.Reset();
  EXPECT_EQ(QueryText(moved, "SELECT 1"), "1");
}

// Every ```sql block of schema/README.md runs against a database holding a few rows.
TEST(SchemaTest, ReadmeExamplesRun) {
  std::ifstream file(fs::path(FIVED_SOURCE_DIR) / "schema" / "README.md");
  ASSERT_TRUE(file);
  std::vector<std::string> blocks;
  std::string line;
  bool inside = false;
  while (std::getline(file, line)) {
    if (!inside && line == "```sql") {
      inside = true;
      blocks.emplace_back();
    } else if (inside && line == "```") {
      inside = false;
    } else if (inside) {
      blocks.back() += line + "\n";
    }
  }
  ASSERT_GE(blocks.size(), 5u);

  TempDir dir;
  Database db = MustOpen(dir.File("games.db"), OpenMode::kReadWrite);
  MustExec(
      db,
      "INSERT INTO sources(id, path) VALUES (1, '/a.5dpgn');"
      "INSERT INTO games(id, source_id, byte_offset, game_index, text_hash, variant, width, "
      "height, even_start, white, black, actions, timelines, final_md5, start_key, "
      "final_key, identity, duplicate_of, record, checksum) VALUES "
      "(1, 1, 0, 1, 5, 'Standard', 8, 8, 0, 'Alice', 'Bob', 1, 1, 'm', 1, 2, 3, NULL, x'', 0), "
      "(2, 1, 9, 2, 6, 'Standard', 8, 8, 0, 'Alice', 'Bob', 1, 1, 'm', 1, 2, 3, 1, x'', 0);"
      "INSERT INTO headers(game_id, position, name, value) VALUES (1, 0, 'White', 'Alice'), "
      "(2, 0, 'White', 'Alice');"
      "INSERT INTO rejected(source_id, byte_offset, game_index, text_hash, line, col, token, "
      "message, text) VALUES (1, 20, 3, 7, 3, 4, 'Kx', 'bad move', '1. Kx');");
  for (const std::string& block : blocks) {
    Status error = db.Exec(block);
    EXPECT_TRUE(error.ok()) << block << error.message();
  }
}

}  // namespace
}  // namespace fived
