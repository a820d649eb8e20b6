// Table of the integer DP kernels for one CPU instruction set. The kernels themselves are in
// msv.hpp and viterbi_filter.hpp; filters.cpp turns their integer results into nats.
#pragma once

#include <climits>
#include <cstdint>

#include "hmm/profile.hpp"

namespace gpuseq::hmm {

inline constexpr int kViterbiOverflow = INT_MAX;

struct FilterKernels {
  const char* isa;
  // SSV (spec 5.2): best ungapped diagonal score above the begin level, floored at 0; may stop
  // early once it reaches stop_at. work: 2 * om.stride bytes.
  int (*ssv_best_diagonal)(const MsvProfile& om, const uint8_t* dsq, int64_t L, int stop_at,
                           uint8_t* work);
  // Full MSV recurrence (spec 5.3): final xJ byte, or -1 on byte overflow. work: 2 * om.stride.
  int (*msv_final_xj)(const MsvProfile& om, const uint8_t* dsq, int64_t L, int tjb, uint8_t* work);
  // Viterbi filter (spec 5.5): final xC word, or kViterbiOverflow. work: 6 * vp.stride words.
  int (*viterbi_final_xc)(const ViterbiProfile& vp, const uint8_t* dsq, int64_t L, int ncj_move,
                          int16_t* work);
};

const FilterKernels& baseline_filter_kernels();  // SSE2 on x86-64, portable C++ elsewhere
const FilterKernels& portable_filter_kernels();  // plain C++ everywhere (tested on x86 too)
#ifdef GPUSEQ_HAVE_AVX2_KERNELS
const FilterKernels& avx2_filter_kernels();
#endif
// The fastest table this CPU runs (GPUSEQ_CPU_KERNELS=baseline forces the baseline one).
const FilterKernels& cpu_filter_kernels();

}  // namespace gpuseq::hmm
