// S-lane SSV and MSV filters (CUDAMPF++, Jiang, Ganesan & Yao 2018): a warp aligns S targets at
// once, so short models fill the warp (the warp-per-target kernels of msv.cuh use 2 stripes of
// 64 words = 128 nodes per warp even for M = 50). Both lane widths of msv.cuh, with the same
// arithmetic and so the same integers: 16-bit DPX lanes (as ssv/msv_warp_kernel_s16; msv.cuh
// says why the 16-bit forms give HMMER's results) and the paper's unsigned saturating bytes (as
// ssv/msv_warp_kernel).
//
// Lanes: a warp holds 32 words of A lanes (A = 2 words or 4 bytes), 32A in all. S <= 32: a group
// of G = 32/S threads per target, W = 32A/S lanes; S > 32: one thread holds T = S/32 targets, a
// unit of W = A/T lanes each (16-bit S = 64: a half each; 8-bit S = 64: two bytes, S = 128: one).
// Model: W x H, node j (0-based) in in-group lane w (w = A t' + b for thread t' of the group and
// lane b of its word; w = lane inside the unit for S > 32) at stripe h when j = h + H*w, H >= 2.
// Node j-1 of stripe h > 0 is stripe h-1 of the same lane; stripe 0 takes stripe H-1 of lane w-1
// (a lane shift inside the group), lane 0 of a target takes minus infinity (0).
// Table: entry ((h*32 + x)*W + w), in lane format, is node h + H*w for residue code x (32 codes:
// the 29 residues, then the block markers, which score like the nodes past M: kPadScore16, or
// cost 255 in bytes, so those lanes stay at minus infinity). One load of a warp touches at most 4
// lines of 128 bytes whatever residues its groups read.
// Targets: warp-based sequence blocks (cpp/hmm/sequence_blocks.hpp), in groups of 4 rows where
// a column's 4 bytes are one word: a thread loads its column's (S > 32: its T columns') word of
// a group while it works through the group before, and takes each row's residue with a shift.
// (Row-major blocks staged 128 bytes a load cost a shuffle a row to hand out the residues, on
// the pipe of the shared-memory table loads: SSV +3-6%, MSV +3-9% without it.)
//
// With S <= 32 the table is read from shared memory, each (stripe, residue) entry stored as 32
// words, one per thread of the warp (the group's W lanes repeated S times), so that thread t
// reads word t of its residue's entry: no bank conflict whatever residues the groups read. From
// L1 the same load touches one 128-byte line per group, and the H100 serves it at a third of
// the rate of a one-line load when the groups read four different lines (bench_hmm_filters'
// instruction rates: 11.4 against 30.5 thread loads per SM per clock; shared memory 31.8).
#pragma once

// NVRTC compiles this header without the host code's headers: it gets the block markers of
// cpp/hmm/sequence_blocks.hpp from here, checked against them in every static build.
#define GPUSEQ_BLOCK_END_MARKER 29
#define GPUSEQ_BLOCK_PAD_MARKER 30
#define GPUSEQ_BLOCK_ROWS_PER_WORD 4
#ifndef __CUDACC_RTC__
#include <cstdint>

#include "hmm/sequence_blocks.hpp"
static_assert(::gpuseq::hmm::kBlockEndMarker == GPUSEQ_BLOCK_END_MARKER &&
                  ::gpuseq::hmm::kBlockPadMarker == GPUSEQ_BLOCK_PAD_MARKER &&
                  ::gpuseq::hmm::kBlockRowsPerWord == GPUSEQ_BLOCK_ROWS_PER_WORD,
              "msv_multi.cuh's copy of the sequence block layout");
#else
namespace gpuseq::hmm {
constexpr uint8_t kBlockEndMarker = GPUSEQ_BLOCK_END_MARKER;
constexpr uint8_t kBlockPadMarker = GPUSEQ_BLOCK_PAD_MARKER;
constexpr int kBlockRowsPerWord = GPUSEQ_BLOCK_ROWS_PER_WORD;
}  // namespace gpuseq::hmm
#endif

#include "hmm/msv.cuh"

namespace gpuseq::cuda::hmm {

// Residue codes of the score tables of the S-lane kernels (29 residues, 3 marker codes).
constexpr int kMultiCodes = 32;
// Threads per block of the S-lane kernels: a block shares one copy of the shared-memory table.
constexpr int kMultiThreadsPerBlock = 512;

// Bytes of the shared-memory table of H stripes (0: read from global memory, S > 32).
__host__ __device__ constexpr int multi_shared_table_bytes(int S, int H) {
  return S <= 32 ? H * kMultiCodes * 32 * 4 : 0;
}

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

template <int Bits, int S>
struct MultiLanes {
  static_assert(Bits == 8 || Bits == 16, "8- or 16-bit lanes");
  static constexpr int kPerWord = 32 / Bits;                         // A
  static_assert(S >= 2 && S <= 32 * kPerWord && (S & (S - 1)) == 0, "S: 2, 4, ..., 32A");
  static constexpr int kPerThread = S > 32 ? S / 32 : 1;             // T: targets in a thread
  static constexpr int kGroup = S > 32 ? 1 : 32 / S;                 // G: threads per target
  static constexpr int kWidth = 32 * kPerWord / S;                   // W
  static constexpr int kUnitBits = 32 / kPerThread;                  // a target's bits of a word
  static constexpr uint32_t kUnitMask = kUnitBits == 32 ? 0xffffffffu : (1u << kUnitBits) - 1;
  static constexpr uint32_t kLaneMask = (1u << Bits) - 1;
};

// Row group g of this thread's column(s) (S <= 32: the group's column, the same word for its G
// threads; S > 32: columns T*lane + k, T adjacent words).
template <int Bits, int S>
__device__ __forceinline__ void load_row_group(const uint32_t* block, int g, int lane,
                                               uint32_t (&words)[4]) {
  using L = MultiLanes<Bits, S>;
  const uint32_t* group = block + g * S;
  if constexpr (L::kPerThread == 1) {
    words[0] = __ldg(group + lane / L::kGroup);
  } else if constexpr (L::kPerThread == 2) {
    const uint2 w = __ldg(reinterpret_cast<const uint2*>(group) + lane);
    words[0] = w.x;
    words[1] = w.y;
  } else {
    const uint4 w = __ldg(reinterpret_cast<const uint4*>(group) + lane);
    words[0] = w.x;
    words[1] = w.y;
    words[2] = w.z;
    words[3] = w.w;
  }
}

// The residue codes of this thread's target(s) on row r of a row group.
template <int Bits, int S>
__device__ __forceinline__ void residues_at(const uint32_t (&words)[4], int r, int (&x)[4]) {
#pragma unroll
  for (int k = 0; k < MultiLanes<Bits, S>::kPerThread; ++k) x[k] = (words[k] >> (8 * r)) & 0xff;
}

// Which targets of this thread end on this row: all lanes of each such target set.
template <int Bits, int S>
__device__ __forceinline__ uint32_t ended_lanes(const int (&x)[4]) {
  using L = MultiLanes<Bits, S>;
  uint32_t ended = 0;
#pragma unroll
  for (int k = 0; k < L::kPerThread; ++k)
    if (x[k] == ::gpuseq::hmm::kBlockEndMarker) ended |= L::kUnitMask << (L::kUnitBits * k);
  return ended;
}

// This thread's first shared-memory table word of a row (S <= 32): word t of its residue's
// entry, stripe 0; stripe h is kMultiCodes * 32 words further. One pointer a row, and a
// constant offset a stripe: an index (h*32 + x)*32 + t computed in 32 bits and then widened
// cannot take the constant as an immediate offset, and NVRTC (unlike nvcc, whose shared
// pointers are 32-bit) then spent an extra multiply and 64-bit add on every load: its
// kernels ran 25-30% slower than the same code compiled by nvcc.
template <int Bits, int S>
__device__ __forceinline__ const uint32_t* shared_row(const uint32_t* shared, const int (&x)[4],
                                                      int lane) {
  return MultiLanes<Bits, S>::kUnitBits == 32 ? shared + (x[0] * 32 + lane) : shared;
}

// The table word of stripe h for this thread's residue code(s) (S <= 32: from `row`, the
// shared_row of this row).
template <int Bits, int S>
__device__ __forceinline__ uint32_t stripe_entries(const uint32_t* __restrict__ table,
                                                   const uint32_t* row, int h, const int (&x)[4],
                                                   int /*lane*/) {
  using L = MultiLanes<Bits, S>;
  if constexpr (L::kUnitBits == 16) {  // a target's lanes are one 16-bit unit
    const uint16_t* t16 = reinterpret_cast<const uint16_t*>(table) + h * kMultiCodes;
    return static_cast<uint32_t>(__ldg(t16 + x[0])) |
           (static_cast<uint32_t>(__ldg(t16 + x[1])) << 16);
  } else if constexpr (L::kUnitBits == 8) {  // bytes, S = 128: one lane per target
    const uint8_t* t8 = reinterpret_cast<const uint8_t*>(table) + h * kMultiCodes;
    uint32_t word = 0;
#pragma unroll
    for (int k = 0; k < 4; ++k) word |= static_cast<uint32_t>(__ldg(t8 + x[k])) << (8 * k);
    return word;
  } else {
    return row[h * (kMultiCodes * 32)];
  }
}

// Copies the table into this block's shared memory in the layout stripe_entries reads (S <= 32:
// word (h*32 + x)*32 + t is word (h*32 + x)*G + t mod G of the global table), then waits for
// the block. Every thread of the block calls it.
template <int Bits, int S, int H>
__device__ __forceinline__ void load_shared_table(const uint32_t* __restrict__ table,
                                                  uint32_t* shared) {
  if constexpr (S <= 32) {
    constexpr int G = MultiLanes<Bits, S>::kGroup;
    for (int i = threadIdx.x; i < H * kMultiCodes * 32; i += blockDim.x)
      shared[i] = __ldg(table + (i >> 5) * G + (i & (G - 1)));
    __syncthreads();
  }
}

// Node j-1 for stripe 0: stripe H-1 moved up one lane inside each target, 0 into its lane 0.
template <int Bits, int S>
__device__ __forceinline__ uint32_t shift_up_in_target(uint32_t v, int lane) {
  using L = MultiLanes<Bits, S>;
  if constexpr (L::kWidth == 1) {
    return 0u;
  } else if constexpr (S > 32) {  // 8-bit S = 64: two bytes per target
    return (v << 8) & 0xff00ff00u;
  } else if constexpr (S == 32) {
    return v << Bits;
  } else {
    constexpr int G = L::kGroup;
    uint32_t below = __shfl_up_sync(kFullWarp, v, 1, G);
    if ((lane & (G - 1)) == 0) below = 0;
    return (v << Bits) | (below >> (32 - Bits));
  }
}

// The blocks an SM ptxas is told to plan for (__launch_bounds__'s second argument; 0: left to
// it). Told one, it takes more registers (S = 8: 71-103 at H 25-46) and places every table load
// 11-20 instructions ahead of its use, at every H. Left to itself it aims at fewer, and at some
// H places the loads 1-5 ahead, where warps then wait on them: the counts that ran slow (SSV
// 28-29, 36-37, 44-46; MSV 34, 42-43, e.g. S = 8: SSV 12.9 at 28, 8.6 at 46, MSV 6.7 at 43;
// told one: 14.2, 15.1, 9.6 TCUPS; H200, results/gpu-h200-20261128-i). The 16-bit SSV keeps the
// default up to H = 26, where its 47-48 registers let two blocks share an SM at S < 16 (3-4%
// faster at 25; S = 16 runs one block an SM anyway: run_multi_kernel). Bytes keep the default
// (not measured).
__host__ __device__ constexpr int multi_min_blocks(int Bits, bool msv, int H) {
  return Bits == 16 && (msv || H > 26) ? 1 : 0;
}

// Lane-wise maximum (signed words, unsigned bytes: every value is >= 0 in both).
template <int Bits>
__device__ __forceinline__ uint32_t lanes_max(uint32_t a, uint32_t b) {
  if constexpr (Bits == 16) return __vmaxs2(a, b);
  else return __vmaxu4(a, b);
}

// Per-target maximum of the lanes, in the lowest lane of each target's unit.
template <int Bits, int S>
__device__ __forceinline__ uint32_t target_max(uint32_t v) {
  using L = MultiLanes<Bits, S>;
  if constexpr (S <= 16) {
#pragma unroll
    for (int offset = L::kGroup / 2; offset > 0; offset >>= 1)
      v = lanes_max<Bits>(v, __shfl_xor_sync(kFullWarp, v, offset));  // stays in the group
  }
  if constexpr (L::kUnitBits == 32 && Bits == 16) {
    v = lanes_max<Bits>(v, __funnelshift_l(v, v, 16));
  } else if constexpr (L::kUnitBits == 32) {
    v = lanes_max<Bits>(v, __funnelshift_l(v, v, 16));
    v = lanes_max<Bits>(v, __funnelshift_l(v, v, 8));
  } else if constexpr (L::kUnitBits == 16 && Bits == 8) {
    v = lanes_max<Bits>(v, (v >> 8) & 0x00ff00ffu);
  }
  return v;
}

// Target k's value from a word of per-target maxima.
template <int Bits, int S>
__device__ __forceinline__ int target_value(uint32_t v, int k) {
  const uint32_t lane = (v >> (MultiLanes<Bits, S>::kUnitBits * k)) & MultiLanes<Bits, S>::kLaneMask;
  return Bits == 16 ? static_cast<int16_t>(lane) : static_cast<int>(lane);
}

// Per-target values broadcast into their lanes.
template <int Bits, int S>
__device__ __forceinline__ uint32_t target_splat(const int (&value)[4]) {
  using L = MultiLanes<Bits, S>;
  constexpr uint32_t kOnes = L::kUnitMask / L::kLaneMask;  // 1 in every lane of a unit
  uint32_t word = 0;
#pragma unroll
  for (int k = 0; k < L::kPerThread; ++k)
    word |= (static_cast<uint32_t>(value[k]) & L::kLaneMask) * kOnes << (L::kUnitBits * k);
  return word;
}

// Running maximum of a stripe's lanes into m.
template <int Bits, int H>
__device__ __forceinline__ uint32_t stripes_max(uint32_t m, const uint32_t (&v)[H]) {
  if constexpr (Bits == 16) {
#pragma unroll
    for (int h = 0; h + 1 < H; h += 2) m = __vimax3_s16x2(m, v[h], v[h + 1]);
    if (H % 2) m = __vimax_s16x2_relu(m, v[H - 1]);
  } else {
#pragma unroll
    for (int h = 0; h < H; ++h) m = __vmaxu4(m, v[h]);
  }
  return m;
}

// A thread's column(s) and the target it is on in each.
template <int Bits, int S>
struct ColumnCursor {
  int next[4] = {0, 0, 0, 0}, end[4] = {0, 0, 0, 0};

  __device__ __forceinline__ ColumnCursor(const BlockList& list, int warp, int lane) {
    using L = MultiLanes<Bits, S>;
#pragma unroll
    for (int k = 0; k < L::kPerThread; ++k) {
      const int column = warp * S + (S > 32 ? L::kPerThread * lane + k : lane / L::kGroup);
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

// SSV over sequence blocks: ssv_warp_kernel(_s16) for S targets per warp. No row reduction: the
// running maximum is reduced over the group only when a target ends. No early stop: values past
// the decision level map to the same answer (ssv_score_from_best). tec: unused (one signature
// for both filters); bias: the byte form's.
template <int Bits, int S, int H>
__global__ void __launch_bounds__(kMultiThreadsPerBlock, multi_min_blocks(Bits, false, H))
    ssv_multi_kernel(const uint32_t* __restrict__ table, int bias, int /*tec*/, BlockList list) {
  using L = MultiLanes<Bits, S>;
  extern __shared__ uint32_t shared_table[];
  load_shared_table<Bits, S, H>(table, shared_table);
  const int lane = threadIdx.x & 31;
  const int warp = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) >> 5);
  if (warp >= list.warps) return;  // whole warps (after the block's table copy)
  const uint32_t* block = reinterpret_cast<const uint32_t*>(list.blocks + list.warp_offset[warp]);
  const int rows = list.warp_rows[warp];
  ColumnCursor<Bits, S> cursor(list, warp, lane);
  const bool group_writer = (lane & (L::kGroup - 1)) == 0;
  const uint32_t biasv = splat_u8(bias);
  uint32_t v[H];
#pragma unroll
  for (int h = 0; h < H; ++h) v[h] = 0;
  uint32_t best = 0;
  constexpr int kRows = ::gpuseq::hmm::kBlockRowsPerWord;
  // A group's rows are a loop for every S. Unrolled (S >= 16 until session 45), ptxas moved
  // 12-19 registers a row; as this loop, none, and with one block an SM at S = 16
  // (run_multi_kernel) it ran faster at most H (H200, S = 16: H = 38 13.95 -> 14.46 TCUPS, 22
  // 12.2 -> 13.7; results/gpu-h200-20261128-e/). The counts where it runs slow are listed in
  // kSlowMultiWordStripes.
  uint32_t words[4] = {0, 0, 0, 0}, next[4] = {0, 0, 0, 0};
  if (rows > 0) load_row_group<Bits, S>(block, 0, lane, words);
  for (int r0 = 0; r0 < rows; r0 += kRows) {
    if (r0 + kRows < rows) load_row_group<Bits, S>(block, r0 / kRows + 1, lane, next);
#pragma unroll 1
    for (int r = 0; r < kRows; ++r) {
      int x[4] = {0, 0, 0, 0};
      residues_at<Bits, S>(words, r, x);
      const uint32_t ended = ended_lanes<Bits, S>(x);
      // In the row loop the running maximum takes the previous row's cells (at an end
      // marker: its target's last row) before they are replaced. Taken after the row, over
      // the new cells, it left ptxas holding the row rotated one stripe through the registers
      // and moving it back every row: 7 moves at H = 25, 21 at 39 (CUDA 13.0, sm_90a), none
      // now. H200, 100 M residues, 16-bit: M = 200 (S = 8, H = 25) 13.6 -> 14.4 TCUPS, 400 and
      // 800 (S = 4, 2) +5-6.5%, 1142 (S = 2, H = 39) unchanged (results/
      // gpu-h200-20261128-d/ssv-ab.log).
      best = stripes_max<Bits, H>(best, v);
      if (__any_sync(kFullWarp, ended != 0)) {  // warp-uniform: the reduction shuffles
        const uint32_t target_best = target_max<Bits, S>(best);
#pragma unroll
        for (int k = 0; k < L::kPerThread; ++k)
          if (ended & (L::kUnitMask << (L::kUnitBits * k)))
            cursor.finish(k, target_value<Bits, S>(target_best, k), group_writer, list);
        // The next target starts from minus infinity; the marker row below keeps it there.
        best &= ~ended;
#pragma unroll
        for (int h = 0; h < H; ++h) v[h] &= ~ended;
      }
      const uint32_t first = shift_up_in_target<Bits, S>(v[H - 1], lane);
      const uint32_t* row = shared_row<Bits, S>(shared_table, x, lane);
#pragma unroll
      for (int h = H - 1; h >= 0; --h) {
        const uint32_t diag = h > 0 ? v[h - 1] : first;
        const uint32_t e = stripe_entries<Bits, S>(table, row, h, x, lane);
        if constexpr (Bits == 16) v[h] = __viaddmax_s16x2(diag, e, 0u);
        else v[h] = __vsubus4(__vaddus4(diag, biasv), e);
      }
    }
#pragma unroll
    for (int k = 0; k < 4; ++k) words[k] = next[k];
  }
}

// The full MSV over sequence blocks: msv_warp_kernel(_s16) for S targets per warp, each with its
// own xJ/xB and overflow flag (an overflowed target runs on to its end marker and records -1).
template <int Bits, int S, int H>
__global__ void __launch_bounds__(kMultiThreadsPerBlock, multi_min_blocks(Bits, true, H))
    msv_multi_kernel(const uint32_t* __restrict__ table, int bias, int tec, BlockList list) {
  using L = MultiLanes<Bits, S>;
  constexpr int kBaseB = 190;
  extern __shared__ uint32_t shared_table[];
  load_shared_table<Bits, S, H>(table, shared_table);
  const int lane = threadIdx.x & 31;
  const int warp = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) >> 5);
  if (warp >= list.warps) return;  // whole warps (after the block's table copy)
  const uint32_t* block = reinterpret_cast<const uint32_t*>(list.blocks + list.warp_offset[warp]);
  const int rows = list.warp_rows[warp];
  ColumnCursor<Bits, S> cursor(list, warp, lane);
  const bool group_writer = (lane & (L::kGroup - 1)) == 0;
  const uint32_t biasv = splat_u8(bias);
  int tjbm[4] = {0, 0, 0, 0}, xJ[4] = {0, 0, 0, 0}, xB[4] = {0, 0, 0, 0};
  bool overflow[4] = {false, false, false, false};
#pragma unroll
  for (int k = 0; k < L::kPerThread; ++k) {
    const int p = cursor.position(k, list);
    tjbm[k] = p >= 0 ? list.param[p] : 0;
    xB[k] = kBaseB - tjbm[k] > 0 ? kBaseB - tjbm[k] : 0;
  }
  uint32_t v[H];
#pragma unroll
  for (int h = 0; h < H; ++h) v[h] = 0;
  constexpr int kRows = ::gpuseq::hmm::kBlockRowsPerWord;
  uint32_t words[4] = {0, 0, 0, 0}, next[4] = {0, 0, 0, 0};
  if (rows > 0) load_row_group<Bits, S>(block, 0, lane, words);
  for (int r0 = 0; r0 < rows; r0 += kRows) {
    if (r0 + kRows < rows) load_row_group<Bits, S>(block, r0 / kRows + 1, lane, next);
#pragma unroll 1
    for (int r = 0; r < kRows; ++r) {
      int x[4] = {0, 0, 0, 0};
      residues_at<Bits, S>(words, r, x);
      const uint32_t ended = ended_lanes<Bits, S>(x);
      if (ended != 0) {  // no shuffles inside: may diverge
#pragma unroll
        for (int k = 0; k < L::kPerThread; ++k) {
          if (!(ended & (L::kUnitMask << (L::kUnitBits * k)))) continue;
          cursor.finish(k, overflow[k] ? -1 : xJ[k], group_writer, list);
          // The next target's start; its marker row below leaves v at 0, xJ at 0 and
          // recomputes this xB.
          const int p = cursor.position(k, list);
          tjbm[k] = p >= 0 ? list.param[p] : 0;
          xJ[k] = 0;
          xB[k] = kBaseB - tjbm[k] > 0 ? kBaseB - tjbm[k] : 0;
          overflow[k] = false;
        }
#pragma unroll
        for (int h = 0; h < H; ++h) v[h] &= ~ended;
      }
      const uint32_t xBv = target_splat<Bits, S>(xB);
      const uint32_t first = shift_up_in_target<Bits, S>(v[H - 1], lane);
      const uint32_t* row = shared_row<Bits, S>(shared_table, x, lane);
#pragma unroll
      for (int h = H - 1; h >= 0; --h) {
        const uint32_t diag = h > 0 ? v[h - 1] : first;
        const uint32_t e = stripe_entries<Bits, S>(table, row, h, x, lane);
        if constexpr (Bits == 16)
          v[h] = __viaddmax_s16x2(xBv, e, __viaddmax_s16x2(diag, e, 0u));
        else
          v[h] = __vsubus4(__vaddus4(__vmaxu4(diag, xBv), biasv), e);
      }
      const uint32_t row_max = target_max<Bits, S>(stripes_max<Bits, H>(0u, v));
#pragma unroll
      for (int k = 0; k < L::kPerThread; ++k) {
        int xE = target_value<Bits, S>(row_max, k);
        if (xE + bias >= 255) overflow[k] = true;  // before the J update, as msv.cuh
        xE = xE - tec > 0 ? xE - tec : 0;
        xJ[k] = xJ[k] > xE ? xJ[k] : xE;
        const int from = xJ[k] > kBaseB ? xJ[k] : kBaseB;
        xB[k] = from - tjbm[k] > 0 ? from - tjbm[k] : 0;
      }
    }
#pragma unroll
    for (int k = 0; k < 4; ++k) words[k] = next[k];
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
    // The rows of a group in a column are one word (::gpuseq::hmm::block_byte).
    constexpr int kRows = ::gpuseq::hmm::kBlockRowsPerWord;
    const int first_row = static_cast<int>(dest[p] % kRows);
    uint8_t* column = blocks + (dest[p] - first_row);
    for (int64_t i = threadIdx.x; i <= L; i += blockDim.x) {
      const int64_t r = first_row + i;
      column[(r / kRows * S) * kRows + r % kRows] =
          i < L ? residues[begin + i] : ::gpuseq::hmm::kBlockEndMarker;
    }
  }
}

}  // namespace gpuseq::cuda::hmm
