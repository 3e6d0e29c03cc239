// The SQLite wrapper of sqlite.h.
#include "schema/sqlite.h"

#include <sqlite3.h>

#include <cctype>
#include <string>

#include "schema/page_checksums.h"

namespace fived {
namespace {

constexpr int kBusyTimeoutMs = 5000;
// Statement text in error messages is cut to this many characters.
constexpr size_t kMaxQuotedSql = 200;

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

Status MakeError(int code, std::string_view what, std::string_view sql) {
  std::string message(what);
  if (code == SQLITE_IOERR_DATA) {
    // A page failed its checksum (page_checksums.h): say where, not "disk I/O error".
    if (std::optional<std::string> page = TakeChecksumFailure()) {
      message = "the database file is damaged: " + *page + " fails its checksum";
    }
  }
  if (!sql.empty()) message += " (statement: " + OneLine(sql) + ")";
  return Status::Database(std::move(message), code);
}

// The last error of a connection, about `sql`.
Status ConnectionError(sqlite3* db, int code, std::string_view sql) {
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

}  // namespace

Result<int64_t> QueryInt(Database& db, std::string_view sql) {
  Result<Statement> statement = db.Prepare(sql);
  if (!statement.ok()) return statement.error();
  Result<StepResult> step = statement.value().Step();
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
  if (bind_error_.ok()) {
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
  bind_error_ = Status();
  return *this;
}

Result<StepResult> Statement::Step() {
  assert(stmt_ != nullptr);
  if (!bind_error_.ok()) {
    return std::exchange(bind_error_, Status());
  }
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return StepResult::kRow;
  if (rc == SQLITE_DONE) return StepResult::kDone;
  Status error = ConnectionError(sqlite3_db_handle(stmt_), rc, Sql());
  sqlite3_reset(stmt_);
  return error;
}

Status Statement::Run() {
  while (true) {
    Result<StepResult> step = Step();
    if (!step.ok()) return step.error();
    if (step.value() == StepResult::kDone) break;
  }
  Reset();
  return Status();
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

Result<Database> Database::Connect(const std::string& path, OpenMode mode) {
  const bool read_only = mode == OpenMode::kReadOnly;
  // NOMUTEX: a connection is used by one thread at a time (see sqlite.h), so SQLite need not lock.
  const int flags =
      (read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) |
      SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE;
  sqlite3* handle = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &handle, flags, PageChecksumVfs());
  if (rc != SQLITE_OK) {
    Status error = Status::Database(handle ? sqlite3_errmsg(handle) : sqlite3_errstr(rc), rc);
    sqlite3_close_v2(handle);
    return error;
  }
  Database db(handle, path, mode);
  sqlite3_extended_result_codes(handle, 1);
  db.SetBusyTimeout(std::chrono::milliseconds(kBusyTimeoutMs));
  if (Status error = db.Exec("PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL");
      !error.ok()) {
    return error;
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

Status Database::Exec(std::string_view sql) {
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
    if (Status error = statement.Run(); !error.ok()) return error;
  }
  return Status();
}

Result<Statement> Database::Prepare(std::string_view sql) {
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

Result<std::string> Database::IntegrityCheck() {
  Result<Statement> check = Prepare("PRAGMA integrity_check");
  if (!check.ok()) return check.error();
  std::string report;
  while (true) {
    Result<StepResult> step = check.value().Step();
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

namespace {

// The text function registered by RegisterTextFunction, its C function in SQLite's user data.
void CallTextFunction(sqlite3_context* context, int, sqlite3_value** args) {
  if (sqlite3_value_type(args[0]) == SQLITE_NULL) {
    sqlite3_result_null(context);
    return;
  }
  auto function = reinterpret_cast<std::string (*)(std::string_view)>(sqlite3_user_data(context));
  const auto* text = reinterpret_cast<const char*>(sqlite3_value_text(args[0]));
  const std::string result =
      function(std::string_view(text, static_cast<size_t>(sqlite3_value_bytes(args[0]))));
  sqlite3_result_text(context, result.data(), static_cast<int>(result.size()), SQLITE_TRANSIENT);
}

}  // namespace

Status Database::RegisterTextFunction(const std::string& name,
                                      std::string (*function)(std::string_view)) {
  const int rc = sqlite3_create_function_v2(
      db_, name.c_str(), 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, reinterpret_cast<void*>(function),
      CallTextFunction, nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) return Status::Database("cannot register " + name, rc);
  return Status();
}

bool Database::Idle() const {
  if (!sqlite3_get_autocommit(db_)) return false;
  for (sqlite3_stmt* s = sqlite3_next_stmt(db_, nullptr); s != nullptr;
       s = sqlite3_next_stmt(db_, s)) {
    if (sqlite3_stmt_busy(s)) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// QueryDeadline

// SQLite's progress handler runs every this many virtual machine instructions.
constexpr int kDeadlineCheckInstructions = 10'000;

QueryDeadline::QueryDeadline(Database& db, std::chrono::steady_clock::time_point at)
    : db_(db), at_(at) {
  sqlite3_progress_handler(db_.handle(), kDeadlineCheckInstructions, Check, this);
}

QueryDeadline::~QueryDeadline() { sqlite3_progress_handler(db_.handle(), 0, nullptr, nullptr); }

int QueryDeadline::Check(void* context) {
  auto* deadline = static_cast<QueryDeadline*>(context);
  deadline->passed_ = deadline->passed_ || std::chrono::steady_clock::now() > deadline->at_;
  return deadline->passed_ ? 1 : 0;  // non-zero interrupts the statement
}

// ---------------------------------------------------------------------------------------------
// Transaction

Result<Transaction> Transaction::Begin(Database& db) {
  if (Status error = db.Exec("BEGIN IMMEDIATE"); !error.ok()) return error;
  return Transaction(db.handle());
}

Transaction& Transaction::operator=(Transaction&& other) noexcept {
  if (this != &other) {
    (void)Rollback();
    db_ = std::exchange(other.db_, nullptr);
  }
  return *this;
}

Transaction::~Transaction() { (void)Rollback(); }

Status Transaction::Commit() {
  if (db_ == nullptr) return Status::Database("commit: no transaction is active", SQLITE_MISUSE);
  char* message = nullptr;
  const int rc = sqlite3_exec(db_, "COMMIT", nullptr, nullptr, &message);
  if (rc == SQLITE_OK) {
    db_ = nullptr;
    return Status();
  }
  Status error = MakeError(rc, message ? message : sqlite3_errstr(rc), "COMMIT");
  sqlite3_free(message);
  (void)Rollback();
  return error;
}

Status Transaction::Rollback() {
  if (db_ == nullptr) return Status();
  sqlite3* db = std::exchange(db_, nullptr);
  // SQLite may already have rolled back (after some errors); then there is nothing to undo.
  if (sqlite3_get_autocommit(db)) return Status();
  char* message = nullptr;
  const int rc = sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, &message);
  if (rc == SQLITE_OK) return Status();
  Status error = MakeError(rc, message ? message : sqlite3_errstr(rc), "ROLLBACK");
  sqlite3_free(message);
  return error;
}

// ---------------------------------------------------------------------------------------------
// ReadSnapshot

ReadSnapshot::ReadSnapshot(Database& db) : db_(db) {
  began_ = sqlite3_get_autocommit(db.handle()) != 0 && db.Exec("BEGIN").ok();
}

ReadSnapshot::~ReadSnapshot() {
  // Ending a read transaction has nothing to lose; should it fail, the connection's next
  // statement reports the problem.
  if (began_) (void)db_.Exec("COMMIT");
}

}  // namespace fived
