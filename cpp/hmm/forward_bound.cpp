#include "hmm/forward_bound.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "hmm/cascade.hpp"

namespace gpuseq::hmm {

namespace {

constexpr double kLn2 = 0.69314718055994529;

double odds(float score) { return std::exp(static_cast<double>(score)); }  // exp(-inf) = 0

// The CPU's table access for the block steps: a slot is the node k itself.
struct HostTables {
  const ForwardProfile& fp;
  double match(int x, int64_t k) const { return fp.match_row(x)[k]; }
  double begin(int64_t k) const { return fp.begin[k]; }
  double mi(int64_t k) const { return fp.mi[k]; }
  double ii(int64_t k) const { return fp.ii[k]; }
  double mm_into(int64_t k) const { return fp.mm[k - 1]; }
  double im_into(int64_t k) const { return fp.im[k - 1]; }
  double dm_into(int64_t k) const { return fp.dm[k - 1]; }
  double md_into(int64_t k) const { return fp.md[k - 1]; }
  double dd_into(int64_t k) const { return fp.dd[k - 1]; }
};

// One row of M, I and D values, nodes 0..M, updated in place.
struct HostRows {
  double *pm, *pi, *pd;
  double& m(int64_t k) const { return pm[k]; }
  double& i(int64_t k) const { return pi[k]; }
  double& d(int64_t k) const { return pd[k]; }
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
  using forward_detail::add;
  using forward_detail::mul;
  const int M = fp.M;
  const int B = forward_block_nodes(M);
  const size_t width = static_cast<size_t>(M + 1);
  std::vector<double> rows(3 * width, 0.0);
  const HostRows r{rows.data(), rows.data() + width, rows.data() + 2 * width};
  const HostTables t{fp};
  double loop = 0, move = 0;
  forward_length_model(L, loop, move);
  ForwardSpecials s;
  s.B = mul(s.N, move);  // row 0: N = 1, B = N * move
  // The lanes a GPU thread block would run, one after another (forward_bound.hpp); lanes past M hold
  // padding only and add +0.
  const int lanes = (M + B - 1) / B;  // lanes holding nodes of the model
  const int all_lanes = forward_lanes(M), warps = forward_warps(M);
  constexpr int kMaxLanes = kForwardWarpLanes * kForwardMaxWarps;
  ForwardBlockEnd ends[kMaxLanes];
  double lane_sum[kMaxLanes], butterfly[kForwardWarpLanes];
  for (int64_t i = 0; i < L; ++i) {
    const int x = dsq[i];
    // A lane's left node (node first - 1, the left lane's last) is read before any lane
    // writes, as rows are updated in place; lane 0's is node 0, all zero.
    ForwardNode left[kMaxLanes];
    for (int l = 1; l < lanes; ++l) left[l] = {r.m(l * B), r.i(l * B), r.d(l * B)};
    for (int l = 0; l < lanes; ++l)
      ends[l] = forward_block_pass(t, r, x, s.B, l * B + 1, 1, std::min(B, M - l * B), left[l]);
    // The carries (lanes past the model carry {0, 0}), composed as the GPU's scan does: at
    // step s, lane l of a warp (l >= 2^s within the warp) takes lane l - 2^s's composition as
    // it was before the step; then each warp's after the composition of the warps to its left.
    ForwardCarry carry[kMaxLanes], before[kForwardWarpLanes];
    for (int l = 0; l + 1 < lanes; ++l) {
      const int64_t next = (l + 1) * B + 1;
      carry[l] = forward_carry(ends[l], t.md_into(next), t.dd_into(next));
    }
    for (int w = 0; w < warps; ++w) {
      ForwardCarry* warp = carry + w * kForwardWarpLanes;
      for (int step = 0; step < kForwardScanSteps; ++step) {
        const int offset = 1 << step;
        std::copy(warp, warp + kForwardWarpLanes, before);
        for (int l = offset; l < kForwardWarpLanes; ++l)
          warp[l] = forward_carry_after(before[l], before[l - offset]);
      }
    }
    ForwardCarry prefix[kForwardMaxWarps];  // warp w's: the composition of warps 0..w-1
    for (int w = 1; w < warps; ++w) {
      const ForwardCarry& total = carry[w * kForwardWarpLanes - 1];  // warp w - 1's own
      prefix[w] = w == 1 ? total : forward_carry_after(total, prefix[w - 1]);
    }
    for (int w = 1; w < warps; ++w)
      for (int l = w * kForwardWarpLanes; l < (w + 1) * kForwardWarpLanes; ++l)
        carry[l] = forward_carry_after(carry[l], prefix[w]);
    for (int l = 0; l < all_lanes; ++l) lane_sum[l] = 0;
    for (int l = 0; l < lanes; ++l) {
      const double d_first = l == 0 ? 0.0 : carry[l - 1].b;  // D_1 = 0
      lane_sum[l] = forward_block_finish(t, r, d_first, l * B + 1, 1, std::min(B, M - l * B));
    }
    double E = 0;
    for (int w = 0; w < warps; ++w) {
      double* sums = lane_sum + w * kForwardWarpLanes;
      for (int offset = kForwardWarpLanes / 2; offset > 0; offset /= 2) {
        for (int l = 0; l < kForwardWarpLanes; ++l) butterfly[l] = add(sums[l], sums[l ^ offset]);
        std::copy(butterfly, butterfly + kForwardWarpLanes, sums);
      }
      E = w == 0 ? sums[0] : add(E, sums[0]);
    }
    forward_specials(E, loop, move, s);
    forward_rescale(s, [&](double f) {
      for (int k = 1; k <= M; ++k) {
        r.m(k) = mul(r.m(k), f);
        r.i(k) = mul(r.i(k), f);
        r.d(k) = mul(r.d(k), f);
      }
    });
  }
  return forward_score_from(mul(s.C, move), s.exponent);
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
  // HMMER drops a target only when P > F3, so a NaN P (a NaN bias filter score, from a model
  // whose COMPO line holds NaN) passes, as it does in p7_Pipeline. A P below DBL_MIN is 0 in
  // hmmsearch (fails_threshold): it passes F3 = 0.
  if (bits < static_cast<double>(tau)) return !fails_threshold(1.0, F3);
  const double P = std::exp(-static_cast<double>(lambda) * (bits - static_cast<double>(tau)));
  return !fails_threshold(P, F3);
}

}  // namespace gpuseq::hmm
