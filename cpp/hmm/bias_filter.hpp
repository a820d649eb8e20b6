// The null model score and the composition-bias filter (p7_bg_NullOne, p7_bg_FilterScore), in
// nats, float32 exactly as HMMER computes them (spec section 6).
#pragma once

#include <cstdint>

#include "hmm/profile.hpp"

namespace gpuseq::hmm {

// Null-model (null1) score of any target of length L.
float null1_score(int64_t L);

// Bias-filter score: scaled Forward of the two-state composition HMM; L >= 1.
float bias_filter_score(const BiasFilterModel& bf, const uint8_t* dsq, int64_t L);

}  // namespace gpuseq::hmm
