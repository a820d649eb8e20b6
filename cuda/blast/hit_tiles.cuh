// Hit detection and sorting in diagonal tiles: the default way gpu_ungapped.cu turns a batch's
// subjects into its word hits sorted by key (subject, diagonal, subject offset), keeping only
// the diagonals that hold a two-hit pair.
//
// cuBLASTP appends each hit to a bin (diagonal mod bins) in global memory and sorts the bins
// with a segmented sort (gpu_ungapped.cu keeps that as GpuHitSort::kBins). On the H100 the
// appends are the stage's whole cost: 8.3 G scattered 8-byte stores took 0.55 s where the
// lookup's loads took 0.03 s (benchmarks/results/gpu-h100-80gb-hbm3-20261125-d). Here the
// loads are repeated instead and every store is part of a block's contiguous run:
//
// 1. count_tile_hits, a subject at a time per block: each hit counted in its fine range of
//    diagonals (2^shift diagonals, at most kMaxFineRanges ranges a subject) by shared-memory
//    counters, then the ranges cut into tiles of consecutive ranges holding at most kTileHits
//    hits and spanning at most kTileDiagonals diagonals. A tile's place among the subject's
//    sorted hits is the number of hits on the diagonals before it. Tiles are appended to one
//    list, a subject's together and in order (subject_tiles).
// 2. place_tile_hits, a subject at a time per block, its tiles in order: the subject's words
//    again, each word's sorted query offsets followed by a cursor from tile to tile (binary
//    search for subjects too long for the cursors); the tile's hits gathered in shared memory,
//    counted by diagonal, ordered within a diagonal by subject offset, and the hits of the
//    diagonals holding a pair (pair_rule) written, in order, at the subject's place.
// 3. gather_kept_hits: the subjects' written hits made one array. The two-hit filter and the
//    extensions then read those alone: on the H100, 99 queries x 75 M residues, 8.3 G hits,
//    the filter took 0.018 s instead of 0.078 and the extensions 0.11 s instead of 0.15
//    (benchmarks/results/gpu-h100-80gb-hbm3-20261125-f).
// A fine range with more than kTileHits hits (a low-complexity subject and query), or a tile of
// a subject too long for a staged key, is a tile whose hits are written whole and unsorted
// and sorted afterwards by CUB's segmented sort.
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
constexpr int kTileWarps = kTileThreads / 32;
constexpr int kTileHits = 4096;       // a tile's hits in shared memory (2 x 16 KB of 32-bit keys)
constexpr int kTileDiagonals = 4096;  // a tile's diagonal counters (16 KB)
constexpr int kMaxFineRanges = 2048;
constexpr int kMinFineShift = 6;  // fine ranges of at least 64 diagonals
// A hit staged in shared memory: its diagonal in the tile (12 bits) | its subject offset (20
// bits). A subject of kMaxStagedLength residues or more has its tiles sorted by CUB instead.
constexpr int kStagedOffsetBits = 20;
constexpr int32_t kMaxStagedLength = int32_t{1} << kStagedOffsetBits;
constexpr uint32_t kStagedOffsetMask = kMaxStagedLength - 1;
static_assert(kTileDiagonals <= (int64_t{1} << (32 - kStagedOffsetBits)));
// Dynamic shared memory of the two kernels (over the 48 KB a launch gets without asking):
// count_tile_hits 36 KB (6 blocks of 256 threads a multiprocessor), place_tile_hits 52 KB (4).
constexpr size_t kCountTileShared = sizeof(int64_t) * (kMaxFineRanges + 2) +
                                    sizeof(uint32_t) * kPresenceWords +
                                    sizeof(int32_t) * 2 * kMaxFineRanges;
constexpr size_t kPlaceTileShared = 2 * sizeof(uint32_t) * kTileHits +
                                    sizeof(uint32_t) * kPresenceWords +
                                    sizeof(int32_t) * kTileDiagonals;

// A subject's fine ranges are 2^shift diagonals wide, at most kMaxFineRanges of them for its
// `diagonals` (query length + subject length, below 2^22: shift <= 11, so that a tile's
// kTileDiagonals are whole ranges).
__host__ __device__ inline int tile_fine_shift(int64_t diagonals) {
  int shift = kMinFineShift;
  while (((diagonals + (int64_t{1} << shift) - 1) >> shift) > kMaxFineRanges) ++shift;
  return shift;
}

struct HitTile {
  int32_t fine_begin, fine_end;  // its fine ranges
  int64_t first;                 // its hits' first place among the subject's sorted hits
  int64_t count;
};

// A subject's tiles: tiles[first, first + count), in the order of their diagonals.
struct SubjectTiles {
  int64_t first;
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

// Step 1, a grid of resident blocks, a subject of the batch (first_subject + local) at a time
// each: its hits in subject_hits, its non-empty tiles appended to tiles[] in the order of
// their diagonals (tile_count the list's length; a list of tile_capacity entries that
// overflows is only counted: the host runs the kernel again) and listed in subject_tiles.
__global__ void __launch_bounds__(kTileThreads)
    count_tile_hits(const uint8_t* __restrict__ codes, const int64_t* __restrict__ offsets,
                    int32_t first_subject, int32_t subjects, const uint32_t* __restrict__ presence,
                    const int32_t* __restrict__ cell_start,
                    const int32_t* __restrict__ cell_offsets, int32_t query_length,
                    int64_t* __restrict__ subject_hits, SubjectTiles* __restrict__ subject_tiles,
                    HitTile* __restrict__ tiles, int64_t tile_capacity,
                    unsigned long long* __restrict__ tile_count) {
  extern __shared__ __align__(16) unsigned char tile_shared[];
  int64_t* first = reinterpret_cast<int64_t*>(tile_shared);  // kMaxFineRanges + 1
  uint32_t* present = reinterpret_cast<uint32_t*>(first + kMaxFineRanges + 2);
  int32_t* counts = reinterpret_cast<int32_t*>(present + kPresenceWords);  // then tile starts
  int32_t* index = counts + kMaxFineRanges;
  __shared__ unsigned long long tiles_base;
  for (int i = threadIdx.x; i < kPresenceWords; i += blockDim.x) present[i] = presence[i];
  for (int32_t local = blockIdx.x; local < subjects; local += gridDim.x) {
    const int64_t begin = offsets[first_subject + local];
    const int32_t length = static_cast<int32_t>(offsets[first_subject + local + 1] - begin);
    const uint8_t* subject = codes + begin;
    const int shift = tile_fine_shift(int64_t{query_length} + length);
    const int32_t ranges =
        static_cast<int32_t>((int64_t{query_length} + length + (1 << shift) - 1) >> shift);
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
      subject_tiles[local] = SubjectTiles{static_cast<int64_t>(tiles_base), kept};
    }
    __syncthreads();
    for (int t = threadIdx.x; t < starts; t += blockDim.x) {
      const int32_t fine_begin = counts[t], fine_end = t + 1 < starts ? counts[t + 1] : ranges;
      const int64_t n = first[fine_end] - first[fine_begin];
      const int64_t at = static_cast<int64_t>(tiles_base) + index[t];
      if (n > 0 && at < tile_capacity)
        tiles[at] = HitTile{fine_begin, fine_end, first[fine_begin], n};
    }
    __syncthreads();  // counts[] and first[] read before the next subject's
  }
}

// The first of sorted[lo, hi) not below v.
template <class T, class Index>
__device__ __forceinline__ Index lower_bound(const T* __restrict__ sorted, Index lo, Index hi,
                                             T v) {
  while (lo < hi) {
    const Index mid = (lo + hi) / 2;
    if (sorted[mid] < v)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// The hits of a subject's tiles found without searching: each thread keeps, for each of its
// words (s = threadIdx.x + j * kTileThreads), a cursor into its cell's sorted query offsets.
// Tiles come in the order of their diagonals and a word's diagonal q - s + length grows with
// q, so each tile's hits of a word follow the previous tile's: a tile costs a load per word
// and one per hit, where searching cost two binary searches per word. Subjects up to
// kMaxCursorLength residues (registers: kCursorWords words a thread).
constexpr int kCursorWords = 8;
constexpr int32_t kMaxCursorLength = kTileThreads * kCursorWords + gpuseq::blast::kTwoHitWord - 1;

struct WordCursors {
  int32_t next[kCursorWords], end[kCursorWords];

  __device__ __forceinline__ WordCursors(const uint8_t* subject, int32_t length,
                                         const uint32_t* present,
                                         const int32_t* __restrict__ cell_start) {
#pragma unroll
    for (int j = 0; j < kCursorWords; ++j) {
      const int32_t s = threadIdx.x + j * kTileThreads;
      next[j] = end[j] = 0;
      if (s + gpuseq::blast::kTwoHitWord > length) continue;
      const int cell = word_cell(subject, s);
      if (!(present[cell / 32] >> (cell % 32) & 1u)) continue;
      next[j] = cell_start[cell];
      end[j] = cell_start[cell + 1];
    }
  }

  // Calls hit(diagonal, s) for the hits on diagonals below d1 not yet passed.
  template <class OnHit>
  __device__ __forceinline__ void hits_below(int32_t d1, int32_t length,
                                             const int32_t* __restrict__ sorted_offsets,
                                             OnHit&& hit) {
#pragma unroll
    for (int j = 0; j < kCursorWords; ++j) {
      const int32_t s = threadIdx.x + j * kTileThreads;
      for (; next[j] < end[j]; ++next[j]) {
        const int32_t diagonal = sorted_offsets[next[j]] - s + length;
        if (diagonal >= d1) break;
        hit(diagonal, s);
      }
    }
  }
};

// Calls hit(diagonal, s) for each hit of a subject on diagonals [d0, d1), searched for in each
// word cell's sorted query offsets (a subject too long for WordCursors).
template <class OnHit>
__device__ __forceinline__ void searched_hits(const uint8_t* subject, int32_t length,
                                              const uint32_t* present,
                                              const int32_t* __restrict__ cell_start,
                                              const int32_t* __restrict__ sorted_offsets,
                                              int32_t d0, int32_t d1, OnHit&& hit) {
  for (int32_t s = threadIdx.x; s + gpuseq::blast::kTwoHitWord <= length; s += blockDim.x) {
    const int cell = word_cell(subject, s);
    if (!(present[cell / 32] >> (cell % 32) & 1u)) continue;
    // Diagonal q - s + length in [d0, d1): q in [d0 + s - length, d1 + s - length).
    const int32_t lo =
        lower_bound(sorted_offsets, cell_start[cell], cell_start[cell + 1], d0 + s - length);
    const int32_t hi = lower_bound(sorted_offsets, lo, cell_start[cell + 1], d1 + s - length);
    for (int32_t k = lo; k < hi; ++k) hit(sorted_offsets[k] - s + length, s);
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

// The two-hit filter's rule (TwoHitFinder's, for the GPU): a hit at subject offset s is a
// pair's second hit if the nearest of its left neighbours on its diagonal at least a word
// away is less than a window away; one of the nearest three, offsets on a diagonal being
// distinct. Every hit TwoHitFinder extends is one (its remembered hit is such an earlier hit);
// the extension kernels replay the rest. left_offset(k), k = 1..3: the k-th left neighbour's
// subject offset, or -1 where the diagonal has none.
template <class LeftOffset>
__device__ __forceinline__ bool pair_rule(int32_t s, int32_t window, LeftOffset&& left_offset) {
  for (int k = 1; k <= 3; ++k) {
    const int32_t left = left_offset(k);
    if (left < 0) return false;
    const int32_t distance = s - left;
    if (distance >= gpuseq::blast::kTwoHitWord) return distance < window;
  }
  return false;
}

// Step 2, a grid of resident blocks (the lookup's presence bits loaded once each), a subject
// at a time each, its tiles in order. A tile's hits are staged in shared memory as found,
// counted by diagonal, grouped by diagonal, and sorted by their rank (subject offset) within
// it. Only the diagonals holding a pair (pair_rule) are written: the two-hit filter and the
// extensions never look at the others, most of the hits (one to a diagonal, or too far
// apart). A subject's written hits go, sorted, to sorted[subject_first[local] ...], their
// number to subject_kept[local]. A tile of more than kTileHits hits, or of a subject too long
// for a staged key, is written whole and unsorted and listed in large_begin/large_end
// (large_count) for the segmented sort. *failed is set if a tile finds other than the hits
// counted in step 1 (a defect).
__global__ void __launch_bounds__(kTileThreads)
    place_tile_hits(const uint8_t* __restrict__ codes, const int64_t* __restrict__ offsets,
                    int32_t first_subject, int32_t subjects, const uint32_t* __restrict__ presence,
                    const int32_t* __restrict__ cell_start,
                    const int32_t* __restrict__ sorted_offsets, int32_t query_length,
                    int32_t window, const SubjectTiles* __restrict__ subject_tiles,
                    const HitTile* __restrict__ tiles, const int64_t* __restrict__ subject_first,
                    uint64_t* __restrict__ sorted, int64_t* __restrict__ subject_kept,
                    int64_t* __restrict__ large_begin, int64_t* __restrict__ large_end,
                    unsigned long long* __restrict__ large_count, int* __restrict__ failed) {
  extern __shared__ __align__(16) unsigned char tile_shared[];
  uint32_t* staged = reinterpret_cast<uint32_t*>(tile_shared);  // as found, then sorted
  uint32_t* present = staged + kTileHits;
  int32_t* position = reinterpret_cast<int32_t*>(present + kPresenceWords);  // per diagonal:
  // its count, then its start, then its end
  uint32_t* grouped = reinterpret_cast<uint32_t*>(position + kTileDiagonals);  // by diagonal
  __shared__ unsigned found;  // 32 bits: shared memory has no native 64-bit atomic add
  __shared__ int32_t warp_written[kTileWarps];
  __shared__ uint32_t pair_diagonals[kTileDiagonals / 32];  // a bit per diagonal holding a pair
  for (int i = threadIdx.x; i < kPresenceWords; i += blockDim.x) present[i] = presence[i];
  __syncthreads();
  for (int32_t local = blockIdx.x; local < subjects; local += gridDim.x) {
    const SubjectTiles mine = subject_tiles[local];
    int64_t kept = 0;  // the subject's hits written so far
    if (mine.count == 0) {
      if (threadIdx.x == 0) subject_kept[local] = 0;
      continue;
    }
    const int64_t begin = offsets[first_subject + local];
    const int32_t length = static_cast<int32_t>(offsets[first_subject + local + 1] - begin);
    const uint8_t* subject = codes + begin;
    const int shift = tile_fine_shift(int64_t{query_length} + length);
    const uint64_t subject_key = static_cast<uint64_t>(local) << kSubjectShift;
    const bool cursors = length <= kMaxCursorLength;  // uniform
    WordCursors cursor(subject, cursors ? length : 0, present, cell_start);
    uint64_t* out = sorted + subject_first[local];
    for (int64_t t = mine.first; t < mine.first + mine.count; ++t) {
      const HitTile tile = tiles[t];
      const int32_t d0 = tile.fine_begin << shift, d1 = tile.fine_end << shift;
      const auto each_hit = [&](auto&& hit) {
        if (cursors)
          cursor.hits_below(d1, length, sorted_offsets, hit);
        else
          searched_hits(subject, length, present, cell_start, sorted_offsets, d0, d1, hit);
      };
      const auto full_key = [&](int32_t diagonal, int32_t s) {
        return subject_key | static_cast<uint64_t>(diagonal) << kOffsetBits |
               static_cast<uint64_t>(s);
      };
      if (threadIdx.x == 0) found = 0;
      if (tile.count > kTileHits || length >= kMaxStagedLength) {
        // (at most 2^10 diagonals x 2^21 hits: 32 bits count them)
        __syncthreads();
        each_hit([&](int32_t diagonal, int32_t s) {
          const unsigned at = claim_slot(&found);
          if (at < tile.count) out[kept + at] = full_key(diagonal, s);
        });
        __syncthreads();
        if (threadIdx.x == 0) {
          if (found != tile.count) atomicExch(failed, 1);
          const unsigned long long at = atomicAdd(large_count, 1ull);
          large_begin[at] = out + kept - sorted;
          large_end[at] = out + kept + tile.count - sorted;
        }
        kept += tile.count;
        __syncthreads();
        continue;
      }
      for (int i = threadIdx.x; i < d1 - d0; i += blockDim.x) position[i] = 0;
      for (int i = threadIdx.x; i < kTileDiagonals / 32; i += blockDim.x) pair_diagonals[i] = 0;
      __syncthreads();
      each_hit([&](int32_t diagonal, int32_t s) {
        const unsigned at = claim_slot(&found);
        if (at < kTileHits) {
          staged[at] =
              static_cast<uint32_t>(diagonal - d0) << kStagedOffsetBits | static_cast<uint32_t>(s);
          atomicAdd(&position[diagonal - d0], 1);
        }
      });
      __syncthreads();
      if (found != tile.count) {  // uniform
        if (threadIdx.x == 0) atomicExch(failed, 1);
        __syncthreads();
        continue;
      }
      const int32_t n = static_cast<int32_t>(found);
      block_exclusive_scan(position, d1 - d0);
      for (int32_t e = threadIdx.x; e < n; e += blockDim.x)
        grouped[atomicAdd(&position[staged[e] >> kStagedOffsetBits], 1)] = staged[e];
      __syncthreads();
      // position[d] is now the end of diagonal d's hits; each hit's rank among them is the
      // number with a smaller subject offset (distinct on one diagonal), so a smaller key. The
      // same loop finds the hit's three nearest left neighbours, for the pair rule.
      for (int32_t p = threadIdx.x; p < n; p += blockDim.x) {
        const uint32_t key = grouped[p];
        const int32_t d = static_cast<int32_t>(key >> kStagedOffsetBits);
        const int32_t lo = d > 0 ? position[d - 1] : 0, hi = position[d];
        int32_t rank = 0, left[3] = {-1, -1, -1};  // the nearest first
        for (int32_t j = lo; j < hi; ++j) {
          if (grouped[j] >= key) continue;
          ++rank;
          const auto offset = static_cast<int32_t>(grouped[j] & kStagedOffsetMask);
          if (offset > left[0]) {
            left[2] = left[1];
            left[1] = left[0];
            left[0] = offset;
          } else if (offset > left[1]) {
            left[2] = left[1];
            left[1] = offset;
          } else if (offset > left[2]) {
            left[2] = offset;
          }
        }
        staged[lo + rank] = key;
        if (pair_rule(key & kStagedOffsetMask, window, [&](int k) { return left[k - 1]; }))
          atomicOr(&pair_diagonals[d / 32], 1u << (d % 32));
      }
      __syncthreads();
      // The hits of the diagonals holding a pair written in order: a warp per run of
      // consecutive hits, each counting its own first (ballots), then writing.
      const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
      const int32_t run = (n + kTileWarps * 32 - 1) / (kTileWarps * 32) * 32;
      const int32_t run_begin = min(n, warp * run), run_end = min(n, run_begin + run);
      const auto written_at = [&](int32_t p) {
        if (p >= run_end) return false;
        const uint32_t d = staged[p] >> kStagedOffsetBits;
        return (pair_diagonals[d / 32] >> (d % 32) & 1u) != 0;
      };
      int32_t before = 0;
      for (int32_t p = run_begin + lane; p - lane < run_end; p += 32)
        before += __popc(__ballot_sync(0xffffffffu, written_at(p)));
      if (lane == 0) warp_written[warp] = before;
      __syncthreads();
      int32_t written = 0;
      before = 0;
      for (int w = 0; w < kTileWarps; ++w) {
        before += w < warp ? warp_written[w] : 0;
        written += warp_written[w];
      }
      for (int32_t p = run_begin + lane; p - lane < run_end; p += 32) {
        const bool write = written_at(p);
        const unsigned ballot = __ballot_sync(0xffffffffu, write);
        if (write) {
          const uint32_t key = staged[p];
          out[kept + before + __popc(ballot & ((1u << lane) - 1))] =
              full_key(d0 + static_cast<int32_t>(key >> kStagedOffsetBits),
                       static_cast<int32_t>(key & kStagedOffsetMask));
        }
        before += __popc(ballot);
      }
      kept += written;
      __syncthreads();
    }
    if (threadIdx.x == 0) subject_kept[local] = kept;
  }
}

// Copies each subject's written hits (place_tile_hits: at from + from_first[i]) to their place
// among the batch's, to + kept_first[i] (a warp per subject).
__global__ void gather_kept_hits(const uint64_t* __restrict__ from,
                                 const int64_t* __restrict__ from_first,
                                 const int64_t* __restrict__ kept_first, int32_t subjects,
                                 uint64_t* __restrict__ to) {
  const int lane = threadIdx.x % 32;
  const int64_t warps = static_cast<int64_t>(gridDim.x) * blockDim.x / 32;
  for (int64_t i = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32; i < subjects;
       i += warps) {
    const uint64_t* source = from + from_first[i];
    uint64_t* target = to + kept_first[i];
    const int64_t n = kept_first[i + 1] - kept_first[i];
    for (int64_t k = lane; k < n; k += 32) target[k] = source[k];
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
