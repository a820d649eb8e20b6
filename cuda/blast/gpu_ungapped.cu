// cuBLASTP's hit detection, binning, segmented sort, two-hit filter and diagonal- or
// window-based ungapped extension (gpu_ungapped.hpp). The decisions (two-hit test, X-drop
// extension) are cpp/blast/two_hit.hpp's, the CPU's own source; each diagonal's hits are replayed
// in increasing subject offset as TwoHitFinder::run meets them, so the HSPs are the CPU's.
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cmath>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <cub/device/device_select.cuh>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "blast/alphabet.hpp"
#include "blast/gapped.hpp"
#include "blast/gpu_ungapped.hpp"
#include "blast/hit_tiles.cuh"
#include "blast/semi_gapped.hpp"
#include "blast/two_hit.hpp"
#include "blast/warp_gapped.cuh"
#include "common/check.cuh"
#include "common/stopwatch.hpp"

namespace gpuseq::cuda::blast {

using gpuseq::blast::DiagonalState;
using gpuseq::blast::kAlphabetSize;
using gpuseq::blast::kTwoHitWord;
using gpuseq::blast::kWordCells;
using gpuseq::blast::QueryContext;
using gpuseq::blast::SeedExtension;
using gpuseq::blast::TwoHitExtension;
using gpuseq::blast::UngappedHsp;

namespace {

struct Widen {
  __host__ __device__ int64_t operator()(int32_t v) const { return v; }
};

struct DeviceHsp {
  int32_t subject, q_start, s_start, length, score, seed_q, seed_s, context;
};

// The paper's binning (GpuHitSort::kBins; the default, kTiles, is hit_tiles.cuh's). The keys
// are hit_tiles.cuh's.
// Hit detection: a block of kDetectWarps warps per subject, lane l of warp w reading the word
// at s0 + 32 w + l (consecutive bytes: one transaction per warp and byte). The lookup's
// presence bits live in shared memory, its query-offset lists in global memory through the
// read-only cache. Each hit goes to bin (diagonal mod the subject's bins) of its subject
// through a shared-memory counter; a slot past the bin's capacity is not written but still
// counted, so that the host sees the overflow. The order of a bin's hits is the sort's
// business. Subject `local` of the batch has bins[local] bins (a power of two, at most
// max_bins), its counts at bin_counts[segment_base[local]...], its slots at slot_base[local]
// of HitSlots. The blocks take the batch's subjects, or (subject_list) those a first pass
// overflowed. A block, not a warp, per subject: with a warp each, a batch's few thousand
// subjects left most of the device idle behind its longest ones (11% of warps active).
struct HitSlots {
  uint64_t* first;   // slots [0, split)
  uint64_t* redone;  // slots [split, ...): subjects detected again
  int64_t split;
  __device__ uint64_t* at(int64_t slot) const {
    return slot < split ? first + slot : redone + (slot - split);
  }
};

constexpr int kDetectWarps = 8;

__global__ void detect_hits(
    const uint8_t* __restrict__ codes, const int64_t* __restrict__ offsets, int32_t first_subject,
    const int32_t* __restrict__ subject_list, const uint32_t* __restrict__ presence,
    const int32_t* __restrict__ cell_start, const int32_t* __restrict__ cell_offsets,
    const int32_t* __restrict__ bins, const int64_t* __restrict__ segment_base,
    const int64_t* __restrict__ slot_base, const int32_t* __restrict__ bin_capacity, HitSlots hits,
    int32_t* __restrict__ bin_counts, int32_t* __restrict__ max_count) {
  extern __shared__ uint32_t shared[];
  __shared__ int32_t block_largest;
  uint32_t* present = shared;
  int32_t* count = reinterpret_cast<int32_t*>(shared + kPresenceWords);
  const int32_t local = subject_list ? subject_list[blockIdx.x] : static_cast<int32_t>(blockIdx.x);
  const int32_t bin_mask = bins[local] - 1;
  for (int i = threadIdx.x; i < kPresenceWords; i += blockDim.x) present[i] = presence[i];
  for (int b = threadIdx.x; b <= bin_mask; b += blockDim.x) count[b] = 0;
  if (threadIdx.x == 0) block_largest = 0;
  __syncthreads();

  const int64_t begin = offsets[first_subject + local];
  const int32_t length = static_cast<int32_t>(offsets[first_subject + local + 1] - begin);
  const uint8_t* subject = codes + begin;
  const int32_t capacity = bin_capacity[local];
  uint64_t* bin_hits = hits.at(slot_base[local]);
  const uint64_t subject_key = static_cast<uint64_t>(local) << kSubjectShift;

  for (int32_t s = threadIdx.x; s + kTwoHitWord <= length; s += blockDim.x) {
    const int cell = (subject[s] << 10) | (subject[s + 1] << 5) | subject[s + 2];
    if (!(present[cell / 32] >> (cell % 32) & 1u)) continue;
    const int32_t end = cell_start[cell + 1];
    for (int32_t k = cell_start[cell]; k < end; ++k) {
      const int32_t diagonal = cell_offsets[k] - s + length;  // q - s + length > 0
      const int32_t bin = diagonal & bin_mask;
      const int32_t slot = atomicAdd(&count[bin], 1);
      if (slot < capacity)
        bin_hits[static_cast<int64_t>(bin) * capacity + slot] =
            subject_key | static_cast<uint64_t>(diagonal) << kOffsetBits | static_cast<uint64_t>(s);
    }
  }
  __syncthreads();
  int32_t largest = 0;
  for (int b = threadIdx.x; b <= bin_mask; b += blockDim.x) {
    bin_counts[segment_base[local] + b] = count[b];
    largest = max(largest, count[b]);
  }
  largest = __reduce_max_sync(0xffffffffu, largest);
  if (threadIdx.x % 32 == 0) atomicMax(&block_largest, largest);
  __syncthreads();
  if (threadIdx.x == 0) max_count[local] = block_largest;
}

// Hit assembling, a warp per segment (a bin of a subject): its hits copied to their place in
// one array. segment_base holds batch_subjects + 1 entries.
__global__ void assemble_hits(HitSlots hits, const int64_t* __restrict__ segment_base,
                              int32_t batch_subjects, const int64_t* __restrict__ slot_base,
                              const int32_t* __restrict__ bin_capacity,
                              const int64_t* __restrict__ segment_offsets, int64_t segments,
                              uint64_t* __restrict__ assembled) {
  const int64_t g = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  if (g >= segments) return;
  const int lane = threadIdx.x % 32;
  int32_t lo = 0, hi = batch_subjects;  // the last subject whose segments start at or before g
  while (hi - lo > 1) {
    const int32_t mid = (lo + hi) / 2;
    if (segment_base[mid] <= g)
      lo = mid;
    else
      hi = mid;
  }
  const int64_t bin = g - segment_base[lo];
  const uint64_t* from = hits.at(slot_base[lo]) + bin * bin_capacity[lo];
  const int64_t begin = segment_offsets[g], n = segment_offsets[g + 1] - begin;
  for (int64_t i = lane; i < n; i += 32) assembled[begin + i] = from[i];
}

// Whether sorted hit i is a pair's second hit (pair_rule). A diagonal's hits lie together in
// its bin's segment (or tile), and no other segment holds the same subject and diagonal, so
// the segments need no bounds here.
__device__ bool second_of_pair(const uint64_t* __restrict__ sorted, int64_t i, int32_t window) {
  const uint64_t key = sorted[i];
  return pair_rule(static_cast<int32_t>(key & kOffsetMask), window, [&](int k) -> int32_t {
    if (i < k || sorted[i - k] >> kOffsetBits != key >> kOffsetBits) return -1;
    return static_cast<int32_t>(sorted[i - k] & kOffsetMask);
  });
}

// The two-hit filter, a thread per hit of the batch's sorted hits: pair[i] (second_of_pair).
// A diagonal's first pair marks the diagonal's first hit in pair_run (zeroed before), found
// by walking left to the nearest earlier pair or the diagonal's start: each hit is passed by
// one walk at most. The extension visits only those diagonals (most diagonals of a subject
// hold one hit and no pair).
__global__ void filter_pairs(const uint64_t* __restrict__ sorted, int64_t count, int32_t window,
                             uint8_t* __restrict__ pair_run, uint8_t* __restrict__ pair,
                             unsigned long long* __restrict__ pairs) {
  unsigned found = 0;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const bool is_pair = second_of_pair(sorted, i, window);
    if (is_pair) {
      const uint64_t diagonal = sorted[i] >> kOffsetBits;
      int64_t j = i - 1;  // on the diagonal: a pair has a left neighbour there
      bool earlier = false;
      while (j > 0 && sorted[j - 1] >> kOffsetBits == diagonal) {  // j is not the first hit
        if (second_of_pair(sorted, j, window)) {
          earlier = true;
          break;
        }
        --j;
      }
      if (!earlier) pair_run[j] = 1;  // the diagonal's first hit (never a pair itself)
    }
    pair[i] = is_pair;
    found += is_pair;
  }
  found = __reduce_add_sync(0xffffffffu, found);
  if (threadIdx.x % 32 == 0 && found) atomicAdd(pairs, static_cast<unsigned long long>(found));
}

__device__ int32_t context_of(const QueryContext* contexts, int32_t n, int32_t q) {
  int32_t lo = 0, hi = n;  // the last context starting at or before q
  while (hi - lo > 1) {
    const int32_t mid = (lo + hi) / 2;
    if (contexts[mid].start <= q)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

// Window-based extension (cuBLASTP's third variant) walks each direction of an X-drop
// extension 32 cells at a time, the whole warp together: the cells' scores, their prefix sums
// and running maxima by warp scans, the drop-off found by a ballot. Each window gives what
// SequentialWalk gives (the best counted at a cell before its stop test, ties to the first cell
// reaching the best).
constexpr unsigned kFullWarp = 0xffffffffu;

struct WarpWindowWalk {
  template <bool kRight, class Cell>
  __device__ int32_t walk(int32_t n, int32_t x_drop, const Cell& cell, int32_t& sum, int32_t& best,
                          int32_t& best_len) const {
    const int lane = threadIdx.x % 32;
    for (int32_t base = 0; base < n; base += 32) {
      const int32_t t = base + lane;
      int32_t p = t < n ? cell(t) : 0;
      for (int o = 1; o < 32; o *= 2) {
        const int32_t left = __shfl_up_sync(kFullWarp, p, o);
        if (lane >= o) p += left;
      }
      p += sum;  // the sum through cell t
      int32_t m = p;
      for (int o = 1; o < 32; o *= 2) {
        const int32_t left = __shfl_up_sync(kFullWarp, m, o);
        if (lane >= o) m = max(m, left);
      }
      m = max(m, best);  // the best through cell t
      const bool stops = t < n && ((kRight && p <= 0) || m - p >= x_drop);
      const unsigned stopped = __ballot_sync(kFullWarp, stops);
      const int last = stopped ? __ffs(stopped) - 1 : min(31, n - 1 - base);
      const int32_t window_best = __shfl_sync(kFullWarp, m, last);
      if (window_best > best) {
        const unsigned first = __ballot_sync(kFullWarp, lane <= last && p == window_best);
        best_len = base + __ffs(first);
        best = window_best;
      }
      sum = __shfl_sync(kFullWarp, p, last);
      if (stopped) return base + last;
    }
    return n;
  }
};

// Scores for the extension kernels, score(q, b) as extend_two_hit takes it, from a table in
// shared memory: the search's matrix (the lookup's; BLOSUM62 by default, whence the names)
// by the query's code, or the queries' PSSM by position (its row for q is the matrix's row
// for the code at q, so the two give the same numbers). Entries are int16: the sentinel code
// between queries scores kScoreMin.
struct Blosum62Score {
  const int16_t* matrix;  // 28 x 28, shared
  const uint8_t* query;   // global
  static constexpr bool kPssm = false;
  __device__ int32_t operator()(int32_t q, uint8_t b) const {
    return matrix[query[q] * kAlphabetSize + b];
  }
};

struct PssmScore {
  const int16_t* rows;  // query_length x 28, shared
  static constexpr bool kPssm = true;
  __device__ int32_t operator()(int32_t q, uint8_t b) const { return rows[q * kAlphabetSize + b]; }
};

// The block's score table in shared memory (the PSSM built there from the query and matrix).
template <class Score>
__device__ Score load_scores(int16_t* shared, const int16_t* __restrict__ blosum62,
                             const uint8_t* __restrict__ query, int32_t query_length) {
  if constexpr (Score::kPssm) {
    for (int32_t i = threadIdx.x; i < query_length * kAlphabetSize; i += blockDim.x)
      shared[i] = blosum62[query[i / kAlphabetSize] * kAlphabetSize + i % kAlphabetSize];
    __syncthreads();
    return Score{shared};
  } else {
    for (int32_t i = threadIdx.x; i < kAlphabetSize * kAlphabetSize; i += blockDim.x)
      shared[i] = blosum62[i];
    __syncthreads();
    return Score{shared, query};
  }
}

// Both halves of one pair's extension, from the hit-based variant's first kernel.
struct PairHalves {
  gpuseq::blast::LeftExtension left;
  gpuseq::blast::RightExtension right;
};

// What the extension kernels read: the batch's sorted hits, the diagonals that hold a pair (runs:
// the first hit of each), the subjects and the queries.
struct ExtensionInputs {
  const uint64_t* sorted;
  const int64_t* runs;
  int64_t run_count, hit_count;
  const uint8_t* codes;
  const int64_t* offsets;
  int32_t first_subject;
  const uint8_t* query;
  int32_t query_length;
  const QueryContext* contexts;
  int32_t context_count;
  int32_t window;
  const int16_t* blosum62;
};

struct ExtensionOutputs {
  DeviceHsp* hsps;
  unsigned long long* hsp_count;
  unsigned long long* extensions;
};

// A hit's subject (in the batch), q and s; its subject's codes and length.
struct HitPlace {
  int32_t subject_index, q, s, length;
  const uint8_t* subject;
};

__device__ HitPlace place_of(const ExtensionInputs& in, uint64_t key) {
  const int32_t local = static_cast<int32_t>(key >> kSubjectShift);
  const int32_t diagonal = static_cast<int32_t>((key >> kOffsetBits) & kOffsetMask);
  HitPlace p;
  p.subject_index = in.first_subject + local;
  const int64_t begin = in.offsets[p.subject_index];
  p.length = static_cast<int32_t>(in.offsets[p.subject_index + 1] - begin);
  p.subject = in.codes + begin;
  p.s = static_cast<int32_t>(key & kOffsetMask);
  p.q = diagonal - p.length + p.s;
  return p;
}

__device__ int32_t context_at(const ExtensionInputs& in, int32_t q) {
  return in.context_count > 1 ? context_of(in.contexts, in.context_count, q) : 0;
}

// The hit-based variant's first kernel: a thread per pair (a hit the filter kept), both halves
// of its extension whether or not the CPU would run them (a grid-stride loop, so that each
// block fills its score table once).
template <class Score>
__global__ void extend_pair_hits(ExtensionInputs in, const int64_t* __restrict__ pair_hits,
                                 int64_t pair_count, PairHalves* __restrict__ halves) {
  extern __shared__ int16_t score_table[];
  const Score score = load_scores<Score>(score_table, in.blosum62, in.query, in.query_length);
  for (int64_t j = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; j < pair_count;
       j += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const HitPlace p = place_of(in, in.sorted[pair_hits[j]]);
    const int32_t x_drop = in.contexts[context_at(in, p.q)].x_drop;
    PairHalves h;
    h.left = gpuseq::blast::extend_left(p.subject, p.q, p.s, x_drop, score);
    h.right =
        gpuseq::blast::extend_right(h.left, in.query_length, p.subject, p.length, x_drop, score);
    halves[j] = h;
  }
}

// Ungapped extension by diagonals (a run of equal subject and diagonal in the sorted hits
// that holds a pair), replaying TwoHitFinder's state machine (two_hit_step) over all of the
// diagonal's hits in subject order; hits an extension covered are skipped by it. The variants:
//   kDiagonal  a thread per diagonal, extensions by SequentialWalk;
//   kWindow    a warp per diagonal, every lane in the same state, extensions by WarpWindowWalk;
//   kHit       a thread per diagonal taking the extensions extend_pair_hits computed (the
//              right half only where the state says it runs); the pairs the state machine
//              skips are the de-duplication.
// A grid-stride loop over diagonals, so that each block fills its score table once.
template <GpuExtension kVariant, class Score>
__global__ void extend_diagonals(ExtensionInputs in, ExtensionOutputs out,
                                 const int64_t* __restrict__ pair_hits, int64_t pair_count,
                                 const PairHalves* __restrict__ halves) {
  constexpr int kLanes = kVariant == GpuExtension::kWindow ? 32 : 1;
  using Walk = std::conditional_t<kLanes == 1, gpuseq::blast::SequentialWalk, WarpWindowWalk>;
  extern __shared__ int16_t score_table[];
  const Score score = load_scores<Score>(score_table, in.blosum62, in.query, in.query_length);
  const int lane = threadIdx.x % kLanes;
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x / kLanes;
  unsigned long long extended = 0;
  for (int64_t r = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / kLanes;
       r < in.run_count; r += stride) {  // the whole warp together when kLanes = 32
    const int64_t begin = in.runs[r];
    const uint64_t diagonal = in.sorted[begin] >> kOffsetBits;
    int64_t end = begin + 1;
    while (end < in.hit_count && in.sorted[end] >> kOffsetBits == diagonal) ++end;

    const HitPlace first = place_of(in, in.sorted[begin]);
    // The hit-based variant's first pair of this diagonal (pair_hits is increasing).
    int64_t next_pair = 0;
    if constexpr (kVariant == GpuExtension::kHit)
      next_pair = lower_bound(pair_hits, int64_t{0}, pair_count, begin);
    DiagonalState state;
    for (int64_t i = begin; i < end; ++i) {
      const int32_t s = static_cast<int32_t>(in.sorted[i] & kOffsetMask);
      const int32_t q = first.q - first.s + s;
      const auto extend = [&](int32_t hq, int32_t hs, int32_t first_end, int32_t x_drop) {
        if constexpr (kVariant == GpuExtension::kHit) {
          while (next_pair < pair_count && pair_hits[next_pair] < i) ++next_pair;
          if (next_pair < pair_count && pair_hits[next_pair] == i) {
            const PairHalves& h = halves[next_pair];
            return gpuseq::blast::right_half_runs(h.left, first_end)
                       ? gpuseq::blast::join_halves(h.left, &h.right)
                       : gpuseq::blast::join_halves(h.left, nullptr);
          }
        }  // not a pair the filter kept (never expected): extended here
        return gpuseq::blast::extend_two_hit(in.query_length, first.subject, first.length, hq, hs,
                                             first_end, x_drop, score, Walk{});
      };
      extended += gpuseq::blast::two_hit_step(
          state, q, s, in.window, in.contexts, [&](int32_t at) { return context_at(in, at); },
          extend,
          [&](const TwoHitExtension& ext, int32_t c) {
            if (lane != 0) return;
            const int32_t start = in.contexts[c].start;
            const unsigned long long slot = atomicAdd(out.hsp_count, 1ull);
            out.hsps[slot] =
                DeviceHsp{first.subject_index, ext.q_start - start, ext.s_start, ext.length,
                          ext.score,           q - start,           s,           c};
          });
    }
  }
  if (lane == 0 && extended) atomicAdd(out.extensions, extended);
}

template <class T>
T read_one(const T* device) {
  T value;
  GPUSEQ_CUDA_CHECK(cudaMemcpy(&value, device, sizeof(T), cudaMemcpyDeviceToHost));
  return value;
}

template <class T>
std::vector<T> read_all(const T* device, size_t n) {
  std::vector<T> host(n);
  if (n) GPUSEQ_CUDA_CHECK(cudaMemcpy(host.data(), device, n * sizeof(T), cudaMemcpyDeviceToHost));
  return host;
}

int64_t blocks_for(int64_t threads, int64_t per_block) {
  return (threads + per_block - 1) / per_block;
}

constexpr int kExtensionThreads = 128;
constexpr size_t kDefaultSharedLimit = 48 * 1024;

// Blocks for a grid-stride kernel: as many as fit on the device at once, no more than the work.
template <class Kernel>
int64_t resident_blocks(Kernel kernel, size_t shared_bytes, int64_t work_threads,
                        int block_threads = kExtensionThreads) {
  if (shared_bytes > kDefaultSharedLimit)
    GPUSEQ_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(shared_bytes)));
  int per_sm = 0, device = 0, sms = 0;
  GPUSEQ_CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block_threads, shared_bytes));
  GPUSEQ_CUDA_CHECK(cudaGetDevice(&device));
  GPUSEQ_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  if (per_sm < 1)
    throw std::invalid_argument("the kernel's shared memory (" + std::to_string(shared_bytes) +
                                " bytes: score table or DP rings) does not fit");
  return std::max<int64_t>(
      1, std::min<int64_t>(int64_t{per_sm} * sms, blocks_for(work_threads, block_threads)));
}

// The extension of one batch's diagonals by `variant`, scores read through Score.
template <class Score>
void extend_batch(GpuExtension variant, const ExtensionInputs& in, const ExtensionOutputs& out,
                  const int64_t* pair_hits, int64_t pair_count, PairHalves* halves) {
  const size_t shared_bytes =
      sizeof(int16_t) * kAlphabetSize * (Score::kPssm ? in.query_length : kAlphabetSize);
  if (variant == GpuExtension::kHit) {
    const auto first = extend_pair_hits<Score>;
    extend_pair_hits<Score>
        <<<resident_blocks(first, shared_bytes, pair_count), kExtensionThreads, shared_bytes>>>(
            in, pair_hits, pair_count, halves);
    GPUSEQ_CUDA_CHECK_LAUNCH("extend_pair_hits");
  }
  const auto kernel = variant == GpuExtension::kHit ? extend_diagonals<GpuExtension::kHit, Score>
                      : variant == GpuExtension::kWindow
                          ? extend_diagonals<GpuExtension::kWindow, Score>
                          : extend_diagonals<GpuExtension::kDiagonal, Score>;
  const int64_t lanes = variant == GpuExtension::kWindow ? 32 : 1;
  kernel<<<resident_blocks(kernel, shared_bytes, in.run_count * lanes), kExtensionThreads,
           shared_bytes>>>(in, out, pair_hits, pair_count, halves);
  GPUSEQ_CUDA_CHECK_LAUNCH("extend_diagonals");
}

// Device memory kept from batch to batch, grown to the largest size asked for (a cudaMalloc
// and a cudaFree per array and batch cost more than small batches' kernels).
template <class T>
class Scratch {
 public:
  T* get(size_t count) {
    if (count > capacity_) {
      data_.reset();
      capacity_ = 0;
      data_ = device_alloc<T>(count + count / 4);
      capacity_ = count + count / 4;
    }
    return data_.get();
  }
  void upload(const std::vector<T>& host) {
    T* d = get(host.size());
    if (!host.empty())
      GPUSEQ_CUDA_CHECK(
          cudaMemcpy(d, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  T* data() const { return data_.get(); }

 private:
  DeviceArray<T> data_;
  size_t capacity_ = 0;
};

// The per-batch arrays of gpu_ungapped_hsps.
struct BatchBuffers {
  Scratch<int64_t> base, segment_offsets, runs, selected, pair_hits;
  Scratch<int32_t> bin_counts, max_count, cap, redo;
  Scratch<uint64_t> hits, redone_hits, assembled, sorted;
  Scratch<uint8_t> temp, pair_run, pair;
  Scratch<int64_t> segment_base;
  Scratch<int32_t> bins;
  Scratch<DeviceHsp> hsps, ordered;
  Scratch<PairHalves> halves;
  Scratch<uint64_t> hsp_keys, hsp_keys_sorted;
  Scratch<int32_t> hsp_index, hsp_index_sorted;
  // hit_tiles.cuh's
  Scratch<HitTile> tiles;
  Scratch<SubjectTiles> subject_tiles;
  Scratch<int64_t> subject_kept, kept_first;
  Scratch<int64_t> subject_hits, subject_first, large_begin, large_end;
  Scratch<unsigned long long> tile_counters;  // tiles, large tiles
  Scratch<int> failed;
};

// extend_seeds' DP: the warp's (warp_gapped.cuh), its rows in the warp's ring of columns.
struct WarpRingDp {
  const int* matrix;
  int32_t x_drop, gap_open, gap_extend;
  gpuseq::blast::DpColumn* ring;
  int32_t mask, max_rows;
  template <int Step>
  __device__ bool operator()(const gpuseq::blast::DirectedLetters<Step>& a,
                             const gpuseq::blast::DirectedLetters<Step>& b,
                             gpuseq::blast::DpEnd& end) const {
    return warp_semi_gapped_dp(a, b, matrix, gap_open, gap_extend, x_drop, ring, mask, max_rows,
                               end);
  }
};

constexpr int kSeedWarps = 4;  // warps a block, each with a ring of its own

// The preliminary gapped stage's extension of every HSP (semi_gapped.hpp's extend_seed, the
// CPU's own code, with the warp's DP), a warp per HSP, ahead of the CPU's containment test,
// which then runs none of the DPs it keeps. A warp's DP rows are a ring of ring_columns
// columns in shared memory; an HSP whose live columns do not fit, or whose DP runs past
// max_rows rows in a direction, comes back not done (the CPU extends it). Contexts with
// gapped_x_drop 0 get nothing (done = 0).
__global__ void extend_seeds(const DeviceHsp* __restrict__ hsps, int64_t count,
                             const uint8_t* __restrict__ codes, const int64_t* __restrict__ offsets,
                             const uint8_t* __restrict__ query,
                             const QueryContext* __restrict__ contexts,
                             const int16_t* __restrict__ matrix, int32_t ring_columns,
                             int32_t max_rows, SeedExtension* __restrict__ out) {
  extern __shared__ gpuseq::blast::DpColumn seed_rings[];
  __shared__ int scores[kAlphabetSize * kAlphabetSize];
  for (int k = threadIdx.x; k < kAlphabetSize * kAlphabetSize; k += blockDim.x)
    scores[k] = matrix[k];
  __syncthreads();
  const int warp = static_cast<int>(threadIdx.x / 32), lane = static_cast<int>(threadIdx.x & 31);
  const WarpRingDp dp{scores, 0, 0, 0, seed_rings + warp * ring_columns, ring_columns - 1,
                      max_rows};
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * kSeedWarps + warp; i < count;
       i += static_cast<int64_t>(gridDim.x) * kSeedWarps) {
    const DeviceHsp h = hsps[i];
    const QueryContext c = contexts[h.context];
    SeedExtension x;
    if (c.gapped_x_drop > 0) {
      const int64_t s0 = offsets[h.subject];
      WarpRingDp context_dp = dp;
      context_dp.x_drop = c.gapped_x_drop;
      context_dp.gap_open = c.gap_open;
      context_dp.gap_extend = c.gap_extend;
      x = gpuseq::blast::extend_seed(query + c.start, c.length, codes + s0,
                                     static_cast<int32_t>(offsets[h.subject + 1] - s0), h.q_start,
                                     h.s_start, h.length, scores, context_dp);
    }
    if (lane == 0) out[i] = x;
  }
}

// An HSP's place in the CPU's finding order: its subject in the batch, then the second
// hit's subject offset, then its offset in the whole query buffer (subject < 2^22, offsets
// < 2^21).
__global__ void hsp_order_keys(const DeviceHsp* __restrict__ hsps, int64_t count,
                               int32_t first_subject, const QueryContext* __restrict__ contexts,
                               uint64_t* __restrict__ keys, int32_t* __restrict__ index) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const DeviceHsp h = hsps[i];
  const uint64_t q = static_cast<uint64_t>(h.seed_q + contexts[h.context].start);
  keys[i] = static_cast<uint64_t>(h.subject - first_subject) << kSubjectShift |
            static_cast<uint64_t>(h.seed_s) << kOffsetBits | q;
  index[i] = static_cast<int32_t>(i);
}

__global__ void gather_hsps(const DeviceHsp* __restrict__ hsps, const int32_t* __restrict__ index,
                            int64_t count, DeviceHsp* __restrict__ ordered) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) ordered[i] = hsps[index[i]];
}

// A batch's HSPs in the CPU's finding order (subject, subject offset, query offset), sorted
// on the device: `ordered` there, and their copy on the host.
std::vector<SubjectHsp> ordered_hsps(const DeviceHsp* d_hsps, int64_t count, int32_t first_subject,
                                     const QueryContext* d_contexts, BatchBuffers& buffers) {
  std::vector<SubjectHsp> result;
  if (count == 0) return result;
  if (count >= (int64_t{1} << 31)) throw std::length_error("more than 2^31 HSPs in one batch");
  uint64_t* keys = buffers.hsp_keys.get(count);
  uint64_t* keys_sorted = buffers.hsp_keys_sorted.get(count);
  int32_t* index = buffers.hsp_index.get(count);
  int32_t* index_sorted = buffers.hsp_index_sorted.get(count);
  DeviceHsp* ordered = buffers.ordered.get(count);
  hsp_order_keys<<<blocks_for(count, 256), 256>>>(d_hsps, count, first_subject, d_contexts, keys,
                                                  index);
  GPUSEQ_CUDA_CHECK_LAUNCH("hsp_order_keys");
  size_t temp_bytes = 0;
  GPUSEQ_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, keys, keys_sorted, index,
                                                    index_sorted, count));
  GPUSEQ_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(buffers.temp.get(temp_bytes), temp_bytes, keys,
                                                    keys_sorted, index, index_sorted, count));
  gather_hsps<<<blocks_for(count, 256), 256>>>(d_hsps, index_sorted, count, ordered);
  GPUSEQ_CUDA_CHECK_LAUNCH("gather_hsps");
  const std::vector<DeviceHsp> found = read_all(ordered, static_cast<size_t>(count));
  result.reserve(found.size());
  for (const DeviceHsp& h : found)
    result.push_back(SubjectHsp{
        h.subject,
        UngappedHsp{h.q_start, h.s_start, h.length, h.score, h.seed_q, h.seed_s, h.context},
        SeedExtension{}});
  return result;
}

// Each subject's HSPs by score, ties as on the CPU (a stable sort of the finding order).
void sort_subjects_by_score(std::vector<SubjectHsp>& hsps) {
  for (size_t i = 0; i < hsps.size();) {
    size_t j = i;
    while (j < hsps.size() && hsps[j].subject == hsps[i].subject) ++j;
    std::stable_sort(hsps.begin() + static_cast<std::ptrdiff_t>(i),
                     hsps.begin() + static_cast<std::ptrdiff_t>(j),
                     [](const SubjectHsp& a, const SubjectHsp& b) {
                       return gpuseq::blast::ranks_before(a.hsp, b.hsp);
                     });
    i = j;
  }
}

// A non-blocking stream of our own (no implicit order with the legacy default stream, on
// which the batches' other work runs).
class OwnedStream {
 public:
  OwnedStream() { GPUSEQ_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~OwnedStream() { cudaStreamDestroy(stream_); }
  OwnedStream(const OwnedStream&) = delete;
  OwnedStream& operator=(const OwnedStream&) = delete;
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_{};
};

// A batch whose seed extensions run on a stream of their own while the GPU goes on with the
// next batches (a batch's few thousand HSPs fill a fraction of the GPU; the first version, a
// thread per HSP, took ~30 ms a batch), so the extensions of kSeedBatchesInFlight batches
// run at once beside detection. Its HSPs are handed over (in batch order) once they are done.
constexpr int kSeedBatchesInFlight = 4;
struct SeedBatch {
  Scratch<DeviceHsp> hsps;  // the batch's ordered HSPs (the next batch reuses `ordered`)
  Scratch<SeedExtension> extensions;
  std::vector<SubjectHsp> found;  // finding order
  int32_t first = 0, last = 0;
  bool extended = false;
  std::unique_ptr<OwnedStream> stream;
  std::unique_ptr<DeviceTimer> timer;
};

}  // namespace

struct DeviceSubjects::Arrays {
  DeviceArray<uint8_t> codes;
  DeviceArray<int64_t> offsets;
};

DeviceSubjects::DeviceSubjects(const uint8_t* codes, const int64_t* offsets, int32_t count)
    : host_codes_(codes),
      host_offsets_(offsets),
      count_(count),
      residues_(count >= 0 ? offsets[count] : 0) {
  if (count < 0 || offsets[0] != 0)
    throw std::invalid_argument("resident subjects: offsets must start at 0");
  arrays_ = std::make_unique<Arrays>(Arrays{device_copy(codes, static_cast<size_t>(residues_)),
                                            device_copy(offsets, static_cast<size_t>(count) + 1)});
}
DeviceSubjects::~DeviceSubjects() = default;
const uint8_t* DeviceSubjects::device_codes() const { return arrays_->codes.get(); }
const int64_t* DeviceSubjects::device_offsets() const { return arrays_->offsets.get(); }

void gpu_ungapped_hsps(const gpuseq::blast::WordLookup& lookup, const uint8_t* query,
                       const std::vector<QueryContext>& contexts, int32_t window,
                       const uint8_t* codes, const int64_t* offsets, int32_t subject_count,
                       const GpuUngappedOptions& options, GpuUngappedCounters* counters,
                       const SubjectHspSink& sink, const DeviceSubjects* resident) {
  if (resident && !resident->holds(codes, offsets, subject_count))
    throw std::invalid_argument("the resident subjects were made from other arrays");
  if (options.bins < 0 || options.bins > 1024 || (options.bins & (options.bins - 1)) != 0)
    throw std::invalid_argument("bins must be 0 (automatic) or a power of two from 1 to 1024");
  if (options.bin_capacity < 0) throw std::invalid_argument("bin_capacity must be >= 0");
  if (options.hits_per_bin < 1) throw std::invalid_argument("hits_per_bin must be positive");
  if (contexts.empty()) throw std::invalid_argument("no query contexts");
  const int32_t query_length = contexts.back().start + contexts.back().length;
  int64_t longest = 0;
  for (int32_t i = 0; i < subject_count; ++i)
    longest = std::max(longest, offsets[i + 1] - offsets[i]);
  if (query_length + longest >= (int64_t{1} << kOffsetBits))
    throw std::invalid_argument(
        "the GPU ungapped stage takes queries plus subjects of fewer than " +
        std::to_string(int64_t{1} << kOffsetBits) + " residues");
  if (options.scoring == GpuScoring::kPssm && query_length > kPssmMaxQuery)
    throw std::invalid_argument("a query PSSM in shared memory holds at most " +
                                std::to_string(kPssmMaxQuery) +
                                " residues (queries: " + std::to_string(query_length) + ")");
  const bool pssm = options.scoring == GpuScoring::kPssm ||
                    (options.scoring == GpuScoring::kAuto && query_length <= kPssmLongestQuery);
  if (options.batch_hits < 0) throw std::invalid_argument("batch_hits must be >= 0");
  if (options.seed_ring_columns < 32 ||
      (options.seed_ring_columns & (options.seed_ring_columns - 1)) != 0)
    throw std::invalid_argument("seed_ring_columns must be a power of two, at least 32");
  if (options.seed_max_rows < 1) throw std::invalid_argument("seed_max_rows must be positive");
  const bool extend =
      options.extend_seeds && std::any_of(contexts.begin(), contexts.end(),
                                          [](const auto& c) { return c.gapped_x_drop > 0; });
  GpuUngappedCounters count;
  if (subject_count == 0) return;
  gpuseq::Stopwatch clock;  // the stage times of GpuUngappedCounters

  // Inputs resident for every batch: subjects (uploaded here unless resident across
  // searches), query, contexts, the lookup and its matrix.
  DeviceArray<uint8_t> uploaded_codes;
  DeviceArray<int64_t> uploaded_offsets;
  if (!resident) {
    const int64_t residues = offsets[subject_count] - offsets[0];
    uploaded_codes = device_copy(codes, static_cast<size_t>(residues + offsets[0]));
    uploaded_offsets = device_copy(offsets, static_cast<size_t>(subject_count) + 1);
  }
  const uint8_t* const d_codes = resident ? resident->device_codes() : uploaded_codes.get();
  const int64_t* const d_offsets = resident ? resident->device_offsets() : uploaded_offsets.get();
  auto d_query = device_copy(query, static_cast<size_t>(query_length));
  auto d_contexts = device_copy(contexts.data(), contexts.size());
  auto d_cell_start = device_copy(lookup.cell_starts(), static_cast<size_t>(kWordCells) + 1);
  auto d_cell_offsets = device_copy(lookup.offsets(), static_cast<size_t>(lookup.entries()));
  DeviceArray<int32_t> d_sorted_offsets;  // each cell's offsets increasing (place_tile_hits)
  if (options.sort == GpuHitSort::kTiles) {
    std::vector<int32_t> sorted_offsets(lookup.offsets(), lookup.offsets() + lookup.entries());
    for (int c = 0; c < kWordCells; ++c)
      std::sort(sorted_offsets.begin() + lookup.cell_starts()[c],
                sorted_offsets.begin() + lookup.cell_starts()[c + 1]);
    d_sorted_offsets = device_copy(sorted_offsets.data(), sorted_offsets.size());
  }
  std::vector<uint32_t> presence(kPresenceWords, 0);
  for (int c = 0; c < kWordCells; ++c)
    if (lookup.end(c) != lookup.begin(c)) presence[c / 32] |= 1u << (c % 32);
  auto d_presence = device_copy(presence.data(), presence.size());
  std::vector<int16_t> matrix(kAlphabetSize * kAlphabetSize);  // kScoreMin fits
  for (int a = 0; a < kAlphabetSize; ++a)
    for (int b = 0; b < kAlphabetSize; ++b)
      matrix[a * kAlphabetSize + b] = static_cast<int16_t>(lookup.matrix()[a][b]);
  auto d_matrix = device_copy(matrix.data(), matrix.size());
  auto d_counters = device_alloc<unsigned long long>(3);  // pairs, HSPs, extensions
  count.upload_s += clock.lap();

  // Bins per subject: options.bins, or (0) enough for about hits_per_bin expected hits each
  // (words x the lookup's mean list length over the 20^3 words of real residues): CUB's
  // segmented sort slows down by up to 15x where bins hold a hundred hits or more
  // (bench_blast_gpu_stages.py). Slots per bin: twice its expected hits, plus a few.
  const double mean_list = static_cast<double>(lookup.entries()) / 8000.0;
  std::vector<int32_t> bins(subject_count), capacity(subject_count);
  int32_t max_bins = 1;
  for (int32_t i = 0; i < subject_count; ++i) {
    const int64_t words = std::max<int64_t>(0, offsets[i + 1] - offsets[i] - (kTwoHitWord - 1));
    const double expected = static_cast<double>(words) * mean_list;
    int32_t b = options.bins;
    if (b == 0)
      for (b = 1; b < kMaxAutoBins && b * options.hits_per_bin < expected;) b *= 2;
    bins[i] = b;
    max_bins = std::max(max_bins, b);
    capacity[i] = words == 0 ? 0
                  : options.bin_capacity > 0
                      ? options.bin_capacity
                      : static_cast<int32_t>(std::ceil(2.0 * expected / b)) + 4;
  }
  const size_t shared_bytes = sizeof(uint32_t) * (kPresenceWords + max_bins);
  int64_t batch_hits = options.batch_hits;
  if (batch_hits == 0) {  // from the free device memory (about 40 bytes per slot at worst)
    size_t free_bytes = 0, total_bytes = 0;
    GPUSEQ_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    batch_hits = std::clamp<int64_t>(static_cast<int64_t>(free_bytes / 64), int64_t{1} << 20,
                                     kDefaultBatchHitsLimit);
  }
  BatchBuffers buffers;
  thrust::counting_iterator<int64_t> index(0);

  // The paper's way (GpuHitSort::kBins) to the hits of subjects [batch_first, last) sorted by
  // key within each bin: detection into bins, assembling, CUB's segmented sort. Returns
  // their number, `sorted` pointing at them.
  const auto sort_by_bins = [&](int32_t batch_first, int32_t last, GpuUngappedCounters& added,
                                uint64_t*& sorted) -> int64_t {
    const int32_t n = last - batch_first;
    std::vector<int64_t> segment_base(n + 1, 0);
    for (int32_t i = 0; i < n; ++i) segment_base[i + 1] = segment_base[i] + bins[batch_first + i];
    const int64_t segments = segment_base[n];
    buffers.segment_base.upload(segment_base);
    buffers.bins.upload(std::vector<int32_t>(bins.begin() + batch_first, bins.begin() + last));

    // Detection.
    int32_t* d_bin_counts = buffers.bin_counts.get(segments);
    int32_t* d_max_count = buffers.max_count.get(n);
    std::vector<int32_t> cap(capacity.begin() + batch_first, capacity.begin() + last);
    std::vector<int64_t> base(n);
    int64_t total_slots = 0;
    for (int32_t i = 0; i < n; ++i) {
      base[i] = total_slots;
      total_slots += int64_t{bins[batch_first + i]} * cap[i];
    }
    HitSlots slots{buffers.hits.get(total_slots), nullptr, total_slots};
    buffers.base.upload(base);
    buffers.cap.upload(cap);
    detect_hits<<<n, kDetectWarps * 32, shared_bytes>>>(
        d_codes, d_offsets, batch_first, nullptr, d_presence.get(), d_cell_start.get(),
        d_cell_offsets.get(), buffers.bins.data(), buffers.segment_base.data(), buffers.base.data(),
        buffers.cap.data(), slots, d_bin_counts, d_max_count);
    GPUSEQ_CUDA_CHECK_LAUNCH("detect_hits");
    std::vector<int32_t> largest = read_all(d_max_count, n);
    // The subjects whose largest bin overflowed are detected again, alone, with bins of that
    // size in slots of their own.
    std::vector<int32_t> redo;
    int64_t redo_slots = 0;
    for (int32_t i = 0; i < n; ++i)
      if (largest[i] > cap[i]) {
        cap[i] = largest[i];
        base[i] = total_slots + redo_slots;
        redo_slots += int64_t{bins[batch_first + i]} * cap[i];
        redo.push_back(i);
      }
    if (!redo.empty()) {
      added.overflowed_subjects += static_cast<int64_t>(redo.size());
      slots.redone = buffers.redone_hits.get(redo_slots);
      buffers.base.upload(base);
      buffers.cap.upload(cap);
      buffers.redo.upload(redo);
      const auto count = static_cast<int32_t>(redo.size());
      detect_hits<<<count, kDetectWarps * 32, shared_bytes>>>(
          d_codes, d_offsets, batch_first, buffers.redo.data(), d_presence.get(),
          d_cell_start.get(), d_cell_offsets.get(), buffers.bins.data(),
          buffers.segment_base.data(), buffers.base.data(), buffers.cap.data(), slots, d_bin_counts,
          d_max_count);
      GPUSEQ_CUDA_CHECK_LAUNCH("detect_hits (overflowed subjects)");
      largest = read_all(d_max_count, n);
      for (int32_t i : redo)
        if (largest[i] > cap[i])
          throw std::logic_error("GPU hit detection: a bin overflowed twice");
    }
    added.detect_s += clock.lap();

    // Assembling: the bins' hits back to back (segment g: bin g - segment_base[i] of subject i).
    int64_t* d_segment_offsets = buffers.segment_offsets.get(segments + 1);
    GPUSEQ_CUDA_CHECK(cudaMemset(d_segment_offsets, 0, sizeof(int64_t)));
    size_t temp_bytes = 0;
    // Summed in 64 bits: counts past the slots (overflows) can be large.
    const auto counts = thrust::make_transform_iterator(d_bin_counts, Widen{});
    GPUSEQ_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, temp_bytes, counts,
                                                    d_segment_offsets + 1, segments));
    GPUSEQ_CUDA_CHECK(cub::DeviceScan::InclusiveSum(buffers.temp.get(temp_bytes), temp_bytes,
                                                    counts, d_segment_offsets + 1, segments));
    const int64_t hit_count = read_one(d_segment_offsets + segments);
    added.word_hits += hit_count;
    if (hit_count == 0) return hit_count;
    uint64_t* d_assembled = buffers.assembled.get(hit_count);
    assemble_hits<<<blocks_for(segments * 32, 256), 256>>>(
        slots, buffers.segment_base.data(), n, buffers.base.data(), buffers.cap.data(),
        d_segment_offsets, segments, d_assembled);
    GPUSEQ_CUDA_CHECK_LAUNCH("assemble_hits");

    // Sort within each bin: by diagonal, then subject offset.
    uint64_t* d_sorted = buffers.sorted.get(hit_count);
    temp_bytes = 0;
    GPUSEQ_CUDA_CHECK(cub::DeviceSegmentedSort::SortKeys(nullptr, temp_bytes, d_assembled, d_sorted,
                                                         hit_count, segments, d_segment_offsets,
                                                         d_segment_offsets + 1));
    GPUSEQ_CUDA_CHECK(cub::DeviceSegmentedSort::SortKeys(buffers.temp.get(temp_bytes), temp_bytes,
                                                         d_assembled, d_sorted, hit_count, segments,
                                                         d_segment_offsets, d_segment_offsets + 1));
    GPUSEQ_CUDA_CHECK(cudaDeviceSynchronize());
    sorted = d_sorted;
    return hit_count;
  };

  // hit_tiles.cuh's way: the hits of subjects [batch_first, last) on the diagonals that hold a
  // pair, sorted by key (all the diagonal's hits). Returns their number (all the hits are
  // counted in added.word_hits), `sorted` pointing at them.
  const auto sort_by_tiles = [&](int32_t batch_first, int32_t last, GpuUngappedCounters& added,
                                 uint64_t*& sorted) -> int64_t {
    const int32_t n = last - batch_first;
    int64_t* d_subject_hits = buffers.subject_hits.get(n);
    SubjectTiles* d_subject_tiles = buffers.subject_tiles.get(n);
    unsigned long long* d_tile_counters = buffers.tile_counters.get(2);
    // Tiles: about one per half tile of expected hits and one per kTileDiagonals diagonals;
    // a list too short is counted, and the kernel runs again with the exact length.
    int64_t expected = 0, tile_capacity = 0;
    for (int32_t i = batch_first; i < last; ++i) {
      expected += int64_t{bins[i]} * capacity[i];
      tile_capacity += (query_length + offsets[i + 1] - offsets[i]) / kTileDiagonals + 2;
    }
    tile_capacity += 2 * expected / kTileHits;
    int64_t tile_count = 0;
    for (;;) {
      HitTile* d_tiles = buffers.tiles.get(tile_capacity);
      GPUSEQ_CUDA_CHECK(cudaMemset(d_tile_counters, 0, 2 * sizeof(unsigned long long)));
      const int64_t count_grid = resident_blocks(count_tile_hits, kCountTileShared,
                                                 int64_t{n} * kTileThreads, kTileThreads);
      count_tile_hits<<<count_grid, kTileThreads, kCountTileShared>>>(
          d_codes, d_offsets, batch_first, n, d_presence.get(), d_cell_start.get(),
          d_cell_offsets.get(), query_length, d_subject_hits, d_subject_tiles, d_tiles,
          tile_capacity, d_tile_counters);
      GPUSEQ_CUDA_CHECK_LAUNCH("count_tile_hits");
      tile_count = static_cast<int64_t>(read_one(d_tile_counters));
      if (tile_count <= tile_capacity) break;
      tile_capacity = tile_count;
    }
    int64_t* d_subject_first = buffers.subject_first.get(n + 1);
    GPUSEQ_CUDA_CHECK(cudaMemset(d_subject_first, 0, sizeof(int64_t)));
    size_t temp_bytes = 0;
    GPUSEQ_CUDA_CHECK(
        cub::DeviceScan::InclusiveSum(nullptr, temp_bytes, d_subject_hits, d_subject_first + 1, n));
    GPUSEQ_CUDA_CHECK(cub::DeviceScan::InclusiveSum(buffers.temp.get(temp_bytes), temp_bytes,
                                                    d_subject_hits, d_subject_first + 1, n));
    const int64_t hit_count = read_one(d_subject_first + n);
    added.word_hits += hit_count;
    added.detect_s += clock.lap();
    if (hit_count == 0) return hit_count;

    uint64_t* d_sorted = buffers.sorted.get(hit_count);
    const int64_t large_capacity = tile_count;
    int64_t* d_large_begin = buffers.large_begin.get(large_capacity);
    int64_t* d_large_end = buffers.large_end.get(large_capacity);
    int* d_failed = buffers.failed.get(1);
    GPUSEQ_CUDA_CHECK(cudaMemset(d_failed, 0, sizeof(int)));
    int64_t* d_subject_kept = buffers.subject_kept.get(n);
    const int64_t grid =
        resident_blocks(place_tile_hits, kPlaceTileShared, int64_t{n} * kTileThreads, kTileThreads);
    place_tile_hits<<<grid, kTileThreads, kPlaceTileShared>>>(
        d_codes, d_offsets, batch_first, n, d_presence.get(), d_cell_start.get(),
        d_sorted_offsets.get(), query_length, window, d_subject_tiles, buffers.tiles.data(),
        d_subject_first, d_sorted, d_subject_kept, d_large_begin, d_large_end, d_tile_counters + 1,
        d_failed);
    GPUSEQ_CUDA_CHECK_LAUNCH("place_tile_hits");
    const auto large = static_cast<int64_t>(read_one(d_tile_counters + 1));
    if (read_one(d_failed))
      throw std::logic_error("GPU hit detection: a tile found other hits than were counted");
    if (large > 0) {  // sorted by CUB into `assembled`, then copied back
      added.large_tiles += large;
      uint64_t* d_temp_keys = buffers.assembled.get(hit_count);
      temp_bytes = 0;
      GPUSEQ_CUDA_CHECK(cub::DeviceSegmentedSort::SortKeys(nullptr, temp_bytes, d_sorted,
                                                           d_temp_keys, hit_count, large,
                                                           d_large_begin, d_large_end));
      GPUSEQ_CUDA_CHECK(cub::DeviceSegmentedSort::SortKeys(buffers.temp.get(temp_bytes), temp_bytes,
                                                           d_sorted, d_temp_keys, hit_count, large,
                                                           d_large_begin, d_large_end));
      copy_large_tiles<<<large, 256>>>(d_temp_keys, d_sorted, d_large_begin, d_large_end);
      GPUSEQ_CUDA_CHECK_LAUNCH("copy_large_tiles");
    }
    // The subjects' written hits, each at the start of its subject's place, gathered.
    int64_t* d_kept_first = buffers.kept_first.get(n + 1);
    GPUSEQ_CUDA_CHECK(cudaMemset(d_kept_first, 0, sizeof(int64_t)));
    temp_bytes = 0;
    GPUSEQ_CUDA_CHECK(
        cub::DeviceScan::InclusiveSum(nullptr, temp_bytes, d_subject_kept, d_kept_first + 1, n));
    GPUSEQ_CUDA_CHECK(cub::DeviceScan::InclusiveSum(buffers.temp.get(temp_bytes), temp_bytes,
                                                    d_subject_kept, d_kept_first + 1, n));
    const int64_t kept_count = read_one(d_kept_first + n);
    if (kept_count == 0) return kept_count;
    uint64_t* d_kept = buffers.assembled.get(kept_count);
    gather_kept_hits<<<resident_blocks(gather_kept_hits, 0, int64_t{n} * 32, 256), 256>>>(
        d_sorted, d_subject_first, d_kept_first, n, d_kept);
    GPUSEQ_CUDA_CHECK_LAUNCH("gather_kept_hits");
    GPUSEQ_CUDA_CHECK(cudaDeviceSynchronize());
    sorted = d_kept;
    return kept_count;
  };

  // One batch of subjects [batch_first, last): its HSPs (empty: none), the counters added to
  // `added`.
  const auto run_batch = [&](int32_t batch_first, int32_t last, GpuUngappedCounters& added) {
    std::vector<SubjectHsp> found;
    uint64_t* d_sorted = nullptr;
    const int64_t hit_count = options.sort == GpuHitSort::kBins
                                  ? sort_by_bins(batch_first, last, added, d_sorted)
                                  : sort_by_tiles(batch_first, last, added, d_sorted);
    added.sort_s += clock.lap();
    if (hit_count == 0) return found;

    // Filter, then the diagonals (runs) as a list of their first hits.
    uint8_t* d_pair_run = buffers.pair_run.get(hit_count);
    GPUSEQ_CUDA_CHECK(cudaMemset(d_pair_run, 0, static_cast<size_t>(hit_count)));
    uint8_t* d_pair = buffers.pair.get(hit_count);
    GPUSEQ_CUDA_CHECK(cudaMemset(d_counters.get(), 0, 3 * sizeof(unsigned long long)));
    filter_pairs<<<resident_blocks(filter_pairs, 0, hit_count, 256), 256>>>(
        d_sorted, hit_count, window, d_pair_run, d_pair, d_counters.get());
    GPUSEQ_CUDA_CHECK_LAUNCH("filter_pairs");
    const int64_t pair_count = static_cast<int64_t>(read_one(d_counters.get()));
    added.pairs += pair_count;
    added.filter_s += clock.lap();
    if (pair_count == 0) return found;
    int64_t* d_runs = buffers.runs.get(hit_count);
    int64_t* d_selected = buffers.selected.get(1);
    size_t temp_bytes = 0;
    GPUSEQ_CUDA_CHECK(cub::DeviceSelect::Flagged(nullptr, temp_bytes, index, d_pair_run, d_runs,
                                                 d_selected, hit_count));
    GPUSEQ_CUDA_CHECK(cub::DeviceSelect::Flagged(buffers.temp.get(temp_bytes), temp_bytes, index,
                                                 d_pair_run, d_runs, d_selected, hit_count));
    const int64_t run_count = read_one(d_selected);

    // Extension: at most one HSP per pair.
    DeviceHsp* d_hsps = buffers.hsps.get(pair_count);
    int64_t* d_pair_hits = nullptr;
    PairHalves* d_halves = nullptr;
    if (options.extension == GpuExtension::kHit) {
      d_pair_hits = buffers.pair_hits.get(pair_count);
      temp_bytes = 0;
      GPUSEQ_CUDA_CHECK(cub::DeviceSelect::Flagged(nullptr, temp_bytes, index, d_pair, d_pair_hits,
                                                   d_selected, hit_count));
      GPUSEQ_CUDA_CHECK(cub::DeviceSelect::Flagged(buffers.temp.get(temp_bytes), temp_bytes, index,
                                                   d_pair, d_pair_hits, d_selected, hit_count));
      d_halves = buffers.halves.get(pair_count);
    }
    const ExtensionInputs in{d_sorted,
                             d_runs,
                             run_count,
                             hit_count,
                             d_codes,
                             d_offsets,
                             batch_first,
                             d_query.get(),
                             query_length,
                             d_contexts.get(),
                             static_cast<int32_t>(contexts.size()),
                             window,
                             d_matrix.get()};
    const ExtensionOutputs out{d_hsps, d_counters.get() + 1, d_counters.get() + 2};
    if (pssm)
      extend_batch<PssmScore>(options.extension, in, out, d_pair_hits, pair_count, d_halves);
    else
      extend_batch<Blosum62Score>(options.extension, in, out, d_pair_hits, pair_count, d_halves);
    const std::vector<unsigned long long> done = read_all(d_counters.get(), 3);
    added.extensions += static_cast<int64_t>(done[2]);
    const int64_t hsp_count = static_cast<int64_t>(done[1]);
    added.extend_s += clock.lap();
    found = ordered_hsps(d_hsps, hsp_count, batch_first, d_contexts.get(), buffers);
    added.order_s += clock.lap();
    return found;
  };

  // The seed extensions of a batch run while the next batches are found; each batch is handed
  // over once its extensions are in (batches in order).
  const size_t seed_shared =
      sizeof(gpuseq::blast::DpColumn) * kSeedWarps * static_cast<size_t>(options.seed_ring_columns);
  SeedBatch seed_batches[kSeedBatchesInFlight];
  int64_t next_batch = 0, next_handed = 0;
  const auto launch_seeds = [&](SeedBatch& b, const DeviceHsp* ordered) {
    const auto n = static_cast<int64_t>(b.found.size());
    DeviceHsp* in = b.hsps.get(n);
    SeedExtension* out = b.extensions.get(n);
    GPUSEQ_CUDA_CHECK(cudaMemcpy(in, ordered, n * sizeof(DeviceHsp), cudaMemcpyDeviceToDevice));
    if (!b.stream) {
      b.stream = std::make_unique<OwnedStream>();
      b.timer = std::make_unique<DeviceTimer>(b.stream->get());
    }
    // The copy is on the legacy default stream, which a non-blocking stream does not wait for.
    GPUSEQ_CUDA_CHECK(cudaStreamSynchronize(nullptr));
    b.timer->start();
    const int64_t blocks = resident_blocks(extend_seeds, seed_shared, n * 32, kSeedWarps * 32);
    extend_seeds<<<blocks, kSeedWarps * 32, seed_shared, b.stream->get()>>>(
        in, n, d_codes, d_offsets, d_query.get(), d_contexts.get(), d_matrix.get(),
        options.seed_ring_columns, options.seed_max_rows, out);
    GPUSEQ_CUDA_CHECK_LAUNCH("extend_seeds");
    b.timer->stop();
  };
  const auto hand_over = [&](SeedBatch& b) {
    if (b.extended) {
      gpuseq::Stopwatch waited;
      count.seed_s += b.timer->seconds();
      std::vector<SeedExtension> x(b.found.size());
      copy_to_host_on(x.data(), b.extensions.data(), x.size(), b.stream->get());
      count.seed_wait_s += waited.lap();
      for (size_t i = 0; i < x.size(); ++i) {
        b.found[i].extension = x[i];
        count.seed_extensions += x[i].done;
      }
    }
    sort_subjects_by_score(b.found);
    ++next_handed;
    sink(b.first, b.last, b.found);
  };
  // Hands over the batches before `until` in order, and then those whose extensions are done.
  const auto hand_over_until = [&](int64_t until) {
    for (; next_handed < next_batch;) {
      SeedBatch& b = seed_batches[next_handed % kSeedBatchesInFlight];
      if (next_handed >= until && b.extended && !b.timer->stopped()) break;
      hand_over(b);
    }
  };

  for (int32_t first = 0; first < subject_count;) {
    // A batch: subjects while their slots fit batch_hits (at least one subject).
    int32_t last = first;
    int64_t slots = 0;
    while (last < subject_count && last - first < kMaxBatchSubjects &&
           (last == first || slots + int64_t{bins[last]} * capacity[last] <= batch_hits)) {
      slots += int64_t{bins[last]} * capacity[last];
      ++last;
    }
    GpuUngappedCounters added;
    std::vector<SubjectHsp> found;
    try {
      found = run_batch(first, last, added);
    } catch (const gpuseq::distance::DeviceOutOfMemory&) {
      // The device is fuller than its free memory said: smaller batches, from this one on.
      if (last - first == 1) throw;
      buffers = BatchBuffers{};
      batch_hits = std::max<int64_t>(1, slots / 2);
      clock.lap();
      continue;
    }
    count.add(added);
    ++count.batches;
    // The slot's batch, kSeedBatchesInFlight back, is handed over first.
    hand_over_until(next_batch - kSeedBatchesInFlight + 1);
    SeedBatch& batch = seed_batches[next_batch % kSeedBatchesInFlight];
    ++next_batch;
    batch.found = std::move(found);
    batch.first = first;
    batch.last = last;
    batch.extended = extend && !batch.found.empty();
    if (batch.extended) launch_seeds(batch, buffers.ordered.data());
    hand_over_until(0);  // the batches whose extensions are done
    clock.lap();  // the sink's time is the caller's
    first = last;
  }
  hand_over_until(next_batch);
  if (counters) counters->add(count);
}

std::vector<SubjectHsp> gpu_ungapped_hsps(const gpuseq::blast::WordLookup& lookup,
                                          const uint8_t* query,
                                          const std::vector<QueryContext>& contexts, int32_t window,
                                          const uint8_t* codes, const int64_t* offsets,
                                          int32_t subject_count, const GpuUngappedOptions& options,
                                          GpuUngappedCounters* counters) {
  std::vector<SubjectHsp> result;
  gpu_ungapped_hsps(lookup, query, contexts, window, codes, offsets, subject_count, options,
                    counters, [&](int32_t, int32_t, std::vector<SubjectHsp>& hsps) {
                      result.insert(result.end(), hsps.begin(), hsps.end());
                    });
  return result;
}

}  // namespace gpuseq::cuda::blast
