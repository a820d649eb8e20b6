// The Forward filter's score recomputed in double precision, to decide ahead of HMMER which
// survivors of the Viterbi filter cannot pass HMMER's Forward test (P <= F3), so that only the
// others go to HMMER's downstream (pyhmmer). HMMER's own p7_ForwardParser (float, SSE) makes
// every decision that counts; this only drops targets that fail it by more than a margin that
// covers both computations' rounding (forward_margin). Spec: shared/specs/hmmer3-filters.md
// sections 3 and 7.3; the model is p7_ProfileConfig's local multihit profile in probability
// space (odds against the null model), as the Forward parser uses it.
//
// One source for the CPU and the GPU (a block per target, cuda/hmm/forward_bound.cuh): the
// row update below is written once, in blocks of nodes a lane each, its operations in a fixed
// order through mul/add that are never contracted into fused multiply-adds, and rows are
// rescaled by powers of two (exact), so both give the same bits.
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
// On the GPU the loops over a lane's nodes unroll where their count is a constant, so that a
// row held in registers (forward_bound.cuh) is indexed by constants.
#if defined(__CUDA_ARCH__)
#define GPUSEQ_UNROLL _Pragma("unroll")
#else
#define GPUSEQ_UNROLL
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

// A row is split into forward_lanes(M) blocks of consecutive nodes, as a GPU thread block
// computes it (a lane per block of nodes; forward_bound.cuh): one warp for short models, two
// or four for longer ones, so that the serial part of a row (B nodes a lane) stays short. The
// CPU twin runs the lanes one after another, so both make the same operations in the same
// order. Lane l holds nodes l * B + 1 .. (l + 1) * B with B = forward_block_nodes(M) (nodes
// past M are padding: zero tables, zero values, and they change no sum, as adding +0 is exact).
//
// A row in three steps:
//  1. forward_block_pass: every lane, from the previous row alone, computes M_k and I_k of its
//     nodes and D_k as if D were 0 at its first node ("local" D), and the product P_k of the
//     D->D transitions from its first node to k.
//  2. forward_carry, forward_carry_after: D at each lane's first node, from the lanes to its
//     left: D_first(l+1) = M_last(l) md + D_last(l) dd, where D_last(l) = local D_last(l) +
//     D_first(l) P_last(l), an affine map of D_first(l) composed over the lanes in a scan.
//  3. forward_block_finish: D_k = local D_k + D_first P_k, and the lane's sum of M_k + D_k
//     (local exit); E adds the lanes' sums: in a butterfly within each warp, then the warps'
//     sums in warp order (forward_specials).
inline constexpr int kForwardWarpLanes = 32;
inline constexpr int kForwardMaxWarps = 4;

GPUSEQ_HOST_DEVICE inline int forward_warps(int M) { return M <= 320 ? 1 : M <= 640 ? 2 : 4; }
GPUSEQ_HOST_DEVICE inline int forward_lanes(int M) {
  return kForwardWarpLanes * forward_warps(M);
}
GPUSEQ_HOST_DEVICE inline int forward_block_nodes(int M) {
  return (M + forward_lanes(M) - 1) / forward_lanes(M);
}

// A node's values in the previous row (left of a block: node first - 1).
struct ForwardNode {
  double m = 0, i = 0, d = 0;
};

// What a block's first step leaves for the carry: M, local D and P at its last node.
struct ForwardBlockEnd {
  double m = 0, d_local = 0, p = 1;
};

// Step 1 over `n` nodes of one lane; node j is table/row slot `slot0 + j * step`. Tables T
// take a slot and give the values into that slot's node k: match(x, s) = odds of x at k,
// begin(s), mi(s), ii(s) out of k, and mm_into, im_into, dm_into, md_into, dd_into: the
// transitions out of k - 1 into k. Rows R give m(s), i(s), d(s) by reference, in place: the
// previous row's values are read before the node's new ones are written.
template <class Tables, class Rows>
GPUSEQ_HOST_DEVICE inline ForwardBlockEnd forward_block_pass(const Tables& t, const Rows& r,
                                                             int x, double B, int64_t slot0,
                                                             int64_t step, int n,
                                                             ForwardNode left) {
  using forward_detail::add;
  using forward_detail::mul;
  ForwardBlockEnd end;
  double d_local = 0, p = 1;
  GPUSEQ_UNROLL
  for (int j = 0; j < n; ++j) {
    const int64_t s = slot0 + j * step;
    const ForwardNode prev{r.m(s), r.i(s), r.d(s)};
    // Into M_k: from node k - 1 of the previous row, and B (local entry).
    double into = mul(left.m, t.mm_into(s));
    into = add(into, mul(left.i, t.im_into(s)));
    into = add(into, mul(left.d, t.dm_into(s)));
    into = add(into, mul(B, t.begin(s)));
    const double m = mul(into, t.match(x, s));
    // I_k from node k of the previous row (emission odds 1); D_k from M_{k-1} of this row.
    const double i = add(mul(prev.m, t.mi(s)), mul(prev.i, t.ii(s)));
    if (j > 0) {
      d_local = add(mul(end.m, t.md_into(s)), mul(d_local, t.dd_into(s)));
      p = mul(p, t.dd_into(s));
    }
    r.m(s) = m;
    r.i(s) = i;
    r.d(s) = d_local;
    left = prev;
    end.m = m;
  }
  end.d_local = d_local;
  end.p = p;
  return end;
}

// Step 2 as a scan over the lanes. Lane l's carry is the affine map from D at its first node
// to D at the next lane's first node: d_first(l + 1) = a_l d_first(l) + b_l, with a_l = P_last(l)
// dd' and b_l = M_last(l) md' + local D_last(l) dd' (md', dd': the transitions into the next
// lane's first node; both 0 past the model, where the carry no longer matters). The maps are
// composed within each warp in kForwardScanSteps steps of a Kogge-Stone scan (lane l takes
// lane l - 2^s's composition at step s), so that a warp needs 5 exchanges a row rather than 31
// in a chain; then each warp's maps are composed after its left warps' (their totals composed
// in warp order). After the scan, lane l's b is d_first(l + 1), as d_first(0) = 0.
struct ForwardCarry {
  double a = 0, b = 0;
};
inline constexpr int kForwardScanSteps = 5;  // 2^5 = kForwardWarpLanes

GPUSEQ_HOST_DEVICE inline ForwardCarry forward_carry(const ForwardBlockEnd& end, double md_next,
                                                     double dd_next) {
  using forward_detail::add;
  using forward_detail::mul;
  return {mul(end.p, dd_next), add(mul(end.m, md_next), mul(end.d_local, dd_next))};
}

// `mine` applied after `before` (the composition of the lanes to the left).
GPUSEQ_HOST_DEVICE inline ForwardCarry forward_carry_after(const ForwardCarry& mine,
                                                           const ForwardCarry& before) {
  using forward_detail::add;
  using forward_detail::mul;
  return {mul(mine.a, before.a), add(mul(mine.a, before.b), mine.b)};
}

// Step 3 over the lane's nodes: D in place, and the lane's sum of M_k + D_k in node order.
template <class Tables, class Rows>
GPUSEQ_HOST_DEVICE inline double forward_block_finish(const Tables& t, const Rows& r,
                                                      double d_first, int64_t slot0,
                                                      int64_t step, int n) {
  using forward_detail::add;
  using forward_detail::mul;
  double p = 1, sum = 0;
  GPUSEQ_UNROLL
  for (int j = 0; j < n; ++j) {
    const int64_t s = slot0 + j * step;
    if (j > 0) p = mul(p, t.dd_into(s));
    const double d = add(r.d(s), mul(d_first, p));
    r.d(s) = d;
    sum = add(sum, add(r.m(s), d));
  }
  return sum;
}

// The specials of the row from E, the sum of its lanes' sums (within a warp added in a
// butterfly: lane l adds lane l ^ 16, then l ^ 8, ... l ^ 1, and every lane ends with the same
// bits, as IEEE addition commutes; then the warps' sums from warp 0 up).
GPUSEQ_HOST_DEVICE inline void forward_specials(double E, double loop, double move,
                                                ForwardSpecials& s) {
  using forward_detail::add;
  using forward_detail::mul;
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
// with fwdsc = score + forward_margin. A NaN P passes, as in HMMER (it drops on P > F3).
bool forward_may_pass(double score, float filtersc, int64_t L, int M, float tau, float lambda,
                      double F3);

}  // namespace gpuseq::hmm
