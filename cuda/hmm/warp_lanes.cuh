// SIMD lanes inside the 32-bit registers of a warp (CUDAMPF): a warp holds one 128-byte (or
// 64-word) vector of a DP row, thread t holding bytes 4t..4t+3 (words 2t, 2t+1) of it, lowest
// address in the lowest bits. These helpers move one lane along that vector and reduce it.
#pragma once

// These headers are also compiled at run time by NVRTC (cuda/hmm/runtime_compile.cpp), which has
// no C++ standard library headers: there the fixed-width types come from the typedefs below.
#ifdef __CUDACC_RTC__
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef short int16_t;
typedef int int32_t;
typedef long long int64_t;
#ifndef INT_MAX
#define INT_MAX 2147483647
#endif
#else
#include <cstdint>
#endif

namespace gpuseq::cuda::hmm {

constexpr unsigned kFullWarp = 0xffffffffu;

// The warp's byte vector moved up by one byte: byte p receives byte p-1, byte 0 receives `first`
// (minus infinity of the format: the first state has no diagonal predecessor; a rotation
// would wrap the last state's value in when the model fills every slot).
__device__ __forceinline__ uint32_t shift_up_u8(uint32_t v, uint32_t first) {
  uint32_t below = __shfl_up_sync(kFullWarp, v, 1);
  if ((threadIdx.x & 31) == 0) below = first << 24;
  return (v << 8) | (below >> 24);
}

// The same for 16-bit lanes, in every group of kGroup threads (a power of two) holding one
// vector each: the group's first thread receives `first`.
template <int kGroup = 32>
__device__ __forceinline__ uint32_t shift_up_s16(uint32_t v, uint32_t first) {
  uint32_t below = __shfl_up_sync(kFullWarp, v, 1, kGroup);
  if ((threadIdx.x & (kGroup - 1)) == 0) below = first << 16;
  return __byte_perm(v, below, 0x1076);  // (v << 16) | (below >> 16) in one PRMT
}

// Largest unsigned byte of the warp's vector, in every thread: butterfly over the threads
// (5 shuffles), then inside the word.
__device__ __forceinline__ int warp_max_u8(uint32_t v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1)
    v = __vmaxu4(v, __shfl_xor_sync(kFullWarp, v, offset));
  v = __vmaxu4(v, v >> 16);
  v = __vmaxu4(v, v >> 8);
  return static_cast<int>(v & 0xffu);
}

// Largest signed 16-bit lane of the warp's vector, in every thread.
__device__ __forceinline__ int warp_max_s16(uint32_t v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1)
    v = __vmaxs2(v, __shfl_xor_sync(kFullWarp, v, offset));
  const int lo = static_cast<int16_t>(v & 0xffffu), hi = static_cast<int16_t>(v >> 16);
  return lo > hi ? lo : hi;
}

// Saturating 16-bit adds built from native lane operations (max/min/add of 16x2 words are
// single instructions on sm_90; the library's __vaddss2 is a long emulation). Exact for every
// input: the max/min first moves a lane to where the wrapping add cannot leave [-32768, 32767].
constexpr uint32_t kWordsMin = 0x80008000u;  // -32768 in both lanes
constexpr uint32_t kWordsMax = 0x7fff7fffu;  // 32767 in both lanes

// The constant operands of packed 16-bit adds, read from constant memory instead of written
// as immediates. ptxas (CUDA 13.0, sm_90a) sometimes drops or halves the immediate of a
// VIADD.16x2 or VIADDMNMX.S16x2 that shares it with others: the fused Viterbi kernel had
// `VIADD.16x2 R, R, 0x0` for ~t + 0x80018001 at 10 stripes and `VIADDMNMX.S16x2 R, R, 0x8001,
// R` at 11 (floors off by 0x8001 in a lane: scores above the CPU's), as in
// triton-lang/triton#11581. It cannot fold a load from constant memory into an immediate.
static __constant__ uint32_t kPackedAddOperands[2] = {0x80018001u, 0x80008000u};
__device__ __forceinline__ uint32_t words_min_plus_one() { return kPackedAddOperands[0]; }
__device__ __forceinline__ uint32_t words_min() { return kPackedAddOperands[1]; }

// -32768 - x and 32767 - x per lane, exact when the result fits (x <= 0, resp. x >= 0): in
// 16-bit arithmetic they are ~x + 0x8001 and ~x + 0x8000 (there is no 16x2 subtract).
__device__ __forceinline__ uint32_t min_word_minus(uint32_t x) {
  return __vadd2(~x, words_min_plus_one());
}
__device__ __forceinline__ uint32_t max_word_minus(uint32_t x) { return __vadd2(~x, words_min()); }

// sat(a + t) when every lane of t is <= 0 (transition words): max(a, -32768 - t) + t.
__device__ __forceinline__ uint32_t add_sat_nonpositive_s16(uint32_t a, uint32_t t) {
  return __vadd2(__vmaxs2(a, min_word_minus(t)), t);
}

// sat(a + e) for lanes of any sign: a clamped to [-32768 - min(e, 0), 32767 - max(e, 0)], + e.
__device__ __forceinline__ uint32_t add_sat_s16(uint32_t a, uint32_t e) {
  const uint32_t low = min_word_minus(__vmins2(e, 0u));
  const uint32_t high = max_word_minus(__vmaxs2(e, 0u));
  return __vadd2(__vmins2(__vmaxs2(a, low), high), e);
}

__device__ __forceinline__ uint32_t splat_u8(int x) { return static_cast<uint32_t>(x & 0xff) * 0x01010101u; }
// One PRMT (FMA pipe) where a mask and a multiply took an ALU and an FMA instruction: the
// fused Viterbi's rows are bound by the ALU pipe (+0.4-2%, results/gpu-h200-20261128-h).
__device__ __forceinline__ uint32_t splat_s16(int x) { return __byte_perm(x, 0, 0x1010); }

// Residues of one target staged 128 at a time: thread t loads residues 4t..4t+3 of the next
// 128 (coalesced byte loads; targets need no alignment), and row r is then broadcast from
// thread r / 4 by a shuffle.
struct StagedResidues {
  uint32_t word = 0;

  __device__ __forceinline__ void load(const uint8_t* __restrict__ seq, int64_t from, int64_t L) {
    const int lane = threadIdx.x & 31;
    word = 0;
#pragma unroll
    for (int b = 0; b < 4; ++b) {
      const int64_t i = from + 4 * lane + b;
      if (i < L) word |= static_cast<uint32_t>(__ldg(seq + i)) << (8 * b);
    }
  }
  __device__ __forceinline__ int at(int r) const {
    return (__shfl_sync(kFullWarp, word, r >> 2) >> (8 * (r & 3))) & 0xff;
  }
};

}  // namespace gpuseq::cuda::hmm
