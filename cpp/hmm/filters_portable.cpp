// Kernel table in plain C++ (the fallback of non-x86 builds). Built on x86-64 as well, with the
// SIMD macros hidden, so that the tests check it against HMMER there too.
#undef __AVX2__
#undef __SSE2__
#define GPUSEQ_SIMD_NS portable
#include "hmm/filter_kernels.hpp"
#include "hmm/msv.hpp"
#include "hmm/viterbi_filter.hpp"

namespace gpuseq::hmm {

const FilterKernels& portable_filter_kernels() {
  static const FilterKernels k{"portable", &portable::ssv_best_diagonal, &portable::msv_final_xj,
                               &portable::viterbi_final_xc};
  return k;
}

}  // namespace gpuseq::hmm
