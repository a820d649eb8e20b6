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

CascadeResult run_cascade(const SearchProfile& profile, const SequenceBatch& targets,
                          const CascadeOptions& options) {
  const int64_t n = targets.count;
  for (int64_t i = 0; i < n; ++i)
    if (targets.length(i) > kMaxTargetLength)
      throw std::invalid_argument("target " + std::to_string(i) + " is longer than " +
                                  std::to_string(kMaxTargetLength) + " residues");

  const float nan = std::numeric_limits<float>::quiet_NaN();
  CascadeResult r;
  r.stage.assign(static_cast<size_t>(n), kStageEmpty);
  r.msv_score.assign(static_cast<size_t>(n), nan);
  r.bias_score.assign(static_cast<size_t>(n), nan);
  r.viterbi_score.assign(static_cast<size_t>(n), nan);

  const auto& ev = profile.evalue_parameters;
  const double msv_mu = ev[0], msv_lambda = ev[1], vit_mu = ev[2], vit_lambda = ev[3];
  const FilterKernels& kernels = cpu_filter_kernels();
  const int threads = std::max(1, options.threads);
  std::vector<FilterWorkspace> workspaces(static_cast<size_t>(threads));

  parallel_for_blocks(n, 32, threads, [&](int64_t begin, int64_t end, int worker) {
    FilterWorkspace& ws = workspaces[static_cast<size_t>(worker)];
    for (int64_t i = begin; i < end; ++i) {
      const int64_t L = targets.length(i);
      if (L == 0) continue;  // counted in nseqs and Z by the caller, never filtered
      const uint8_t* dsq = targets.sequence(i);
      const float null_score = null1_score(L);
      const float msv = msv_filter(profile.msv, dsq, L, ws, kernels);
      r.msv_score[i] = msv;
      double P = gumbel_survival(bits_score(msv, null_score), msv_mu, msv_lambda);
      if (P > options.F1) {
        r.stage[i] = kStageFailedMsv;
        continue;
      }
      float filter_score = null_score;
      if (options.bias_filter) {
        filter_score = bias_filter_score(profile.bias_filter, dsq, L);
        r.bias_score[i] = filter_score;
        P = gumbel_survival(bits_score(msv, filter_score), msv_mu, msv_lambda);
        if (P > options.F1) {
          r.stage[i] = kStageFailedBias;
          continue;
        }
      }
      // The Viterbi filter runs only if the last P-value computed does not already pass F2.
      if (P > options.F2) {
        const float vit = viterbi_filter(profile.viterbi, dsq, L, ws, kernels);
        r.viterbi_score[i] = vit;
        P = gumbel_survival(bits_score(vit, filter_score), vit_mu, vit_lambda);
        if (P > options.F2) {
          r.stage[i] = kStageFailedViterbi;
          continue;
        }
      }
      r.stage[i] = kStagePassed;
    }
  });

  for (int64_t i = 0; i < n; ++i) {
    r.n_past_msv += r.stage[i] >= kStageFailedBias;
    r.n_past_bias += r.stage[i] >= kStageFailedViterbi;
    r.n_past_viterbi += r.stage[i] == kStagePassed;
  }
  return r;
}

}  // namespace gpuseq::hmm
