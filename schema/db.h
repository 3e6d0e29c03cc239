// The 5dpgn-db database itself: its schema and key versions, how keys are stored, and
// OpenDatabase, which gives a connection (schema/sqlite.h) to a database it has checked to be a
// 5dpgn-db database of this schema version, creating it when asked to.
//
// The tables are defined in schema/schema.sql and schema/indexes.sql and documented, column by
// column, in schema/README.md.
#ifndef FIVED_SCHEMA_DB_H_
#define FIVED_SCHEMA_DB_H_

#include <bit>
#include <cstdint>
#include <string>
#include <string_view>

#include "schema/sqlite.h"

namespace fived {

// The schema version this build reads and writes, stored in meta.schema_version. A database of
// another version is refused on open. Changing a table, a column, an index or the meaning of a
// stored value means a new version (the SQL files change in place; git keeps the old ones).
constexpr int kSchemaVersion = 9;
// meta.application of every 5dpgn-db database.
constexpr std::string_view kApplicationName = "5dpgn-db";
// The database file both tools use when no --db is given, in the current directory.
inline constexpr const char* kDefaultDatabaseFile = "5dpgn-db.sqlite";

// Keys and hashes are unsigned 64-bit values; SQLite integers are signed 64-bit. A key is stored
// as the signed integer with the same 64 bits (two's complement): keys below 2^63 are stored as
// themselves, keys from 2^63 up as key - 2^64 (negative). The mapping is a bijection, so equality
// lookups work unchanged; only the order of stored keys differs from the unsigned order.
constexpr int64_t KeyToSql(uint64_t key) { return std::bit_cast<int64_t>(key); }
constexpr uint64_t KeyFromSql(int64_t value) { return std::bit_cast<uint64_t>(value); }

// Opens the 5dpgn-db database at `path` (a file name; "file:" URIs are not interpreted).
//
// Every connection gets foreign keys on, synchronous=NORMAL and a 5 s busy timeout. A kReadWrite
// connection puts the file in WAL mode (a property of the file, so readers see it too), which
// lets readers read while a writer writes; a crash loses at most the last transactions, never
// consistency. kReadWrite creates the database when the file is missing or empty (no tables);
// it never adds tables to a database that already has tables of its own.
//
// Fails with SQLITE_CANTOPEN when a kReadOnly path does not exist ("PATH: no such database
// file") or when the path is a directory, in either mode ("PATH: is a directory, not a database
// file"), and with SQLITE_NOTADB when the file is not a 5dpgn-db database ("PATH: not a 5dpgn-db
// database (REASON)"), when its schema version differs ("PATH: schema version 2 is not
// supported; this build reads version 9") or when its keys were computed by another key
// algorithm (meta.key_version differs from fived::kKeyVersion).
Result<Database> OpenDatabase(const std::string& path, OpenMode mode);

}  // namespace fived

#endif  // FIVED_SCHEMA_DB_H_
