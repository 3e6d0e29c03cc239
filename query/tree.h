// The opening tree of a position: every action played from it in the database, with how many
// games played it, their results and their date range, and, to a chosen depth, the actions that
// followed. Games come from the state's posting list (schema/postings.h), so any position has a
// tree, not only the start; the filters of 5d-query (query/filter.h) restrict the games counted.
//
// An action is counted as a set of moves: the same moves in another order (possible once there
// are several timelines) are one action. A game and its duplicates (games.duplicate_of) count
// once. The tree follows each game's own moves: below an action stand the games that played it,
// not other games that reached the same position by another route.
#ifndef FIVED_QUERY_TREE_H_
#define FIVED_QUERY_TREE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "query/filter.h"
#include "query/store.h"
#include "schema/db.h"

namespace fived {

// One action played from a position and the games that played it.
struct TreeNode {
  // The action in canonical 5dpgn: its move texts joined by ' ', in the order in which the first
  // game (the lowest id) that played it wrote them.
  std::string action;
  int64_t games = 0;
  // Games by games.result: "1-0", "1/2-1/2", "0-1". A game with another result or none (an
  // unfinished game, "*") counts in `games` only.
  int64_t white_wins = 0;
  int64_t draws = 0;
  int64_t black_wins = 0;
  // The earliest and latest game dates, "YYYY.MM.DD" with dots whatever separators the games
  // used; an unknown or missing month or day is "??" ("2021" is "2021.??.??"), and dates compare
  // as text. Games whose date has no year (four digits) are left out; empty when no game has a
  // date.
  std::string first_date;
  std::string last_date;
  // True when the tree was built deep enough to look past this action (BuildTree's depth reached
  // below it). Then `children` holds the actions that followed it, possibly none (every game
  // ended here); otherwise `children` is empty because nobody looked.
  bool expanded = false;
  // Sorted as BuildTree sorts its result.
  std::vector<TreeNode> children;

  // White's score in percent: (white_wins + draws / 2) / games * 100; 0 when games is 0.
  double score() const;
};

// The actions played from the state `state_key` (a Position's StateKey()) by the games that
// reached it and pass `filter`, sorted by games (most first), then by action text.
//
// A game counts at the first action after which it stood in the state; it contributes the action
// it played next, and nothing when it ended there. Of a game and its duplicates, the one with the
// lowest id among those that pass the filter counts (usually the original: a filter on players
// may keep a copy whose headers name another player than the original's).
//
// `depth` is the number of actions looked at: 1 gives the actions from the state, 2 also the
// answers to each of them, and so on (values below 1 count as 1). Nodes of the levels above the
// last are `expanded`.
//
// Reads each counted game's record once, all in one read transaction (one snapshot, even while
// 5d-index appends) unless the caller has a transaction open on the store's connection. Fails
// with the DbError of the first failing statement, or when a record cannot be decompressed (the
// message names the game). Not thread-safe, like the store.
DbResult<std::vector<TreeNode>> BuildTree(GameStore& store, uint64_t state_key,
                                          const GameFilter& filter, int depth);

// Appends the tree as a table for people: a header row, one row per action (children indented
// two spaces under their parent) with games, white wins, draws, black wins, white's score and the
// date range, then a line with the number of games counted. `limit` > 0 keeps the first `limit`
// actions of each list and sums up the rest in one line; 0 shows everything.
void WriteTreeTable(const std::vector<TreeNode>& nodes, int limit, std::string* out);

// Appends the tree as JSON: an array with one object per action, with the keys action, games,
// white_wins, draws, black_wins, score (a number, in percent), first_date and last_date (null when
// unknown), and children (an array of the same objects) exactly when the node is `expanded`.
void WriteTreeJson(const std::vector<TreeNode>& nodes, std::string* out);

}  // namespace fived

#endif  // FIVED_QUERY_TREE_H_
