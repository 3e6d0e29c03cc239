// Unsigned LEB128 varints: 7 bits a byte, low bits first, the high bit set on every byte but the
// last. The persisted formats of postings (schema/postings.h), the pattern index
// (schema/pattern_index.h) and board streams (core/board_stream.h) write their numbers so.
#ifndef FIVED_CORE_VARINT_H_
#define FIVED_CORE_VARINT_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace fived {

inline void PutVarint(uint64_t value, std::string* out) {
  while (value >= 0x80) {
    out->push_back(static_cast<char>(0x80 | (value & 0x7f)));
    value >>= 7;
  }
  out->push_back(static_cast<char>(value));
}

// Reads a varint at data[*pos] and moves *pos past it. False (with *pos anywhere) when the data
// ends inside it or it runs past 64 bits.
template <typename Byte>
bool GetVarint(std::span<const Byte> data, size_t* pos, uint64_t* value) {
  static_assert(sizeof(Byte) == 1);
  uint64_t result = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (*pos >= data.size()) return false;
    const uint8_t byte = static_cast<uint8_t>(data[(*pos)++]);
    result |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) {
      *value = result;
      return true;
    }
  }
  return false;
}
inline bool GetVarint(std::string_view data, size_t* pos, uint64_t* value) {
  return GetVarint(std::span<const char>(data.data(), data.size()), pos, value);
}

}  // namespace fived

#endif  // FIVED_CORE_VARINT_H_
