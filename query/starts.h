// The starting positions of custom games (games whose 5DFEN start is no official variant's),
// grouped by start, so that the explorer can offer each one as it offers a variant: how many
// games began there, the boards' size, the start as 5DFEN boards (what the explorer and the API
// take as "state") and a name when a game's headers give one.
#ifndef FIVED_QUERY_STARTS_H_
#define FIVED_QUERY_STARTS_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "query/json.h"
#include "query/store.h"
#include "schema/db.h"

namespace fived {

// One starting position of custom games.
struct CustomStart {
  std::string fen;  // the start as 5DFEN boards ("[...:0:1:w][...]"), as show's "fen" writes it
  int width = 0;    // of its boards
  int height = 0;
  // What the games' headers call the start: the first of VariantName, Variant, Board (neither
  // "custom", in any case) and Puzzle that a game of the group has, looked for in id order; empty
  // when none has one.
  std::string name;
  int64_t games = 0;   // the games that began there, copies left out (as every count leaves them)
  int64_t copies = 0;  // and the copies among the games that began there
  int64_t first_game = 0;  // the lowest id of those games
};

// The starts of the custom games of `store`, most games first, then by their first game. Reads
// one game's record per start for its boards (the first game's) and the headers of each game of
// a start until one gives a name, all in one read transaction. Fails with the Status of the first
// failing statement, or SQLITE_CORRUPT naming a game whose record does not read or no longer sets
// up. Not thread-safe, like the store.
Result<std::vector<CustomStart>> ListCustomStarts(GameStore& store);

// The starts as JSON: an array of objects with the keys fen, width, height, name (null when
// none), games, copies and first_game.
Json CustomStartsJson(const std::vector<CustomStart>& starts);

}  // namespace fived

#endif  // FIVED_QUERY_STARTS_H_
