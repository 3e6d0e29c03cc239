// The meta table: facts about a 5dpgn-db database itself, one row per key (schema/schema.sql,
// schema/README.md). The keys are named here and nowhere else: the tools read and write meta
// through these functions, which take a Database of schema/sqlite.h and fail with its Status.
#ifndef FIVED_SCHEMA_META_H_
#define FIVED_SCHEMA_META_H_

#include <optional>
#include <string>
#include <string_view>

#include "schema/sqlite.h"

namespace fived {

// The keys of meta. What is stored under each is frozen with the schema version.
enum class MetaKey {
  kApplication,           // kApplicationName (schema/db.h) in every 5dpgn-db database
  kSchemaVersion,         // kSchemaVersion (schema/db.h), as decimal text
  kKeyVersion,            // kKeyVersion (core/keys.h), as decimal text
  kCreatedAt,             // when the database was created, UTC: 2024-01-31T12:00:00Z
  kPositionStatsActions,  // kPositionStatsActions when created (schema/position_stats.h)
  kStateMd5,              // which states' MD5s are indexed: 'final' or 'all' (StateMd5s)
  kTactics,               // whether every position's mates in one are indexed: 'off' or 'on'
  kTacticsVersion,        // kTacticsVersion (core/tactics.h) of the oldest build that found them
};

// The key's name as stored in meta.key ("schema_version").
std::string_view MetaKeyName(MetaKey key);

// The text stored under `key`; nullopt when the database has no such row. For checks of what is
// stored as it is (OpenDatabase, 5d-index verify and merge); the values used as settings have
// typed functions below.
Result<std::optional<std::string>> ReadMeta(Database& db, MetaKey key);

// Writes the rows of a new database, whose meta table is empty: the application, the schema and
// key versions of this build, the time now, kPositionStatsActions and 'final' MD5s. Call in the
// transaction that creates the tables.
Status WriteNewMeta(Database& db);

// meta.position_stats_actions: positions reached after fewer actions have statistics
// (schema/position_stats.h). 0 when the row is missing or holds no number.
Result<int> PositionStatsActions(Database& db);

// Which states' MD5s a database indexes in md5_postings (meta.state_md5): the final states' only,
// or every state's (5d-index --all-state-md5, which only a database without games takes up).
enum class StateMd5s { kFinal, kAll };
// The text stored for it: "final" or "all".
std::string_view StateMd5sText(StateMd5s which);
// kAll when meta.state_md5 is 'all'; kFinal otherwise (another value is verify's to report).
Result<StateMd5s> ReadStateMd5s(Database& db);
// Stores `which` in meta.state_md5.
Status WriteStateMd5s(Database& db, StateMd5s which);

// Whether a database holds the mates in one of every position of every game (meta.tactics,
// table tactics): 5d-index --tactics, which only a database without games takes up; a database
// that has it keeps it. A database whose meta has no such row has them off.
// The text stored for it: "on" or "off".
std::string_view TacticsText(bool on);
// True when meta.tactics is 'on'.
Result<bool> ReadTactics(Database& db);
// Stores `on` in meta.tactics (adding the row when it is missing).
Status WriteTactics(Database& db, bool on);

// Which search found the mates in one (meta.tactics_version): kTacticsVersion of core/tactics.h
// of the oldest build that indexed games into the database with --tactics. A database whose
// meta has no such row (made before the row existed) gives 1. A database that takes up --tactics,
// or gets its first games, stores the build's version; games added later by a newer build leave
// it as it is (the older games' answers are still the older search's), and a merge stores the
// oldest of its inputs' (and its output's, when that has games).
Result<int> ReadTacticsVersion(Database& db);
// Stores `version` in meta.tactics_version (adding the row when it is missing).
Status WriteTacticsVersion(Database& db, int version);
// What the tools say of a database whose tactics_version is `version`, below kTacticsVersion:
// which build found its mates in one, what that build could get wrong, and how to mend it.
std::string OlderTacticsText(int version);

}  // namespace fived

#endif  // FIVED_SCHEMA_META_H_
