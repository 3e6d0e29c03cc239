// Per-position action statistics, kept up to date as games are indexed, as an opening explorer
// keeps them: for each position that original games (not duplicates) reached within their first
// kPositionStatsActions actions, and each action played from it, how many games played it, their
// results and their dates (table position_actions, schema.sql). The opening tree of such a
// position then costs what its actions cost, not what its games cost (query/tree.h).
//
// Positions are counted as 5d-query tree counts them without filters: a game counts once for the
// position (at its only visit: a state never repeats within a game) and for the action it played
// from it, or, when it ended there, under the action hash 0. An action is its set of moves: its
// hash is XXH3-64 (seed 0) of the move texts sorted and joined by ' ' (ActionHash); the text kept
// is the order in which the first game (lowest id) played them. Results count as ResultToCount
// (schema/ending.h) says; dates are kept as days (TreeDay). The hash, its seed and the day
// encoding are persisted: frozen with the schema version.
#ifndef FIVED_SCHEMA_POSITION_STATS_H_
#define FIVED_SCHEMA_POSITION_STATS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/decide.h"
#include "schema/db.h"

namespace fived {

// Positions reached after 0 to kPositionStatsActions - 1 actions have statistics. Written to
// meta.position_stats_actions when a database is created, and read from there (a database keeps
// the depth it was made with). Deeper positions are reached by few games each, whose records the
// tree reads instead. Frozen with the schema version.
constexpr int kPositionStatsActions = 3;

// One action's (or the ended games') figures.
struct ActionStat {
  uint64_t hash = 0;  // ActionHash of the action; 0 for the games that ended in the position
  std::string text;   // the move texts joined by ' ', as the first game played them
  int64_t games = 0;
  int64_t white_wins = 0;
  int64_t draws = 0;
  int64_t black_wins = 0;
  int64_t derived = 0;     // results derived from a proven ending
  std::string first_date;  // TreeDate (search_keys.h); empty when no game had one
  std::string last_date;

  // Adds another's figures (a later game's: `text` stays).
  void Add(const ActionStat& other);
};

// One game's figures, as it counts for a position and the action it played there: its result
// counted as ResultToCount (schema/ending.h) counts it, from the stored Result header, the
// verdict on its final position and the side in check there, and its stored Date header.
ActionStat GameStat(std::string_view result, std::optional<Decision::Verdict> verdict,
                    std::optional<Color> checked_side, std::string_view date);

// The hash of an action whose moves were written `texts` (in any order): XXH3-64 (seed 0) of the
// texts sorted and joined by ' ', so the same moves in another order hash the same. Never 0 (a
// hash of 0 becomes 1: 0 stands for the games that ended).
uint64_t ActionHash(std::vector<std::string_view> texts);

// A date as days for the table: TreeDate's "YYYY.MM.DD" as the integer YYYYMMDD with 99 for an
// unknown month or day ("2021.??.??" is 20219999, so days order as the texts do); 0 for none.
int32_t TreeDay(std::string_view tree_date);
// The TreeDate of a day (TreeDay's inverse); empty for 0.
std::string DayTreeDate(int32_t day);

// Gathers the statistics of a write transaction in memory and adds them to the table in one
// pass (an upsert per distinct position and action, in key order). Not thread-safe.
class PositionStatsWriter {
 public:
  // Prepares its statement on `db`, which must outlive it.
  static Result<PositionStatsWriter> Create(Database& db);

  // Counts one game's visit of `state_key` with the action of `stat` (its hash and text; hash 0
  // when the game ended there) and its figures (`stat.games` 1). Games must come in increasing
  // id, so that the first text kept is the lowest id's.
  void Add(uint64_t state_key, const ActionStat& stat);
  // Adds what was gathered to the table (in the caller's transaction) and forgets it.
  Status Write();
  size_t pending() const { return pending_.size(); }

 private:
  explicit PositionStatsWriter(Statement upsert) : upsert_(std::move(upsert)) {}
  Statement upsert_;
  std::map<std::pair<uint64_t, uint64_t>, ActionStat> pending_;
};

// The rows of `state_key`, hash 0 for the games that ended there, in no particular order. Empty
// when the position has none.
Result<std::vector<ActionStat>> ReadPositionStats(Database& db, uint64_t state_key);

}  // namespace fived

#endif  // FIVED_SCHEMA_POSITION_STATS_H_
