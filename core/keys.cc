// XXH3 keys and MD5 hashes; see keys.h for the frozen layouts.
#include "core/keys.h"

#include <openssl/evp.h>
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

namespace {

// MD5 fetched from the provider once for the program, and a digest context per thread: the
// one-call EVP_Digest looks the algorithm up and allocates a context every time, which cost
// about 10,000 instructions per call (a fifth of hashing a typical final state).
const EVP_MD* Md5() {
  static EVP_MD* const md = EVP_MD_fetch(nullptr, "MD5", nullptr);
  return md;
}

struct ContextDeleter {
  void operator()(EVP_MD_CTX* context) const { EVP_MD_CTX_free(context); }
};

}  // namespace

namespace {

EVP_MD_CTX* ThreadContext() {
  thread_local const std::unique_ptr<EVP_MD_CTX, ContextDeleter> context(EVP_MD_CTX_new());
  return context.get();
}

}  // namespace

Md5Stream::Md5Stream()
    : ok_(Md5() != nullptr && ThreadContext() != nullptr &&
          EVP_DigestInit_ex(ThreadContext(), Md5(), nullptr) == 1) {}

void Md5Stream::Update(std::string_view data) {
  ok_ = ok_ && EVP_DigestUpdate(ThreadContext(), data.data(), data.size()) == 1;
}

std::string Md5Stream::Hex() {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  ok_ = ok_ && EVP_DigestFinal_ex(ThreadContext(), digest, &length) == 1;
  assert(ok_ && length == 16);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(2 * length, '0');
  for (unsigned int i = 0; i < length; ++i) {
    out[2 * i] = kHex[digest[i] >> 4];
    out[2 * i + 1] = kHex[digest[i] & 15];
  }
  return out;
}

std::string Md5Hex(std::string_view data) {
  Md5Stream md5;
  md5.Update(data);
  return md5.Hex();
}

}  // namespace fived
