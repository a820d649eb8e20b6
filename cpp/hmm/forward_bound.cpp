#include "hmm/forward_bound.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpuseq::hmm {

namespace {

constexpr double kLn2 = 0.69314718055994529;

double odds(float score) { return std::exp(static_cast<double>(score)); }  // exp(-inf) = 0

// The CPU's table access for forward_row.
struct HostTables {
  const ForwardProfile& fp;
  double match(int x, int k) const { return fp.match_row(x)[k]; }
  double mm(int k) const { return fp.mm[k]; }
  double mi(int k) const { return fp.mi[k]; }
  double md(int k) const { return fp.md[k]; }
  double im(int k) const { return fp.im[k]; }
  double ii(int k) const { return fp.ii[k]; }
  double dm(int k) const { return fp.dm[k]; }
  double dd(int k) const { return fp.dd[k]; }
  double begin(int k) const { return fp.begin[k]; }
};

}  // namespace

ForwardProfile make_forward_profile(const ScoreProfile& gm) {
  ForwardProfile fp;
  const int M = gm.M;
  fp.M = M;
  const size_t width = static_cast<size_t>(M + 1);
  fp.match.assign(static_cast<size_t>(kAminoKp) * width, 0.0);
  for (int x = 0; x < kAminoKp; ++x)
    for (int k = 1; k <= M; ++k) fp.match[static_cast<size_t>(x) * width + k] = odds(gm.msc(k, x));
  for (auto* t : {&fp.mm, &fp.mi, &fp.md, &fp.im, &fp.ii, &fp.dm, &fp.dd}) t->assign(width, 0.0);
  // Transitions exist out of nodes 1..M-1 (node M only exits to E).
  for (int k = 1; k < M; ++k) {
    fp.mm[k] = odds(gm.tsc(k, kMM));
    fp.mi[k] = odds(gm.tsc(k, kMI));
    fp.md[k] = odds(gm.tsc(k, kMD));
    fp.im[k] = odds(gm.tsc(k, kIM));
    fp.ii[k] = odds(gm.tsc(k, kII));
    fp.dm[k] = odds(gm.tsc(k, kDM));
    fp.dd[k] = odds(gm.tsc(k, kDD));
  }
  fp.begin.assign(width, 0.0);
  for (int k = 1; k <= M; ++k) fp.begin[k] = odds(gm.begin[k]);
  return fp;
}

void forward_length_model(int64_t L, double& loop, double& move) {
  // p7_ReconfigLength in float (multihit, nj = 1), widened.
  const float pmove = (2.0f + 1.0f) / ((static_cast<float>(L) + 2.0f) + 1.0f);
  move = static_cast<double>(pmove);
  loop = static_cast<double>(1.0f - pmove);
}

double forward_score_from(double c_move, int64_t exponent) {
  return std::log(c_move) + static_cast<double>(exponent) * kLn2;
}

double forward_score(const ForwardProfile& fp, const uint8_t* dsq, int64_t L) {
  const int M = fp.M;
  const size_t width = static_cast<size_t>(M + 1);
  std::vector<double> rows(6 * width, 0.0);
  double* pm = rows.data();
  double* pi = pm + width;
  double* pd = pi + width;
  double* cm = pd + width;
  double* ci = cm + width;
  double* cd = ci + width;
  double loop = 0, move = 0;
  forward_length_model(L, loop, move);
  ForwardSpecials s;
  s.B = forward_detail::mul(s.N, move);  // row 0: N = 1, B = N * move
  const HostTables t{fp};
  for (int64_t i = 0; i < L; ++i) {
    auto at = [](double* row) { return [row](int k) -> double& { return row[k]; }; };
    forward_row(t, M, dsq[i], loop, move, at(pm), at(pi), at(pd), at(cm), at(ci), at(cd), s);
    forward_rescale(s, [&](double f) {
      for (int k = 1; k <= M; ++k) {
        cm[k] = forward_detail::mul(cm[k], f);
        ci[k] = forward_detail::mul(ci[k], f);
        cd[k] = forward_detail::mul(cd[k], f);
      }
    });
    std::swap(pm, cm);
    std::swap(pi, ci);
    std::swap(pd, cd);
  }
  return forward_score_from(forward_detail::mul(s.C, move), s.exponent);
}

double forward_margin(int64_t L, int M, double score) {
  const double u = std::ldexp(1.0, -24);  // float rounding, relative
  const double values = 3.0 * static_cast<double>(L + M) * u;
  const double scales = static_cast<double>(L) * u * (std::fabs(score) + 10.0);
  return 50.0 * (values + scales);
}

bool forward_may_pass(double score, float filtersc, int64_t L, int M, float tau, float lambda,
                      double F3) {
  const double high = score + forward_margin(L, M, score);
  // bits(): (fwdsc - filtersc) / ln 2, then esl_exp_surv: 1 below tau, else exp(-lambda (x - tau)).
  const double bits = (high - static_cast<double>(filtersc)) / kLn2;
  if (bits < static_cast<double>(tau)) return 1.0 <= F3;
  const double P = std::exp(-static_cast<double>(lambda) * (bits - static_cast<double>(tau)));
  return P <= F3;
}

}  // namespace gpuseq::hmm
