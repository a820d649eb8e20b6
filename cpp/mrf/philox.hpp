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

// The ten rounds on four counter words in place (plain words: std::array is host-only in CUDA).
GPUSEQ_HOST_DEVICE inline void philox4x32_10_rounds(uint32_t& c0, uint32_t& c1, uint32_t& c2,
                                                    uint32_t& c3, uint32_t key0, uint32_t key1) {
  constexpr uint32_t kMultiplier0 = 0xD2511F53u, kMultiplier1 = 0xCD9E8D57u;
  constexpr uint32_t kWeyl0 = 0x9E3779B9u, kWeyl1 = 0xBB67AE85u;  // key schedule increments
  for (int round = 0; round < 10; ++round) {
    const uint64_t product0 = uint64_t{kMultiplier0} * c0;
    const uint64_t product1 = uint64_t{kMultiplier1} * c2;
    const uint32_t hi0 = static_cast<uint32_t>(product0 >> 32);
    const uint32_t lo0 = static_cast<uint32_t>(product0);
    const uint32_t hi1 = static_cast<uint32_t>(product1 >> 32);
    const uint32_t lo1 = static_cast<uint32_t>(product1);
    const uint32_t next0 = hi1 ^ c1 ^ key0, next2 = hi0 ^ c3 ^ key1;
    c0 = next0;
    c1 = lo1;
    c2 = next2;
    c3 = lo0;
    key0 += kWeyl0;
    key1 += kWeyl1;
  }
}

using PhiloxWords = std::array<uint32_t, 4>;

inline PhiloxWords philox4x32_10(PhiloxWords counter, uint32_t key0, uint32_t key1) {
  philox4x32_10_rounds(counter[0], counter[1], counter[2], counter[3], key0, key1);
  return counter;
}

}  // namespace gpuseq::mrf
