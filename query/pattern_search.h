// Pattern searches: the games some board of which matches each of a set of board patterns
// (core/pattern.h), through the pattern index (schema/pattern_index.h) instead of replaying
// games. The squares where a pattern names a piece narrow the search to the games whose boards
// held those pieces there (piece postings); the streams of the remaining games are matched
// board by board.
#ifndef FIVED_QUERY_PATTERN_SEARCH_H_
#define FIVED_QUERY_PATTERN_SEARCH_H_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/game_query.h"
#include "core/pattern.h"
#include "query/search.h"
#include "query/store.h"

namespace fived {

// How a pattern search went, for people and benchmarks.
struct PatternSearchStats {
  bool narrowed = false;   // piece postings chose the candidates (else every game was read)
  int64_t candidates = 0;  // games whose streams were matched
  int64_t boards = 0;      // boards read from them (a game's reading stops at its match)
};

// The games where `query` (core/game_query.h) held, in id order, each with the first action after
// which it held and the boards its patterns matched there as "L:T:c" (the notation's timeline,
// the turn, w or b), one per pattern, in PositionMatch::boards. Reads the store's connection; not
// thread-safe. Fails when the database cannot be read or a block of streams is damaged. The
// streams are matched on `jobs` threads (0: one per core) while this one reads them; memory stays
// within a batch of blocks (about a megabyte) besides the answer and the candidates.
// With `within` (sorted game ids), only those games are looked at: candidates found otherwise
// (an exact board's key, board_keys), instead of the piece postings'.
Result<std::vector<PositionMatch>> FindPatterns(GameStore& store, const GameQuery& query,
                                                PatternSearchStats* stats = nullptr, int jobs = 0,
                                                const std::vector<int64_t>* within = nullptr);
// The same for board patterns alone.
Result<std::vector<PositionMatch>> FindPatterns(GameStore& store,
                                                std::span<const BoardPattern> patterns,
                                                PatternSearchStats* stats = nullptr, int jobs = 0);

// "L:T:c" of a board at internal timeline `timeline` and `half_turn` of a game numbered as
// `labeling` says ("+1:5:b", "-0:3:w", "0:1:w").
std::string BoardCoordinates(const TimelineLabeling& labeling, int timeline, int half_turn);

}  // namespace fived

#endif  // FIVED_QUERY_PATTERN_SEARCH_H_
