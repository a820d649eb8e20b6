// SSV and MSV filters on the GPU (CUDAMPF, Jiang & Ganesan 2016): a warp per target, a DP row
// per step, warp-synchronous, SIMD lanes in 32-bit registers. GPU twins of cpp/hmm/msv.hpp;
// the integer results are turned into nats by the same host code (cpp/hmm/filters.cpp).
//
// Two precisions, one result:
//  - 8-bit lanes, the paper's: unsigned saturating bytes (__vaddus4, __vsubus4, __vmaxu4; native
//    on Kepler to Ampere, emulated by several instructions each on Hopper);
//  - 16-bit lanes with Hopper's DPX instructions (__viaddmax_s16x2, __vimax3_s16x2: one
//    instruction each on sm_90, emulated elsewhere). Scores are the byte values held without
//    saturation; the saturations of the byte form only act once the answer is decided
//    (overflow or the SSV's level), and the 16-bit form reaches the same decision (see each
//    kernel), so both give HMMER's integers wherever HMMER's result depends on them.
//
// Striped model: with Q stripes and A lanes per register (4 bytes or 2 words), thread t, lane b
// and stripe q hold node k = 1 + q + Q*(A*t + b) (Q >= (M-1)/(32A) + 1, at least 2). Node k-1 of
// the same lane is stripe q-1, so a row needs one lane shift (stripe Q-1 moved up one lane,
// warp_lanes.cuh) and otherwise only register moves.
// Tables: [(x*Q + q)*32 + t] is the word of thread t, stripe q, residue x. 8-bit: the costs
// rb (nodes past M cost 255 and stay at minus infinity, 0); 16-bit: the scores bias - rb
// (nodes past M score kPadScore16 and stay at 0).
#pragma once

#ifndef __CUDACC_RTC__
#include <cstdint>
#endif

#include "hmm/warp_lanes.cuh"

namespace gpuseq::cuda::hmm {

// Which targets a launch scores: ids[w] for w < n, with one int parameter each (the length
// dependent tjb/N-C-J move, computed on the host with glibc logf), results in out[w].
struct TargetList {
  const uint8_t* residues;
  const int64_t* offsets;
  const int32_t* ids;
  const int32_t* param;
  int32_t* out;
  int n;
  // Optional: a counter zeroed before the launch, from which warps claim their targets after
  // the first (next_target; run_kernel gives one to every warp kernel). Null: the static rule
  // w, w + warps, ...
  int32_t* claims = nullptr;
  // Optional (SSV/MSV warp kernels): the order in which targets are claimed, positions of
  // ids/param/out, longest first. Null: position w for the w-th claimed.
  const int32_t* order = nullptr;
};

// The position of the w-th target claimed (see TargetList::order).
__device__ __forceinline__ int claimed_position(const TargetList& list, int w) {
  return list.order != nullptr ? __ldg(list.order + w) : w;
}

// The index of a warp's next target after w: claimed where the list has a counter (a warp that
// drew short targets takes more: with the static rule, one M = 149 cascade's 27,000 Viterbi
// targets gave the busiest of 3,168 warps 1.8 times the mean work, and the SSV warp kernel over
// 100 M residues of log-normal lengths, about 135 targets a warp, ran 10-24% slower than with
// claims), else w + warps. Warp-uniform; every lane calls it.
__device__ __forceinline__ int next_target(const TargetList& list, int w, int warps) {
  if (list.claims == nullptr) return w + warps;
  int claimed = 0;
  if ((threadIdx.x & 31) == 0) claimed = atomicAdd(list.claims, 1);
  return warps + __shfl_sync(kFullWarp, claimed, 0);
}

// SSV (spec 5.2) as unsigned bytes: u = R, the score above the begin level, floored at 0:
// u = max(0, u_diag + bias - rb). +bias saturates at 255 only when u_diag > 255 - bias, above
// the overflow level 127 - bias, which the running maximum has then already seen; so the
// result is exact below that level and at or above it otherwise, which is all the decision
// reads. There is no J state: no row reduction, only one at the end (and every 128 rows, to
// stop early once the answer is decided, as the CPU kernel does).
template <int Q>
__global__ void __launch_bounds__(128) ssv_warp_kernel(const uint32_t* __restrict__ costs,
                                                       int bias, int stop_at, TargetList list) {
  const int lane = threadIdx.x & 31;
  const int warp = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) >> 5);
  const int warps = static_cast<int>((gridDim.x * blockDim.x) >> 5);
  const uint32_t biasv = splat_u8(bias);
  const uint32_t* my_costs = costs + lane;
  // The grid is exactly the resident warps; each claims its next target (next_target).
  for (int w = warp; w < list.n; w = next_target(list, w, warps)) {
    const int p = claimed_position(list, w);
    const int id = list.ids[p];
    const int64_t begin = list.offsets[id], L = list.offsets[id + 1] - begin;
    const uint8_t* seq = list.residues + begin;
    uint32_t v[Q];
#pragma unroll
    for (int q = 0; q < Q; ++q) v[q] = 0;
    uint32_t best = 0;
    int best_so_far = 0;
    StagedResidues staged;
    for (int64_t i0 = 0; i0 < L; i0 += 128) {
      staged.load(seq, i0, L);
      const int rows = L - i0 < 128 ? static_cast<int>(L - i0) : 128;
      for (int r = 0; r < rows; ++r) {
        const uint32_t* row = my_costs + staged.at(r) * (Q * 32);
        const uint32_t first = shift_up_u8(v[Q - 1], 0);
#pragma unroll
        for (int q = Q - 1; q > 0; --q) {
          v[q] = __vsubus4(__vaddus4(v[q - 1], biasv), __ldg(row + q * 32));
          best = __vmaxu4(best, v[q]);
        }
        v[0] = __vsubus4(__vaddus4(first, biasv), __ldg(row));
        best = __vmaxu4(best, v[0]);
      }
      best_so_far = warp_max_u8(best);
      if (best_so_far >= stop_at) break;  // decided (warp-uniform)
    }
    // (The position read again: kept live through the rows, it slowed the SSV at 32-47
    // stripes by 6-15% on the H100.)
    if (lane == 0) list.out[claimed_position(list, w)] = best_so_far;
  }
}

// The full MSV recurrence (spec 5.3), unsigned saturating bytes, 0 = minus infinity; every
// saturation point as in HMMER. param = tjb + tbm (mod 256) of the target. Result: xJ, or -1
// on byte overflow.
template <int Q>
__global__ void __launch_bounds__(128) msv_warp_kernel(const uint32_t* __restrict__ costs,
                                                       int bias, int tec, TargetList list) {
  constexpr int kBaseB = 190;
  const int lane = threadIdx.x & 31;
  const int warp = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) >> 5);
  const int warps = static_cast<int>((gridDim.x * blockDim.x) >> 5);
  const uint32_t biasv = splat_u8(bias);
  const uint32_t* my_costs = costs + lane;
  for (int w = warp; w < list.n; w = next_target(list, w, warps)) {
    const int p = claimed_position(list, w);
    const int id = list.ids[p];
    const int64_t begin = list.offsets[id], L = list.offsets[id + 1] - begin;
    const uint8_t* seq = list.residues + begin;
    const int tjbm = list.param[p];
    uint32_t v[Q];
#pragma unroll
    for (int q = 0; q < Q; ++q) v[q] = 0;
    int xJ = 0;
    int xB = kBaseB - tjbm > 0 ? kBaseB - tjbm : 0;
    bool overflow = false;
    StagedResidues staged;
    for (int64_t i0 = 0; i0 < L && !overflow; i0 += 128) {
      staged.load(seq, i0, L);
      const int rows = L - i0 < 128 ? static_cast<int>(L - i0) : 128;
      for (int r = 0; r < rows; ++r) {
        const uint32_t* row = my_costs + staged.at(r) * (Q * 32);
        const uint32_t xBv = splat_u8(xB);
        const uint32_t first = shift_up_u8(v[Q - 1], 0);
        uint32_t row_max = 0;
#pragma unroll
        for (int q = Q - 1; q > 0; --q) {
          v[q] = __vsubus4(__vaddus4(__vmaxu4(v[q - 1], xBv), biasv), __ldg(row + q * 32));
          row_max = __vmaxu4(row_max, v[q]);
        }
        v[0] = __vsubus4(__vaddus4(__vmaxu4(first, xBv), biasv), __ldg(row));
        row_max = __vmaxu4(row_max, v[0]);
        int xE = warp_max_u8(row_max);
        if (xE + bias >= 255) {  // checked before the J update, every row
          overflow = true;
          break;
        }
        xE = xE - tec > 0 ? xE - tec : 0;
        xJ = xJ > xE ? xJ : xE;
        const int from = xJ > kBaseB ? xJ : kBaseB;
        xB = from - tjbm > 0 ? from - tjbm : 0;
      }
    }
    if (lane == 0) list.out[p] = overflow ? -1 : xJ;
  }
}

// ---- 16-bit DPX lanes --------------------------------------------------------------------

// Score of the nodes past M in the 16-bit tables: keeps them at the floor 0.
constexpr int kPadScore16 = -1024;

// Long models' 16-bit tables (29 x Q x 128 bytes: 92 KB at Q = 25, 178 KB at 48) share L1
// with the targets' bytes streaming through it: read from there, the warp kernels ran at 10
// TCUPS where the S-lane kernels, their tables in shared memory, ran at 14. The *_shared
// kernels copy the table into the block's shared memory first (a 512-thread block an SM) and
// read it from there; the launcher picks them for the stripe counts past the S-lane kernels'
// (gpu_filters.cu, kSharedWarpTableStripes).
constexpr int kSharedTableThreads = 512;

// The blocks an SM ptxas is told to plan for (__launch_bounds__'s second argument; 0: left to
// it), as multi_min_blocks in msv_multi.cuh. The MSV is told one: ptxas then places its table
// loads 11 or more instructions ahead of their use at every Q (left to itself, about 1 at Q =
// 27): H200 MSV at Q = 27 6.5 -> 10.5 TCUPS, 33 8.7 -> 10.5, 34 6.5 -> 10.2, 29-32 +5-9%, the
// others unchanged. The SSV keeps the default: told one, it ran 5-14% slower at most Q
// from 28 to 46 (results/gpu-h200-20261128-i, call 5).
__host__ __device__ constexpr int warp_shared_min_blocks(bool msv, int /*Q*/) {
  return msv ? 1 : 0;
}

template <bool kShared>
__device__ __forceinline__ uint32_t table_word(const uint32_t* p) {
  if constexpr (kShared)
    return *p;
  else
    return __ldg(p);
}

// Every thread of the block calls it.
__device__ __forceinline__ void copy_table_to_shared(const uint32_t* __restrict__ table, int words,
                                                     uint32_t* shared) {
  for (int i = threadIdx.x; i < words; i += blockDim.x) shared[i] = __ldg(table + i);
  __syncthreads();
}

// SSV with R = max(0, R_diag + s) held exactly in 16 bits (no byte clamp). Every cell value
// grows by at most bias per row, so a diagonal passes through [127 - bias, 32767] (and is seen
// by the running maximum) before its 16-bit sum could wrap: the result is exact below the
// overflow level 127 - bias and at or above it otherwise, as the byte kernel's.
template <int Q, bool kShared>
__device__ __forceinline__ void ssv_warp_targets_s16(const uint32_t* my_scores, int stop_at,
                                                     const TargetList& list) {
  const int lane = threadIdx.x & 31;
  const int warp = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) >> 5);
  const int warps = static_cast<int>((gridDim.x * blockDim.x) >> 5);
  for (int w = warp; w < list.n; w = next_target(list, w, warps)) {
    const int p = claimed_position(list, w);
    const int id = list.ids[p];
    const int64_t begin = list.offsets[id], L = list.offsets[id + 1] - begin;
    const uint8_t* seq = list.residues + begin;
    uint32_t v[Q];
#pragma unroll
    for (int q = 0; q < Q; ++q) v[q] = 0;
    uint32_t best = 0;
    int best_so_far = 0;
    StagedResidues staged;
    for (int64_t i0 = 0; i0 < L; i0 += 128) {
      staged.load(seq, i0, L);
      const int rows = L - i0 < 128 ? static_cast<int>(L - i0) : 128;
      for (int r = 0; r < rows; ++r) {
        const uint32_t* row = my_scores + staged.at(r) * (Q * 32);
        const uint32_t first = shift_up_s16(v[Q - 1], 0);
#pragma unroll
        for (int q = Q - 1; q > 0; --q)
          v[q] = __viaddmax_s16x2(v[q - 1], table_word<kShared>(row + q * 32), 0u);
        v[0] = __viaddmax_s16x2(first, table_word<kShared>(row), 0u);
#pragma unroll
        for (int q = 0; q + 1 < Q; q += 2) best = __vimax3_s16x2(best, v[q], v[q + 1]);
        if (Q % 2) best = __vimax_s16x2_relu(best, v[Q - 1]);
      }
      best_so_far = warp_max_s16(best);
      if (best_so_far >= stop_at) break;  // decided (warp-uniform)
    }
    // (The position read again: kept live through the rows, it slowed the SSV at 32-47
    // stripes by 6-15% on the H100.)
    if (lane == 0) list.out[claimed_position(list, w)] = best_so_far;
  }
}

template <int Q>
__global__ void __launch_bounds__(128)
    ssv_warp_kernel_s16(const uint32_t* __restrict__ scores, int stop_at, TargetList list) {
  ssv_warp_targets_s16<Q, false>(scores + (threadIdx.x & 31), stop_at, list);
}

// The same with the table copied into the block's shared memory first (see table_word).
template <int Q>
__global__ void __launch_bounds__(kSharedTableThreads, warp_shared_min_blocks(false, Q))
    ssv_warp_kernel_s16_shared(const uint32_t* __restrict__ scores, int table_words, int stop_at,
                               TargetList list) {
  extern __shared__ uint32_t shared_scores[];
  copy_table_to_shared(scores, table_words, shared_scores);
  ssv_warp_targets_s16<Q, true>(shared_scores + (threadIdx.x & 31), stop_at, list);
}

// The full MSV with the byte values held in 16 bits: v = max(diag + s, xB + s, 0). Without the
// byte form's saturation at 255 a cell is >= its byte value; the two are equal in every row
// before the first overflow, and the first row in which the byte form overflows
// (xE + bias >= 255) is the first in which this one does (a cell of that row can exceed its
// byte value only if its diagonal or xB is above 255 - bias, which an earlier row or the
// overflow test already excluded).
//
// The row maximum xE is needed in every row only when it changes xB or overflows. Each block of
// 128 rows therefore first runs with xB held and one reduction at its end (a warp reduction per
// row is most of a row's cost in short models). That is HMMER's sequential result whenever no
// row maximum exceeded T = max(xJ, base) + tec (then xJ stays <= max(xJ, base), so xB cannot
// change, and xJ becomes max(xJ, block maximum - tec)) and none overflowed. Otherwise the block
// runs again from its saved first row, a reduction per row: random targets take the first
// path, strong hits (rare) the second.
template <int Q, bool kShared>
__device__ __forceinline__ void msv_row_s16(uint32_t (&v)[Q], const uint32_t* row, uint32_t xBv) {
  const uint32_t first = shift_up_s16(v[Q - 1], 0);
#pragma unroll
  for (int q = Q - 1; q > 0; --q) {
    const uint32_t s = table_word<kShared>(row + q * 32);
    v[q] = __viaddmax_s16x2(xBv, s, __viaddmax_s16x2(v[q - 1], s, 0u));
  }
  const uint32_t s = table_word<kShared>(row);
  v[0] = __viaddmax_s16x2(xBv, s, __viaddmax_s16x2(first, s, 0u));
}

template <int Q>
__device__ __forceinline__ uint32_t lanes_max_s16(const uint32_t (&v)[Q], uint32_t m) {
#pragma unroll
  for (int q = 0; q + 1 < Q; q += 2) m = __vimax3_s16x2(m, v[q], v[q + 1]);
  if (Q % 2) m = __vimax_s16x2_relu(m, v[Q - 1]);
  return m;
}

template <int Q, bool kShared>
__device__ __forceinline__ void msv_warp_targets_s16(const uint32_t* my_scores, int bias, int tec,
                                                     const TargetList& list) {
  constexpr int kBaseB = 190;
  const int lane = threadIdx.x & 31;
  const int warp = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) >> 5);
  const int warps = static_cast<int>((gridDim.x * blockDim.x) >> 5);
  for (int w = warp; w < list.n; w = next_target(list, w, warps)) {
    const int p = claimed_position(list, w);
    const int id = list.ids[p];
    const int64_t begin = list.offsets[id], L = list.offsets[id + 1] - begin;
    const uint8_t* seq = list.residues + begin;
    const int tjbm = list.param[p];
    uint32_t v[Q];
#pragma unroll
    for (int q = 0; q < Q; ++q) v[q] = 0;
    int xJ = 0;
    int xB = kBaseB - tjbm > 0 ? kBaseB - tjbm : 0;
    bool overflow = false;
    StagedResidues staged;
    for (int64_t i0 = 0; i0 < L && !overflow; i0 += 128) {
      staged.load(seq, i0, L);
      const int rows = L - i0 < 128 ? static_cast<int>(L - i0) : 128;
      uint32_t saved[Q];
#pragma unroll
      for (int q = 0; q < Q; ++q) saved[q] = v[q];
      {  // xB held over the block
        const uint32_t xBv = splat_s16(xB);
        uint32_t block_max = 0;
        for (int r = 0; r < rows; ++r) {
          msv_row_s16<Q, kShared>(v, my_scores + staged.at(r) * (Q * 32), xBv);
          block_max = lanes_max_s16<Q>(v, block_max);
        }
        const int xE = warp_max_s16(block_max);
        if (xE <= (xJ > kBaseB ? xJ : kBaseB) + tec && xE + bias < 255) {
          xJ = xJ > xE - tec ? xJ : xE - tec;  // (xJ >= 0 is the floor of xE - tec)
          continue;
        }
      }
#pragma unroll
      for (int q = 0; q < Q; ++q) v[q] = saved[q];
      for (int r = 0; r < rows; ++r) {  // the block again, HMMER's order row by row
        msv_row_s16<Q, kShared>(v, my_scores + staged.at(r) * (Q * 32), splat_s16(xB));
        int xE = warp_max_s16(lanes_max_s16<Q>(v, 0u));
        if (xE + bias >= 255) {  // checked before the J update, every row
          overflow = true;
          break;
        }
        xE = xE - tec > 0 ? xE - tec : 0;
        xJ = xJ > xE ? xJ : xE;
        const int from = xJ > kBaseB ? xJ : kBaseB;
        xB = from - tjbm > 0 ? from - tjbm : 0;
      }
    }
    if (lane == 0) list.out[p] = overflow ? -1 : xJ;
  }
}

template <int Q>
__global__ void __launch_bounds__(128)
    msv_warp_kernel_s16(const uint32_t* __restrict__ scores, int bias, int tec, TargetList list) {
  msv_warp_targets_s16<Q, false>(scores + (threadIdx.x & 31), bias, tec, list);
}

// The same with the table copied into the block's shared memory first (see table_word).
template <int Q>
__global__ void __launch_bounds__(kSharedTableThreads, warp_shared_min_blocks(true, Q))
    msv_warp_kernel_s16_shared(const uint32_t* __restrict__ scores, int table_words, int bias,
                               int tec, TargetList list) {
  extern __shared__ uint32_t shared_scores[];
  copy_table_to_shared(scores, table_words, shared_scores);
  msv_warp_targets_s16<Q, true>(shared_scores + (threadIdx.x & 31), bias, tec, list);
}

}  // namespace gpuseq::cuda::hmm
