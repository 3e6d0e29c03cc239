// MD5 of many messages at once; see md5_lanes.h.
#include "core/md5_lanes.h"

#include <cassert>
#include <vector>

#include "core/md5.h"
#include "core/md5_lanes_internal.h"

namespace fived {

Md5Engine Md5ManyEngine() {
#if FIVED_MD5_AVX2
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (avx2) return Md5Engine::kLanes;
#endif
  return Md5Engine::kScalar;
}

void Md5ManyWith(Md5Engine engine, std::span<const std::string_view> messages,
                 std::span<std::array<uint8_t, 16>> digests) {
  assert(messages.size() == digests.size());
#if FIVED_MD5_AVX2
  // One message fills one lane of eight: the scalar code is as fast.
  if (engine == Md5Engine::kLanes && messages.size() >= 2) {
    assert(Md5ManyEngine() == Md5Engine::kLanes);
    std::vector<const uint8_t*> data(messages.size());
    std::vector<size_t> sizes(messages.size());
    for (size_t i = 0; i < messages.size(); ++i) {
      data[i] = reinterpret_cast<const uint8_t*>(messages[i].data());
      sizes[i] = messages[i].size();
    }
    static_assert(sizeof(std::array<uint8_t, 16>) == 16);
    md5_lanes_internal::Md5ManyAvx2(data.data(), sizes.data(), messages.size(),
                                    reinterpret_cast<uint8_t(*)[16]>(digests.data()));
    return;
  }
#else
  (void)engine;
#endif
  for (size_t i = 0; i < messages.size(); ++i) {
    digests[i] = Md5Of(messages[i]);
  }
}

void Md5Many(std::span<const std::string_view> messages,
             std::span<std::array<uint8_t, 16>> digests) {
  Md5ManyWith(Md5ManyEngine(), messages, digests);
}

}  // namespace fived
