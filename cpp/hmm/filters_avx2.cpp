// Kernel table compiled with -mavx2 (only called after a CPUID check).
#define GPUSEQ_SIMD_NS avx2
#include "hmm/filter_kernels.hpp"
#include "hmm/msv.hpp"
#include "hmm/viterbi_filter.hpp"

namespace gpuseq::hmm {

const FilterKernels& avx2_filter_kernels() {
  static const FilterKernels k{"avx2", &avx2::ssv_best_diagonal, &avx2::msv_final_xj,
                               &avx2::viterbi_final_xc};
  return k;
}

}  // namespace gpuseq::hmm
