// Between md5_lanes.cc and the AVX2 code it calls (md5_lanes_avx2.cc, built with -mavx2).
#ifndef FIVED_CORE_MD5_LANES_INTERNAL_H_
#define FIVED_CORE_MD5_LANES_INTERNAL_H_

#include <stddef.h>
#include <stdint.h>

namespace fived::md5_lanes_internal {

// digests[i] = MD5 of the sizes[i] bytes at data[i], for i < count. Only where the processor has
// AVX2.
void Md5ManyAvx2(const uint8_t* const* data, const size_t* sizes, size_t count,
                 uint8_t (*digests)[16]);

}  // namespace fived::md5_lanes_internal

#endif  // FIVED_CORE_MD5_LANES_INTERNAL_H_
