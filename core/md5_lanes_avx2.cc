// Eight MD5s at a time in the 32-bit lanes of AVX2 vectors; see md5_lanes.h. This file alone is
// compiled with -mavx2 and runs only where the processor has AVX2 (md5_lanes.cc checks). It uses
// no standard library template: an inline function instantiated here would be compiled for AVX2,
// and the linker could keep this copy for the whole program.
#include <immintrin.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <utility>

#include "core/md5_lanes_internal.h"

namespace fived::md5_lanes_internal {
namespace {

constexpr int kLanes = 8;
constexpr int kBlockBytes = 64;

// RFC 1321's table: K[i] = floor(2^32 * |sin(i + 1)|).
struct Table {
  uint32_t k[64];
};
const Table& Constants() {
  static const Table table = [] {
    Table t{};
    for (int i = 0; i < 64; ++i) t.k[i] = static_cast<uint32_t>(fabs(sin(i + 1.0)) * 4294967296.0);
    return t;
  }();
  return table;
}

constexpr int kShift[4][4] = {{7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23}, {6, 10, 15, 21}};

template <int kS>
inline __m256i Rotl(__m256i x) {
  return _mm256_or_si256(_mm256_slli_epi32(x, kS), _mm256_srli_epi32(x, 32 - kS));
}

// Step kI of 64 on every lane. The four registers rotate by one place a step; instead of moving
// them, step i reads a, b, c, d from v[-i, 1 - i, 2 - i, 3 - i] (mod 4) and writes the new b
// over a's place.
template <int kI>
inline void Step(__m256i* v, const __m256i* m, const uint32_t* k) {
  constexpr int kRound = kI / 16;
  constexpr int a = (64 - kI) & 3, b = (65 - kI) & 3, c = (66 - kI) & 3, d = (67 - kI) & 3;
  constexpr int g = kRound == 0   ? kI
                    : kRound == 1 ? (5 * kI + 1) & 15
                    : kRound == 2 ? (3 * kI + 5) & 15
                                  : (7 * kI) & 15;
  __m256i f;
  if constexpr (kRound == 0) {
    f = _mm256_xor_si256(v[d], _mm256_and_si256(v[b], _mm256_xor_si256(v[c], v[d])));
  } else if constexpr (kRound == 1) {
    f = _mm256_xor_si256(v[c], _mm256_and_si256(v[d], _mm256_xor_si256(v[b], v[c])));
  } else if constexpr (kRound == 2) {
    f = _mm256_xor_si256(_mm256_xor_si256(v[b], v[c]), v[d]);
  } else {
    const __m256i not_d = _mm256_xor_si256(v[d], _mm256_set1_epi32(-1));
    f = _mm256_xor_si256(v[c], _mm256_or_si256(v[b], not_d));
  }
  f = _mm256_add_epi32(_mm256_add_epi32(f, v[a]),
                       _mm256_add_epi32(_mm256_set1_epi32(static_cast<int>(k[kI])), m[g]));
  v[a] = _mm256_add_epi32(v[b], Rotl<kShift[kRound][kI & 3]>(f));
}

template <int... kI>
inline void Steps(__m256i* v, const __m256i* m, const uint32_t* k,
                  std::integer_sequence<int, kI...>) {
  (Step<kI>(v, m, k), ...);
}

// Rows r[0..7] (a lane's eight words each) into columns: out[w] holds word w of every lane.
inline void Transpose(const __m256i* r, __m256i* out) {
  __m256i t[8], u[8];
  for (int i = 0; i < 4; ++i) {
    t[2 * i] = _mm256_unpacklo_epi32(r[2 * i], r[2 * i + 1]);
    t[2 * i + 1] = _mm256_unpackhi_epi32(r[2 * i], r[2 * i + 1]);
  }
  for (int h = 0; h < 2; ++h) {  // rows 0-3, then rows 4-7
    const __m256i* th = t + 4 * h;
    u[4 * h + 0] = _mm256_unpacklo_epi64(th[0], th[2]);
    u[4 * h + 1] = _mm256_unpackhi_epi64(th[0], th[2]);
    u[4 * h + 2] = _mm256_unpacklo_epi64(th[1], th[3]);
    u[4 * h + 3] = _mm256_unpackhi_epi64(th[1], th[3]);
  }
  for (int w = 0; w < 4; ++w) {
    out[w] = _mm256_permute2x128_si256(u[w], u[4 + w], 0x20);
    out[4 + w] = _mm256_permute2x128_si256(u[w], u[4 + w], 0x31);
  }
}

// One message in a lane: its whole blocks read in place, then the last one or two blocks (the
// bytes left, 0x80, zeros, the length in bits) from `tail`.
struct Lane {
  bool busy = false;
  size_t message = 0;
  const uint8_t* data = nullptr;
  size_t whole_blocks = 0;
  size_t block = 0;  // the next block, counting the tail's after the whole ones
  int tail_blocks = 0;
  alignas(32) uint8_t tail[2 * kBlockBytes];

  const uint8_t* Next() const {
    return block < whole_blocks ? data + kBlockBytes * block
                                : tail + kBlockBytes * (block - whole_blocks);
  }
  bool Done() const { return block == whole_blocks + static_cast<size_t>(tail_blocks); }
  void Start(size_t index, const uint8_t* bytes, size_t size) {
    busy = true;
    message = index;
    data = bytes;
    whole_blocks = size / kBlockBytes;
    block = 0;
    const size_t rest = size % kBlockBytes;
    tail_blocks = rest < kBlockBytes - 8 ? 1 : 2;
    memset(tail, 0, sizeof tail);
    if (rest > 0) memcpy(tail, bytes + kBlockBytes * whole_blocks, rest);
    tail[rest] = 0x80;
    const uint64_t bits = static_cast<uint64_t>(size) * 8;
    uint8_t* length = tail + kBlockBytes * tail_blocks - 8;
    for (int i = 0; i < 8; ++i) length[i] = static_cast<uint8_t>(bits >> (8 * i));
  }
};

constexpr uint32_t kInit[4] = {0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u};

}  // namespace

void Md5ManyAvx2(const uint8_t* const* data, const size_t* sizes, size_t count,
                 uint8_t (*digests)[16]) {
  const uint32_t* k = Constants().k;
  static const uint8_t kIdle[kBlockBytes] = {};  // what a lane without a message hashes
  Lane lanes[kLanes];
  alignas(32) uint32_t words[4][kLanes];  // the state, a register of every lane per row
  size_t next = 0;
  int busy = 0;
  auto start = [&](int lane) {
    for (int r = 0; r < 4; ++r) words[r][lane] = kInit[r];
    if (next == count) {
      lanes[lane].busy = false;
      return;
    }
    lanes[lane].Start(next, data[next], sizes[next]);
    ++next;
    ++busy;
  };
  for (int lane = 0; lane < kLanes; ++lane) start(lane);
  __m256i state[4];
  for (int r = 0; r < 4; ++r) state[r] = _mm256_load_si256(reinterpret_cast<__m256i*>(words[r]));
  while (busy > 0) {
    __m256i rows[kLanes], m[16];
    for (int half = 0; half < 2; ++half) {
      for (int lane = 0; lane < kLanes; ++lane) {
        const uint8_t* block = lanes[lane].busy ? lanes[lane].Next() : kIdle;
        rows[lane] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(block + 32 * half));
      }
      Transpose(rows, m + 8 * half);
    }
    __m256i v[4] = {state[0], state[1], state[2], state[3]};
    Steps(v, m, k, std::make_integer_sequence<int, 64>{});
    for (int r = 0; r < 4; ++r) state[r] = _mm256_add_epi32(state[r], v[r]);
    bool ended = false;
    for (Lane& lane : lanes) {
      if (!lane.busy) continue;
      ++lane.block;
      ended = ended || lane.Done();
    }
    if (!ended) continue;
    // A lane's message ended: its digest out, the next message in with a fresh state.
    for (int r = 0; r < 4; ++r) _mm256_store_si256(reinterpret_cast<__m256i*>(words[r]), state[r]);
    for (int lane = 0; lane < kLanes; ++lane) {
      if (!lanes[lane].busy || !lanes[lane].Done()) continue;
      uint8_t* out = digests[lanes[lane].message];
      for (int r = 0; r < 4; ++r) {
        for (int i = 0; i < 4; ++i)
          out[4 * r + i] = static_cast<uint8_t>(words[r][lane] >> (8 * i));
      }
      --busy;
      start(lane);
    }
    for (int r = 0; r < 4; ++r) state[r] = _mm256_load_si256(reinterpret_cast<__m256i*>(words[r]));
  }
}

}  // namespace fived::md5_lanes_internal
