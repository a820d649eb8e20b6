// The filter stages of HMMER's p7_Pipeline() for one model over a batch of targets: MSV, bias
// filter, Viterbi filter, with HMMER's P-value thresholds (spec section 7.3). Targets that pass
// go on to Forward and the rest of HMMER (pyhmmer) in the Python layer.
#pragma once

#include <cstdint>
#include <vector>

#include "common/sequence_chunk.hpp"
#include "hmm/profile.hpp"

namespace gpuseq::hmm {

inline constexpr int64_t kMaxTargetLength = 100000;  // p7_Pipeline's comparison limit

struct CascadeOptions {
  double F1 = 0.02;  // MSV and bias-filter P-value threshold
  double F2 = 1e-3;  // Viterbi-filter threshold
  // Forward threshold: the GPU cascade keeps back the survivors that cannot pass it
  // (forward_bound.hpp; CascadeResult::downstream); 1 or more: none kept back.
  double F3 = 1.0;
  bool bias_filter = true;
  int threads = 1;
};

// How far a target got. Empty targets are skipped by HMMER without touching any counter.
enum CascadeStage : uint8_t {
  kStageEmpty = 0,
  kStageFailedMsv = 1,
  kStageFailedBias = 2,
  kStageFailedViterbi = 3,
  kStagePassed = 4,  // goes to the Forward filter
};

struct CascadeResult {
  std::vector<uint8_t> stage;         // per target
  std::vector<float> msv_score;       // nats; NaN if not computed (empty target)
  std::vector<float> bias_score;      // nats; NaN if not computed
  std::vector<float> viterbi_score;   // nats; NaN if not computed (failed earlier or P <= F2)
  // Per target, when the Forward bound ran (else empty): 1 where a survivor (kStagePassed)
  // may pass HMMER's Forward test and goes downstream, 0 elsewhere.
  std::vector<uint8_t> downstream;
  // GPU cascade: the targets that go downstream (kStagePassed and, with the Forward bound,
  // downstream), ascending.
  std::vector<int32_t> survivors;
  int64_t n_past_msv = 0, n_past_bias = 0, n_past_viterbi = 0;
};

// Throws std::invalid_argument if a target is longer than kMaxTargetLength.
CascadeResult run_cascade(const SearchProfile& profile, const SequenceBatch& targets,
                          const CascadeOptions& options);

// The pipeline's decisions between the filters (spec 7.3), shared by the CPU cascade above and
// the GPU one (cuda/hmm/gpu_filters.cu), which computes the filter scores in batches.
class CascadeStages {
 public:
  // Checks the target lengths and sizes the result (empty targets kStageEmpty, the others
  // kStageFailedMsv until decided; scores NaN).
  // null1: null1_score(L) of every target when the caller has them, else computed here.
  // record_scores false: the result's score arrays stay empty (stages and counts only).
  CascadeStages(const SearchProfile& profile, const SequenceBatch& targets,
                const CascadeOptions& options, const float* null1 = nullptr,
                bool record_scores = true);
  // Records target i's MSV score and runs the bias filter; true when the Viterbi filter must
  // run (otherwise the target's stage is final).
  bool after_msv(int64_t i, float msv_score);
  // after_msv in two steps, for callers that compute the bias filter elsewhere (the GPU):
  // the MSV test against the null model (false: failed, final; *P: its P-value), then the
  // bias filter's test with its score (ignored when the bias filter is off) and the Viterbi
  // decision, as after_msv returns it.
  bool msv_passes(int64_t i, float msv_score, double* P);
  bool after_bias(int64_t i, float msv_score, float filter_score, double P);
  // Records the Viterbi-filter score of a target after_msv sent on; its stage is then final.
  void after_viterbi(int64_t i, float viterbi_score);
  // The same with the target's filter score (bias filter's, or null1 without it) given.
  void after_viterbi(int64_t i, float viterbi_score, float filter_score);
  // Target i's filter score as after_viterbi uses it (needs recorded scores with the bias
  // filter on).
  float filter_score(int64_t i) const;
  CascadeStage stage(int64_t i) const { return static_cast<CascadeStage>(r_.stage[i]); }
  // The result, with the pass counters.
  CascadeResult finish();

 private:
  const SearchProfile& profile_;
  const SequenceBatch& targets_;
  const CascadeOptions& options_;
  const float* null1_;
  bool record_scores_;
  CascadeResult r_;
};

// Helpers of the pipeline's statistics, shared with tests and the GPU path.
float bits_score(float score_nats, float null_nats);      // (a - b) / ln 2, stored as float
double gumbel_survival(double x, double mu, double lambda);  // esl_gumbel_surv
// p7_Pipeline's test P > F (the target fails the filter) as hmmsearch's threads make it: with
// flush-to-zero and denormals-are-zero (impl_Init), where a subnormal P or threshold is 0.
// So `--F3 1e-400` (0) passes a target whose P underflowed below DBL_MIN and drops one whose P
// is a subnormal in plain double. A NaN P passes (the comparison is false). Every filter
// decision made ahead of HMMER goes through it, on whatever thread it runs.
bool fails_threshold(double P, double F);

}  // namespace gpuseq::hmm
