// The mates in one a database keeps (table tactics, 5d-index --tactics): one row per position of
// a game in which the side to move had a proven mate in one, or whose search could not settle
// it. The indexer writes them (TacticsWriter), 5d-query reads them (ReadGameTactics) to find
// games with mates, found or missed, and to make puzzles. The integers stored are frozen with the
// schema version; a golden test pins them.
#ifndef FIVED_SCHEMA_TACTICS_H_
#define FIVED_SCHEMA_TACTICS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/types.h"
#include "schema/sqlite.h"

namespace fived {

// tactics.answer. Frozen. (2, "no mate in one", is never stored: a position without a row.)
inline constexpr int64_t kTacticsMates = 1;
inline constexpr int64_t kTacticsUnknown = 3;

// One row of tactics: a position of a game and its mates in one.
struct PositionTactics {
  int action = 0;              // the position after `action` actions (0: the start)
  Color side = Color::kWhite;  // the side to move there
  bool unknown = false;        // the search ran out of budget without a mate: nothing claimed
  uint64_t mating = 0;         // mating actions found (at least 1 unless unknown)
  bool complete = false;       // every legal action was tried and decided: `mating` is exact
  std::optional<bool> played;  // the action played from here mated (found) or not (missed);
                               // nullopt for the final position and when it is not proved
  std::string solution;        // one mating action, canonical move texts joined by ' '
};

// Inserts rows with a statement prepared once. Not thread-safe.
class TacticsWriter {
 public:
  // Prepares its statement on `db`, which must outlive it.
  static Result<TacticsWriter> Create(Database& db);
  // Adds the row of `game_id` (in the caller's transaction).
  Status Add(int64_t game_id, const PositionTactics& row);

 private:
  explicit TacticsWriter(Statement insert) : insert_(std::move(insert)) {}
  Statement insert_;
};

// The rows of a game, by action; empty when it has none (or the database has no tactics).
Result<std::vector<PositionTactics>> ReadGameTactics(Database& db, int64_t game_id);

}  // namespace fived

#endif  // FIVED_SCHEMA_TACTICS_H_
