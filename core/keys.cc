// XXH3 keys and MD5 hashes; see keys.h for the frozen layouts.
#include "core/keys.h"

// XXH3 compiled in here rather than called in the shared library: a board's key hashes 66 bytes
// and a placed key 16, for every board a game makes; inlined, the small-input paths cost a
// fraction of the call. The same algorithm and values (the library's own header).
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <array>
#include <cassert>
#include <cstring>
#include <memory>

namespace fived {

namespace {

void PutLe32(uint8_t* out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out[i] = static_cast<uint8_t>(v >> (8 * i));
}
void PutLe64(uint8_t* out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out[i] = static_cast<uint8_t>(v >> (8 * i));
}
}  // namespace

uint64_t BoardContentKey(const Board& board) {
  std::array<uint8_t, 2 + kMaxSquares> bytes;
  size_t n = 0;
  bytes[n++] = static_cast<uint8_t>(board.width());
  bytes[n++] = static_cast<uint8_t>(board.height());
  // A rank at a time: the board keeps its ranks kMaxBoardSide bytes apart. Eight files, the
  // usual width, as fixed eight-byte copies.
  const size_t width = static_cast<size_t>(board.width());
  if (width == 8) {
    for (int rank = 0; rank < board.height(); ++rank, n += 8) {
      std::memcpy(&bytes[n], board.rank_bytes(rank), 8);
    }
  } else {
    for (int rank = 0; rank < board.height(); ++rank, n += width) {
      std::memcpy(&bytes[n], board.rank_bytes(rank), width);
    }
  }
  return XXH3_64bits(bytes.data(), n);
}

uint64_t PlacedBoardKey(uint64_t content_key, int timeline, int half_turn) {
  uint8_t bytes[16];
  PutLe64(bytes, content_key);
  PutLe32(bytes + 8, static_cast<uint32_t>(timeline));
  PutLe32(bytes + 12, static_cast<uint32_t>(half_turn));
  return XXH3_64bits(bytes, sizeof bytes);
}

std::string Md5Stream::Hex() { return Md5DigestHex(md5_.Final()); }

std::string Md5Hex(std::string_view data) {
  Md5Stream md5;
  md5.Update(data);
  return md5.Hex();
}

}  // namespace fived
