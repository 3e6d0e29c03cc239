// The pattern index: what `5d-query --pattern` reads to find the games that had a board like a
// pattern (core/pattern.h) without replaying a game. Two tables (schema.sql):
//
// board_streams: every game's boards as a board stream (core/board_stream.h), the streams of
// consecutive games of one write transaction in blocks of
//   byte    0 (the block's format: its data as it is)
//   varint  number of games
//   per game: varint game id - the previous game's id (the first: - first_game), varint length
//   the streams, one after another
// keyed by the block's first game id, with its last. A block takes games until it would pass
// kStreamBlockBytes, so that it stays within SQLite's local payload of the database's 16 KiB
// pages (a larger blob spills into half-empty overflow pages). The streams are not compressed:
// zstd made them 2.2 times smaller, but a search decompressing every game's boards spent two
// thirds of its time in zstd. A search that must look at every game reads the table in order
// (about 7 bytes a board); one that knows its candidates reads their blocks.
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
// piece_counts: each feature's number of games (the sum over its chunks), so that a search reads
// the postings of the rarest features a pattern names.
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

inline constexpr size_t kStreamBlockBytes = 4000;
inline constexpr int kStreamBlockGames = 256;  // at most, however small the games

// The statements the reader runs (for the tests of their query plans).
struct PatternIndexSql {
  // A feature's chunks (?1: the feature), one primary-key search per chunk number.
  static const char* const kFeatureChunks;
  // The block that holds game ?1 (or the last before it).
  static const char* const kBlockOf;
};

// Encodes a chunk of sorted, distinct game ids; decodes one, appending to `out` (false, with
// nothing appended, when damaged).
std::string EncodeFeatureChunk(std::span<const int64_t> sorted_ids);
bool DecodeFeatureChunk(std::span<const uint8_t> data, std::vector<int64_t>* out);

// Encodes and decodes a block of streams (the content above after the format byte).
struct StreamOfGame {
  int64_t game_id = 0;
  std::string_view stream;
};
std::string EncodeStreamBlock(std::span<const StreamOfGame> games, int64_t first_game);
// Appends the games of a raw block to `out` (views into `raw`); false when damaged.
bool DecodeStreamBlock(std::string_view raw, int64_t first_game, std::vector<StreamOfGame>* out);

// Decodes blocks; one per thread.
class StreamBlockDecoder {
 public:
  StreamBlockDecoder();
  ~StreamBlockDecoder();
  StreamBlockDecoder(const StreamBlockDecoder&) = delete;
  StreamBlockDecoder& operator=(const StreamBlockDecoder&) = delete;
  // The games of the block (first_game, last_game, data) as stored; an error naming its games
  // when it is damaged. The views point into `data` and stay valid while it does.
  Status Decode(int64_t first_game, int64_t last_game, std::span<const uint8_t> data);
  const std::vector<StreamOfGame>& games() const { return games_; }

 private:
  std::vector<StreamOfGame> games_;
};

// Writes the pattern index of new games. Must run inside the caller's write transaction; Write
// stores what was added since the last Write. One thread.
class PatternIndexWriter {
 public:
  static Result<PatternIndexWriter> Create(Database& db);
  PatternIndexWriter(PatternIndexWriter&&) noexcept;
  PatternIndexWriter& operator=(PatternIndexWriter&&) noexcept;
  ~PatternIndexWriter();

  // Adds a game (ids increasing from call to call): its board stream and its features (any order,
  // repeats allowed).
  void Add(int64_t game_id, std::string_view stream, std::span<const uint32_t> features);
  // Writes the added games' blocks and the features' chunks; clears them.
  Status Write();
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
  static Result<PatternIndexReader> Create(Database& db);
  PatternIndexReader(PatternIndexReader&&) noexcept;
  PatternIndexReader& operator=(PatternIndexReader&&) noexcept;
  ~PatternIndexReader();

  // The games that hold any of `features` (a union), sorted and distinct.
  Result<std::vector<int64_t>> GamesWithAny(std::span<const uint32_t> features);
  // How many games hold `feature` (piece_counts; 0 when none).
  Result<int64_t> GamesWith(uint32_t feature);
  // Calls f(first_game, last_game, data) for every block in order, or, with `only` (sorted ids),
  // for the blocks holding them; the data is valid until f returns. Stops when f returns false.
  Status ForEachBlock(const std::function<bool(int64_t, int64_t, std::span<const uint8_t>)>& f,
                      const std::vector<int64_t>* only = nullptr);
  // Calls f(game_id, stream) for every game of the index in id order (the views last until f
  // returns), or, with `only` (sorted ids), for those of them that are indexed. Stops when f
  // returns false. A block that cannot be decompressed or decoded is an error naming its games.
  Status ForEachStream(const std::function<bool(int64_t, std::string_view)>& f,
                       const std::vector<int64_t>* only = nullptr);

 private:
  struct Impl;
  explicit PatternIndexReader(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace fived

#endif  // FIVED_SCHEMA_PATTERN_INDEX_H_
