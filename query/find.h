// Finding games: filters (filter.h) and an optional position match (search.h) combined, sorted
// and paged, then written as a table, JSON, CSV or a 5dpgn collection.
#ifndef FIVED_QUERY_FIND_H_
#define FIVED_QUERY_FIND_H_

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "query/filter.h"
#include "query/json.h"
#include "query/search.h"
#include "query/store.h"

namespace fived {

// A sort order: a column of the table and a direction.
struct SortOrder {
  enum class Field { kId, kWhite, kBlack, kResult, kDate, kVariant, kActions, kTimelines, kAction };
  Field field = Field::kId;
  bool descending = false;
};
// Parses "date", "-actions", "white", ... (a leading '-' sorts descending). nullopt when unknown.
std::optional<SortOrder> ParseSortOrder(std::string_view text);

struct FindRequest {
  GameFilter filter;
  // When set, only these games (with the action at which they reached the position), in any
  // order; the result then has `action` values.
  std::optional<std::vector<PositionMatch>> positions;
  SortOrder sort;
  int64_t limit = -1;  // -1: all
  int64_t offset = 0;
};

struct FoundGame {
  GameRow row;
  int action = -1;     // the first action after which the searched position stood; -1 without one
  std::string boards;  // pattern searches: the matching boards ("L:T:c", space-separated)
};

// The games of `request`. With `total`, also the number of matches before limit and offset.
Result<std::vector<FoundGame>> FindGames(GameStore& store, const FindRequest& request,
                                         int64_t* total = nullptr);
// The number of matching games (limit and offset ignored).
Result<int64_t> CountGames(GameStore& store, const FindRequest& request);
// The ids of every game passing the filter, in id order.
Result<std::vector<int64_t>> FilteredIds(GameStore& store, const GameFilter& filter);

// What a find lists, limit and offset aside, and how the copies among the games it matches
// (games.duplicate_of set, schema/copies.h) reconcile it with the statistics, which leave them
// out: without filter.originals_only the `games` listed hold `copies` copies; with it the
// `copies` were left out.
struct FindTotals {
  int64_t games = 0;   // CountGames's number
  int64_t copies = 0;  // copies among the games matching the request but for originals_only
};
// The totals of `request`, in one read snapshot. Costs two counts (a position search: a pass over
// its matches).
Result<FindTotals> CountTotals(GameStore& store, const FindRequest& request);

// The line find's table ends with, for people, saying how many games `shown` rows from `offset`
// are of and how the copies stand (`unique`: the request had filter.originals_only), e.g.
//   21 games (2 copies of earlier games; --unique leaves them out)
//   19 games (2 copies left out)
//   rows 3 to 5 of 21 games (no copies)
std::string FindSummary(const FindTotals& totals, bool unique, int64_t offset, size_t shown);

// kVmn, Verbose Matrix Notation, is show's alone (query/request.h): ParseOutputFormat does not
// read it, so that find refuses it.
enum class OutputFormat { kTable, kJson, kCsv, kPgn, kVmn };
std::optional<OutputFormat> ParseOutputFormat(std::string_view text);

// Writes found games. JSON objects hold every header of the game (read from its record), CSV
// and the table the listing columns; 5dpgn writes each game's original text, or with
// `canonical` its headers, start boards (custom games) and canonical movetext, each followed by a
// blank line, as ExportGame (query/export.h) writes them so that they read back game for game.
// `with_action` adds the action column (position searches).
// A found game as the JSON object WriteGames writes: id, action (with `with_action`), white,
// black, result, date, event, variant, actions, timelines, final_md5, duplicate_of (null for an
// original), verdict, in_check and witness (null when there is nothing to say),
// result_conflict, source, byte_offset, game_index and headers (every header by name, in file
// order; a name written twice keeps its first value).
// With `with_boards` (pattern searches), "boards" follows "action": the matching boards as
// "L:T:c" texts, one per pattern. With `with_mates` (--mate-in-one, --missed-mate), "mates"
// comes last: the game's positions with a proven mate in one (MatesJson).
Result<Json> GameJson(GameStore& store, const FoundGame& game, bool with_action,
                      bool with_boards = false, bool with_mates = false);

// The positions of game `id` with a proven mate in one (table tactics, schema/tactics.h), by
// action, each as {"action": the actions played before it, "side": "white" or "black" (to
// move), "played": "found" (the action played mated), "missed" or null (the final position, or
// not proved), "solutions": the mating actions found, "complete": whether that number is
// exact, "solution": one of them in canonical move texts, "allowed": whether the action before
// it (the other side's) allowed it (every position after the start)}. An empty array for a game
// without any, or a database without tactics.
Result<Json> MatesJson(GameStore& store, int64_t id);

// `with_boards` adds the boards column after the action (pattern searches); `with_mates` the
// "mates" of JSON rows.
Status WriteGames(GameStore& store, const std::vector<FoundGame>& games, OutputFormat format,
                  bool with_action, bool canonical, std::ostream& out, bool with_boards = false,
                  bool with_mates = false);

}  // namespace fived

#endif  // FIVED_QUERY_FIND_H_
