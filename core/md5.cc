// MD5 one message at a time; see md5.h.
#include "core/md5.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace fived {

namespace {

// RFC 1321's table: K[i] = floor(2^32 * |sin(i + 1)|).
constexpr uint32_t kSine[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391};

constexpr int kShift[4][4] = {{7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23}, {6, 10, 15, 21}};

inline uint32_t Rotl(uint32_t x, int s) { return (x << s) | (x >> (32 - s)); }

inline uint32_t LoadLe32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
         static_cast<uint32_t>(p[2]) << 16 | static_cast<uint32_t>(p[3]) << 24;
}

// Step kI of 64. The four words rotate by one place a step; instead of moving them, step i reads
// a, b, c, d from v[-i, 1 - i, 2 - i, 3 - i] (mod 4) and writes the new b over a's place.
template <int kI>
inline void Step(uint32_t* v, const uint32_t* m) {
  constexpr int kRound = kI / 16;
  constexpr int a = (64 - kI) & 3, b = (65 - kI) & 3, c = (66 - kI) & 3, d = (67 - kI) & 3;
  constexpr int g = kRound == 0   ? kI
                    : kRound == 1 ? (5 * kI + 1) & 15
                    : kRound == 2 ? (3 * kI + 5) & 15
                                  : (7 * kI) & 15;
  uint32_t f;
  if constexpr (kRound == 0) {
    f = v[d] ^ (v[b] & (v[c] ^ v[d]));
  } else if constexpr (kRound == 1) {
    f = v[c] ^ (v[d] & (v[b] ^ v[c]));
  } else if constexpr (kRound == 2) {
    f = v[b] ^ v[c] ^ v[d];
  } else {
    f = v[c] ^ (v[b] | ~v[d]);
  }
  f += v[a] + kSine[kI] + m[g];
  v[a] = v[b] + Rotl(f, kShift[kRound][kI & 3]);
}

template <int... kI>
inline void Steps(uint32_t* v, const uint32_t* m, std::integer_sequence<int, kI...>) {
  (Step<kI>(v, m), ...);
}

}  // namespace

void Md5::Blocks(const uint8_t* data, size_t count) {
  for (; count > 0; --count, data += 64) {
    uint32_t m[16];
    for (int i = 0; i < 16; ++i) m[i] = LoadLe32(data + 4 * i);
    uint32_t v[4] = {state_[0], state_[1], state_[2], state_[3]};
    Steps(v, m, std::make_integer_sequence<int, 64>());
    // After 64 steps (a multiple of 4) every word is back in its place.
    for (int i = 0; i < 4; ++i) state_[i] += v[i];
  }
}

void Md5::Update(const void* data, size_t size) {
  const auto* bytes = static_cast<const uint8_t*>(data);
  size_t buffered = static_cast<size_t>(bytes_ & 63);
  bytes_ += size;
  if (buffered > 0) {
    const size_t take = std::min(size, 64 - buffered);
    std::memcpy(buffer_.data() + buffered, bytes, take);
    bytes += take;
    size -= take;
    buffered += take;
    if (buffered < 64) return;
    Blocks(buffer_.data(), 1);
  }
  Blocks(bytes, size / 64);
  std::memcpy(buffer_.data(), bytes + size / 64 * 64, size % 64);
}

Md5Digest Md5::Final() {
  const uint64_t bits = bytes_ * 8;
  // 0x80, zeros up to 56 bytes past a block's start, then the length in bits (little-endian).
  uint8_t padding[72] = {0x80};
  const size_t buffered = static_cast<size_t>(bytes_ & 63);
  const size_t zeros = buffered < 56 ? 56 - buffered : 120 - buffered;
  for (int i = 0; i < 8; ++i) padding[zeros + i] = static_cast<uint8_t>(bits >> (8 * i));
  Update(padding, zeros + 8);
  Md5Digest digest;
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) digest[4 * i + j] = static_cast<uint8_t>(state_[i] >> (8 * j));
  }
  return digest;
}

std::string Md5DigestHex(const Md5Digest& digest) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(32, '0');
  for (size_t i = 0; i < digest.size(); ++i) {
    out[2 * i] = kHex[digest[i] >> 4];
    out[2 * i + 1] = kHex[digest[i] & 15];
  }
  return out;
}

uint64_t Md5DigestKey(const Md5Digest& digest) {
  uint64_t key = 0;
  for (int i = 0; i < 8; ++i) key = key << 8 | digest[i];
  return key;
}

Md5Digest Md5Of(std::string_view text) {
  Md5 md5;
  md5.Update(text);
  return md5.Final();
}

}  // namespace fived
