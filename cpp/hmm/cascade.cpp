#include "hmm/cascade.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "common/parallel.hpp"
#include "hmm/bias_filter.hpp"
#include "hmm/filters.hpp"

namespace gpuseq::hmm {

float bits_score(float score_nats, float null_nats) {
  return static_cast<float>(static_cast<double>(score_nats - null_nats) / 0.69314718055994529);
}

double gumbel_survival(double x, double mu, double lambda) {
  const double y = lambda * (x - mu);
  const double ey = -std::exp(-y);
  return std::fabs(ey) < 5e-9 ? -ey : 1.0 - std::exp(ey);
}

CascadeStages::CascadeStages(const SearchProfile& profile, const SequenceBatch& targets,
                             const CascadeOptions& options, const float* null1)
    : profile_(profile), targets_(targets), options_(options), null1_(null1) {
  const int64_t n = targets.count;
  for (int64_t i = 0; i < n; ++i)
    if (targets.length(i) > kMaxTargetLength)
      throw std::invalid_argument("target " + std::to_string(i) + " is longer than " +
                                  std::to_string(kMaxTargetLength) + " residues");
  const float nan = std::numeric_limits<float>::quiet_NaN();
  r_.stage.assign(static_cast<size_t>(n), kStageEmpty);
  r_.msv_score.assign(static_cast<size_t>(n), nan);
  r_.bias_score.assign(static_cast<size_t>(n), nan);
  r_.viterbi_score.assign(static_cast<size_t>(n), nan);
}

bool CascadeStages::after_msv(int64_t i, float msv) {
  const auto& ev = profile_.evalue_parameters;
  const int64_t L = targets_.length(i);
  const float null_score = null1_ ? null1_[i] : null1_score(L);
  r_.msv_score[i] = msv;
  double P = gumbel_survival(bits_score(msv, null_score), ev[0], ev[1]);
  if (P > options_.F1) {
    r_.stage[i] = kStageFailedMsv;
    return false;
  }
  if (options_.bias_filter) {
    const float filter_score = bias_filter_score(profile_.bias_filter, targets_.sequence(i), L);
    r_.bias_score[i] = filter_score;
    P = gumbel_survival(bits_score(msv, filter_score), ev[0], ev[1]);
    if (P > options_.F1) {
      r_.stage[i] = kStageFailedBias;
      return false;
    }
  }
  // The Viterbi filter runs only if the last P-value computed does not already pass F2.
  if (P > options_.F2) {
    r_.stage[i] = kStageFailedViterbi;  // until after_viterbi says otherwise
    return true;
  }
  r_.stage[i] = kStagePassed;
  return false;
}

void CascadeStages::after_viterbi(int64_t i, float vit) {
  const auto& ev = profile_.evalue_parameters;
  const float filter_score = options_.bias_filter ? r_.bias_score[i]
                             : null1_             ? null1_[i]
                                                  : null1_score(targets_.length(i));
  r_.viterbi_score[i] = vit;
  const double P = gumbel_survival(bits_score(vit, filter_score), ev[2], ev[3]);
  r_.stage[i] = P > options_.F2 ? kStageFailedViterbi : kStagePassed;
}

CascadeResult CascadeStages::finish() {
  for (uint8_t stage : r_.stage) {
    r_.n_past_msv += stage >= kStageFailedBias;
    r_.n_past_bias += stage >= kStageFailedViterbi;
    r_.n_past_viterbi += stage == kStagePassed;
  }
  return std::move(r_);
}

CascadeResult run_cascade(const SearchProfile& profile, const SequenceBatch& targets,
                          const CascadeOptions& options) {
  CascadeStages stages(profile, targets, options);
  const FilterKernels& kernels = cpu_filter_kernels();
  const int threads = std::max(1, options.threads);
  std::vector<FilterWorkspace> workspaces(static_cast<size_t>(threads));
  parallel_for_blocks(targets.count, 32, threads, [&](int64_t begin, int64_t end, int worker) {
    FilterWorkspace& ws = workspaces[static_cast<size_t>(worker)];
    for (int64_t i = begin; i < end; ++i) {
      const int64_t L = targets.length(i);
      if (L == 0) continue;  // counted in nseqs and Z by the caller, never filtered
      const uint8_t* dsq = targets.sequence(i);
      if (stages.after_msv(i, msv_filter(profile.msv, dsq, L, ws, kernels)))
        stages.after_viterbi(i, viterbi_filter(profile.viterbi, dsq, L, ws, kernels));
    }
  });
  return stages.finish();
}

}  // namespace gpuseq::hmm
