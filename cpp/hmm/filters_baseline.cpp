// Kernel table for the baseline instruction set: SSE2 on x86-64 (always present), portable C++
// elsewhere.
#define GPUSEQ_SIMD_NS baseline
#include "hmm/filter_kernels.hpp"
#include "hmm/msv.hpp"
#include "hmm/viterbi_filter.hpp"

namespace gpuseq::hmm {

const FilterKernels& baseline_filter_kernels() {
#if defined(__SSE2__)
  static const FilterKernels k{"sse2", &baseline::ssv_best_diagonal, &baseline::msv_final_xj,
                               &baseline::viterbi_final_xc};
  return k;
#else
  return portable_filter_kernels();
#endif
}

}  // namespace gpuseq::hmm
