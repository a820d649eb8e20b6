// S-lane SSV and MSV filters (CUDAMPF++, Jiang, Ganesan & Yao 2018): a warp aligns S targets at
// once, so short models fill the warp (the warp-per-target kernels of msv.cuh use 2 stripes of
// 64 words = 128 nodes per warp even for M = 50). 16-bit DPX lanes only: the same arithmetic and
// the same integers as msv_warp_kernel_s16 / ssv_warp_kernel_s16 (msv.cuh says why the 16-bit
// forms give HMMER's results).
//
// Lanes: a warp holds 64 words. S <= 32: a group of G = 32/S threads per target, W = 2G lanes;
// S = 64: one thread holds two targets, one per 16-bit half, W = 1.
// Model: W x H, node j (0-based) in in-group lane w = 2 t' + b (thread t' of the group, half b;
// for S = 64, w = 0) at stripe h when j = h + H*w, H >= 2. Node j-1 of stripe h > 0 is stripe h-1
// of the same lane; stripe 0 takes stripe H-1 of lane w-1 (a lane shift inside the group), lane 0
// of the group takes minus infinity (0).
// Table: 16-bit entry ((h*32 + x)*W + w) scores node h + H*w for residue code x (32 codes: the
// 29 residues, then the block markers, which score kPadScore16 like the nodes past M). One load
// of a warp touches at most 4 lines of 128 bytes whatever residues its groups read.
// Targets: warp-based sequence blocks (cpp/hmm/sequence_blocks.hpp), staged 128 bytes at a time.
#pragma once

#include <cstdint>

#include "hmm/msv.cuh"
#include "hmm/sequence_blocks.hpp"

namespace gpuseq::cuda::hmm {

// Residue codes of the score tables of the S-lane kernels (29 residues, 3 marker codes).
constexpr int kMultiCodes = 32;

// Where a launch's targets lie in the blocks and where their results go: out[p] for position p
// of the launch's list; column c of warp w is column w*S + c of the plan.
struct BlockList {
  const uint8_t* blocks;
  const int64_t* warp_offset;
  const int32_t* warp_rows;
  const int32_t* column_start;
  const int32_t* column_items;
  const int32_t* param;  // per position: MSV's tjb + tbm (mod 256); unused by the SSV
  int32_t* out;
  int warps;
};

template <int S>
struct MultiLanes {
  static_assert(S >= 2 && S <= 64 && (S & (S - 1)) == 0, "S: 2, 4, ..., 64");
  static constexpr int kPerThread = S > 32 ? 2 : 1;   // targets in one thread
  static constexpr int kGroup = S > 32 ? 1 : 32 / S;  // threads per target
  static constexpr int kWidth = 64 / S;               // W
  static constexpr int kRowsPerLoad = 128 / S;        // block rows in one 128-byte load
};

// The residue codes of this thread's target(s) on row r of a staged 128-byte load (byte
// r*S + c is column c); for S = 64 code k of the thread's columns 2t + k.
template <int S>
__device__ __forceinline__ void residues_at(uint32_t staged, int r, int lane, int (&x)[2]) {
  if constexpr (S > 32) {
    const uint32_t two = __shfl_sync(kFullWarp, staged, 16 * r + (lane >> 1)) >> (16 * (lane & 1));
    x[0] = two & 0xff;
    x[1] = (two >> 8) & 0xff;
  } else {
    const int byte = r * S + lane / MultiLanes<S>::kGroup;
    x[0] = (__shfl_sync(kFullWarp, staged, byte >> 2) >> (8 * (byte & 3))) & 0xff;
    x[1] = x[0];
  }
}

// Per-target maximum of the lanes: for S <= 32 in both halves, for S = 64 each half its own.
template <int S>
__device__ __forceinline__ uint32_t target_max_s16(uint32_t v) {
  if constexpr (S <= 16) {
#pragma unroll
    for (int offset = MultiLanes<S>::kGroup / 2; offset > 0; offset >>= 1)
      v = __vmaxs2(v, __shfl_xor_sync(kFullWarp, v, offset));  // stays inside the group
  }
  if constexpr (S <= 32) v = __vmaxs2(v, __funnelshift_l(v, v, 16));  // halves swapped
  return v;
}

// Node j-1 for stripe 0: stripe H-1 moved up one lane inside the group, 0 into lane 0.
template <int S>
__device__ __forceinline__ uint32_t shift_up_in_group_s16(uint32_t v, int lane) {
  if constexpr (S > 32) {
    return 0u;
  } else if constexpr (S == 32) {
    return v << 16;
  } else {
    constexpr int G = MultiLanes<S>::kGroup;
    uint32_t below = __shfl_up_sync(kFullWarp, v, 1, G);
    if ((lane & (G - 1)) == 0) below = 0;
    return (v << 16) | (below >> 16);
  }
}

// The 32 scores of stripe h (two halves) for this thread's residue code(s).
template <int S>
__device__ __forceinline__ uint32_t stripe_scores(const uint32_t* __restrict__ table, int h,
                                                  const int (&x)[2], int lane) {
  if constexpr (S > 32) {
    const uint16_t* t16 = reinterpret_cast<const uint16_t*>(table) + h * kMultiCodes;
    return static_cast<uint32_t>(__ldg(t16 + x[0])) |
           (static_cast<uint32_t>(__ldg(t16 + x[1])) << 16);
  } else {
    constexpr int G = MultiLanes<S>::kGroup;
    return __ldg(table + (h * kMultiCodes + x[0]) * G + (lane & (G - 1)));
  }
}

// Which targets of this thread's columns end on this row: 16-bit halves all ones for each.
template <int S>
__device__ __forceinline__ uint32_t ended_halves(const int (&x)[2]) {
  constexpr int kEnd = ::gpuseq::hmm::kBlockEndMarker;
  if constexpr (S > 32)
    return (x[0] == kEnd ? 0x0000ffffu : 0u) | (x[1] == kEnd ? 0xffff0000u : 0u);
  else
    return x[0] == kEnd ? 0xffffffffu : 0u;
}

// A thread's column(s) and the target it is on in each.
template <int S>
struct ColumnCursor {
  int next[2] = {0, 0}, end[2] = {0, 0};

  __device__ __forceinline__ ColumnCursor(const BlockList& list, int warp, int lane) {
#pragma unroll
    for (int k = 0; k < MultiLanes<S>::kPerThread; ++k) {
      const int column = warp * S + (S > 32 ? 2 * lane + k : lane / MultiLanes<S>::kGroup);
      next[k] = list.column_start[column];
      end[k] = list.column_start[column + 1];
    }
  }
  __device__ __forceinline__ int position(int k, const BlockList& list) const {
    return next[k] < end[k] ? list.column_items[next[k]] : -1;
  }
  // Records the result of the target that ended in column k and moves to the next one.
  __device__ __forceinline__ void finish(int k, int result, bool writer, const BlockList& list) {
    if (writer) list.out[list.column_items[next[k]]] = result;
    ++next[k];
  }
};

// SSV over sequence blocks: ssv_warp_kernel_s16 for S targets per warp. No row reduction: the
// running maximum is reduced over the group only when a target ends. No early stop: values past
// the decision level map to the same answer (ssv_score_from_best). bias, tec: unused (one
// signature for both filters).
template <int S, int H>
__global__ void __launch_bounds__(128) ssv_multi_kernel_s16(const uint32_t* __restrict__ scores,
                                                            int /*bias*/, int /*tec*/,
                                                            BlockList list) {
  using Lanes = MultiLanes<S>;
  const int lane = threadIdx.x & 31;
  const int warp = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) >> 5);
  if (warp >= list.warps) return;  // whole warps
  const uint32_t* block = reinterpret_cast<const uint32_t*>(list.blocks + list.warp_offset[warp]);
  const int rows = list.warp_rows[warp];
  ColumnCursor<S> cursor(list, warp, lane);
  const bool group_writer = (lane & (Lanes::kGroup - 1)) == 0;
  uint32_t v[H];
#pragma unroll
  for (int h = 0; h < H; ++h) v[h] = 0;
  uint32_t best = 0;
  for (int r0 = 0; r0 < rows; r0 += Lanes::kRowsPerLoad) {
    const uint32_t staged = __ldg(block + (r0 / Lanes::kRowsPerLoad) * 32 + lane);
#pragma unroll 1
    for (int r = 0; r < Lanes::kRowsPerLoad; ++r) {
      int x[2];
      residues_at<S>(staged, r, lane, x);
      const uint32_t ended = ended_halves<S>(x);
      if (__any_sync(kFullWarp, ended != 0)) {  // warp-uniform: the reduction shuffles
        const uint32_t target_best = target_max_s16<S>(best);
#pragma unroll
        for (int k = 0; k < Lanes::kPerThread; ++k)
          if (ended & (0xffffu << (16 * k)))
            cursor.finish(k, static_cast<int16_t>(target_best >> (16 * k)), group_writer, list);
        // The next target starts from minus infinity; the marker row below keeps it there.
        best &= ~ended;
#pragma unroll
        for (int h = 0; h < H; ++h) v[h] &= ~ended;
      }
      const uint32_t first = shift_up_in_group_s16<S>(v[H - 1], lane);
#pragma unroll
      for (int h = H - 1; h > 0; --h)
        v[h] = __viaddmax_s16x2(v[h - 1], stripe_scores<S>(scores, h, x, lane), 0u);
      v[0] = __viaddmax_s16x2(first, stripe_scores<S>(scores, 0, x, lane), 0u);
#pragma unroll
      for (int h = 0; h + 1 < H; h += 2) best = __vimax3_s16x2(best, v[h], v[h + 1]);
      if (H % 2) best = __vimax_s16x2_relu(best, v[H - 1]);
    }
  }
}

// The full MSV over sequence blocks: msv_warp_kernel_s16 for S targets per warp, each with its
// own xJ/xB and overflow flag (an overflowed target runs on to its end marker and records -1).
template <int S, int H>
__global__ void __launch_bounds__(128) msv_multi_kernel_s16(const uint32_t* __restrict__ scores,
                                                            int bias, int tec, BlockList list) {
  using Lanes = MultiLanes<S>;
  constexpr int kBaseB = 190;
  const int lane = threadIdx.x & 31;
  const int warp = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) >> 5);
  if (warp >= list.warps) return;  // whole warps
  const uint32_t* block = reinterpret_cast<const uint32_t*>(list.blocks + list.warp_offset[warp]);
  const int rows = list.warp_rows[warp];
  ColumnCursor<S> cursor(list, warp, lane);
  const bool group_writer = (lane & (Lanes::kGroup - 1)) == 0;
  int tjbm[2] = {0, 0}, xJ[2] = {0, 0}, xB[2] = {0, 0};
  bool overflow[2] = {false, false};
#pragma unroll
  for (int k = 0; k < Lanes::kPerThread; ++k) {
    const int p = cursor.position(k, list);
    tjbm[k] = p >= 0 ? list.param[p] : 0;
    xB[k] = kBaseB - tjbm[k] > 0 ? kBaseB - tjbm[k] : 0;
  }
  uint32_t v[H];
#pragma unroll
  for (int h = 0; h < H; ++h) v[h] = 0;
  for (int r0 = 0; r0 < rows; r0 += Lanes::kRowsPerLoad) {
    const uint32_t staged = __ldg(block + (r0 / Lanes::kRowsPerLoad) * 32 + lane);
#pragma unroll 1
    for (int r = 0; r < Lanes::kRowsPerLoad; ++r) {
      int x[2];
      residues_at<S>(staged, r, lane, x);
      const uint32_t ended = ended_halves<S>(x);
      if (ended != 0) {  // no shuffles inside: may diverge
#pragma unroll
        for (int k = 0; k < Lanes::kPerThread; ++k) {
          if (!(ended & (0xffffu << (16 * k)))) continue;
          cursor.finish(k, overflow[k] ? -1 : xJ[k], group_writer, list);
          // The next target's start; its marker row below leaves v at 0, xJ at 0 and recomputes
          // this xB.
          const int p = cursor.position(k, list);
          tjbm[k] = p >= 0 ? list.param[p] : 0;
          xJ[k] = 0;
          xB[k] = kBaseB - tjbm[k] > 0 ? kBaseB - tjbm[k] : 0;
          overflow[k] = false;
        }
#pragma unroll
        for (int h = 0; h < H; ++h) v[h] &= ~ended;
      }
      const uint32_t xBv = Lanes::kPerThread == 2
                               ? (static_cast<uint32_t>(xB[0]) & 0xffffu) |
                                     (static_cast<uint32_t>(xB[1]) << 16)
                               : splat_s16(xB[0]);
      const uint32_t first = shift_up_in_group_s16<S>(v[H - 1], lane);
#pragma unroll
      for (int h = H - 1; h > 0; --h) {
        const uint32_t s = stripe_scores<S>(scores, h, x, lane);
        v[h] = __viaddmax_s16x2(xBv, s, __viaddmax_s16x2(v[h - 1], s, 0u));
      }
      {
        const uint32_t s = stripe_scores<S>(scores, 0, x, lane);
        v[0] = __viaddmax_s16x2(xBv, s, __viaddmax_s16x2(first, s, 0u));
      }
      uint32_t row_max = 0;
#pragma unroll
      for (int h = 0; h + 1 < H; h += 2) row_max = __vimax3_s16x2(row_max, v[h], v[h + 1]);
      if (H % 2) row_max = __vimax_s16x2_relu(row_max, v[H - 1]);
      row_max = target_max_s16<S>(row_max);
#pragma unroll
      for (int k = 0; k < Lanes::kPerThread; ++k) {
        int xE = static_cast<int16_t>(row_max >> (16 * k));
        if (xE + bias >= 255) overflow[k] = true;  // before the J update, as msv.cuh
        xE = xE - tec > 0 ? xE - tec : 0;
        xJ[k] = xJ[k] > xE ? xJ[k] : xE;
        const int from = xJ[k] > kBaseB ? xJ[k] : kBaseB;
        xB[k] = from - tjbm[k] > 0 ? from - tjbm[k] : 0;
      }
    }
  }
}

// Fills the sequence blocks (already set to the pad marker) from the resident targets: position
// p is target ids[p], its first residue at byte dest[p], one row (S bytes) per residue, then its
// end marker. The same bytes as ::gpuseq::hmm::fill_sequence_blocks. (static: this header has
// one includer, gpu_filters.cu.)
static __global__ void fill_sequence_blocks_kernel(const uint8_t* __restrict__ residues,
                                            const int64_t* __restrict__ offsets,
                                            const int32_t* __restrict__ ids,
                                            const int64_t* __restrict__ dest, int n, int S,
                                            uint8_t* __restrict__ blocks) {
  for (int p = blockIdx.x; p < n; p += gridDim.x) {
    const int64_t begin = offsets[ids[p]], L = offsets[ids[p] + 1] - begin;
    uint8_t* column = blocks + dest[p];
    for (int64_t i = threadIdx.x; i <= L; i += blockDim.x)
      column[i * S] = i < L ? residues[begin + i] : ::gpuseq::hmm::kBlockEndMarker;
  }
}

}  // namespace gpuseq::cuda::hmm
