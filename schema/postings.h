// Posting lists of 64-bit keys: for a state key (or a state's MD5), which games hold it (and at
// which action). They replace one row per key and game, which made the database several times
// larger than its input and its writes slow.
//
// Storage (tables state_postings and md5_postings, schema.sql): the key space is cut into
// 16,384 buckets by the key's top 14 bits. Every write transaction appends, for each bucket it
// touches, one chunk (chunk number, bucket, data), with one chunk number for the whole
// transaction. The table is keyed by (chunk number, bucket), so a transaction's chunks go to the
// end of the table: writing touches only new pages. (Keyed by bucket first, every transaction
// touched every page of the table, and the write-ahead log grew with the square of the
// collection.) The bucket count is a balance: more buckets make more rows per transaction (slow
// writes), fewer make chunks beyond SQLite's local payload (about 4,000 bytes on the database's
// 16 KiB pages), which spill to half-empty overflow pages; with the indexer's 3 million postings
// per transaction, chunks average under 1,000 bytes (only the buckets of keys that nearly every
// game has, such as a variant's starting state, spill). A chunk's data
// is its entries sorted by key, then game, then value:
//   varint  base game id (the smallest game id of the chunk)
//   then per entry:
//     7 bytes  the key's low 50 bits, little endian (the full key with the bucket); board_keys: 1
//              byte, bits 42 to 49 (boards match on the key's top 22 bits)
//     varint   game id - base
//     varint   value: 2 * action + side to move (0 white, 1 black); board_keys have none
// Varints are unsigned LEB128. A lookup reads the bucket's chunk under every chunk number (one
// B-tree search each) and keeps the entries of the key. The format is frozen with the schema
// version.
#ifndef FIVED_SCHEMA_POSTINGS_H_
#define FIVED_SCHEMA_POSTINGS_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "schema/db.h"

namespace fived {

struct Posting {
  uint64_t key = 0;
  int64_t game_id = 0;
  uint32_t value = 0;
  bool operator==(const Posting&) const = default;
};

// kStateMd5s (md5_postings, written by 5d-index --all-state-md5) keys every state by the first 8
// bytes of its specification MD5 (big endian, core/state_md5.h Md5DigestKey) and stores what
// state_postings stores: 7 bytes of key below the bucket, so states match on the MD5's first
// 64 bits.
// kBoardKeys (board_keys) keys every distinct board of every game by its content key
// (core/keys.h BoardContentKey, without coordinates) and stores 1 byte of key below the bucket and
// no value: a board matches on its key's top 22 bits, which makes a few dozen false candidates
// among a million games' boards, and the pattern index confirms the exact board. It is what
// --board looks up before it reads any board (a pattern of a whole opening board names only
// pieces most games hold somewhere).
enum class PostingTable { kStates, kStateMd5s, kBoardKeys };

// The table's name: state_postings, md5_postings or board_keys.
const char* PostingTableName(PostingTable table);

constexpr int kPostingBucketBits = 14;
constexpr uint32_t PostingBucket(uint64_t key) {
  return static_cast<uint32_t>(key >> (64 - kPostingBucketBits));
}

// How many bytes of each key a table stores below the bucket (7, the whole key; 1 for board
// keys), and the mask of the key bits it keeps.
int PostingKeyBytes(PostingTable table);
uint64_t PostingKeyMask(PostingTable table);

// Encodes postings of one bucket, sorted by (key, game_id, value), into a chunk.
std::string EncodeChunk(std::span<const Posting> sorted, PostingTable table);
// Decodes a chunk of `bucket`, appending its postings to `out` (keys with the bits the table does
// not keep set to zero). Returns false (and appends nothing) when the data is malformed.
bool DecodeChunk(uint32_t bucket, std::span<const uint8_t> data, std::vector<Posting>* out,
                 PostingTable table);

// The statement that reads the chunks of bucket ?1: one search of the primary key per chunk
// number, from 0 to the largest.
std::string PostingBucketSql(PostingTable table);

// Writes postings: sorts them, cuts them by bucket and inserts one chunk per bucket. Must run
// inside the caller's write transaction (crash safety: postings commit with their games).
class PostingWriter {
 public:
  // Prepares the insert statement for `table`.
  static Result<PostingWriter> Create(Database& db, PostingTable table);
  // Writes `postings` (in any order; their keys are truncated in place) as new chunks, all with
  // the same chunk number, one past the table's largest.
  Status Write(std::vector<Posting>* postings);

 private:
  PostingWriter(Statement next_chunk, Statement insert, PostingTable table)
      : next_chunk_(std::move(next_chunk)), insert_(std::move(insert)), table_(table) {}
  Statement next_chunk_;  // one past the table's largest chunk number
  Statement insert_;
  PostingTable table_;
  std::vector<Posting> scratch_;  // the postings by bucket, reused
};

// Reads postings.
class PostingReader {
 public:
  static Result<PostingReader> Create(Database& db, PostingTable table);
  // Every posting of `key` (compared on the bits the table keeps), sorted by (game_id, value).
  Result<std::vector<Posting>> Find(uint64_t key);
  // Calls f for every posting of the table (in the table's order: by chunk, then bucket); stops
  // when f returns false.
  Status ForEach(const std::function<bool(const Posting&)>& f);

 private:
  PostingReader(Statement bucket, Statement all, PostingTable table)
      : bucket_(std::move(bucket)), all_(std::move(all)), table_(table) {}
  Statement bucket_;
  Statement all_;
  PostingTable table_;
};

}  // namespace fived

#endif  // FIVED_SCHEMA_POSTINGS_H_
