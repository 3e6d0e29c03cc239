// What a 5dpgn-db database holds, for `5d-query stats`: how many games (and how many copies of
// them were left out), rejected games and sources; games per variant; the players with the most
// games; the range of dates; results and how the games end; and how games spread over timeline
// counts and lengths. SQL aggregates and one scan of the games' names and results, under the
// filter's condition: about a quarter of a second for 100,000 games. Not thread-safe (it uses the
// store's connection).
#ifndef FIVED_QUERY_STATS_H_
#define FIVED_QUERY_STATS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "query/filter.h"
#include "query/json.h"
#include "query/store.h"
#include "schema/db.h"

namespace fived {

// Games are counted as every statistic counts them: copies (games.duplicate_of set,
// schema/copies.h) are left out and counted apart, so a game recorded twice counts once and games
// that only played the same moves count each.
struct VariantStats {
  std::string variant;  // games.variant: an official name or "custom"
  int64_t games = 0;    // the games of the variant, copies left out
  int64_t copies = 0;   // its copies
};

// A player's record, from their side of the board, with results counted as tree counts them
// (DatabaseStats::white_wins). Names are grouped by their search keys
// (schema/search_keys.h: case, accents' encoding and spaces do not split a player). A game where
// one name plays both sides counts once, as White's.
struct PlayerStats {
  std::string name;  // as written in the earliest game (lowest id) among its spellings
  int64_t games = 0;
  int64_t wins = 0;
  int64_t draws = 0;
  int64_t losses = 0;  // games - wins - draws - losses: unfinished or unknown results
};

// Games dated in one year.
struct YearCount {
  int year = 0;
  int64_t games = 0;
};

// Games whose count (timelines or actions) is in [min, max]; max is -1 for "and more".
struct CountBucket {
  int min = 0;
  int max = 0;
  int64_t games = 0;

  // "3", "4-5", "101+".
  std::string Label() const;
};

struct DatabaseStats {
  // Over the games matching the filter: the games counted (copies left out), and the copies.
  // `5d-query --unique` finds `games` games, and without --unique games + copies.
  int64_t games = 0;
  int64_t copies = 0;
  // Over the whole database, whatever the filter:
  int64_t rejected = 0;  // rows of the rejected table
  int64_t sources = 0;   // rows of the sources table
  // Per variant, over the games matching the filter; most games first, then by name.
  std::vector<VariantStats> variants;
  // The rest is over the `games` (copies left out).
  std::vector<PlayerStats> players;  // most games first, then by name; at most top_players
  // The first and last day the originals' dates may stand for (YYYYMMDD, schema/search_keys.h;
  // a game dated "2021" spans 2021.01.01 to 2021.12.31); 0 when no game has a readable date.
  int32_t first_day = 0;
  int32_t last_day = 0;
  int64_t dated = 0;             // originals with a readable date; the others have none or:
  int64_t unreadable_dates = 0;  // originals whose Date cannot be read ("6-14-2021")
  // The originals per year, ascending, years without games left out: a game counts in the year
  // its date names ("2021.??.??" too); one whose date may stand for days of several years counts
  // in none (it is among `dated` all the same).
  std::vector<YearCount> years;
  int64_t total_actions = 0;
  // Results as tree counts them (ResultToCount in schema/ending.h): games.result, or where it has
  // none or says "*", the result a proven checkmate or stalemate settles (`derived` of them).
  int64_t white_wins = 0;
  int64_t draws = 0;
  int64_t black_wins = 0;
  int64_t derived_results = 0;
  // Endings: the verdicts on the final positions (games.verdict; `undecided` without one), and
  // the games whose verdict contradicts their result (games.result_conflict).
  int64_t checkmates = 0;
  int64_t stalemates = 0;
  int64_t playable = 0;
  int64_t unknown = 0;
  int64_t undecided = 0;
  int64_t result_conflicts = 0;
  // Fixed buckets, every one listed even when empty. Timelines: 1, 2, 3, 4-5, 6-10, 11-20, 21+.
  // Actions: 0, 1-10, 11-20, ..., 91-100, 101+.
  std::vector<CountBucket> timelines;
  std::vector<CountBucket> lengths;
};

// The statistics of the games matching `filter` (rejected and sources: of the whole database),
// with the `top_players` players of the most games (0: none). Fails when the database cannot be
// read.
Result<DatabaseStats> ComputeStats(GameStore& store, const GameFilter& filter,
                                   int top_players = 10);

// Appends the statistics as aligned text for people, e.g.
//   games       1,200 (4 copies left out)
//   rejected    3
//   sources     2
//   dates       2020.01.01 to 2021.12.31, 1,150 dated, 50 not (2 have dates that cannot be read)
//   results     300: 140 white wins, 30 draws, 130 black wins (12 derived from the ending)
//   endings     20 checkmate, 2 stalemate, 1,177 playable, 1 unknown; 3 result conflicts
// then one table each for variants, top players, timelines, lengths and years (tables without
// rows are left out).
void WriteStatsTable(const DatabaseStats& stats, std::string* out);

// The statistics as one JSON object: "games" (copies left out), "copies",
// "rejected", "sources", "actions" (total), "variants" [{"variant", "games", "copies"}],
// "players" [{"name", "games", "wins", "draws", "losses"}], "dates" {"first", "last" (null when
// no game has a readable date), "dated", "undated", "unreadable", "years" [{"year", "games"}]},
// "results" {"white_wins",
// "draws", "black_wins", "derived"}, "endings" {"checkmate", "stalemate", "playable", "unknown",
// "undecided"}, "result_conflicts",
// "timelines" and "lengths" [{"range", "min", "max" (null for no bound), "games"}].
Json StatsJson(const DatabaseStats& stats);
// Appends StatsJson(stats) as text and a newline.
void WriteStatsJson(const DatabaseStats& stats, std::string* out);

}  // namespace fived

#endif  // FIVED_QUERY_STATS_H_
