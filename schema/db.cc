// Opening, creating and checking a 5dpgn-db database (db.h); the SQLite wrapper is sqlite.cc.
#include "schema/db.h"

#include <sqlite3.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

#include "core/keys.h"
#include "schema/game_check.h"
#include "schema/meta.h"
#include "schema/page_checksums.h"
#include "schema/sql.h"

namespace fived {
namespace {

// Pages of 16 KiB rather than SQLite's 4 KiB: a posting chunk (schema/postings.h) stays within a
// page's local payload up to about 4,000 bytes instead of 1,000, so a transaction can hold three
// times as many postings, in a third as many rows, without spilling to overflow pages. The whole
// ingest is cheaper and the database smaller (docs/BENCHMARKS.md).
constexpr int kPageSize = 16384;

constexpr std::string_view kCountTablesSql =
    "SELECT count(*) FROM sqlite_schema WHERE type = 'table'";
constexpr std::string_view kHasMetaSql =
    "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'meta'";

// An error of Open: the path, then what went wrong.
Status OpenError(const std::string& path, const Status& error) {
  if (error.primary_detail() == SQLITE_NOTADB) {
    return Status::Database(
        path + ": not a 5dpgn-db database (" + sqlite3_errstr(SQLITE_NOTADB) + ")", error.detail());
  }
  return Status::Database(path + ": " + error.message(), error.detail());
}

Status NotOurs(const std::string& path, const std::string& reason) {
  return Status::Database(path + ": not a 5dpgn-db database (" + reason + ")", SQLITE_NOTADB);
}

// Creates the tables, indexes and meta rows when the database has no tables. The check
// is repeated inside the write transaction so that two processes creating the same file at once
// create it once.
Status CreateIfEmpty(Database& db) {
  Result<int64_t> tables = QueryInt(db, kCountTablesSql);
  if (!tables.ok()) return tables.error();
  if (tables.value() != 0) return Status();

  // Set before anything is written (a WAL database keeps its page size for good).
  if (Status error = db.Exec("PRAGMA page_size = " + std::to_string(kPageSize)); !error.ok())
    return error;
  // Room for each page's checksum (page_checksums.h), also fixed by the first write.
  int reserved = kPageChecksumBytes;
  if (sqlite3_file_control(db.handle(), "main", SQLITE_FCNTL_RESERVE_BYTES, &reserved) !=
      SQLITE_OK) {
    return Status::Database("cannot reserve the bytes of page checksums", SQLITE_ERROR);
  }
  Result<Transaction> transaction = Transaction::Begin(db);
  if (!transaction.ok()) return transaction.error();
  tables = QueryInt(db, kCountTablesSql);
  if (!tables.ok()) return tables.error();
  if (tables.value() != 0) return Status();
  if (Status error = db.Exec(sql::kSchemaSql); !error.ok()) return error;
  if (Status error = db.Exec(sql::kIndexesSql); !error.ok()) return error;
  if (Status error = WriteNewMeta(db); !error.ok()) return error;
  return transaction.value().Commit();
}

// Checks that the database is a 5dpgn-db database that this build can read and write.
Status CheckMeta(Database& db, const std::string& path) {
  Result<int64_t> has_meta = QueryInt(db, kHasMetaSql);
  if (!has_meta.ok()) return OpenError(path, has_meta.error());
  if (has_meta.value() == 0) return NotOurs(path, "no meta table");

  // The value of `key`, or why the database is not one of ours (the row is missing) or cannot be
  // read.
  auto read = [&](MetaKey key) -> Result<std::string> {
    Result<std::optional<std::string>> value = ReadMeta(db, key);
    if (!value.ok()) return OpenError(path, value.error());
    if (!value.value()) return NotOurs(path, "meta has no " + std::string(MetaKeyName(key)));
    return *value.value();
  };

  Result<std::string> application = read(MetaKey::kApplication);
  if (!application.ok()) return application.error();
  if (application.value() != kApplicationName) {
    return NotOurs(path, "application is '" + application.value() + "'");
  }

  Result<std::string> schema_version = read(MetaKey::kSchemaVersion);
  if (!schema_version.ok()) return schema_version.error();
  if (schema_version.value() != std::to_string(kSchemaVersion)) {
    return Status::Database(path + ": schema version " + schema_version.value() +
                                " is not supported; this build reads version " +
                                std::to_string(kSchemaVersion),
                            SQLITE_NOTADB);
  }

  Result<std::string> key_version = read(MetaKey::kKeyVersion);
  if (!key_version.ok()) return key_version.error();
  if (key_version.value() != std::to_string(kKeyVersion)) {
    return Status::Database(path + ": keys were computed by key version " + key_version.value() +
                                "; this build computes version " + std::to_string(kKeyVersion) +
                                " (index the games into a new database)",
                            SQLITE_NOTADB);
  }
  return Status();
}

// Creates a new database file at `path` atomically: the schema is written to a temporary file
// beside it, which is then linked to `path`. A process killed meanwhile leaves no half-made
// database at `path` (at most a stray "PATH.creating-PID" file). When another process created
// `path` first, its database is kept and `*created` stays false.
Status CreateAtomically(const std::string& path, bool* created) {
  const std::string temporary = path + ".creating-" + std::to_string(getpid());
  std::remove(temporary.c_str());
  // An empty file: Open then fills it in place (and does not come back here).
  if (FILE* touched = std::fopen(temporary.c_str(), "wb")) {
    std::fclose(touched);
  } else {
    return Status::Database(path + ": cannot create the database (" + std::strerror(errno) + ")",
                            SQLITE_CANTOPEN);
  }
  {
    // Errors name the database, not the temporary file.
    auto named = [&](const Status& error) {
      std::string_view reason = error.message();
      if (reason.starts_with(temporary + ": ")) reason.remove_prefix(temporary.size() + 2);
      return Status::Database(path + ": cannot create the database (" + std::string(reason) + ")",
                              error.detail());
    };
    Result<Database> created = OpenDatabase(temporary, OpenMode::kReadWrite);
    if (!created.ok()) {
      std::remove(temporary.c_str());
      return named(created.error());
    }
    // Fold the write-ahead log into the file, so that the file alone is the database.
    if (Status error = created.value().Exec("PRAGMA wal_checkpoint(TRUNCATE)"); !error.ok()) {
      std::remove(temporary.c_str());
      return named(error);
    }
  }
  const int linked = link(temporary.c_str(), path.c_str());
  const int link_errno = errno;
  std::remove(temporary.c_str());
  std::remove((temporary + "-wal").c_str());
  std::remove((temporary + "-shm").c_str());
  if (linked != 0 && link_errno != EEXIST) {
    return Status::Database(
        path + ": cannot create the database (" + std::strerror(link_errno) + ")", SQLITE_CANTOPEN);
  }
  *created = linked == 0;
  return Status();
}

}  // namespace

Result<Database> OpenDatabase(const std::string& path, OpenMode mode) {
  const bool read_only = mode == OpenMode::kReadOnly;
  {
    // SQLite would say "unable to open database file" or "disk I/O error".
    std::error_code ignored;
    if (std::filesystem::is_directory(path, ignored)) {
      return Status::Database(path + ": is a directory, not a database file", SQLITE_CANTOPEN);
    }
  }
  bool created = false;
  if (!read_only && path != ":memory:" && !path.empty()) {
    std::error_code ignored;
    if (!std::filesystem::exists(path, ignored)) {
      if (Status error = CreateAtomically(path, &created); !error.ok()) return error;
    }
  }
  if (read_only) {
    // SQLite would say "unable to open database file"; say what is wrong instead.
    std::error_code ignored;
    if (!std::filesystem::exists(path, ignored)) {
      return Status::Database(path + ": no such database file", SQLITE_CANTOPEN);
    }
  }
  Result<Database> connected = Database::Connect(path, mode);
  if (!connected.ok()) return OpenError(path, connected.error());
  Database db = std::move(connected).value();
  db.set_created(created);
  if (RegisterGameCheck(db.handle()) != SQLITE_OK) {
    return Status::Database(path + ": cannot register " + kGameCheckFunction, SQLITE_ERROR);
  }
  if (!read_only) {
    if (Status error = CreateIfEmpty(db); !error.ok()) return OpenError(path, error);
  }
  if (Status error = CheckMeta(db, path); !error.ok()) return error;
  if (!read_only) {
    // Only now, once the file is known to be ours: WAL mode is a property of the file.
    Result<Statement> journal = db.Prepare("PRAGMA journal_mode = WAL");
    if (!journal.ok()) return OpenError(path, journal.error());
    Result<StepResult> step = journal.value().Step();
    if (!step.ok()) return OpenError(path, step.error());
    const std::string journal_mode(journal.value().Text(0));
    // In-memory databases cannot use WAL and have no readers to share with.
    const char* file = sqlite3_db_filename(db.handle(), "main");
    if (journal_mode != "wal" && file != nullptr && *file != '\0') {
      return Status::Database(
          path + ": cannot use WAL journal mode here (got '" + journal_mode + "')",
          SQLITE_CANTOPEN);
    }
  }
  return db;
}

}  // namespace fived
