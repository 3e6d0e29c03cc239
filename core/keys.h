// Fast keys for database lookups (xxHash XXH3), and the specification's MD5 hashes.
//
// Board key: XXH3-64 of the board's content (size and pieces, without coordinates), so the same
// board anywhere in any game has the same key. State key: the sum (mod 2^64) over every board of
// the state of XXH3-64 of (board key, timeline, half-turn). A sum is order-free, so the key of a
// state grows by adding the keys of its new boards: it is never recomputed over the history.
//
// These values are stored in databases. kKeyVersion names the algorithm; any change to the
// byte layouts below, the seed, or the piece codes of types.h must bump it. Golden tests pin them.
#ifndef FIVED_CORE_KEYS_H_
#define FIVED_CORE_KEYS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "core/board.h"
#include "core/md5.h"

namespace fived {

constexpr uint32_t kKeyVersion = 1;

// Content key of a board. Hashed bytes: width, height, then width*height piece bytes (Piece::bits)
// rank by rank from rank 1, file a first. XXH3-64 with seed 0 (the default), so that `xxhsum -H3`
// over the same bytes gives the same value.
uint64_t BoardContentKey(const Board& board);

// Key of a board at its place in the multiverse. Hashed bytes: the content key (8 bytes, little
// endian), timeline (4 bytes, two's complement little endian, internal index of types.h) and
// half-turn (4 bytes little endian).
uint64_t PlacedBoardKey(uint64_t content_key, int timeline, int half_turn);

// Lowercase hex MD5 of a string (core/md5.h). Thread-safe.
std::string Md5Hex(std::string_view data);

// The same over text given in pieces, for text that need not be gathered first: Update with
// each piece in order, then Hex (once). Not thread-safe (each thread its own).
class Md5Stream {
 public:
  void Update(std::string_view data) { md5_.Update(data); }
  std::string Hex();

 private:
  Md5 md5_;
};

}  // namespace fived

#endif  // FIVED_CORE_KEYS_H_
