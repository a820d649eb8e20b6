// Instruction-rate micro-benchmarks (see instruction_rates.hpp). Each thread runs 8
// independent chains of one operation so that latency is hidden and issue is the limit; one
// add per 8 operations keeps the operands changing (so the compiler cannot fold a max of a
// max), which makes every rate a slight underestimate. SASS per operation on sm_90a (nvcc
// 13.0, cuobjdump): viaddmax_s16x2 1 VIADDMNMX.S16x2; vimax3_s16x2 1 VIMNMX3.S16x2; vmaxs2 0.5
// (two fused into one VIMNMX3); vadd2 1 VIADD.16x2; vaddus4 and vmaxu4 about 6 (LOP3, PRMT,
// IMAD: emulated); prmt 1; iadd about 0.5 (IADD3 fuses two); shfl 1 SHFL + 1 LOP3;
// ldg_l1_32bit 1 LDG + 1 LOP3.
#include <cuda_runtime.h>

#include <cstdint>

#include "common/check.cuh"
#include "hmm/instruction_rates.hpp"
#include "hmm/warp_lanes.cuh"

namespace gpuseq::cuda::hmm {
namespace {

enum Op {
  kViaddmax,  // __viaddmax_s16x2: max(a + b, c) on 16-bit lanes (DPX)
  kVimax3,    // __vimax3_s16x2: max(a, b, c) (DPX)
  kVmaxs2,    // __vmaxs2: max of 16-bit lanes
  kVadd2,     // __vadd2: wrapping add of 16-bit lanes
  kVaddus4,   // __vaddus4: saturating add of bytes (the 8-bit kernels')
  kVmaxu4,    // __vmaxu4: max of bytes
  kPrmt,      // __byte_perm
  kIadd,      // 32-bit add, for reference
  kShfl,      // __shfl_xor_sync
  kLdgL1,     // 32-bit loads that hit L1 (the score tables): the warp reads one 128-byte line
  kLdgL1Rows2,  // the same bytes, each half-warp from another table row (2 lines a load)
  kLdgL1Rows4,  // each quarter-warp from another row (4 lines a load: the S-lane kernels, S = 4)
  kLds,       // 32-bit shared-memory loads, one row per warp
  kLdsRows4,  // shared memory, each quarter-warp from another row (no bank conflict)
  kOpCount
};

constexpr const char* kOpNames[kOpCount] = {
    "viaddmax_s16x2", "vimax3_s16x2",         "vmaxs2",
    "vadd2",          "vaddus4",              "vmaxu4",
    "prmt",           "iadd",                 "shfl",
    "ldg_l1_32bit",   "ldg_l1_32bit_2_lines", "ldg_l1_32bit_4_lines",
    "lds_32bit",      "lds_32bit_4_rows"};
constexpr int kChains = 8;
constexpr int kTableWords = 32 * kChains * 32;  // 32 KB: stays in L1, like a score table

// `word` points at this thread's word of a 32-word row of the table, the chain's own row: the
// filters' access (row of the residue, immediate offset per stripe).
template <int OP>
__device__ __forceinline__ uint32_t step(uint32_t a, uint32_t b, uint32_t c,
                                         const uint32_t* __restrict__ word) {
  if constexpr (OP == kViaddmax) return __viaddmax_s16x2(a, b, c);
  if constexpr (OP == kVimax3) return __vimax3_s16x2(a, b, c);
  if constexpr (OP == kVmaxs2) return __vmaxs2(a, b);
  if constexpr (OP == kVadd2) return __vadd2(a, b);
  if constexpr (OP == kVaddus4) return __vaddus4(a, b);
  if constexpr (OP == kVmaxu4) return __vmaxu4(a, b);
  if constexpr (OP == kPrmt) return __byte_perm(a, b, 0x5410);
  if constexpr (OP == kIadd) return a + b;
  if constexpr (OP == kShfl) return __shfl_xor_sync(kFullWarp, a, 1) ^ b;
  if constexpr (OP == kLdgL1 || OP == kLdgL1Rows2 || OP == kLdgL1Rows4) return __ldg(word) ^ a;
  if constexpr (OP == kLds || OP == kLdsRows4) return *word ^ a;  // (word is in shared memory)
  return a;
}

template <int OP>
__global__ void __launch_bounds__(256) rate_kernel(const uint32_t* __restrict__ table,
                                                   uint32_t* out, int iterations,
                                                   uint32_t increment) {
  constexpr bool kShared = OP == kLds || OP == kLdsRows4;
  __shared__ uint32_t shared_table[kShared ? kTableWords : 1];
  if constexpr (kShared) {
    for (int i = threadIdx.x; i < kTableWords; i += blockDim.x) shared_table[i] = table[i];
    __syncthreads();
  }
  // Rows of the table a thread's loads come from: the warp's (b), or b plus its group's.
  constexpr int kGroupShift =
      OP == kLdgL1Rows2 ? 4 : (OP == kLdgL1Rows4 || OP == kLdsRows4) ? 3 : 6;
  const uint32_t group_row = ((threadIdx.x & 31) >> kGroupShift) * 7;
  const uint32_t* base = kShared ? shared_table : table;
  uint32_t a[kChains];
#pragma unroll
  for (int j = 0; j < kChains; ++j) a[j] = threadIdx.x * 0x9e3779b9u + j;
  uint32_t b = blockIdx.x * 0x85ebca6bu;
  const uint32_t c = threadIdx.x ^ 0x00ff00ffu;
#pragma unroll 4
  for (int i = 0; i < iterations; ++i) {
    b += increment;
    const uint32_t* row = base + (threadIdx.x & 31) + ((b + group_row) & 31) * (kChains * 32);
#pragma unroll
    for (int j = 0; j < kChains; ++j) a[j] = step<OP>(a[j], b, c, row + j * 32);
  }
  uint32_t x = 0;
#pragma unroll
  for (int j = 0; j < kChains; ++j) x ^= a[j];
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;  // keeps the chains alive
}

template <int OP>
double time_op(const uint32_t* table, uint32_t* out, int blocks, int iterations) {
  rate_kernel<OP><<<blocks, 256>>>(table, out, iterations / 8, 1u);  // warm-up
  GPUSEQ_CUDA_CHECK(cudaGetLastError());
  DeviceTimer timer;
  timer.start();
  rate_kernel<OP><<<blocks, 256>>>(table, out, iterations, 1u);
  GPUSEQ_CUDA_CHECK(cudaGetLastError());
  return timer.stop_seconds();
}

}  // namespace

std::vector<InstructionRate> measure_instruction_rates() {
  int device = 0, sms = 0, clock_khz = 0;
  GPUSEQ_CUDA_CHECK(cudaGetDevice(&device));
  GPUSEQ_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  GPUSEQ_CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device));
  const int blocks = sms * 8;  // 2048 threads per SM: full occupancy at 256 threads a block
  const int iterations = 1 << 14;
  DeviceArray<uint32_t> table = device_alloc<uint32_t>(kTableWords);
  GPUSEQ_CUDA_CHECK(cudaMemset(table.get(), 0, kTableWords * sizeof(uint32_t)));
  DeviceArray<uint32_t> out = device_alloc<uint32_t>(static_cast<size_t>(blocks) * 256);
  const double seconds[kOpCount] = {
      time_op<kViaddmax>(table.get(), out.get(), blocks, iterations),
      time_op<kVimax3>(table.get(), out.get(), blocks, iterations),
      time_op<kVmaxs2>(table.get(), out.get(), blocks, iterations),
      time_op<kVadd2>(table.get(), out.get(), blocks, iterations),
      time_op<kVaddus4>(table.get(), out.get(), blocks, iterations),
      time_op<kVmaxu4>(table.get(), out.get(), blocks, iterations),
      time_op<kPrmt>(table.get(), out.get(), blocks, iterations),
      time_op<kIadd>(table.get(), out.get(), blocks, iterations),
      time_op<kShfl>(table.get(), out.get(), blocks, iterations),
      time_op<kLdgL1>(table.get(), out.get(), blocks, iterations),
      time_op<kLdgL1Rows2>(table.get(), out.get(), blocks, iterations),
      time_op<kLdgL1Rows4>(table.get(), out.get(), blocks, iterations),
      time_op<kLds>(table.get(), out.get(), blocks, iterations),
      time_op<kLdsRows4>(table.get(), out.get(), blocks, iterations),
  };
  const double ops = static_cast<double>(blocks) * 256 * iterations * kChains;
  std::vector<InstructionRate> rates;
  for (int op = 0; op < kOpCount; ++op) {
    const double per_second = ops / seconds[op];
    rates.push_back({kOpNames[op], per_second / (sms * clock_khz * 1e3), per_second});
  }
  return rates;
}

}  // namespace gpuseq::cuda::hmm
