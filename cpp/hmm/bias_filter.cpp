#include "hmm/bias_filter.hpp"

#include <cmath>

// One rounding per float operation (built with -ffp-contract=off), glibc log/logf.

namespace gpuseq::hmm {

namespace {
float length_p1(int64_t L) { return static_cast<float>(L) / static_cast<float>(L + 1); }
}  // namespace

float null1_score(int64_t L) {
  const float p1 = length_p1(L);
  return static_cast<float>(static_cast<double>(L) * std::log(static_cast<double>(p1)) +
                            std::log(1.0 - static_cast<double>(p1)));
}

float bias_filter_score(const BiasFilterModel& bf, const uint8_t* dsq, int64_t L) {
  const float t00 = length_p1(L);
  const float t01 = 1.0f - t00;
  const float pi0 = 0.999f, pi1 = 0.001f;
  auto log_of = [](float v) { return static_cast<float>(std::log(static_cast<double>(v))); };

  // Forward over the two states, each row rescaled by its maximum; the log of each scale
  // factor is summed in float, left to right (esl_hmm_Forward).
  float dp0 = bf.odds[dsq[0]][0] * pi0;
  float dp1 = bf.odds[dsq[0]][1] * pi1;
  float total = 0.0f;
  for (int64_t i = 0;;) {
    float mx = 0.0f;
    if (dp0 > mx) mx = dp0;
    if (dp1 > mx) mx = dp1;
    dp0 = dp0 / mx;
    dp1 = dp1 / mx;
    total = total + log_of(mx);
    if (++i == L) break;
    const auto& e = bf.odds[dsq[i]];
    const float n0 = ((0.0f + dp0 * t00) + dp1 * bf.t10) * e[0];
    const float n1 = ((0.0f + dp0 * t01) + dp1 * bf.t11) * e[1];
    dp0 = n0;
    dp1 = n1;
  }
  total = total + log_of((0.0f + dp0 * 1.0f) + dp1 * 1.0f);  // both states end with probability 1
  const float p1 = t00;
  return (total + static_cast<float>(L) * std::log(p1)) +
         std::log(static_cast<float>(1.0 - static_cast<double>(p1)));
}

}  // namespace gpuseq::hmm
