// The meta table; see meta.h.
#include "schema/meta.h"

#include <array>

#include "core/keys.h"
#include "core/tactics.h"
#include "schema/db.h"
#include "schema/position_stats.h"

namespace fived {
namespace {

// By MetaKey, in its order.
constexpr std::array<std::string_view, 8> kKeyNames = {
    "application", "schema_version", "key_version",    "created_at", "position_stats_actions",
    "state_md5",   "tactics",        "tactics_version"};

constexpr std::string_view kSelectSql = "SELECT value FROM meta WHERE key = ?1";
constexpr std::string_view kInsertSql = "INSERT INTO meta(key, value) VALUES (?1, ?2)";
constexpr std::string_view kInsertNowSql =
    "INSERT INTO meta(key, value) VALUES (?1, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))";
constexpr std::string_view kUpdateSql = "UPDATE meta SET value = ?2 WHERE key = ?1";
constexpr std::string_view kUpsertSql =
    "INSERT INTO meta(key, value) VALUES (?1, ?2) ON CONFLICT(key) DO UPDATE SET value = ?2";
// CAST reads the leading number of any text (0 when there is none), as SQLite does.
constexpr std::string_view kSelectIntSql =
    "SELECT coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = ?1), 0)";

}  // namespace

std::string_view MetaKeyName(MetaKey key) { return kKeyNames[static_cast<size_t>(key)]; }

Result<std::optional<std::string>> ReadMeta(Database& db, MetaKey key) {
  Result<Statement> select = db.Prepare(kSelectSql);
  if (!select.ok()) return select.error();
  Result<StepResult> step = select.value().Bind(1, MetaKeyName(key)).Step();
  if (!step.ok()) return step.error();
  std::optional<std::string> value;
  if (step.value() == StepResult::kRow) value = std::string(select.value().Text(0));
  return value;
}

Status WriteNewMeta(Database& db) {
  Result<Statement> insert = db.Prepare(kInsertSql);
  if (!insert.ok()) return insert.error();
  const std::pair<MetaKey, std::string> rows[] = {
      {MetaKey::kSchemaVersion, std::to_string(kSchemaVersion)},
      {MetaKey::kKeyVersion, std::to_string(kKeyVersion)},
      {MetaKey::kApplication, std::string(kApplicationName)},
      {MetaKey::kPositionStatsActions, std::to_string(kPositionStatsActions)},
      {MetaKey::kStateMd5, std::string(StateMd5sText(StateMd5s::kFinal))},
      {MetaKey::kTactics, std::string(TacticsText(false))}};
  for (const auto& [key, value] : rows) {
    if (Status error = insert.value().Reset().BindAll(MetaKeyName(key), value).Run(); !error.ok())
      return error;
  }
  Result<Statement> insert_now = db.Prepare(kInsertNowSql);
  if (!insert_now.ok()) return insert_now.error();
  return insert_now.value().Bind(1, MetaKeyName(MetaKey::kCreatedAt)).Run();
}

Result<int> PositionStatsActions(Database& db) {
  Result<Statement> select = db.Prepare(kSelectIntSql);
  if (!select.ok()) return select.error();
  Result<StepResult> step =
      select.value().Bind(1, MetaKeyName(MetaKey::kPositionStatsActions)).Step();
  if (!step.ok()) return step.error();
  return static_cast<int>(select.value().Int64(0));
}

std::string_view StateMd5sText(StateMd5s which) {
  return which == StateMd5s::kAll ? "all" : "final";
}

Result<StateMd5s> ReadStateMd5s(Database& db) {
  Result<std::optional<std::string>> value = ReadMeta(db, MetaKey::kStateMd5);
  if (!value.ok()) return value.error();
  return value.value() == StateMd5sText(StateMd5s::kAll) ? StateMd5s::kAll : StateMd5s::kFinal;
}

Status WriteStateMd5s(Database& db, StateMd5s which) {
  Result<Statement> update = db.Prepare(kUpdateSql);
  if (!update.ok()) return update.error();
  return update.value().BindAll(MetaKeyName(MetaKey::kStateMd5), StateMd5sText(which)).Run();
}

std::string_view TacticsText(bool on) { return on ? "on" : "off"; }

Result<bool> ReadTactics(Database& db) {
  Result<std::optional<std::string>> value = ReadMeta(db, MetaKey::kTactics);
  if (!value.ok()) return value.error();
  return value.value() == TacticsText(true);
}

Status WriteTactics(Database& db, bool on) {
  Result<Statement> upsert = db.Prepare(kUpsertSql);
  if (!upsert.ok()) return upsert.error();
  return upsert.value().BindAll(MetaKeyName(MetaKey::kTactics), TacticsText(on)).Run();
}

Result<int> ReadTacticsVersion(Database& db) {
  Result<std::optional<std::string>> value = ReadMeta(db, MetaKey::kTacticsVersion);
  if (!value.ok()) return value.error();
  if (!value.value()) return 1;
  Result<Statement> select = db.Prepare(kSelectIntSql);
  if (!select.ok()) return select.error();
  Result<StepResult> step = select.value().Bind(1, MetaKeyName(MetaKey::kTacticsVersion)).Step();
  if (!step.ok()) return step.error();
  return static_cast<int>(select.value().Int64(0));
}

Status WriteTacticsVersion(Database& db, int version) {
  Result<Statement> upsert = db.Prepare(kUpsertSql);
  if (!upsert.ok()) return upsert.error();
  return upsert.value()
      .BindAll(MetaKeyName(MetaKey::kTacticsVersion), std::to_string(version))
      .Run();
}

std::string OlderTacticsText(int version) {
  return "the mates in one of this database were searched by an earlier build (tactics version " +
         std::to_string(version) + "; this build's is " + std::to_string(kTacticsVersion) +
         "), which in rare positions could record a mate in one as none: index the collections "
         "again into a new database with --tactics to settle them";
}

}  // namespace fived
