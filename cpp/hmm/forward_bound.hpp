// The Forward filter's score recomputed in double precision, to decide ahead of HMMER which
// survivors of the Viterbi filter cannot pass HMMER's Forward test (P <= F3), so that only the
// others go to HMMER's downstream (pyhmmer). HMMER's own p7_ForwardParser (float, SSE) makes
// every decision that counts; this only drops targets that fail it by more than a margin that
// covers both computations' rounding (forward_margin). Spec: shared/specs/hmmer3-filters.md
// sections 3 and 7.3; the model is p7_ProfileConfig's local multihit profile in probability
// space (odds against the null model), as the Forward parser uses it.
//
// One source for the CPU and the GPU (a thread per target, cuda/hmm/forward_bound.cuh): the
// row update below is written once, its operations in a fixed order through mul/add that are
// never contracted into fused multiply-adds, and rows are rescaled by powers of two (exact), so
// both give the same bits.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "common/alphabet.hpp"
#include "hmm/profile.hpp"

#if defined(__CUDACC__)
#define GPUSEQ_HOST_DEVICE __host__ __device__
#else
#define GPUSEQ_HOST_DEVICE
#endif

namespace gpuseq::hmm {

// Forward tables: odds (exp of the profile's log-odds scores) in double.
struct ForwardProfile {
  int M = 0;
  std::vector<double> match;  // kAminoKp rows x (M + 1): exp MSC(k, x); column 0 is 0
  // Per node k = 0..M (0 where a transition does not exist): out of node k.
  std::vector<double> mm, mi, md, im, ii, dm, dd;
  std::vector<double> begin;  // B -> M_k, k = 1..M ([0] = 0)
  const double* match_row(int x) const {
    return match.data() + static_cast<size_t>(x) * static_cast<size_t>(M + 1);
  }
};

ForwardProfile make_forward_profile(const ScoreProfile& gm);

namespace forward_detail {

#if defined(__CUDA_ARCH__)
__device__ inline double mul(double a, double b) { return __dmul_rn(a, b); }
__device__ inline double add(double a, double b) { return __dadd_rn(a, b); }
#else
inline double mul(double a, double b) { return a * b; }  // built with -ffp-contract=off
inline double add(double a, double b) { return a + b; }
#endif

// Rows are rescaled when their largest special state leaves [2^-kRescaleExponent,
// 2^kRescaleExponent]: by a power of two, exactly.
inline constexpr int kRescaleExponent = 64;

}  // namespace forward_detail

// The special states of one row and the power of two the row is scaled by.
struct ForwardSpecials {
  double N = 1, B = 0, E = 0, J = 0, C = 0;
  int64_t exponent = 0;  // the true values are these times 2^exponent
};

// One row of the Forward recursion for residue x. prev_*/cur_* index nodes 0..M through
// `at(array, k)` (the CPU's plain arrays, the GPU's interleaved ones); node 0 is 0 in every
// row. T is the table access: T::match(x, k), T::mm(k) ... as in ForwardProfile.
template <class Tables, class Row>
GPUSEQ_HOST_DEVICE inline void forward_row(const Tables& t, int M, int x, double loop,
                                           double move, Row prev_m, Row prev_i, Row prev_d,
                                           Row cur_m, Row cur_i, Row cur_d, ForwardSpecials& s) {
  using forward_detail::add;
  using forward_detail::mul;
  double E = 0;
  double m_left = 0, d_left = 0;  // cur_m, cur_d at k - 1
  for (int k = 1; k <= M; ++k) {
    // Into M_k: from node k - 1 of the previous row, and B (local entry).
    double into = mul(prev_m(k - 1), t.mm(k - 1));
    into = add(into, mul(prev_i(k - 1), t.im(k - 1)));
    into = add(into, mul(prev_d(k - 1), t.dm(k - 1)));
    into = add(into, mul(s.B, t.begin(k)));
    const double m = mul(into, t.match(x, k));
    // D_k from node k - 1 of this row; I_k from node k of the previous row (emission odds 1).
    const double d = add(mul(m_left, t.md(k - 1)), mul(d_left, t.dd(k - 1)));
    const double i = add(mul(prev_m(k), t.mi(k)), mul(prev_i(k), t.ii(k)));
    cur_m(k) = m;
    cur_d(k) = d;
    cur_i(k) = i;
    E = add(E, add(m, d));  // local exit from every M_k and D_k
    m_left = m;
    d_left = d;
  }
  s.E = E;
  s.J = add(mul(s.J, loop), mul(E, 0.5));
  s.C = add(mul(s.C, loop), mul(E, 0.5));
  s.N = mul(s.N, loop);
  s.B = add(mul(s.N, move), mul(s.J, move));
}

// Rescales a row (and its specials) when they leave the range; `scale_row(factor)` multiplies
// the row's M, I and D values.
template <class ScaleRow>
GPUSEQ_HOST_DEVICE inline void forward_rescale(ForwardSpecials& s, ScaleRow scale_row) {
  using forward_detail::mul;
  double top = s.N;
  if (s.B > top) top = s.B;
  if (s.E > top) top = s.E;
  if (s.J > top) top = s.J;
  if (s.C > top) top = s.C;
  const int e = ilogb(top);
  if (e > -forward_detail::kRescaleExponent && e < forward_detail::kRescaleExponent) return;
  const double f = ldexp(1.0, -e);
  s.N = mul(s.N, f);
  s.B = mul(s.B, f);
  s.E = mul(s.E, f);
  s.J = mul(s.J, f);
  s.C = mul(s.C, f);
  s.exponent += e;
  scale_row(f);
}

// Forward score in nats (log-odds against the null model, as p7_ForwardParser's fwdsc) of a
// target of length L >= 1, computed in double; the GPU twin returns the same C-move value and
// exponent, which forward_score_from turns into nats on the host.
double forward_score(const ForwardProfile& fp, const uint8_t* dsq, int64_t L);

// log(C * move) + exponent * ln 2: the score from the recursion's end state.
double forward_score_from(double c_move, int64_t exponent);

// N/C/J loop and move probabilities of a target of length L (p7_ReconfigLength, multihit).
void forward_length_model(int64_t L, double& loop, double& move);

// How far HMMER's float Forward parser and this one may lie apart, in nats, for a target of
// length L, model length M and score near `score`: the rounding of L + M chained float
// operations (relative 2^-24 each) in the values, and of L float additions to the sum of the
// row scales' logarithms, with a factor of 50 on top. The tests check the distance on every
// target of the stress corpora against HMMER's own parser.
double forward_margin(int64_t L, int M, double score);

// Whether a target whose Forward score is `score` (ours) may pass HMMER's Forward test
// P(bits(fwdsc, filtersc)) <= F3 (exponential tail tau, lambda): false only when it fails even
// with fwdsc = score + forward_margin.
bool forward_may_pass(double score, float filtersc, int64_t L, int M, float tau, float lambda,
                      double F3);

}  // namespace gpuseq::hmm
