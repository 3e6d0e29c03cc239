// MD5 (RFC 1321), the specification's state hash, one message at a time: a plain copyable
// context, so that the state MD5 stream (state_md5.h) keeps one per timeline and resumes from it,
// and no library to load at start. md5_lanes.h hashes many messages at once where the processor
// has AVX2; both give the digests RFC 1321 defines (tests/core/md5_test.cc holds them to
// OpenSSL's).
#ifndef FIVED_CORE_MD5_H_
#define FIVED_CORE_MD5_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace fived {

using Md5Digest = std::array<uint8_t, 16>;

// An MD5 in progress: Update with the message's bytes in any number of pieces, then Final. A
// value: copy it to hash a common prefix once and continue two ways. Not thread-safe (each
// thread its own).
class Md5 {
 public:
  void Update(const void* data, size_t size);
  void Update(std::string_view text) { Update(text.data(), text.size()); }
  // The digest of every byte given. The context is left spent: reuse it only after assigning a
  // fresh one (Md5{}).
  Md5Digest Final();

 private:
  void Blocks(const uint8_t* data, size_t count);

  std::array<uint32_t, 4> state_ = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
  uint64_t bytes_ = 0;  // hashed so far, `buffer_` included
  std::array<uint8_t, 64> buffer_{};
};

// The MD5 of `text`.
Md5Digest Md5Of(std::string_view text);

// Lowercase hex of a digest, as Position::StateMd5 writes it.
std::string Md5DigestHex(const Md5Digest& digest);
// The first 8 bytes of a digest as a big-endian integer (the database's MD5 posting key).
uint64_t Md5DigestKey(const Md5Digest& digest);

}  // namespace fived

#endif  // FIVED_CORE_MD5_H_
