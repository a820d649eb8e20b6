#include "hmm/bias_filter.hpp"

#include <cmath>

// One rounding per float operation (built with -ffp-contract=off), glibc log/logf.

namespace gpuseq::hmm {

float null1_score(int64_t L) {
  const float p1 = bias_length_p1(L);
  return static_cast<float>(static_cast<double>(L) * std::log(static_cast<double>(p1)) +
                            std::log(1.0 - static_cast<double>(p1)));
}

float bias_filter_score(const BiasFilterModel& bf, const uint8_t* dsq, int64_t L) {
  auto log_of = [](float v) { return static_cast<float>(std::log(static_cast<double>(v))); };
  return bias_filter_finish(bias_filter_forward(&bf.odds[0][0], bf.t10, bf.t11, dsq, L, log_of),
                            L);
}

float bias_filter_finish(float forward_sum, int64_t L) {
  const float p1 = bias_length_p1(L);
  return (forward_sum + static_cast<float>(L) * std::log(p1)) +
         std::log(static_cast<float>(1.0 - static_cast<double>(p1)));
}

}  // namespace gpuseq::hmm
