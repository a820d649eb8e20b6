#include "hmm/filters.hpp"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace gpuseq::hmm {

namespace {
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNoResult = std::numeric_limits<float>::quiet_NaN();
}  // namespace

const FilterKernels& cpu_filter_kernels() {
  static const FilterKernels* chosen = [] {
    const char* force = std::getenv("GPUSEQ_CPU_KERNELS");
    if (force != nullptr && std::strcmp(force, "baseline") == 0) return &baseline_filter_kernels();
#if defined(GPUSEQ_HAVE_AVX2_KERNELS) && (defined(__GNUC__) || defined(__clang__))
    if (__builtin_cpu_supports("avx2")) return &avx2_filter_kernels();
#endif
    return &baseline_filter_kernels();
  }();
  return *chosen;
}

uint8_t* FilterWorkspace::byte_rows(int stride) {
  if (bytes.size() < 2 * static_cast<size_t>(stride)) bytes.resize(2 * static_cast<size_t>(stride));
  return bytes.data();
}

int16_t* FilterWorkspace::word_rows(int stride) {
  if (words.size() < 6 * static_cast<size_t>(stride)) words.resize(6 * static_cast<size_t>(stride));
  return words.data();
}

float msv_xj_to_nats(int xJ, int tjb) {
  const float sc = (static_cast<float>(xJ - tjb) - static_cast<float>(kBaseB)) / kScaleB;
  return sc - 3.0f;  // stands in for the omitted N/C/J loop costs
}

float viterbi_xc_to_nats(int xC, int ncj_move) {
  if (xC == kWordNegInf) return -kInf;
  const float sc = ((static_cast<float>(xC) + static_cast<float>(ncj_move)) -
                    static_cast<float>(kBaseW)) / kScaleW;
  return sc - 3.0f;
}

bool ssv_precondition(const MsvProfile& om, int64_t L) {
  return msv_tjb(L) < ssv_tjb_limit(om);
}

float ssv_score_from_best(const MsvProfile& om, int64_t L, int best) {
  return ssv_score_for_tjb(om, msv_tjb(L), best);
}

float ssv_score_for_tjb(const MsvProfile& om, int tjb, int best) {
  const int B0 = kBaseB - tjb - om.tbm;
  if (best >= ssv_overflow_level(om)) return B0 < 128 ? kNoResult : kInf;  // (A)
  const int xE = B0 + best;
  if (xE >= 255 - om.bias) return kInf;                                     // (B)
  const int xJ = xE - om.tec;
  if (xJ > kBaseB) return kNoResult;                                        // (C) J may help
  return msv_xj_to_nats(xJ, tjb);
}

float ssv_filter(const MsvProfile& om, const uint8_t* dsq, int64_t L, FilterWorkspace& ws,
                 const FilterKernels& kernels) {
  if (!ssv_precondition(om, L)) return kNoResult;
  const int best = kernels.ssv_best_diagonal(om, dsq, L, ssv_overflow_level(om),
                                             ws.byte_rows(om.stride));
  return ssv_score_from_best(om, L, best);
}

float msv_filter(const MsvProfile& om, const uint8_t* dsq, int64_t L, FilterWorkspace& ws,
                 const FilterKernels& kernels) {
  const float ssv = ssv_filter(om, dsq, L, ws, kernels);
  if (!std::isnan(ssv)) return ssv;
  return msv_score_from_xj(kernels.msv_final_xj(om, dsq, L, msv_tjb(L), ws.byte_rows(om.stride)),
                           L);
}

float msv_score_from_xj(int xJ, int64_t L) {
  return xJ < 0 ? kInf : msv_xj_to_nats(xJ, msv_tjb(L));
}

float viterbi_score_from_xc(int xC, int64_t L) {
  return xC == kViterbiOverflow ? kInf : viterbi_xc_to_nats(xC, viterbi_ncj_move(L));
}

float viterbi_filter(const ViterbiProfile& vp, const uint8_t* dsq, int64_t L, FilterWorkspace& ws,
                     const FilterKernels& kernels) {
  const int xC = kernels.viterbi_final_xc(vp, dsq, L, viterbi_ncj_move(L), ws.word_rows(vp.stride));
  return viterbi_score_from_xc(xC, L);
}

}  // namespace gpuseq::hmm
