// cuBLASTP's first two phases on the GPU (Zhang et al.; notes in shared/papers/README.md):
// hit detection and sorting by diagonal (in diagonal tiles in shared memory, hit_tiles.cuh;
// or the paper's way: per-subject diagonal bins, hit assembling, CUB's segmented sort),
// the two-hit filter and the diagonal-, hit- or window-based ungapped extension scored from a
// query PSSM or the lookup's matrix in shared memory. The result equals TwoHitFinder::run
// (cpp/blast/ungapped.hpp) for every subject. Plain C++ interface (no CUDA headers) so that
// the bindings compile without nvcc.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <vector>

#include "blast/lookup.hpp"
#include "blast/semi_gapped.hpp"
#include "blast/ungapped.hpp"

namespace gpuseq::cuda::blast {

// The ungapped extension's variant (cuBLASTP section 4): a thread per diagonal; a thread per
// pair (both halves of every pair's extension, then each diagonal replayed to keep the
// extensions the CPU runs); or a warp per diagonal extending 32 cells at a time. All give the
// CPU's HSPs.
enum class GpuExtension { kDiagonal, kHit, kWindow };

// Where the extension kernels read scores: a PSSM of the queries (a row of 28 per query
// position, one shared-memory load per cell) or BLOSUM62 (the query's code, then the
// matrix). kAuto: the PSSM for queries (all contexts together) up to
// kPssmLongestQuery residues, BLOSUM62 above. The scores are the same.
enum class GpuScoring { kAuto, kPssm, kBlosum62 };

// How a batch's word hits are sorted by diagonal. kTiles (hit_tiles.cuh): counted by fine
// diagonal ranges, then gathered and sorted a tile of diagonals at a time in shared memory,
// and only the diagonals holding a two-hit pair written. kBins, the paper's: appended to bins
// (diagonal mod bins) in global memory, assembled and sorted by CUB's segmented sort, every
// hit. The same pairs and HSPs; on the H100 kTiles is faster (its stores are contiguous and
// few; the bins' appends are scattered).
enum class GpuHitSort { kTiles, kBins };

// The longest query buffer scored from the PSSM under kAuto, and the most a PSSM may hold
// (int16 rows in 227 KB of shared memory). On the H100 (bench_blast_gpu_stages.py --scorings
// pssm blosum62) the PSSM ties with BLOSUM62 up to 500 residues and loses above (2.4x slower
// at 4,000: its table limits the blocks per multiprocessor, and the query's codes are
// cached anyway); the paper's Kepler crossover was 127-517.
inline constexpr int32_t kPssmLongestQuery = 500;
inline constexpr int32_t kPssmMaxQuery = 4000;

// Larger batches pay fewer launches and waits: on the H100 (99 queries x 75 M residues, in
// process; benchmarks/results/gpu-h100-80gb-hbm3-20261125-f) the search phase took 1.10 s at
// 2^27 slots, 0.89 s at 2^28, 0.84 s at 2^29 and 0.78 s at 2^30.
inline constexpr int64_t kDefaultBatchHitsLimit = int64_t{1} << 30;

// Automatic bins (GpuUngappedOptions::bins = 0): at most kMaxAutoBins per subject.
inline constexpr int32_t kMaxAutoBins = 2048;

struct GpuUngappedOptions {
  // kBins: diagonal bins per subject: a power of two, 1..1024, or 0: enough for about hits_per_bin
  // of the subject's expected hits each (24: on the H100, 12, 24 and 48 are within 10% of
  // each other at queries of 1,000-53,000 residues; fixed 128 bins sort up to 15x slower where
  // they hold a hundred hits each; bench_blast_gpu_stages.py).
  int32_t bins = 0;
  int32_t hits_per_bin = 24;
  // Hit slots per bin; 0: from the subject's length and the lookup's size. A bin that
  // overflows is detected and its subject alone detected again with bins of the exact size
  // (tests force that with 1).
  int32_t bin_capacity = 0;
  // Hit slots of one batch of subjects; 0: from the device's free memory, at most
  // kDefaultBatchHitsLimit. A failed allocation halves the batch and runs it again.
  int64_t batch_hits = 0;
  GpuHitSort sort = GpuHitSort::kTiles;
  GpuExtension extension = GpuExtension::kHit;
  GpuScoring scoring = GpuScoring::kAuto;
  // The preliminary gapped stage's extension of every HSP on the GPU, for the contexts that
  // ask for it (QueryContext::gapped_x_drop): a warp per HSP, its DP rows a ring of
  // seed_ring_columns columns in shared memory (a power of two, at least 32; an HSP whose
  // live columns do not fit is extended on the CPU), a DP of more than seed_max_rows rows in
  // a direction too (tests use it; no bound by default). On by default: on the H100 (99
  // queries x 75 M residues, 721,005 HSPs, in process, 16 threads;
  // benchmarks/results/gpu-h100-80gb-hbm3-20261125-d) the kernel takes 0.13 s alone where the
  // CPU's 15 threads took ~1.8 s, and blastp 1.60-1.76 s with it against 2.18-2.93 s without.
  // (A thread per HSP, the first version, was latency bound: 2 s of kernels, slower than the
  // CPU.)
  bool extend_seeds = true;
  int32_t seed_ring_columns = 256;
  int32_t seed_max_rows = std::numeric_limits<int32_t>::max();
};

struct GpuUngappedCounters {
  int64_t word_hits = 0;            // as TwoHitFinder counts them
  int64_t pairs = 0;                // hits the two-hit filter keeps (a hit 3..window-1 before)
  int64_t extensions = 0;           // as TwoHitFinder counts them
  int64_t overflowed_subjects = 0;  // subjects detected again with larger bins (kBins)
  int64_t large_tiles = 0;  // tiles of more hits than shared memory holds, sorted by CUB (kTiles)
  int64_t batches = 0;
  int64_t seed_extensions = 0;  // HSPs the GPU extended (extend_seeds)
  // Wall seconds per stage, the device synchronised at each boundary: uploads, hit detection
  // (with redone batches), assembling + segmented sort, filter, extension (with the list of
  // diagonals and the copy back), and the host's final ordering.
  double upload_s = 0, detect_s = 0, sort_s = 0, filter_s = 0, extend_s = 0, order_s = 0;
  // The seed extensions' kernel seconds (beside the next batch's work) and the seconds the
  // host waited for them.
  double seed_s = 0, seed_wait_s = 0;

  void add(const GpuUngappedCounters& o) {
    word_hits += o.word_hits;
    pairs += o.pairs;
    extensions += o.extensions;
    overflowed_subjects += o.overflowed_subjects;
    large_tiles += o.large_tiles;
    batches += o.batches;
    seed_extensions += o.seed_extensions;
    upload_s += o.upload_s;
    detect_s += o.detect_s;
    sort_s += o.sort_s;
    filter_s += o.filter_s;
    extend_s += o.extend_s;
    order_s += o.order_s;
    seed_s += o.seed_s;
    seed_wait_s += o.seed_wait_s;
  }
};

struct SubjectHsp {
  int32_t subject = 0;  // index into the subjects given
  gpuseq::blast::UngappedHsp hsp;
  gpuseq::blast::SeedExtension extension;  // done = 0 where not extended
};

// Receives the HSPs of subjects [first, last) as soon as their batch is done: subjects in
// order, each subject's HSPs in blastp's order (sort_by_score). Batches come in subject order.
using SubjectHspSink =
    std::function<void(int32_t first, int32_t last, std::vector<SubjectHsp>& hsps)>;

// Subjects uploaded once and kept on the GPU across searches (a database the caller holds:
// blast.py keeps one beside its encoding): codes[0, offsets[count]) and the offsets. A search
// given them must be given the same host arrays (checked by address and size), which the
// caller keeps alive and unchanged. DeviceOutOfMemory where they do not fit.
class DeviceSubjects {
 public:
  DeviceSubjects(const uint8_t* codes, const int64_t* offsets, int32_t count);
  ~DeviceSubjects();
  DeviceSubjects(const DeviceSubjects&) = delete;
  DeviceSubjects& operator=(const DeviceSubjects&) = delete;
  int32_t count() const { return count_; }
  int64_t residues() const { return residues_; }
  // Whether these are the host arrays the copy was made from.
  bool holds(const uint8_t* codes, const int64_t* offsets, int32_t count) const {
    return codes == host_codes_ && offsets == host_offsets_ && count == count_ &&
           offsets[count] == residues_;
  }
  const uint8_t* device_codes() const;
  const int64_t* device_offsets() const;

 private:
  struct Arrays;
  std::unique_ptr<Arrays> arrays_;
  const uint8_t* host_codes_;
  const int64_t* host_offsets_;
  int32_t count_;
  int64_t residues_;
};

// The ungapped HSPs of every subject (codes[offsets[i]:offsets[i+1]]) as TwoHitFinder gives
// them for these queries (`query`: all contexts' codes, 0 between neighbours, as the lookup
// lists them), handed to `sink` batch by batch. `resident`: the subjects' copy on the GPU
// (made from these arrays; std::invalid_argument otherwise), or nullptr: uploaded here.
void gpu_ungapped_hsps(const gpuseq::blast::WordLookup& lookup, const uint8_t* query,
                       const std::vector<gpuseq::blast::QueryContext>& contexts, int32_t window,
                       const uint8_t* codes, const int64_t* offsets, int32_t subject_count,
                       const GpuUngappedOptions& options, GpuUngappedCounters* counters,
                       const SubjectHspSink& sink, const DeviceSubjects* resident = nullptr);

// All of them at once: subjects in order, each subject's HSPs in blastp's order.
std::vector<SubjectHsp> gpu_ungapped_hsps(const gpuseq::blast::WordLookup& lookup,
                                          const uint8_t* query,
                                          const std::vector<gpuseq::blast::QueryContext>& contexts,
                                          int32_t window, const uint8_t* codes,
                                          const int64_t* offsets, int32_t subject_count,
                                          const GpuUngappedOptions& options = {},
                                          GpuUngappedCounters* counters = nullptr);

}  // namespace gpuseq::cuda::blast
