// Hit detection and sorting in diagonal tiles: the default way gpu_ungapped.cu turns a batch's
// subjects into its word hits sorted by key (subject, diagonal, subject offset).
//
// cuBLASTP appends each hit to a bin (diagonal mod bins) in global memory and sorts the bins
// with a segmented sort (gpu_ungapped.cu keeps that as GpuHitSort::kBins). On the H100 the
// appends are the stage's whole cost: 8.3 G scattered 8-byte stores took 0.55 s where the
// lookup's loads took 0.03 s (benchmarks/results/gpu-h100-80gb-hbm3-20261125-d). Here the
// loads are repeated instead and every store is part of a block's contiguous run:
//
// 1. count_tile_hits, a block per subject: each hit counted in its fine range of diagonals
//    (2^shift diagonals, at most kMaxFineRanges ranges a subject) by shared-memory counters,
//    then the ranges cut into tiles of consecutive ranges holding at most kTileHits hits and
//    spanning at most kTileDiagonals diagonals. A tile's place among the subject's sorted hits
//    is the number of hits on the diagonals before it. Tiles are appended to one list.
// 2. place_tile_hits, a block per tile: the subject's words scanned again, each word's
//    sorted query offsets cut by binary search to the tile's diagonals; the tile's hits
//    gathered in shared memory, counted by diagonal, ordered within a diagonal by subject
//    offset, and written to their final places (a run of at most 32 KB).
// A fine range with more than kTileHits hits (a low-complexity subject and query) is a tile
// of its own whose hits are written unsorted and sorted afterwards by CUB's segmented sort.
#pragma once

#include <cooperative_groups.h>

#include <cstdint>
#include <cub/block/block_scan.cuh>

#include "blast/lookup.hpp"
#include "blast/two_hit.hpp"

namespace gpuseq::cuda::blast {

// A hit's 64-bit sort key: subject (in its batch) | diagonal | subject offset, so that hits
// sort by subject, then diagonal and, within one, by subject offset (the CPU's order). The
// diagonal is stored as q - s + subject length (positive).
constexpr int kOffsetBits = 21;
constexpr int kSubjectShift = 2 * kOffsetBits;
constexpr uint64_t kOffsetMask = (uint64_t{1} << kOffsetBits) - 1;
constexpr int64_t kMaxBatchSubjects = int64_t{1} << (64 - kSubjectShift);
constexpr int kPresenceWords = gpuseq::blast::kWordCells / 32;  // a bit per word cell: 4 KB

constexpr int kTileThreads = 256;
constexpr int kTileHits = 4096;       // a tile's hits in shared memory (32 KB of keys)
constexpr int kTileDiagonals = 4096;  // a tile's diagonal counters (16 KB)
constexpr int kMaxFineRanges = 4096;
constexpr int kMinFineShift = 6;  // fine ranges of at least 64 diagonals
// Dynamic shared memory of the two kernels (over the 48 KB a launch gets without asking).
constexpr size_t kCountTileShared = sizeof(int64_t) * (kMaxFineRanges + 2) +
                                    sizeof(uint32_t) * kPresenceWords +
                                    sizeof(int32_t) * 2 * kMaxFineRanges;
constexpr size_t kPlaceTileShared = sizeof(uint64_t) * kTileHits +
                                    sizeof(uint32_t) * kPresenceWords +
                                    sizeof(int32_t) * kTileDiagonals + sizeof(uint16_t) * kTileHits;

// A subject's fine ranges are 2^shift diagonals wide, at most kMaxFineRanges of them for its
// `diagonals` (query length + subject length, below 2^22: shift <= 10, so that a tile's
// kTileDiagonals are whole ranges).
__host__ __device__ inline int tile_fine_shift(int64_t diagonals) {
  int shift = kMinFineShift;
  while (((diagonals + (int64_t{1} << shift) - 1) >> shift) > kMaxFineRanges) ++shift;
  return shift;
}

struct HitTile {
  int32_t subject;               // in the batch
  int32_t fine_begin, fine_end;  // its fine ranges
  int64_t first;                 // its hits' first place among the subject's sorted hits
  int64_t count;
};

__device__ __forceinline__ int word_cell(const uint8_t* subject, int32_t s) {
  return (subject[s] << 10) | (subject[s + 1] << 5) | subject[s + 2];
}

// In-place exclusive prefix sum of a[0, n) by the block (kTileThreads threads, consecutive
// chunks per thread); returns the total. Ends with a barrier.
template <class T>
__device__ T block_exclusive_scan(T* a, int32_t n) {
  using Scan = cub::BlockScan<T, kTileThreads>;
  __shared__ typename Scan::TempStorage temp;
  const int32_t per = (n + kTileThreads - 1) / kTileThreads;
  const int32_t lo = min(n, static_cast<int32_t>(threadIdx.x) * per), hi = min(n, lo + per);
  T sum = 0;
  for (int32_t i = lo; i < hi; ++i) sum += a[i];
  T before, total;
  Scan(temp).ExclusiveSum(sum, before, total);
  __syncthreads();  // every chunk summed before any is rewritten
  for (int32_t i = lo; i < hi; ++i) {
    const T v = a[i];
    a[i] = before;
    before += v;
  }
  __syncthreads();
  return total;
}

// Whether fine range i starts a tile (first[] the exclusive prefix of the ranges' counts):
// at the subject's start and every kTileDiagonals diagonals; around a range of more than half
// a tile; and where the hits before it enter the next half tile. A tile of several ranges
// then starts and ends in one half-tile window but for its last range (at most half a tile):
// fewer than kTileHits hits.
__device__ __forceinline__ bool starts_tile(const int64_t* first, int32_t i, int shift) {
  constexpr int64_t kHalf = kTileHits / 2;
  if (i == 0 || (i & ((kTileDiagonals >> shift) - 1)) == 0) return true;
  if (first[i + 1] - first[i] > kHalf || first[i] - first[i - 1] > kHalf) return true;
  return first[i] / kHalf != first[i - 1] / kHalf;
}

// Step 1, a block per subject of the batch (subjects first_subject + blockIdx.x): its hits in
// subject_hits, its non-empty tiles appended to tiles[] (tile_count the list's length; a list
// of tile_capacity entries that overflows is only counted: the host runs the kernel again).
__global__ void __launch_bounds__(kTileThreads)
    count_tile_hits(const uint8_t* __restrict__ codes, const int64_t* __restrict__ offsets,
                    int32_t first_subject, const uint32_t* __restrict__ presence,
                    const int32_t* __restrict__ cell_start,
                    const int32_t* __restrict__ cell_offsets, int32_t query_length,
                    int64_t* __restrict__ subject_hits, HitTile* __restrict__ tiles,
                    int64_t tile_capacity, unsigned long long* __restrict__ tile_count) {
  extern __shared__ __align__(16) unsigned char tile_shared[];
  int64_t* first = reinterpret_cast<int64_t*>(tile_shared);  // kMaxFineRanges + 1
  uint32_t* present = reinterpret_cast<uint32_t*>(first + kMaxFineRanges + 2);
  int32_t* counts = reinterpret_cast<int32_t*>(present + kPresenceWords);  // then tile starts
  int32_t* index = counts + kMaxFineRanges;
  __shared__ unsigned long long tiles_base;
  const int32_t local = blockIdx.x;
  const int64_t begin = offsets[first_subject + local];
  const int32_t length = static_cast<int32_t>(offsets[first_subject + local + 1] - begin);
  const uint8_t* subject = codes + begin;
  const int shift = tile_fine_shift(int64_t{query_length} + length);
  const int32_t ranges =
      static_cast<int32_t>((int64_t{query_length} + length + (1 << shift) - 1) >> shift);
  for (int i = threadIdx.x; i < kPresenceWords; i += blockDim.x) present[i] = presence[i];
  for (int i = threadIdx.x; i < ranges; i += blockDim.x) counts[i] = 0;
  __syncthreads();
  for (int32_t s = threadIdx.x; s + gpuseq::blast::kTwoHitWord <= length; s += blockDim.x) {
    const int cell = word_cell(subject, s);
    if (!(present[cell / 32] >> (cell % 32) & 1u)) continue;
    const int32_t end = cell_start[cell + 1];
    for (int32_t k = cell_start[cell]; k < end; ++k)
      atomicAdd(&counts[(cell_offsets[k] - s + length) >> shift], 1);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < ranges; i += blockDim.x) first[i] = counts[i];
  __syncthreads();
  const int64_t hits = block_exclusive_scan(first, ranges);
  if (threadIdx.x == 0) first[ranges] = hits;
  __syncthreads();
  // The tiles: index[] numbers the ranges that start one, counts[] lists them.
  for (int i = threadIdx.x; i < ranges; i += blockDim.x) index[i] = starts_tile(first, i, shift);
  __syncthreads();
  const int32_t starts = block_exclusive_scan(index, ranges);
  for (int i = threadIdx.x; i < ranges; i += blockDim.x)
    if (starts_tile(first, i, shift)) counts[index[i]] = i;
  __syncthreads();
  // Those that hold hits, numbered in index[].
  for (int t = threadIdx.x; t < starts; t += blockDim.x) {
    const int32_t last = t + 1 < starts ? counts[t + 1] : ranges;
    index[t] = first[last] > first[counts[t]];
  }
  __syncthreads();
  const int32_t kept = block_exclusive_scan(index, starts);
  if (threadIdx.x == 0) {
    subject_hits[local] = hits;
    tiles_base = kept ? atomicAdd(tile_count, static_cast<unsigned long long>(kept)) : 0;
  }
  __syncthreads();
  for (int t = threadIdx.x; t < starts; t += blockDim.x) {
    const int32_t fine_begin = counts[t], fine_end = t + 1 < starts ? counts[t + 1] : ranges;
    const int64_t n = first[fine_end] - first[fine_begin];
    const int64_t at = static_cast<int64_t>(tiles_base) + index[t];
    if (n > 0 && at < tile_capacity)
      tiles[at] = HitTile{local, fine_begin, fine_end, first[fine_begin], n};
  }
}

// The first of sorted[lo, hi) not below v.
__device__ __forceinline__ int32_t lower_bound(const int32_t* __restrict__ sorted, int32_t lo,
                                               int32_t hi, int32_t v) {
  while (lo < hi) {
    const int32_t mid = (lo + hi) / 2;
    if (sorted[mid] < v)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// Calls hit(key) for each hit of the tile's subject on diagonals [d0, d1), the query offsets
// of each word cell sorted (sorted_offsets).
template <class OnHit>
__device__ __forceinline__ void tile_hits(const uint8_t* subject, int32_t length,
                                          uint64_t subject_key, const uint32_t* present,
                                          const int32_t* __restrict__ cell_start,
                                          const int32_t* __restrict__ sorted_offsets, int32_t d0,
                                          int32_t d1, OnHit&& hit) {
  for (int32_t s = threadIdx.x; s + gpuseq::blast::kTwoHitWord <= length; s += blockDim.x) {
    const int cell = word_cell(subject, s);
    if (!(present[cell / 32] >> (cell % 32) & 1u)) continue;
    // Diagonal q - s + length in [d0, d1): q in [d0 + s - length, d1 + s - length).
    const int32_t lo =
        lower_bound(sorted_offsets, cell_start[cell], cell_start[cell + 1], d0 + s - length);
    const int32_t hi = lower_bound(sorted_offsets, lo, cell_start[cell + 1], d1 + s - length);
    for (int32_t k = lo; k < hi; ++k) {
      const int32_t diagonal = sorted_offsets[k] - s + length;
      hit(subject_key | static_cast<uint64_t>(diagonal) << kOffsetBits | static_cast<uint64_t>(s));
    }
  }
}

// A place for each calling thread among `n` slots claimed at once by the threads that call
// it together (one shared-memory atomic per such group).
template <class Counter>
__device__ __forceinline__ Counter claim_slot(Counter* n) {
  namespace cg = cooperative_groups;
  const cg::coalesced_group together = cg::coalesced_threads();
  Counter base = 0;
  if (together.thread_rank() == 0) base = atomicAdd(n, static_cast<Counter>(together.size()));
  return together.shfl(base, 0) + static_cast<Counter>(together.thread_rank());
}

// Step 2, a block per tile (grid-stride: a grid of resident blocks loads the lookup's
// presence bits once each): the tile's hits sorted into
// sorted[subject_first[subject] + tile.first ...]. A tile of more than kTileHits hits is
// written unsorted and listed in large_begin/large_end (large_count) for the segmented sort.
// *failed is set if a tile finds other than the hits counted in step 1 (a defect).
__global__ void __launch_bounds__(kTileThreads)
    place_tile_hits(const uint8_t* __restrict__ codes, const int64_t* __restrict__ offsets,
                    int32_t first_subject, const uint32_t* __restrict__ presence,
                    const int32_t* __restrict__ cell_start,
                    const int32_t* __restrict__ sorted_offsets, int32_t query_length,
                    const HitTile* __restrict__ tiles, int64_t tile_count,
                    const int64_t* __restrict__ subject_first, uint64_t* __restrict__ sorted,
                    int64_t* __restrict__ large_begin, int64_t* __restrict__ large_end,
                    unsigned long long* __restrict__ large_count, int* __restrict__ failed) {
  extern __shared__ __align__(16) unsigned char tile_shared[];
  uint64_t* stage = reinterpret_cast<uint64_t*>(tile_shared);  // the tile's hits as found
  uint32_t* present = reinterpret_cast<uint32_t*>(stage + kTileHits);
  int32_t* position = reinterpret_cast<int32_t*>(present + kPresenceWords);  // per diagonal:
  // its count, then its start, then its end
  uint16_t* by_diagonal = reinterpret_cast<uint16_t*>(position + kTileDiagonals);  // stage
  // indices grouped by diagonal
  __shared__ unsigned found;  // 32 bits: shared memory has no native 64-bit atomic add
  for (int i = threadIdx.x; i < kPresenceWords; i += blockDim.x) present[i] = presence[i];
  for (int64_t t = blockIdx.x; t < tile_count; t += gridDim.x) {
    const HitTile tile = tiles[t];
    const int64_t begin = offsets[first_subject + tile.subject];
    const int32_t length = static_cast<int32_t>(offsets[first_subject + tile.subject + 1] - begin);
    const int shift = tile_fine_shift(int64_t{query_length} + length);
    const int32_t d0 = tile.fine_begin << shift, d1 = tile.fine_end << shift;
    const uint64_t subject_key = static_cast<uint64_t>(tile.subject) << kSubjectShift;
    uint64_t* out = sorted + subject_first[tile.subject] + tile.first;
    const bool large = tile.count > kTileHits;  // (at most 2^9 diagonals x 2^21 hits)
    if (!large)
      for (int i = threadIdx.x; i < d1 - d0; i += blockDim.x) position[i] = 0;
    if (threadIdx.x == 0) found = 0;
    __syncthreads();
    if (large) {
      tile_hits(codes + begin, length, subject_key, present, cell_start, sorted_offsets, d0, d1,
                [&](uint64_t key) {
                  const unsigned at = claim_slot(&found);
                  if (at < tile.count) out[at] = key;
                });
      __syncthreads();
      if (threadIdx.x == 0) {
        if (found != tile.count) atomicExch(failed, 1);
        const unsigned long long at = atomicAdd(large_count, 1ull);
        large_begin[at] = out - sorted;
        large_end[at] = out - sorted + tile.count;
      }
      __syncthreads();
      continue;
    }
    tile_hits(codes + begin, length, subject_key, present, cell_start, sorted_offsets, d0, d1,
              [&](uint64_t key) {
                const unsigned at = claim_slot(&found);
                if (at < kTileHits) {
                  stage[at] = key;
                  atomicAdd(&position[((key >> kOffsetBits) & kOffsetMask) - d0], 1);
                }
              });
    __syncthreads();
    const int32_t n = static_cast<int32_t>(min(found, static_cast<unsigned>(kTileHits)));
    if (threadIdx.x == 0 && found != tile.count) atomicExch(failed, 1);
    block_exclusive_scan(position, d1 - d0);
    for (int32_t e = threadIdx.x; e < n; e += blockDim.x) {
      const int32_t d = static_cast<int32_t>((stage[e] >> kOffsetBits) & kOffsetMask) - d0;
      by_diagonal[atomicAdd(&position[d], 1)] = static_cast<uint16_t>(e);
    }
    __syncthreads();
    // position[d] is now the end of diagonal d's hits; each hit's rank among them is the
    // number with a smaller subject offset (distinct on one diagonal).
    for (int32_t p = threadIdx.x; p < n; p += blockDim.x) {
      const uint64_t key = stage[by_diagonal[p]];
      const int32_t d = static_cast<int32_t>((key >> kOffsetBits) & kOffsetMask) - d0;
      const int32_t lo = d > 0 ? position[d - 1] : 0, hi = position[d];
      int32_t rank = 0;
      for (int32_t j = lo; j < hi; ++j)
        rank += (stage[by_diagonal[j]] & kOffsetMask) < (key & kOffsetMask);
      out[lo + rank] = key;
    }
    __syncthreads();
  }
}

// Copies the large tiles' sorted hits back (a block per tile).
__global__ void copy_large_tiles(const uint64_t* __restrict__ from, uint64_t* __restrict__ to,
                                 const int64_t* __restrict__ large_begin,
                                 const int64_t* __restrict__ large_end) {
  for (int64_t i = large_begin[blockIdx.x] + threadIdx.x; i < large_end[blockIdx.x];
       i += blockDim.x)
    to[i] = from[i];
}

}  // namespace gpuseq::cuda::blast
