// The composition-bias filter on the GPU, a thread per target: the twin of bias_filter_score
// (cpp/hmm/bias_filter.hpp), whose Forward loop it runs from the same source. Each row's log
// is CUDA's double log (at most 1 ulp from the exact value, as glibc's is), rounded to float;
// where a double within 8 ulps of it would round to another float, the CPU's log could give
// another float, so the target is flagged and the host recomputes it. Otherwise every
// operation is the CPU's, rounding for rounding, and the sum is the same float.
#pragma once

#include <cstdint>

#include "hmm/bias_filter.hpp"
#include "hmm/msv.cuh"

namespace gpuseq::cuda::hmm {

// float(log(double(v))) as the CPU computes it, or *ambiguous set where it may not be.
struct CheckedLog {
  bool* ambiguous;
  __device__ float operator()(float v) const {
    const double l = log(static_cast<double>(v));
    const double tol = fabs(l) * 0x1p-49;  // 8 ulps of l
    // NaN and infinities compare unequal here too: the host decides those.
    if (__double2float_rn(l - tol) != __double2float_rn(l + tol)) *ambiguous = true;
    return __double2float_rn(l);
  }
};

// Target j of the launch is list.ids[j]; forward_sum[j] gets bias_filter_forward's sum
// (bias_filter_finish turns it into the score on the host) and ambiguous[j] 1 where the host
// must compute the target itself. odds: BiasFilterModel::odds, 2 floats per residue code.
__global__ void bias_filter_kernel(const float* __restrict__ odds, float t10, float t11,
                                   TargetList list, float* forward_sum, uint8_t* ambiguous) {
  __shared__ float table[2 * ::gpuseq::kAminoKp];
  for (int k = threadIdx.x; k < 2 * ::gpuseq::kAminoKp; k += blockDim.x) table[k] = odds[k];
  __syncthreads();
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= list.n) return;
  const int32_t id = list.ids[j];
  const int64_t begin = list.offsets[id];
  const int64_t L = list.offsets[id + 1] - begin;
  bool unsure = false;
  forward_sum[j] = ::gpuseq::hmm::bias_filter_forward(table, t10, t11, list.residues + begin, L,
                                                      CheckedLog{&unsure});
  ambiguous[j] = unsure ? 1 : 0;
}

}  // namespace gpuseq::cuda::hmm
