// The SQLite wrapper of db.h, and opening, creating and checking a 5dpgn-db database.
#include "schema/db.h"

#include <sqlite3.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

#include "core/keys.h"
#include "schema/sql.h"

namespace fived {
namespace {

constexpr int kBusyTimeoutMs = 5000;
// Pages of 16 KiB rather than SQLite's 4 KiB: a posting chunk (schema/postings.h) stays within a
// page's local payload up to about 4,000 bytes instead of 1,000, so a transaction can hold three
// times as many postings, in a third as many rows, without spilling to overflow pages. The whole
// ingest is cheaper and the database smaller (docs/BENCHMARKS.md).
constexpr int kPageSize = 16384;
// Statement text in error messages is cut to this many characters.
constexpr size_t kMaxQuotedSql = 200;

constexpr std::string_view kCountTablesSql =
    "SELECT count(*) FROM sqlite_schema WHERE type = 'table'";
constexpr std::string_view kHasMetaSql =
    "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'meta'";
constexpr std::string_view kMetaValueSql = "SELECT value FROM meta WHERE key = ?1";
constexpr std::string_view kInsertMetaSql =
    "INSERT INTO meta(key, value) VALUES ('schema_version', ?1), ('key_version', ?2), "
    "('application', ?3), ('created_at', strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))";

// SQL text on one line (whitespace runs become one space), cut to kMaxQuotedSql characters.
std::string OneLine(std::string_view sql) {
  std::string line;
  bool space = false;
  for (char c : sql) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = !line.empty();
      continue;
    }
    if (space) line += ' ';
    space = false;
    line += c;
    if (line.size() >= kMaxQuotedSql) {
      line += "...";
      break;
    }
  }
  return line;
}

DbError MakeError(int code, std::string_view what, std::string_view sql) {
  DbError error{code, std::string(what)};
  if (!sql.empty()) error.message += " (statement: " + OneLine(sql) + ")";
  return error;
}

// The last error of a connection, about `sql`.
DbError ConnectionError(sqlite3* db, int code, std::string_view sql) {
  return MakeError(code, sqlite3_errmsg(db), sql);
}

// Skips whitespace and SQL comments; returns whether anything else is left.
bool HasStatementText(std::string_view sql) {
  size_t i = 0;
  while (i < sql.size()) {
    if (std::isspace(static_cast<unsigned char>(sql[i]))) {
      ++i;
    } else if (sql.substr(i, 2) == "--") {
      const size_t end = sql.find('\n', i);
      i = end == std::string_view::npos ? sql.size() : end + 1;
    } else if (sql.substr(i, 2) == "/*") {
      const size_t end = sql.find("*/", i + 2);
      i = end == std::string_view::npos ? sql.size() : end + 2;
    } else {
      return true;
    }
  }
  return false;
}

// An error of Open: the path, then what went wrong.
DbError OpenError(const std::string& path, const DbError& error) {
  if (error.primary_code() == SQLITE_NOTADB) {
    return {error.code, path + ": not a 5dpgn-db database (" + sqlite3_errstr(SQLITE_NOTADB) + ")"};
  }
  return {error.code, path + ": " + error.message};
}

DbError NotOurs(const std::string& path, const std::string& reason) {
  return {SQLITE_NOTADB, path + ": not a 5dpgn-db database (" + reason + ")"};
}

// Creates the tables, indexes and meta rows when the database has no tables. The check
// is repeated inside the write transaction so that two processes creating the same file at once
// create it once.
std::optional<DbError> CreateIfEmpty(Database& db) {
  DbResult<int64_t> tables = QueryInt(db, kCountTablesSql);
  if (!tables.ok()) return tables.error();
  if (tables.value() != 0) return std::nullopt;

  // Set before anything is written (a WAL database keeps its page size for good).
  if (auto error = db.Exec("PRAGMA page_size = " + std::to_string(kPageSize))) return error;
  DbResult<Transaction> transaction = Transaction::Begin(db);
  if (!transaction.ok()) return transaction.error();
  tables = QueryInt(db, kCountTablesSql);
  if (!tables.ok()) return tables.error();
  if (tables.value() != 0) return std::nullopt;
  if (auto error = db.Exec(sql::kSchemaV5Sql)) return error;
  if (auto error = db.Exec(sql::kIndexesV5Sql)) return error;
  DbResult<Statement> insert = db.Prepare(kInsertMetaSql);
  if (!insert.ok()) return insert.error();
  const std::string schema_version = std::to_string(kSchemaVersion);
  const std::string key_version = std::to_string(kKeyVersion);
  if (auto error = insert.value().BindAll(schema_version, key_version, kApplicationName).Run()) {
    return error;
  }
  return transaction.value().Commit();
}

// Checks that the database is a 5dpgn-db database that this build can read and write.
std::optional<DbError> CheckMeta(Database& db, const std::string& path) {
  DbResult<int64_t> has_meta = QueryInt(db, kHasMetaSql);
  if (!has_meta.ok()) return OpenError(path, has_meta.error());
  if (has_meta.value() == 0) return NotOurs(path, "no meta table");

  DbResult<Statement> select = db.Prepare(kMetaValueSql);
  if (!select.ok()) return OpenError(path, select.error());
  Statement& statement = select.value();
  // The value of a meta key, or nullopt when the key is missing.
  auto read = [&](std::string_view key) -> DbResult<std::optional<std::string>> {
    statement.Reset().Bind(1, key);
    DbResult<StepResult> step = statement.Step();
    if (!step.ok()) return step.error();
    std::optional<std::string> value;
    if (step.value() == StepResult::kRow) value = std::string(statement.Text(0));
    statement.Reset();
    return value;
  };

  DbResult<std::optional<std::string>> application = read("application");
  if (!application.ok()) return OpenError(path, application.error());
  if (!application.value()) return NotOurs(path, "meta has no application");
  if (*application.value() != kApplicationName) {
    return NotOurs(path, "application is '" + *application.value() + "'");
  }

  DbResult<std::optional<std::string>> schema_version = read("schema_version");
  if (!schema_version.ok()) return OpenError(path, schema_version.error());
  if (!schema_version.value()) return NotOurs(path, "meta has no schema_version");
  if (*schema_version.value() != std::to_string(kSchemaVersion)) {
    return DbError{SQLITE_NOTADB, path + ": schema version " + *schema_version.value() +
                                      " is not supported; this build reads version " +
                                      std::to_string(kSchemaVersion)};
  }

  DbResult<std::optional<std::string>> key_version = read("key_version");
  if (!key_version.ok()) return OpenError(path, key_version.error());
  if (!key_version.value()) return NotOurs(path, "meta has no key_version");
  if (*key_version.value() != std::to_string(kKeyVersion)) {
    return DbError{SQLITE_NOTADB, path + ": keys were computed by key version " +
                                      *key_version.value() + "; this build computes version " +
                                      std::to_string(kKeyVersion) +
                                      " (index the games into a new database)"};
  }
  return std::nullopt;
}

}  // namespace

DbResult<int64_t> QueryInt(Database& db, std::string_view sql) {
  DbResult<Statement> statement = db.Prepare(sql);
  if (!statement.ok()) return statement.error();
  DbResult<StepResult> step = statement.value().Step();
  if (!step.ok()) return step.error();
  if (step.value() != StepResult::kRow) return MakeError(SQLITE_ERROR, "no row", sql);
  return statement.value().Int64(0);
}

// ---------------------------------------------------------------------------------------------
// Statement

Statement::Statement(Statement&& other) noexcept
    : stmt_(std::exchange(other.stmt_, nullptr)), bind_error_(std::move(other.bind_error_)) {}

Statement& Statement::operator=(Statement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(stmt_);
    stmt_ = std::exchange(other.stmt_, nullptr);
    bind_error_ = std::move(other.bind_error_);
  }
  return *this;
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

std::string_view Statement::Sql() const {
  assert(stmt_ != nullptr);
  const char* sql = sqlite3_sql(stmt_);
  return sql ? std::string_view(sql) : std::string_view();
}

Statement& Statement::CheckBind(int rc, int index) {
  if (rc == SQLITE_OK) return *this;
  return FailBind(index, sqlite3_errstr(rc));
}

Statement& Statement::FailBind(int index, std::string_view reason) {
  if (!bind_error_) {
    bind_error_ = MakeError(
        SQLITE_RANGE, "cannot bind parameter " + std::to_string(index) + ": " + std::string(reason),
        Sql());
  }
  return *this;
}

Statement& Statement::BindInt64(int index, int64_t value) {
  assert(stmt_ != nullptr);
  return CheckBind(sqlite3_bind_int64(stmt_, index, value), index);
}

Statement& Statement::Bind(int index, double value) {
  assert(stmt_ != nullptr);
  return CheckBind(sqlite3_bind_double(stmt_, index, value), index);
}

Statement& Statement::Bind(int index, std::string_view text) {
  assert(stmt_ != nullptr);
  // A null data pointer would bind NULL; an empty view still means the empty string.
  const char* data = text.data() != nullptr ? text.data() : "";
  return CheckBind(
      sqlite3_bind_text64(stmt_, index, data, text.size(), SQLITE_TRANSIENT, SQLITE_UTF8), index);
}

Statement& Statement::Bind(int index, std::span<const uint8_t> blob) {
  assert(stmt_ != nullptr);
  // sqlite3_bind_blob with no data binds NULL; a zero-length zeroblob is an empty blob.
  if (blob.empty()) return CheckBind(sqlite3_bind_zeroblob(stmt_, index, 0), index);
  return CheckBind(sqlite3_bind_blob64(stmt_, index, blob.data(), blob.size(), SQLITE_TRANSIENT),
                   index);
}

Statement& Statement::Bind(int index, std::nullptr_t) {
  assert(stmt_ != nullptr);
  return CheckBind(sqlite3_bind_null(stmt_, index), index);
}

Statement& Statement::ClearBindings() {
  assert(stmt_ != nullptr);
  sqlite3_clear_bindings(stmt_);
  bind_error_.reset();
  return *this;
}

DbResult<StepResult> Statement::Step() {
  assert(stmt_ != nullptr);
  if (bind_error_) {
    DbError error = std::move(*bind_error_);
    bind_error_.reset();
    return error;
  }
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return StepResult::kRow;
  if (rc == SQLITE_DONE) return StepResult::kDone;
  DbError error = ConnectionError(sqlite3_db_handle(stmt_), rc, Sql());
  sqlite3_reset(stmt_);
  return error;
}

std::optional<DbError> Statement::Run() {
  while (true) {
    DbResult<StepResult> step = Step();
    if (!step.ok()) return step.error();
    if (step.value() == StepResult::kDone) break;
  }
  Reset();
  return std::nullopt;
}

Statement& Statement::Reset() {
  assert(stmt_ != nullptr);
  // sqlite3_reset repeats the last Step's error, which Step has already returned.
  sqlite3_reset(stmt_);
  return *this;
}

int Statement::ColumnCount() const {
  assert(stmt_ != nullptr);
  return sqlite3_column_count(stmt_);
}

bool Statement::IsNull(int column) const {
  assert(column >= 0 && column < ColumnCount());
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

int64_t Statement::Int64(int column) const {
  assert(column >= 0 && column < ColumnCount());
  return sqlite3_column_int64(stmt_, column);
}

double Statement::Double(int column) const {
  assert(column >= 0 && column < ColumnCount());
  return sqlite3_column_double(stmt_, column);
}

std::string_view Statement::Text(int column) const {
  assert(column >= 0 && column < ColumnCount());
  // Text first, then its size: that order is the one SQLite documents as safe.
  const unsigned char* text = sqlite3_column_text(stmt_, column);
  if (text == nullptr) return {};
  const int size = sqlite3_column_bytes(stmt_, column);
  return {reinterpret_cast<const char*>(text), static_cast<size_t>(size)};
}

std::span<const uint8_t> Statement::Blob(int column) const {
  assert(column >= 0 && column < ColumnCount());
  const void* blob = sqlite3_column_blob(stmt_, column);
  if (blob == nullptr) return {};
  const int size = sqlite3_column_bytes(stmt_, column);
  return {static_cast<const uint8_t*>(blob), static_cast<size_t>(size)};
}

// ---------------------------------------------------------------------------------------------
// Database

namespace {

// Creates a new database file at `path` atomically: the schema is written to a temporary file
// beside it, which is then linked to `path`. A process killed meanwhile leaves no half-made
// database at `path` (at most a stray "PATH.creating-PID" file). When another process created
// `path` first, its database is kept and `*created` stays false.
std::optional<DbError> CreateAtomically(const std::string& path, bool* created) {
  const std::string temporary = path + ".creating-" + std::to_string(getpid());
  std::remove(temporary.c_str());
  // An empty file: Open then fills it in place (and does not come back here).
  if (FILE* touched = std::fopen(temporary.c_str(), "wb")) {
    std::fclose(touched);
  } else {
    return DbError{SQLITE_CANTOPEN,
                   path + ": cannot create the database (" + std::strerror(errno) + ")"};
  }
  {
    DbResult<Database> created = Database::Open(temporary, OpenMode::kReadWrite);
    if (!created.ok()) {
      std::remove(temporary.c_str());
      return created.error();
    }
    // Fold the write-ahead log into the file, so that the file alone is the database.
    if (auto error = created.value().Exec("PRAGMA wal_checkpoint(TRUNCATE)")) {
      std::remove(temporary.c_str());
      return *error;
    }
  }
  const int linked = link(temporary.c_str(), path.c_str());
  const int link_errno = errno;
  std::remove(temporary.c_str());
  std::remove((temporary + "-wal").c_str());
  std::remove((temporary + "-shm").c_str());
  if (linked != 0 && link_errno != EEXIST) {
    return DbError{SQLITE_CANTOPEN,
                   path + ": cannot create the database (" + std::strerror(link_errno) + ")"};
  }
  *created = linked == 0;
  return std::nullopt;
}

}  // namespace

DbResult<Database> Database::Open(const std::string& path, OpenMode mode) {
  const bool read_only = mode == OpenMode::kReadOnly;
  {
    // SQLite would say "unable to open database file" or "disk I/O error".
    std::error_code ignored;
    if (std::filesystem::is_directory(path, ignored)) {
      return DbError{SQLITE_CANTOPEN, path + ": is a directory, not a database file"};
    }
  }
  bool created = false;
  if (!read_only && path != ":memory:" && !path.empty()) {
    std::error_code ignored;
    if (!std::filesystem::exists(path, ignored)) {
      if (auto error = CreateAtomically(path, &created)) return *error;
    }
  }
  if (read_only) {
    // SQLite would say "unable to open database file"; say what is wrong instead.
    std::error_code ignored;
    if (!std::filesystem::exists(path, ignored)) {
      return DbError{SQLITE_CANTOPEN, path + ": no such database file"};
    }
  }
  // NOMUTEX: a connection is used by one thread at a time (see db.h), so SQLite need not lock.
  const int flags =
      (read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) |
      SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE;
  sqlite3* handle = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &handle, flags, nullptr);
  if (rc != SQLITE_OK) {
    DbError error{rc, path + ": " + (handle ? sqlite3_errmsg(handle) : sqlite3_errstr(rc))};
    sqlite3_close_v2(handle);
    return error;
  }
  Database db(handle, path, mode);
  db.created_ = created;
  sqlite3_extended_result_codes(handle, 1);
  db.SetBusyTimeout(std::chrono::milliseconds(kBusyTimeoutMs));
  if (auto error = db.Exec("PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL")) {
    return OpenError(path, *error);
  }
  if (!read_only) {
    if (auto error = CreateIfEmpty(db)) return OpenError(path, *error);
  }
  if (auto error = CheckMeta(db, path)) return *error;
  if (!read_only) {
    // Only now, once the file is known to be ours: WAL mode is a property of the file.
    DbResult<Statement> journal = db.Prepare("PRAGMA journal_mode = WAL");
    if (!journal.ok()) return OpenError(path, journal.error());
    DbResult<StepResult> step = journal.value().Step();
    if (!step.ok()) return OpenError(path, step.error());
    const std::string journal_mode(journal.value().Text(0));
    // In-memory databases cannot use WAL and have no readers to share with.
    const char* file = sqlite3_db_filename(handle, "main");
    if (journal_mode != "wal" && file != nullptr && *file != '\0') {
      return DbError{SQLITE_CANTOPEN,
                     path + ": cannot use WAL journal mode here (got '" + journal_mode + "')"};
    }
  }
  return db;
}

Database::Database(Database&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)),
      path_(std::move(other.path_)),
      mode_(other.mode_),
      created_(other.created_) {}

Database& Database::operator=(Database&& other) noexcept {
  if (this != &other) {
    sqlite3_close_v2(db_);
    db_ = std::exchange(other.db_, nullptr);
    path_ = std::move(other.path_);
    mode_ = other.mode_;
    created_ = other.created_;
  }
  return *this;
}

// close_v2 defers the close until the last statement is finalized.
Database::~Database() { sqlite3_close_v2(db_); }

std::optional<DbError> Database::Exec(std::string_view sql) {
  assert(db_ != nullptr);
  while (HasStatementText(sql)) {
    sqlite3_stmt* raw = nullptr;
    const char* tail = nullptr;
    const int rc = sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &raw, &tail);
    if (rc != SQLITE_OK) {
      // Quote the failing statement: the text up to its ';'.
      const size_t start = sql.find_first_not_of(" \t\r\n");
      const std::string_view rest = sql.substr(start);
      return ConnectionError(db_, rc, rest.substr(0, rest.find(';')));
    }
    Statement statement(raw);
    sql.remove_prefix(static_cast<size_t>(tail - sql.data()));
    if (!statement.valid()) continue;
    if (auto error = statement.Run()) return error;
  }
  return std::nullopt;
}

DbResult<Statement> Database::Prepare(std::string_view sql) {
  assert(db_ != nullptr);
  sqlite3_stmt* raw = nullptr;
  const char* tail = nullptr;
  const int rc = sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()),
                                    SQLITE_PREPARE_PERSISTENT, &raw, &tail);
  if (rc != SQLITE_OK) return ConnectionError(db_, rc, sql);
  Statement statement(raw);
  if (!statement.valid()) return MakeError(SQLITE_MISUSE, "no SQL statement", sql);
  if (HasStatementText(sql.substr(static_cast<size_t>(tail - sql.data())))) {
    return MakeError(SQLITE_MISUSE, "more than one SQL statement", sql);
  }
  return statement;
}

int64_t Database::LastInsertRowId() const { return sqlite3_last_insert_rowid(db_); }

int64_t Database::Changes() const { return sqlite3_changes64(db_); }

DbResult<std::string> Database::IntegrityCheck() {
  DbResult<Statement> check = Prepare("PRAGMA integrity_check");
  if (!check.ok()) return check.error();
  std::string report;
  while (true) {
    DbResult<StepResult> step = check.value().Step();
    if (!step.ok()) return step.error();
    if (step.value() == StepResult::kDone) break;
    if (!report.empty()) report += '\n';
    report += check.value().Text(0);
  }
  return report;
}

void Database::SetBusyTimeout(std::chrono::milliseconds timeout) {
  sqlite3_busy_timeout(db_, static_cast<int>(timeout.count()));
}

// ---------------------------------------------------------------------------------------------
// Transaction

DbResult<Transaction> Transaction::Begin(Database& db) {
  if (auto error = db.Exec("BEGIN IMMEDIATE")) return *error;
  return Transaction(db.handle());
}

Transaction& Transaction::operator=(Transaction&& other) noexcept {
  if (this != &other) {
    Rollback();
    db_ = std::exchange(other.db_, nullptr);
  }
  return *this;
}

Transaction::~Transaction() { Rollback(); }

std::optional<DbError> Transaction::Commit() {
  if (db_ == nullptr) return DbError{SQLITE_MISUSE, "commit: no transaction is active"};
  char* message = nullptr;
  const int rc = sqlite3_exec(db_, "COMMIT", nullptr, nullptr, &message);
  if (rc == SQLITE_OK) {
    db_ = nullptr;
    return std::nullopt;
  }
  DbError error = MakeError(rc, message ? message : sqlite3_errstr(rc), "COMMIT");
  sqlite3_free(message);
  Rollback();
  return error;
}

std::optional<DbError> Transaction::Rollback() {
  if (db_ == nullptr) return std::nullopt;
  sqlite3* db = std::exchange(db_, nullptr);
  // SQLite may already have rolled back (after some errors); then there is nothing to undo.
  if (sqlite3_get_autocommit(db)) return std::nullopt;
  char* message = nullptr;
  const int rc = sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, &message);
  if (rc == SQLITE_OK) return std::nullopt;
  DbError error = MakeError(rc, message ? message : sqlite3_errstr(rc), "ROLLBACK");
  sqlite3_free(message);
  return error;
}

// ---------------------------------------------------------------------------------------------
// ReadSnapshot

ReadSnapshot::ReadSnapshot(Database& db) : db_(db) {
  began_ = sqlite3_get_autocommit(db.handle()) != 0 && !db.Exec("BEGIN");
}

ReadSnapshot::~ReadSnapshot() {
  // Ending a read transaction has nothing to lose; should it fail, the connection's next
  // statement reports the problem.
  if (began_) (void)db_.Exec("COMMIT");
}

}  // namespace fived
