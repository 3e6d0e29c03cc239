// The pattern index: what `5d-query --pattern` reads to find the games that had a board like a
// pattern (core/pattern.h) without replaying a game. Two tables (schema.sql):
//
// board_streams: every game's boards as a board stream (core/board_stream.h), the streams of
// consecutive games of one write transaction in blocks of up to kStreamBlockGames games, each
// block one zstd frame (level kStreamBlockLevel) of
//   varint  number of games
//   per game: varint game id - the previous game's id (the first: - first_game), varint length
//   the streams, one after another
// keyed by the block's first game id, with its last. A search that must look at every game reads
// the table in order (about 3 bytes a board); one that knows its candidates reads their blocks.
//
// piece_postings: for each piece feature (core/board_stream.h PieceFeature: a board size, a square
// and a piece byte), the games some board of which holds that piece there. Every write
// transaction appends one chunk per feature it saw, under one chunk number for the transaction
// (one more than the table's largest), keyed (chunk, feature) so that writes append, as the other
// posting tables do (schema/postings.h). A chunk is either
//   byte 0, varint count, then the sorted game ids as varint deltas (the first from 0), or
//   byte 1, varint first id, varint number of ids n spanned, ceil(n / 8) bytes of bitmap: bit i
//   (of byte i / 8, from the low bit) set when game first + i has the feature
// whichever is smaller. A pattern that names a piece on a square narrows its search to the
// games of that feature (intersected over the squares it names) before reading their streams.
//
// The formats are frozen with the schema version.
#ifndef FIVED_SCHEMA_PATTERN_INDEX_H_
#define FIVED_SCHEMA_PATTERN_INDEX_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "schema/db.h"

namespace fived {

inline constexpr int kStreamBlockGames = 32;
inline constexpr int kStreamBlockLevel = 3;

// Encodes a chunk of sorted, distinct game ids; decodes one, appending to `out` (false, with
// nothing appended, when damaged).
std::string EncodeFeatureChunk(std::span<const int64_t> sorted_ids);
bool DecodeFeatureChunk(std::span<const uint8_t> data, std::vector<int64_t>* out);

// Encodes and decodes a block of streams (without the zstd frame: the raw content above).
struct StreamOfGame {
  int64_t game_id = 0;
  std::string_view stream;
};
std::string EncodeStreamBlock(std::span<const StreamOfGame> games, int64_t first_game);
// Appends the games of a raw block to `out` (views into `raw`); false when damaged.
bool DecodeStreamBlock(std::string_view raw, int64_t first_game, std::vector<StreamOfGame>* out);

// Writes the pattern index of new games. Must run inside the caller's write transaction; Write
// stores what was added since the last Write. One thread.
class PatternIndexWriter {
 public:
  static DbResult<PatternIndexWriter> Create(Database& db);
  PatternIndexWriter(PatternIndexWriter&&) noexcept;
  PatternIndexWriter& operator=(PatternIndexWriter&&) noexcept;
  ~PatternIndexWriter();

  // Adds a game (ids increasing from call to call): its board stream and its features (any order,
  // repeats allowed).
  void Add(int64_t game_id, std::string_view stream, std::span<const uint32_t> features);
  // Writes the added games' blocks and the features' chunks; clears them.
  std::optional<DbError> Write();
  // Bytes held for the next Write (for the caller's flush decision).
  size_t pending_bytes() const;

 private:
  struct Impl;
  explicit PatternIndexWriter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Reads the pattern index. Not thread-safe (it uses the connection's statements).
class PatternIndexReader {
 public:
  static DbResult<PatternIndexReader> Create(Database& db);
  PatternIndexReader(PatternIndexReader&&) noexcept;
  PatternIndexReader& operator=(PatternIndexReader&&) noexcept;
  ~PatternIndexReader();

  // The games that hold any of `features` (a union), sorted and distinct.
  DbResult<std::vector<int64_t>> GamesWithAny(std::span<const uint32_t> features);
  // Calls f(game_id, stream) for every game of the index in id order (the views last until f
  // returns), or, with `only` (sorted ids), for those of them that are indexed. Stops when f
  // returns false. A block that cannot be decompressed or decoded is an error naming its games.
  std::optional<DbError> ForEachStream(const std::function<bool(int64_t, std::string_view)>& f,
                                       const std::vector<int64_t>* only = nullptr);

 private:
  struct Impl;
  explicit PatternIndexReader(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace fived

#endif  // FIVED_SCHEMA_PATTERN_INDEX_H_
