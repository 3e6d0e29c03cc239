// Duplicate games in a 5dpgn-db database, for `5d-query duplicates`: the same game recorded more
// than once (exact copies), different games that played the same moves (same-moves), unfinished
// copies of a longer game (prefixes) and games that are probably the same one recorded with
// different moves (twins). Collections gathered from many places hold all of them; the report
// says which games match and why, and ExportUnique writes the collection again with one game per
// group of copies.
//
// Four kinds of group, each game in at most one group of each kind:
//   exact       the copies recorded by the indexer (games.duplicate_of, schema/copies.h): an
//               original and every game that copies it, that is the same variant, start and
//               canonical moves and the same players, date and result where both games have
//               them. Ids ascending, the original first.
//   same-moves  originals (no copy) that played exactly the same moves from the same start
//               (the games.identity hash, then the moves compared in full, so a hash collision
//               never groups different moves) but differ in players, date or result: different
//               games, each counted by the statistics. Ids ascending.
//   prefix      games whose moves are the first moves of a longer game: B's state after A's last
//               action is A's final state and the moves of those actions are equal. Games without
//               an action are left out (they are the start of every game of their variant). The
//               group is one complete game with every game whose longest extension it is: ids by
//               actions, the complete game first, then its prefixes from the longest to the
//               shortest (ties by id). A game that is the start of two diverging games goes with
//               the longer one (ties: the lower id).
//   twin        same White and Black (by their search keys, schema/search_keys.h: case and spaces
//               aside; both known), the same known Date and the same state after the first
//               `twin_actions` actions, from the same start and by the same moves; but not the
//               same moves throughout (those are copies or same-moves games). Games shorter than
//               `twin_actions` are never twins (if one matched another it would be its prefix, its
//               copy or a game with its moves). Ids ascending.
// A copy stands for its original: copies take part in neither the prefix nor the twin search.
// The games of a same-moves group all end in the same state by the same moves, so the prefix
// search tries them once, through the lowest id, and a prefix group names all of them: each is
// the start of the longer game (naming only one would single it out for ExportUnique). In the
// twin search each takes part with its own players and date. A prefix is not a twin either:
// twins are sought among games that are not the prefix of another game.
//
// Cost: one pass over the state postings (schema/postings.h) plus the records of the candidate
// games, about a second for 100,000 games. Not thread-safe (it uses the store's connection).
#ifndef FIVED_QUERY_DUPLICATES_H_
#define FIVED_QUERY_DUPLICATES_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "query/json.h"
#include "query/store.h"
#include "schema/db.h"

namespace fived {

// One game of a group as people tell games apart: its players, date and result as written (empty
// when missing), and the original it copies (0 for a game the counts keep: every game but the
// copies of an exact group).
struct DuplicateGame {
  int64_t id = 0;
  std::string white, black, date, result;
  int64_t duplicate_of = 0;
};

struct DuplicateGroup {
  std::string kind;  // "exact", "same-moves", "prefix" or "twin"
  // The games, in the order described above for their kind; always at least two.
  std::vector<int64_t> ids;
  // Why they match, one line for people, e.g. "same variant (Standard), start and 24 actions;
  // same players, date and result where both have them" (exact), "same variant (Standard), start
  // and 4 actions; different players or dates" (same-moves: which of players, dates and results
  // differ between its games), "game 12 (10 actions) is the start of game 40 (31 actions)",
  // "same players (A, B), date 2021.03.04 and first 10 actions".
  std::string reason;
  // The games of `ids`, in the same order.
  std::vector<DuplicateGame> games;
};

struct DuplicateOptions {
  // Twins share the state and moves after this many actions (at least 1).
  int twin_actions = 10;
};

// Every duplicate group of the database, ordered by kind (exact, same-moves, prefix, twin), then
// by the smallest id of the group. Fails only when the database cannot be read (a damaged record
// included).
Result<std::vector<DuplicateGroup>> FindDuplicates(GameStore& store,
                                                   const DuplicateOptions& options);

struct ExportUniqueOptions {
  // Twins may be two different games that began alike, so by default they are all kept; with
  // this, a twin group is reduced to one game like the others.
  bool collapse_twins = false;
};

// Writes the original text of every game of the database (as ExportGame in query/export.h writes
// it, so that the collection reads back game for game), in id order, separated by a blank line,
// except that of each set of games grouped together (exact and prefix groups sharing a game
// form one set, twins too when asked) only the most complete copy is written: the one with the
// most actions, then the most headers, then the most comments ('{...}' in its text), then the
// lowest id. Same-moves groups join nothing: their games are different games, each written
// (unless it is in a set of its own, as the prefix of a longer game for one). Returns the number of
// games written, and their ids in `written_ids` when given; fails when the database cannot be read
// or `out` goes bad.
Result<int> ExportUnique(GameStore& store, const std::vector<DuplicateGroup>& groups,
                         std::ostream& out, const ExportUniqueOptions& options = {},
                         std::vector<int64_t>* written_ids = nullptr);

// Appends the groups as text for people: one block per group (kind and ids, then the reason,
// indented), then a summary line counting the groups of each kind, e.g.
//   same-moves ids 3, 17
//              same variant (Standard), start and 4 actions; different players or dates
//
//   4 groups of 10 games: 1 exact, 1 same-moves, 1 prefix, 1 twin
// (the summary counts every kind, zeros included). With no group, only "no duplicates\n".
void WriteDuplicatesTable(const std::vector<DuplicateGroup>& groups, std::string* out);

// The groups as one JSON array of {"kind", "ids", "reason"} objects.
Json DuplicatesJson(const std::vector<DuplicateGroup>& groups);
// Appends DuplicatesJson(groups) as text and a newline.
void WriteDuplicatesJson(const std::vector<DuplicateGroup>& groups, std::string* out);

}  // namespace fived

#endif  // FIVED_QUERY_DUPLICATES_H_
