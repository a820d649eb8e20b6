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

bool fails_threshold(double P, double F) {
  auto flushed = [](double x) {
    return std::fabs(x) < std::numeric_limits<double>::min() ? 0.0 : x;
  };
  return flushed(P) > flushed(F);
}

double gumbel_survival(double x, double mu, double lambda) {
  const double y = lambda * (x - mu);
  const double ey = -std::exp(-y);
  return std::fabs(ey) < 5e-9 ? -ey : 1.0 - std::exp(ey);
}

CascadeStages::CascadeStages(const SearchProfile& profile, const SequenceBatch& targets,
                             const CascadeOptions& options, const float* null1,
                             bool record_scores)
    : profile_(profile),
      targets_(targets),
      options_(options),
      null1_(null1),
      record_scores_(record_scores) {
  const int64_t n = targets.count;
  for (int64_t i = 0; i < n; ++i)
    if (targets.length(i) > kMaxTargetLength)
      throw std::invalid_argument("target " + std::to_string(i) + " is longer than " +
                                  std::to_string(kMaxTargetLength) + " residues");
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // Non-empty targets fail the MSV test until a decision says otherwise (the GPU cascade
  // rejects most of them without a score).
  r_.stage.resize(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    r_.stage[i] = targets.length(i) > 0 ? kStageFailedMsv : kStageEmpty;
  if (record_scores) {
    r_.msv_score.assign(static_cast<size_t>(n), nan);
    r_.bias_score.assign(static_cast<size_t>(n), nan);
    r_.viterbi_score.assign(static_cast<size_t>(n), nan);
  }
}

bool CascadeStages::msv_passes(int64_t i, float msv, double* P) {
  const auto& ev = profile_.evalue_parameters;
  const float null_score = null1_ ? null1_[i] : null1_score(targets_.length(i));
  if (record_scores_) r_.msv_score[i] = msv;
  *P = gumbel_survival(bits_score(msv, null_score), ev[0], ev[1]);
  if (fails_threshold(*P, options_.F1)) {
    r_.stage[i] = kStageFailedMsv;
    return false;
  }
  return true;
}

bool CascadeStages::after_bias(int64_t i, float msv, float filter_score, double P) {
  const auto& ev = profile_.evalue_parameters;
  if (options_.bias_filter) {
    if (record_scores_) r_.bias_score[i] = filter_score;
    P = gumbel_survival(bits_score(msv, filter_score), ev[0], ev[1]);
    if (fails_threshold(P, options_.F1)) {
      r_.stage[i] = kStageFailedBias;
      return false;
    }
  }
  // The Viterbi filter runs only if the last P-value computed does not already pass F2.
  if (fails_threshold(P, options_.F2)) {
    r_.stage[i] = kStageFailedViterbi;  // until after_viterbi says otherwise
    return true;
  }
  r_.stage[i] = kStagePassed;
  return false;
}

bool CascadeStages::after_msv(int64_t i, float msv) {
  double P = 0;
  if (!msv_passes(i, msv, &P)) return false;
  const float filter_score =
      options_.bias_filter
          ? bias_filter_score(profile_.bias_filter, targets_.sequence(i), targets_.length(i))
          : 0.0f;
  return after_bias(i, msv, filter_score, P);
}

float CascadeStages::filter_score(int64_t i) const {
  return options_.bias_filter ? r_.bias_score[i]
         : null1_             ? null1_[i]
                              : null1_score(targets_.length(i));
}

void CascadeStages::after_viterbi(int64_t i, float vit) { after_viterbi(i, vit, filter_score(i)); }

void CascadeStages::after_viterbi(int64_t i, float vit, float filter_score) {
  const auto& ev = profile_.evalue_parameters;
  if (record_scores_) r_.viterbi_score[i] = vit;
  const double P = gumbel_survival(bits_score(vit, filter_score), ev[2], ev[3]);
  r_.stage[i] = fails_threshold(P, options_.F2) ? kStageFailedViterbi : kStagePassed;
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
