// The tactics table; see tactics.h.
#include "schema/tactics.h"

#include <utility>

#include "schema/ending.h"

namespace fived {

namespace {

constexpr std::string_view kInsertSql =
    "INSERT OR REPLACE INTO tactics(game_id, action, side, answer, mating, complete, played, "
    "solution) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)";
constexpr std::string_view kSelectSql =
    "SELECT action, side, answer, mating, complete, played, solution FROM tactics "
    "WHERE game_id = ?1 ORDER BY action";

}  // namespace

Result<TacticsWriter> TacticsWriter::Create(Database& db) {
  Result<Statement> insert = db.Prepare(kInsertSql);
  if (!insert.ok()) return insert.error();
  return TacticsWriter(std::move(insert).value());
}

Status TacticsWriter::Add(int64_t game_id, const PositionTactics& row) {
  std::optional<int64_t> mating, played;
  std::optional<std::string_view> solution;
  if (!row.unknown) {
    mating = static_cast<int64_t>(row.mating);
    solution = row.solution;
  }
  if (row.played) played = *row.played ? 1 : 0;
  insert_.Reset().BindAll(game_id, row.action, SideToSql(row.side),
                          row.unknown ? kTacticsUnknown : kTacticsMates, mating,
                          row.complete ? 1 : 0, played, solution);
  return insert_.Run();
}

Result<std::vector<PositionTactics>> ReadGameTactics(Database& db, int64_t game_id) {
  Result<Statement> select = db.Prepare(kSelectSql);
  if (!select.ok()) return select.error();
  Statement& s = select.value();
  s.Bind(1, game_id);
  std::vector<PositionTactics> rows;
  for (;;) {
    Result<StepResult> step = s.Step();
    if (!step.ok()) return step.error();
    if (step.value() != StepResult::kRow) break;
    PositionTactics row;
    row.action = static_cast<int>(s.Int64(0));
    row.side = SideFromSql(s.Int64(1));
    row.unknown = s.Int64(2) != kTacticsMates;
    row.mating = s.IsNull(3) ? 0 : static_cast<uint64_t>(s.Int64(3));
    row.complete = s.Int64(4) != 0;
    if (!s.IsNull(5)) row.played = s.Int64(5) != 0;
    row.solution = std::string(s.Text(6));
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace fived
