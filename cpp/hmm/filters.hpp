// HMMER3's acceleration filters on the CPU, scores in nats exactly as HMMER returns them:
//   ssv_filter     = p7_SSVFilter   (NaN when the SSV cannot decide: eslENORESULT)
//   msv_filter     = p7_MSVFilter   (SSV first, the full MSV only when SSV cannot decide)
//   viterbi_filter = p7_ViterbiFilter
// +inf means byte/word overflow (eslERANGE). The sequence is dsq[0..L) in alphabet codes.
#pragma once

#include <cstdint>
#include <vector>

#include "hmm/filter_kernels.hpp"
#include "hmm/profile.hpp"

namespace gpuseq::hmm {

// Per-thread DP scratch space, grown on demand.
struct FilterWorkspace {
  std::vector<uint8_t> bytes;
  std::vector<int16_t> words;
  uint8_t* byte_rows(int stride);
  int16_t* word_rows(int stride);
};

float ssv_filter(const MsvProfile& om, const uint8_t* dsq, int64_t L, FilterWorkspace& ws,
                 const FilterKernels& kernels = cpu_filter_kernels());
float msv_filter(const MsvProfile& om, const uint8_t* dsq, int64_t L, FilterWorkspace& ws,
                 const FilterKernels& kernels = cpu_filter_kernels());
float viterbi_filter(const ViterbiProfile& vp, const uint8_t* dsq, int64_t L, FilterWorkspace& ws,
                     const FilterKernels& kernels = cpu_filter_kernels());

// Integer results to nats (spec 5.1), shared with the GPU path.
float msv_xj_to_nats(int xJ, int tjb);
float viterbi_xc_to_nats(int xC, int ncj_move);

}  // namespace gpuseq::hmm
