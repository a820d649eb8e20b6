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

// Integer results to nats (spec 5.1, 5.2), shared with the GPU path.
float msv_xj_to_nats(int xJ, int tjb);
float viterbi_xc_to_nats(int xC, int ncj_move);
// (P): false when the SSV's signed-byte range cannot represent this model and length.
bool ssv_precondition(const MsvProfile& om, int64_t L);
// (P) in terms of tjb = msv_tjb(L): the SSV decides targets whose tjb is below this.
inline int ssv_tjb_limit(const MsvProfile& om) { return 127 - om.tbm - om.tec - om.bias; }
// Diagonal scores at or above this level decide the SSV at once (spec 5.2 (A)).
inline int ssv_overflow_level(const MsvProfile& om) { return 127 - om.bias; }
// The SSV's answer from its best diagonal score (spec 5.2): nats, NaN or +inf.
float ssv_score_from_best(const MsvProfile& om, int64_t L, int best);
float ssv_score_for_tjb(const MsvProfile& om, int tjb, int best);  // the same, tjb = msv_tjb(L)
// The full MSV's and the Viterbi filter's answers from their final xJ / xC (overflow: +inf).
float msv_score_from_xj(int xJ, int64_t L);  // xJ < 0: byte overflow
float viterbi_score_from_xc(int xC, int64_t L);  // xC == kViterbiOverflow: word overflow

}  // namespace gpuseq::hmm
