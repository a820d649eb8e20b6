// Philox-4x32-10 (Salmon et al., SC'11): a counter-based generator, so the random number a voxel
// draws in a sweep is a pure function of (seed, sweep, voxel) and any thread or GPU lane can
// compute it. Checked against Random123's published known-answer vectors (tests/test_mrf.py).
#pragma once

#include <array>
#include <cstdint>

#ifdef __CUDACC__
#define GPUSEQ_HOST_DEVICE __host__ __device__
#else
#define GPUSEQ_HOST_DEVICE
#endif

namespace gpuseq::mrf {

using PhiloxWords = std::array<uint32_t, 4>;

GPUSEQ_HOST_DEVICE inline PhiloxWords philox4x32_10(PhiloxWords counter, uint32_t key0,
                                                    uint32_t key1) {
  constexpr uint32_t kMultiplier0 = 0xD2511F53u, kMultiplier1 = 0xCD9E8D57u;
  constexpr uint32_t kWeyl0 = 0x9E3779B9u, kWeyl1 = 0xBB67AE85u;  // key schedule increments
  for (int round = 0; round < 10; ++round) {
    const uint64_t product0 = uint64_t{kMultiplier0} * counter[0];
    const uint64_t product1 = uint64_t{kMultiplier1} * counter[2];
    const uint32_t hi0 = static_cast<uint32_t>(product0 >> 32);
    const uint32_t lo0 = static_cast<uint32_t>(product0);
    const uint32_t hi1 = static_cast<uint32_t>(product1 >> 32);
    const uint32_t lo1 = static_cast<uint32_t>(product1);
    counter = {hi1 ^ counter[1] ^ key0, lo1, hi0 ^ counter[3] ^ key1, lo0};
    key0 += kWeyl0;
    key1 += kWeyl1;
  }
  return counter;
}

}  // namespace gpuseq::mrf
