// The database version answers are cached under; see answer_cache.h.
#include "query/answer_cache.h"

namespace fived {

Result<std::string> DatabaseVersion(GameStore& store) {
  Result<Statement> statement = store.db().Prepare(
      "SELECT (SELECT max(id) FROM games), (SELECT max(rowid) FROM rejected), "
      "(SELECT max(id) FROM sources)");
  if (!statement.ok()) return statement.error();
  Statement& s = statement.value();
  Result<StepResult> step = s.Step();
  if (!step.ok()) return step.error();
  std::string version;
  for (int column = 0; column < 3; ++column) {
    if (column > 0) version += ':';
    version += s.IsNull(column) ? "-" : std::to_string(s.Int64(column));
  }
  return version;
}

}  // namespace fived
