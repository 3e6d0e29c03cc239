// A thin wrapper over the SQLite C API: connections, statements prepared once and reused with
// typed binding and column access, RAII transactions and read snapshots. Nothing here throws:
// failures are Status values carrying SQLite's message and the statement. Nothing here knows the
// 5dpgn-db tables either: schema/db.h opens, creates and checks the database itself.
//
// Threads: a Database and the Statements prepared on it are one SQLite connection. Use it from one
// thread at a time (it may move between threads). Give every thread its own connection; thanks to
// WAL, readers read the last committed state while one writer writes.
#ifndef FIVED_SCHEMA_SQLITE_H_
#define FIVED_SCHEMA_SQLITE_H_

#include <chrono>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "core/status.h"

struct sqlite3;
struct sqlite3_stmt;

namespace fived {

// Failures are Status values (core/status.h) of code kDatabase. detail() is SQLite's extended
// result code (SQLITE_CONSTRAINT_UNIQUE, SQLITE_BUSY, ...; primary_detail() strips the extension).
// OpenDatabase (db.h) uses SQLITE_CANTOPEN for a missing file and SQLITE_NOTADB for a file that is
// not a 5dpgn-db database of this version. message() is one line for people: SQLite's text, then
// the statement it concerns, e.g.
//   UNIQUE constraint failed: sources.path (statement: INSERT INTO sources(path) VALUES (?1))

enum class OpenMode {
  // Reads an existing file. Never creates or changes a file.
  kReadOnly,
  // Reads and writes; OpenDatabase (schema/db.h) creates the database when needed.
  kReadWrite,
};

enum class StepResult { kRow, kDone };

// A prepared statement. Prepare once with Database::Prepare, then for each use: Reset (if used
// before), bind, Step until kDone (or Run). Parameters are numbered from 1 (SQLite's ?1, ?2...),
// result columns from 0.
//
// Bind copies the value into the statement, so the argument need not outlive the call. A binding
// failure (parameter index out of range, value too large) does not stop a chain of Bind calls: the
// first one is kept and returned by the next Step or Run, which then does not execute.
//
// A Statement must be destroyed before its Database. Moving the Database does not affect it.
class Statement {
 public:
  // An empty statement, to be assigned one from Database::Prepare. Only valid() may be called.
  Statement() = default;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&& other) noexcept;
  ~Statement();

  bool valid() const { return stmt_ != nullptr; }
  // The statement's SQL text as prepared.
  std::string_view Sql() const;

  // Integers of any width (not characters). An unsigned 64-bit value above INT64_MAX is a binding
  // failure: keys and hashes go through KeyToSql.
  template <typename T>
  requires std::integral<T> &&
      (!std::is_same_v<T, char>)&&(!std::is_same_v<T, char8_t>)Statement& Bind(int index, T value) {
    if constexpr (std::is_unsigned_v<T> && sizeof(T) >= sizeof(int64_t)) {
      if (value > static_cast<T>(std::numeric_limits<int64_t>::max())) {
        return FailBind(index, "unsigned value does not fit in an SQLite integer (use KeyToSql)");
      }
    }
    return BindInt64(index, static_cast<int64_t>(value));
  }
  Statement& Bind(int index, double value);
  // TEXT (UTF-8). An empty view binds the empty string, not NULL.
  Statement& Bind(int index, std::string_view text);
  // BLOB. An empty span binds an empty blob, not NULL.
  Statement& Bind(int index, std::span<const uint8_t> blob);
  Statement& Bind(int index, std::nullptr_t);
  // The value, or NULL when empty.
  template <typename T>
  Statement& Bind(int index, const std::optional<T>& value) {
    return value ? Bind(index, *value) : Bind(index, nullptr);
  }
  // Binds the arguments to parameters 1, 2, ... in order.
  template <typename... Args>
  Statement& BindAll(const Args&... args) {
    int index = 1;
    (Bind(index++, args), ...);
    return *this;
  }
  // Sets every parameter to NULL and forgets a pending binding failure.
  Statement& ClearBindings();

  // Runs the statement to its next row. kRow: the columns below describe a row. kDone: finished;
  // call Reset before running it again. On failure (or a pending binding failure) the statement
  // is reset, its bindings kept, and the error returned.
  Result<StepResult> Step();
  // Steps until kDone, ignoring rows, then resets: for INSERT, UPDATE, DELETE and the like.
  Status Run();
  // Makes the statement ready to run again; bindings are kept. A SELECT left mid-way keeps its
  // read snapshot (and blocks WAL checkpoints) until it is reset or finished.
  Statement& Reset();

  // Columns of the current row (after Step returned kRow), numbered from 0.
  int ColumnCount() const;
  bool IsNull(int column) const;
  // NULL reads as 0; other types are converted as SQLite does.
  int64_t Int64(int column) const;
  double Double(int column) const;
  // The column as UTF-8 text (NULL reads as empty). The view is valid until the next Step,
  // Reset or destruction, or until another getter converts the same column to another type.
  std::string_view Text(int column) const;
  // The column as bytes (NULL reads as empty); valid as long as Text's view.
  std::span<const uint8_t> Blob(int column) const;

 private:
  friend class Database;
  explicit Statement(sqlite3_stmt* stmt) : stmt_(stmt) {}
  Statement& BindInt64(int index, int64_t value);
  // Keeps the first binding failure for the next Step.
  Statement& CheckBind(int rc, int index);
  Statement& FailBind(int index, std::string_view reason);

  sqlite3_stmt* stmt_ = nullptr;
  Status bind_error_;
};

// A connection to a 5dpgn-db database. Closed on destruction (statements still alive keep it
// open until they are destroyed too).
class Database {
 public:
  // Opens the SQLite file at `path` as it is (a file name; "file:" URIs are not interpreted),
  // with the settings every program relies on: foreign keys on, synchronous=NORMAL and a 5 s
  // busy timeout. kReadOnly fails with SQLITE_CANTOPEN when the file is missing; kReadWrite
  // creates an empty file when it is missing. Errors do not name the path (the caller does).
  // Nothing about 5dpgn-db is checked here: programs
  // open their database with OpenDatabase (schema/db.h), which does.
  static Result<Database> Connect(const std::string& path, OpenMode mode);

  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;
  Database(Database&& other) noexcept;
  Database& operator=(Database&& other) noexcept;
  ~Database();

  // Runs SQL text of any number of statements without parameters (DDL, pragmas), each to
  // completion; rows are ignored. Stops at the first failure, whose message names the statement.
  Status Exec(std::string_view sql);
  // Prepares exactly one statement (trailing comments and spaces are allowed) for repeated use.
  Result<Statement> Prepare(std::string_view sql);

  // The rowid of the last successful INSERT on this connection (0 if none).
  int64_t LastInsertRowId() const;
  // Rows changed by the last INSERT, UPDATE or DELETE on this connection (INSERT OR IGNORE of an
  // existing row changes 0).
  int64_t Changes() const;
  // PRAGMA integrity_check: "ok", or the problems found, one per line.
  Result<std::string> IntegrityCheck();

  // The path given to Connect.
  const std::string& Path() const { return path_; }
  OpenMode mode() const { return mode_; }
  // Whether OpenDatabase created the file (it was missing, and no other process created it first);
  // false when it filled an existing empty file. A program that ends up storing nothing may then
  // remove what it made: the file, PATH-wal and PATH-shm.
  bool created() const { return created_; }
  // How long a statement waits for another connection's lock before failing with SQLITE_BUSY.
  void SetBusyTimeout(std::chrono::milliseconds timeout);
  // Makes name(x) callable in this connection's SQL: `function` of x read as UTF-8 text, NULL
  // for NULL. Declared deterministic (the same argument gives the same text), so SQLite may
  // compute it once per row. `function` must not call back into this connection. Fails when
  // SQLite refuses the name.
  Status RegisterTextFunction(const std::string& name, std::string (*function)(std::string_view));
  // Whether no statement is part-way through its rows and no transaction is open: then the
  // connection holds no read snapshot and may be kept for later use by another thread.
  bool Idle() const;
  // The SQLite connection, for schema/'s own files (db.cc, game_check.cc) only: the libraries
  // above use the methods of this wrapper, never SQLite's functions. Owned by the Database.
  sqlite3* handle() const { return db_; }
  // Set by OpenDatabase when it created the file.
  void set_created(bool created) { created_ = created; }

 private:
  Database(sqlite3* db, std::string path, OpenMode mode)
      : db_(db), path_(std::move(path)), mode_(mode) {}

  sqlite3* db_ = nullptr;
  std::string path_;
  OpenMode mode_ = OpenMode::kReadOnly;
  bool created_ = false;
};

// Reads one integer from a query of one row (an error when it returns none).
Result<int64_t> QueryInt(Database& db, std::string_view sql);

// Stops the statements run on a connection once a deadline has passed, while it lives: SQLite
// checks it every few thousand virtual machine instructions, and a statement stopped so fails
// (SQLITE_INTERRUPT). Then passed() says so; the connection may be left mid-way through a search
// and should not be reused. One at a time per connection; must not outlive its Database.
class QueryDeadline {
 public:
  QueryDeadline(Database& db, std::chrono::steady_clock::time_point at);
  ~QueryDeadline();
  QueryDeadline(const QueryDeadline&) = delete;
  QueryDeadline& operator=(const QueryDeadline&) = delete;

  // Whether a statement was stopped for the deadline.
  bool passed() const { return passed_; }

 private:
  static int Check(void* deadline);

  Database& db_;
  std::chrono::steady_clock::time_point at_;
  bool passed_ = false;
};

// A write transaction: BEGIN IMMEDIATE, so it takes the write lock at once (waiting up to the busy
// timeout) and cannot fail later for a lock held by another writer. Rolled back on destruction
// unless committed. Must not outlive its Database; no other transaction may be open on the
// connection.
class Transaction {
 public:
  static Result<Transaction> Begin(Database& db);

  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  Transaction(Transaction&& other) noexcept : db_(std::exchange(other.db_, nullptr)) {}
  Transaction& operator=(Transaction&& other) noexcept;
  ~Transaction();

  // Makes the changes durable and visible to other connections. On failure the changes are rolled
  // back and the error returned. Either way the transaction is no longer active.
  Status Commit();
  // Discards the changes now.
  Status Rollback();
  // Begun and neither committed nor rolled back.
  bool active() const { return db_ != nullptr; }

 private:
  explicit Transaction(sqlite3* db) : db_(db) {}

  sqlite3* db_ = nullptr;
};

// A read transaction around a series of statements, unless the connection already has a
// transaction open: the statements see one snapshot (consistent while a writer appends), and
// SQLite takes its file locks once instead of once per statement, which matters for searches that
// run thousands of small statements. Failing to begin only costs that speed, so it is not an
// error. Must not outlive its Database.
class ReadSnapshot {
 public:
  explicit ReadSnapshot(Database& db);
  ~ReadSnapshot();
  ReadSnapshot(const ReadSnapshot&) = delete;
  ReadSnapshot& operator=(const ReadSnapshot&) = delete;

 private:
  Database& db_;
  bool began_ = false;
};

}  // namespace fived

#endif  // FIVED_SCHEMA_SQLITE_H_
