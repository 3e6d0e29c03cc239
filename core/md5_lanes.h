// MD5 of many messages at once. MD5 is serial within a message (each 64-byte block needs the
// previous block's result), so one message cannot use more than one lane of a vector unit; but
// the indexer hashes one final state per game, thousands of independent messages. With AVX2, the
// eight 32-bit lanes of a vector run eight messages' blocks together, each lane taking the next
// message as soon as its own ends: several times one message at a time's throughput on one core
// (figures in docs/BENCHMARKS.md). Without AVX2 (checked at run time), each message goes to
// core/md5.h in turn. Either way the digests are MD5's (RFC 1321); the tests hold them to
// OpenSSL's.
#ifndef FIVED_CORE_MD5_LANES_H_
#define FIVED_CORE_MD5_LANES_H_

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace fived {

// digests[i] = MD5(messages[i]); the spans have the same size. Thread-safe.
void Md5Many(std::span<const std::string_view> messages,
             std::span<std::array<uint8_t, 16>> digests);

// How Md5Many hashes: kLanes (AVX2, eight messages at a time) or kScalar (one after another,
// core/md5.h).
enum class Md5Engine { kLanes, kScalar };
// What Md5Many uses on this machine.
Md5Engine Md5ManyEngine();
// Md5Many with the engine given (kLanes only where Md5ManyEngine() is kLanes): for the tests.
void Md5ManyWith(Md5Engine engine, std::span<const std::string_view> messages,
                 std::span<std::array<uint8_t, 16>> digests);

}  // namespace fived

#endif  // FIVED_CORE_MD5_LANES_H_
