// cuBLASTP's first two phases on the GPU (Zhang et al.; notes in shared/papers/README.md):
// hit detection a warp per subject into per-subject diagonal bins, hit assembling, CUB's
// segmented sort, the two-hit filter and the diagonal- or window-based ungapped extension. The
// result equals TwoHitFinder::run (cpp/blast/ungapped.hpp) for every subject. Plain C++ interface
// (no CUDA headers) so that the bindings compile without nvcc.
#pragma once

#include <cstdint>
#include <vector>

#include "blast/lookup.hpp"
#include "blast/ungapped.hpp"

namespace gpuseq::cuda::blast {

// The ungapped extension's variant (cuBLASTP section 4): a thread per diagonal, or a warp per
// diagonal extending 32 cells at a time. Both give the CPU's HSPs.
enum class GpuExtension { kDiagonal, kWindow };

struct GpuUngappedOptions {
  int32_t bins = 128;  // diagonal bins per subject (a power of two, 1..1024)
  // Hit slots per bin; 0: from the subject's length and the lookup's size. A bin that
  // overflows is detected and its subject's bins are sized from the exact counts and the batch
  // detected again (tests force that with 1).
  int32_t bin_capacity = 0;
  int64_t batch_hits = int64_t{1} << 24;  // hit slots of one batch of subjects (memory)
  GpuExtension extension = GpuExtension::kDiagonal;
};

struct GpuUngappedCounters {
  int64_t word_hits = 0;            // as TwoHitFinder counts them
  int64_t pairs = 0;                // hits the two-hit filter keeps (a hit 3..window-1 before)
  int64_t extensions = 0;           // as TwoHitFinder counts them
  int64_t overflowed_subjects = 0;  // subjects detected again with larger bins
  int64_t batches = 0;
  // Wall seconds per stage, the device synchronised at each boundary: uploads, hit detection
  // (with redone batches), assembling + segmented sort, filter, extension (with the list of
  // diagonals and the copy back), and the host's final ordering.
  double upload_s = 0, detect_s = 0, sort_s = 0, filter_s = 0, extend_s = 0, order_s = 0;
};

struct SubjectHsp {
  int32_t subject = 0;  // index into the subjects given
  gpuseq::blast::UngappedHsp hsp;
};

// The ungapped HSPs of every subject (codes[offsets[i]:offsets[i+1]]) as TwoHitFinder gives
// them for these queries (`query`: all contexts' codes, 0 between neighbours, as the lookup
// lists them): subjects in order, each subject's HSPs in blastp's order (sort_by_score).
std::vector<SubjectHsp> gpu_ungapped_hsps(const gpuseq::blast::WordLookup& lookup,
                                          const uint8_t* query,
                                          const std::vector<gpuseq::blast::QueryContext>& contexts,
                                          int32_t window, const uint8_t* codes,
                                          const int64_t* offsets, int32_t subject_count,
                                          const GpuUngappedOptions& options = {},
                                          GpuUngappedCounters* counters = nullptr);

}  // namespace gpuseq::cuda::blast
