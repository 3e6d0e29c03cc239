// The opening tree of a position: how many games in the database reached it, and every action
// played from it, each with how many games played it (and their share of the position's games),
// their results, white's score over the finished ones and their date range, and, to a chosen
// depth, the actions that followed. Games come from the state's posting list
// (schema/postings.h), so any position has a tree, not only the start; the filters of 5d-query
// (query/filter.h) restrict the games counted.
//
// An action is counted as a set of moves: the same moves in another order (possible once there
// are several timelines) are one action. Copies (games.duplicate_of, schema/copies.h) are left
// out, as every statistic leaves them out: a game recorded twice counts once, and games that only
// played the same moves (other players, date or result) count each. The tree follows each game's
// own moves: below an action stand the games that played it, not other games that reached the
// same position by another route.
#ifndef FIVED_QUERY_TREE_H_
#define FIVED_QUERY_TREE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "query/filter.h"
#include "query/json.h"
#include "query/store.h"
#include "schema/db.h"

namespace fived {

// A position or one action played from it, and the games that reached it or played it.
struct TreeNode {
  // The action in canonical 5dpgn: its move texts joined by ' ', in the order in which the first
  // game (the lowest id) that played it wrote them. Empty for the position BuildTree returns.
  std::string action;
  // The games counted: for the position every game that reached it, including those that ended
  // there; for an action the games that played it.
  int64_t games = 0;
  // Games by their result: "1-0", "1/2-1/2", "0-1", as games.result says or, where it has none
  // or says "*", as a proven checkmate or stalemate of the final position settles it
  // (ResultToCount in schema/ending.h). A game with another result or none (an unfinished
  // game, "*", not proven over) counts in `games` only.
  int64_t white_wins = 0;
  int64_t draws = 0;
  int64_t black_wins = 0;
  // Of the games with a result, those whose result was derived from their ending.
  int64_t derived = 0;
  // The earliest and latest game dates, "YYYY.MM.DD" with dots whatever separators the games
  // used; an unknown or missing month or day is "??" ("2021" is "2021.??.??"), and dates compare
  // as text. Games whose date has no year (four digits) are left out; empty when no game has a
  // date.
  std::string first_date;
  std::string last_date;
  // True when the tree was built deep enough to look past this node (BuildTree's depth reached
  // below it; always for the position). Then `children` holds the actions that followed it,
  // possibly none (every game ended here); otherwise `children` is empty because nobody looked.
  bool expanded = false;
  // Sorted as BuildTree sorts the actions from the position.
  std::vector<TreeNode> children;

  // The games with a result: white_wins + draws + black_wins.
  int64_t results() const { return white_wins + draws + black_wins; }
  // White's score in percent over the games with a result: (white_wins + draws / 2) / results()
  // * 100. Unfinished games say nothing about how the action fares, so they are left out rather
  // than counted as losses. nullopt when no game has a result.
  std::optional<double> score() const;
  // The percent of `parent`'s games that played this node's action: games / parent.games * 100,
  // where `parent` is the node whose `children` hold this one (the position for the actions
  // from it). 0 when `parent` has no games.
  double ShareOf(const TreeNode& parent) const;
};

// The position `state_key` (a Position's StateKey()) as the games that reached it and pass
// `filter` saw it: their counts and dates, and as `children` the actions they played from it,
// sorted by games (most first), then by action text. The position's `action` is empty and it is
// always `expanded`; it has no games when no game reached the state or passed the filter.
//
// A game counts at the first action after which it stood in the state; it counts for the
// position, and for the action it played next unless it ended there. A copy never counts, even
// where the filter keeps it and not its original (a copy may name a player its original leaves
// out): the tree counts the games `5d-query --unique` finds there with the same filters.
//
// `depth` is the number of actions looked at: 1 gives the actions from the state, 2 also the
// answers to each of them, and so on (values below 1 count as 1). Action nodes of the levels
// above the last are `expanded`.
//
// Without filters, a tree of depth 1 of a position that every game reached within its first
// meta.position_stats_actions actions (a position near the start, where the games are many) is
// read from the statistics kept at ingest (schema/position_stats.h): its cost is its actions',
// not its games'. Otherwise it reads each counted game's record once, all in one read transaction
// (one snapshot, even while 5d-index appends) unless the caller has a transaction open on the
// store's connection. Fails with the Status of the first failing statement, or when a record
// cannot be decompressed (the message names the game). Not thread-safe, like the store.
Result<TreeNode> BuildTree(GameStore& store, uint64_t state_key, const GameFilter& filter,
                           int depth);

// Appends the tree of `position` (as BuildTree returns it) as a table for people: a header row,
// the position's own row "(position)", then one row per action (children indented two spaces
// under their parent). The columns: the action, its share of the games of the row above it in
// the tree (empty for the position), games, games with a result, white wins, draws, black wins,
// results derived from a checkmate or stalemate, white's score ("-" when no game has a result)
// and the date range. `limit` > 0 keeps the first
// `limit` actions of each list and sums up the rest in one line; 0 shows everything.
void WriteTreeTable(const TreeNode& position, int limit, std::string* out);

// The tree of `position` as JSON: an object with the keys games, results, white_wins,
// draws, black_wins, derived, score (a number, in percent; null when no game has a result),
// first_date and last_date (null when unknown), and actions: an array with one object per action,
// with the keys action, games, share (a number, in percent of the games of the position or of the
// action it answers), the position's keys from results to last_date, and children (an array of the
// same objects) exactly when the node is `expanded`.
Json TreeJson(const TreeNode& position);
// Appends TreeJson(position) as text (without a newline).
void WriteTreeJson(const TreeNode& position, std::string* out);

}  // namespace fived

#endif  // FIVED_QUERY_TREE_H_
