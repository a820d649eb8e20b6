// The null model score and the composition-bias filter (p7_bg_NullOne, p7_bg_FilterScore), in
// nats, float32 exactly as HMMER computes them (spec section 6).
//
// The bias filter's Forward loop is written once for the CPU and the GPU
// (cuda/hmm/bias_filter.cuh): its float operations in a fixed order, never contracted, and
// each row's log through the caller's log_of, float(log(double(mx))) as glibc gives it. The
// GPU's log differs from glibc's by at most a unit in the last place of a double, so the GPU
// takes its log only where every double that close rounds to the same float, and otherwise
// hands the target back to the CPU: both give the same bits.
#pragma once

#include <cstdint>

#include "hmm/profile.hpp"

#ifndef GPUSEQ_HOST_DEVICE
#if defined(__CUDACC__)
#define GPUSEQ_HOST_DEVICE __host__ __device__
#else
#define GPUSEQ_HOST_DEVICE
#endif
#endif

namespace gpuseq::hmm {

// Null-model (null1) score of any target of length L.
float null1_score(int64_t L);

// Bias-filter score: scaled Forward of the two-state composition HMM; L >= 1.
float bias_filter_score(const BiasFilterModel& bf, const uint8_t* dsq, int64_t L);

namespace bias_detail {

#if defined(__CUDA_ARCH__)
__device__ inline float mul(float a, float b) { return __fmul_rn(a, b); }
__device__ inline float add(float a, float b) { return __fadd_rn(a, b); }
__device__ inline float sub(float a, float b) { return __fsub_rn(a, b); }
__device__ inline float div(float a, float b) { return __fdiv_rn(a, b); }
#else
inline float mul(float a, float b) { return a * b; }  // built with -ffp-contract=off
inline float add(float a, float b) { return a + b; }
inline float sub(float a, float b) { return a - b; }
inline float div(float a, float b) { return a / b; }
#endif

}  // namespace bias_detail

// L / (L + 1) in float: the null model's and the composition HMM's self-transition.
GPUSEQ_HOST_DEVICE inline float bias_length_p1(int64_t L) {
  return bias_detail::div(static_cast<float>(L), static_cast<float>(L + 1));
}

// The Forward loop of bias_filter_score (esl_hmm_Forward): the sum, in float and left to
// right, of the log of each row's scale factor and of the end term. odds: the model's
// BiasFilterModel::odds as 2 floats per residue code; L >= 1.
template <class LogOf>
GPUSEQ_HOST_DEVICE inline float bias_filter_forward(const float* odds, float t10, float t11,
                                                    const uint8_t* dsq, int64_t L,
                                                    LogOf&& log_of) {
  using namespace bias_detail;
  const float t00 = bias_length_p1(L);
  const float t01 = sub(1.0f, t00);
  const float pi0 = 0.999f, pi1 = 0.001f;
  float dp0 = mul(odds[2 * dsq[0]], pi0);
  float dp1 = mul(odds[2 * dsq[0] + 1], pi1);
  float total = 0.0f;
  // Each row rescaled by its maximum.
  for (int64_t i = 0;;) {
    float mx = 0.0f;
    if (dp0 > mx) mx = dp0;
    if (dp1 > mx) mx = dp1;
    dp0 = div(dp0, mx);
    dp1 = div(dp1, mx);
    total = add(total, log_of(mx));
    if (++i == L) break;
    const float* e = odds + 2 * dsq[i];
    const float n0 = mul(add(add(0.0f, mul(dp0, t00)), mul(dp1, t10)), e[0]);
    const float n1 = mul(add(add(0.0f, mul(dp0, t01)), mul(dp1, t11)), e[1]);
    dp0 = n0;
    dp1 = n1;
  }
  // Both states end with probability 1.
  return add(total, log_of(add(add(0.0f, mul(dp0, 1.0f)), mul(dp1, 1.0f))));
}

// bias_filter_score from bias_filter_forward's sum (host: glibc logf).
float bias_filter_finish(float forward_sum, int64_t L);

}  // namespace gpuseq::hmm
