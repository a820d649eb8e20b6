// Viterbi filter on the GPU as a systolic pipeline: a group of G lanes holds the model, B
// consecutive nodes a lane, and a DP row moves one lane to the right per step, so that lane j
// computes row i - j while lane 0 starts row i. Within its B nodes a lane runs the D->D chain in
// order (D_k from D_{k-1} of the same row), so the chain is exact and there is no lazy-F test;
// between lanes one shuffle a step passes the last node's M, I, D and the row's running max.
// Each 32-bit lane word holds two targets of nearly the same length (a pair, longest first) in
// its 16-bit halves: the recurrences are the fused kernel's DPX instructions, per half.
// Same results as the CPU twin (cpp/hmm/viterbi_filter.hpp) for every target it keeps; the
// others it hands back (kSystolicRerun) and the fused kernel (viterbi_fused.cuh) scores them.
//
// What makes one pass enough. HMMER's xB = max(xJ, xN) + move rises above xN + move only after
// a row with xE + E->J > xN = 12000, a target that scores well (a few percent of the Viterbi
// filter's input). Below that xB is the constant X = 12000 + ncj_move, which a row can use
// before the rows above it are finished: the pipeline runs every target with xB = X and hands
// back those whose max(xE) + E->J exceeds 12000 (xC > xN), which also holds every target that
// could overflow (all values stay below max(xB, xE's so far) + the largest emission).
//
// No floors. As in the fused kernel's rows without floors (fused_fast_min_move), every value is
// >= X + lowest (systolic_tables: the B->M entry, an emission, a transition or two below it),
// so the sums that HMMER saturates cannot go below -32768 when X + lowest >= -32768; a target
// of smaller ncj_move (longer than ~ 5e7 residues for most models) or with a residue whose
// emission is -32768 (gap, '*', '~': weak_residues) is handed back. HMMER's -inf (-32768) of
// row 0, of node 0 and of D_1 is the value `fake` here, high enough that fake plus the one or
// two transitions it meets cannot wrap and below every real value (X + lowest > fake), so it
// never wins a max, as -32768 never does in HMMER; the words whose source is always -inf
// (into node 1, out of D_1) are 0.
// P = G B - M padding nodes go in front of node 1 (xB->M -32768, all other words 0): their
// values stay <= max(X - 32768, fake), below every real M, so they never set a row's maximum.
//
// Per target pair, rows longer than the shorter target's length are computed but not counted
// (its half of the running max is reset to -32768). Groups take their pairs from lists built
// on the host, longest pair to the least loaded group (systolic_plan). A first kernel lays each
// pair's residues side by side (systolic_rows_kernel): a lane then reads one 16-bit word a
// step, where two byte loads from the database and the weak-residue tests cost ~12% (H200,
// M = 150: 0.96 against 0.87 ms, results/gpu-h200-20261128-j).
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include "common/alphabet.hpp"
#include "hmm/msv.cuh"
#include "hmm/profile.hpp"

namespace gpuseq::cuda::hmm {

constexpr int kSystolicThreads = 256;
constexpr int32_t kSystolicRerun = INT_MIN;  // out value: score this target on the fused kernel

// A pair of targets, a the longer (b_pos < 0: a alone).
struct SystolicPair {
  int64_t a_offset, b_offset;  // their first residues in TargetList::residues
  int64_t rows_at;             // their interleaved residues (systolic_rows_kernel)
  int32_t a_length, b_length;
  int32_t a_pos, b_pos;        // their positions in the output
  uint32_t xb;                 // X of each: a in the low half, b in the high
  int32_t unused;
};

// Each pair's residues side by side, a row a 16-bit word (a's code low, b's high, 0 past b's
// end): the pipeline's lanes then read one word a step. weak[pair]: bit 0 a, bit 1 b has a
// residue of weak_residues (handed back). A warp a pair.
__global__ void systolic_rows_kernel(const SystolicPair* __restrict__ pairs, int n_pairs,
                                     const uint8_t* __restrict__ residues, uint32_t weak_residues,
                                     uint16_t* __restrict__ rows, uint8_t* __restrict__ weak) {
  const int lane = threadIdx.x & 31;
  const int warps = static_cast<int>((gridDim.x * blockDim.x) >> 5);
  for (int p = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) >> 5); p < n_pairs;
       p += warps) {
    const SystolicPair pr = pairs[p];
    bool weak_a = false, weak_b = false;
    for (int r = lane; r < pr.a_length; r += 32) {
      const uint32_t xa = __ldg(residues + pr.a_offset + r);
      const uint32_t xb = r < pr.b_length ? __ldg(residues + pr.b_offset + r) : 0u;
      weak_a |= (weak_residues >> xa) & 1u;
      weak_b |= r < pr.b_length && ((weak_residues >> xb) & 1u);
      rows[pr.rows_at + r] = static_cast<uint16_t>(xa | xb << 8);
    }
    weak_a = __any_sync(kFullWarp, weak_a);
    weak_b = __any_sync(kFullWarp, weak_b);
    if (lane == 0) weak[p] = static_cast<uint8_t>(weak_a | weak_b << 1);
  }
}

// Node words of a lane in the padded block (B slots a lane, 8 words a slot: B->M, M->M, I->M,
// D->M into the node from the previous row's node k-1; M->I, I->I from node k; M->D, D->D from
// this row's node k-1), each word the same 16-bit value twice; emissions per lane.
constexpr int kSystolicWordsPerNode = 8;
__host__ __device__ constexpr int systolic_padded_nodes(int B) { return (B + 3) / 4 * 4; }

template <int Bp>
__device__ __forceinline__ void systolic_emissions(const int16_t* lane_table, int xa, int xb,
                                                   uint32_t (&ea)[Bp / 2],
                                                   uint32_t (&eb)[Bp / 2]) {
  const int16_t* pa = lane_table + xa * 32 * Bp;
  const int16_t* pb = lane_table + xb * 32 * Bp;
  if constexpr (Bp % 8 == 0) {
#pragma unroll
    for (int v = 0; v < Bp / 8; ++v) {
      const uint4 a = reinterpret_cast<const uint4*>(pa)[v];
      const uint4 b = reinterpret_cast<const uint4*>(pb)[v];
      ea[4 * v] = a.x, ea[4 * v + 1] = a.y, ea[4 * v + 2] = a.z, ea[4 * v + 3] = a.w;
      eb[4 * v] = b.x, eb[4 * v + 1] = b.y, eb[4 * v + 2] = b.z, eb[4 * v + 3] = b.w;
    }
  } else {
#pragma unroll
    for (int v = 0; v < Bp / 4; ++v) {
      const uint2 a = reinterpret_cast<const uint2*>(pa)[v];
      const uint2 b = reinterpret_cast<const uint2*>(pb)[v];
      ea[2 * v] = a.x, ea[2 * v + 1] = a.y;
      eb[2 * v] = b.x, eb[2 * v + 1] = b.y;
    }
  }
}

// words: systolic_tables' words; emissions: [x][lane][Bp] int16; pairs in the order of `order`,
// group g's from order[first[g]] to order[first[g + 1] - 1]; rows, weak: systolic_rows_kernel's;
// out: xC or kSystolicRerun.
template <int B>
__global__ void __launch_bounds__(kSystolicThreads)
    viterbi_systolic_kernel(const uint32_t* __restrict__ words,
                            const int16_t* __restrict__ emissions, int G,
                            const SystolicPair* __restrict__ pairs,
                            const int32_t* __restrict__ order, const int32_t* __restrict__ first,
                            const uint16_t* __restrict__ rows, const uint8_t* __restrict__ weak,
                            uint32_t fake, int e_move, int32_t* __restrict__ out) {
  constexpr int Bp = systolic_padded_nodes(B);
  constexpr uint32_t kNeg = 0x80008000u;
  __shared__ __align__(16) int16_t table[kAminoKp * 32 * Bp];
  for (int i = threadIdx.x; i < kAminoKp * 32 * Bp; i += blockDim.x) table[i] = emissions[i];
  __syncthreads();
  const int lane = threadIdx.x & 31;
  const int groups_per_warp = 32 / G, group_in_warp = lane / G, at = lane % G;
  const bool idle = group_in_warp >= groups_per_warp;  // lanes past the last whole group
  const int group = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) >> 5) *
                        groups_per_warp + group_in_warp;
  const int left = at == 0 || idle ? lane : lane - 1;

  uint32_t tB[B], tMM[B], tIM[B], tDM[B], tMI[B], tII[B], tMD[B], tDD[B];
#pragma unroll
  for (int n = 0; n < B; ++n) {
    const uint32_t* w =
        words + static_cast<size_t>((idle ? 0 : at) * B + n) * kSystolicWordsPerNode;
    tB[n] = __ldg(w), tMM[n] = __ldg(w + 1), tIM[n] = __ldg(w + 2), tDM[n] = __ldg(w + 3);
    tMI[n] = __ldg(w + 4), tII[n] = __ldg(w + 5), tMD[n] = __ldg(w + 6), tDD[n] = __ldg(w + 7);
  }
  // The previous row's M, I, D of this lane's nodes, and of the node before them (diagonal).
  uint32_t M[B], I[B], D[B], entry[B];
#pragma unroll
  for (int n = 0; n < B; ++n) M[n] = I[n] = D[n] = entry[n] = fake;
  uint32_t m_diag = fake, i_diag = fake, d_diag = fake;
  uint32_t m_out = fake, i_out = fake, d_out = fake, max_out = kNeg, best = kNeg;
  int q = idle ? 0 : first[group];
  const int q_end = idle ? 0 : first[group + 1];
  int p = q < q_end ? order[q] : 0;
  int row = -at;                      // lane `at` starts `at` steps after lane 0
  int32_t a_length = INT_MAX, b_length = 0;
  int64_t rows_at = 0;
  bool active = q < q_end;
  const int16_t* lane_table = table + lane * Bp;
  while (__any_sync(kFullWarp, active)) {
    uint32_t m_left = __shfl_sync(kFullWarp, m_out, left);
    uint32_t i_left = __shfl_sync(kFullWarp, i_out, left);
    uint32_t d_left = __shfl_sync(kFullWarp, d_out, left);
    uint32_t max_left = __shfl_sync(kFullWarp, max_out, left);
    if (at == 0) m_left = i_left = d_left = fake, max_left = kNeg;
    if (row == 0 && active) {  // a pair's first row: row 0 is -inf everywhere
      const SystolicPair& pr = pairs[p];
      rows_at = pr.rows_at;
      a_length = pr.a_length, b_length = pr.b_length;
#pragma unroll
      for (int n = 0; n < B; ++n) M[n] = I[n] = D[n] = fake, entry[n] = __vadd2(pr.xb, tB[n]);
      m_diag = i_diag = d_diag = fake;
      best = kNeg;
    }
    const uint32_t xs = active && row >= 0 ? __ldg(rows + rows_at + row) : 0u;
    uint32_t ea[Bp / 2], eb[Bp / 2];
    systolic_emissions<Bp>(lane_table, xs & 0xff, xs >> 8, ea, eb);
    uint32_t Mn[B], In[B], Dn[B];
    uint32_t row_max = kNeg;
#pragma unroll
    for (int n = 0; n < B; ++n) {
      const uint32_t e = __byte_perm(ea[n / 2], eb[n / 2], (n & 1) ? 0x7632 : 0x5410);
      uint32_t m = __viaddmax_s16x2(n == 0 ? m_diag : M[n - 1], tMM[n], entry[n]);
      m = __viaddmax_s16x2(n == 0 ? i_diag : I[n - 1], tIM[n], m);
      m = __viaddmax_s16x2(n == 0 ? d_diag : D[n - 1], tDM[n], m);
      Mn[n] = __vadd2(m, e);
      In[n] = __viaddmax_s16x2(I[n], tII[n], __vadd2(M[n], tMI[n]));
      Dn[n] = __viaddmax_s16x2(n == 0 ? d_left : Dn[n - 1], tDD[n],
                               __vadd2(n == 0 ? m_left : Mn[n - 1], tMD[n]));
      row_max = __vmaxs2(row_max, Mn[n]);
    }
    m_diag = m_left, i_diag = i_left, d_diag = d_left;
#pragma unroll
    for (int n = 0; n < B; ++n) M[n] = Mn[n], I[n] = In[n], D[n] = Dn[n];
    m_out = Mn[B - 1], i_out = In[B - 1], d_out = Dn[B - 1];
    max_out = __vmaxs2(max_left, row_max);  // at the last lane: the row's xE of each target
    if (active && row >= 0) {
      best = __vmaxs2(best, row < b_length ? max_out : (max_out & 0xffffu) | 0x80000000u);
      if (at == G - 1 && row == a_length - 1) {
        const SystolicPair& pr = pairs[p];
        const int xc_a = static_cast<int16_t>(best & 0xffffu) + e_move;
        const int xc_b = static_cast<int16_t>(best >> 16) + e_move;
        const uint32_t w = weak[p];
        out[pr.a_pos] = (w & 1u) || xc_a > ::gpuseq::hmm::kBaseW ? kSystolicRerun : xc_a;
        if (pr.b_pos >= 0)
          out[pr.b_pos] = (w & 2u) || xc_b > ::gpuseq::hmm::kBaseW ? kSystolicRerun : xc_b;
      }
    }
    if (active && ++row == a_length) {
      row = 0;
      active = ++q < q_end;
      if (active) p = order[q];
    }
  }
}

// The pipeline's shape for a model of M nodes: G lanes of B nodes (0, 0: none; the fused
// kernel then scores every target), B from 6 to 12 (12: the registers of 12 nodes' words and
// rows, 185 of them). The fewest lanes that hold the model up to 96 nodes, G = 4 up to 48 and
// 8 up to 96, so that few padding nodes are computed (RRM_1, M = 71, took 16 lanes of 6, 96
// nodes, before: results/gpu-h200-20261129-e); then G = 16 up to 160 and 32 up to 384.
struct SystolicShape {
  int G = 0, B = 0;
};
inline SystolicShape systolic_shape(int M) {
  if (M < 1) return {};
  if (M <= 4 * 12) return {4, std::max(6, (M + 3) / 4)};
  if (M <= 8 * 12) return {8, std::max(6, (M + 7) / 8)};
  if (M <= 16 * 10) return {16, std::max(6, (M + 15) / 16)};
  if (M <= 32 * 12) return {32, std::max(6, (M + 31) / 32)};
  return {};
}

struct SystolicTables {
  std::vector<uint32_t> words;      // G B slots x kSystolicWordsPerNode
  std::vector<int16_t> emissions;   // kAminoKp x 32 lanes x systolic_padded_nodes(B)
  uint32_t fake = 0;                // the -inf stand-in, both halves
  int min_move = INT_MAX;           // least ncj_move of a target the pipeline scores
  uint32_t weak_residues = 0;       // residue codes with a -32768 emission at some node
};

inline SystolicTables systolic_tables(const ::gpuseq::hmm::ViterbiProfile& vp, int M,
                                      SystolicShape shape) {
  const int G = shape.G, B = shape.B, P = G * B - M;
  const int Bp = systolic_padded_nodes(B);
  SystolicTables out;
  auto pair = [](int v) {
    return static_cast<uint32_t>(static_cast<uint16_t>(v)) * 0x10001u;
  };
  // Words of padded slot s (node k = s - P + 1).
  for (int s = 0; s < G * B; ++s) {
    const int k = s - P + 1, j = k - 1;
    int w[kSystolicWordsPerNode] = {-32768, 0, 0, 0, 0, 0, 0, 0};  // padding
    if (k >= 1) {
      w[0] = vp.begin[j], w[1] = vp.mm[j], w[2] = vp.im[j], w[3] = vp.dm[j];
      w[4] = vp.mi[j], w[5] = vp.ii[j], w[6] = vp.md_into[j], w[7] = vp.dd_into[j];
      if (k == 1) w[1] = w[2] = w[3] = w[6] = w[7] = 0;  // from node 0: always -inf
      if (k == 2) w[3] = w[7] = 0;                        // out of D_1: always -inf
      if (k == M) w[4] = w[5] = 0;                        // I_M: nothing reads it
    }
    for (int v : w) out.words.push_back(pair(v));
  }
  out.emissions.assign(static_cast<size_t>(kAminoKp) * 32 * Bp, 0);
  for (int x = 0; x < kAminoKp; ++x) {
    const int16_t* e = vp.emission_row(x);
    for (int j = 0; j < M; ++j)
      if (e[j] == ::gpuseq::hmm::kWordNegInf) out.weak_residues |= 1u << x;
    for (int lane = 0; lane < (32 / G) * G; ++lane)
      for (int n = 0; n < B; ++n) {
        const int k = (lane % G) * B + n - P + 1;
        out.emissions[(static_cast<size_t>(x) * 32 + lane) * Bp + n] = k >= 1 ? e[k - 1] : 0;
      }
  }
  // The lowest real value less X and the fake -inf (the header): as fused_fast_min_move, over
  // the words this kernel reads.
  auto least = [&](const std::vector<int16_t>& v, int from, int to) {  // over [from, to)
    int m = 0;
    for (int j = from; j < to; ++j) m = std::min(m, static_cast<int>(v[j]));
    return m;
  };
  int e_least = 0;
  for (int x = 0; x < kAminoKp; ++x)
    if (!((out.weak_residues >> x) & 1u))
      for (int j = 0; j < M; ++j)
        e_least = std::min(e_least, static_cast<int>(vp.emission_row(x)[j]));
  const int b = least(vp.begin, 0, M), m = b + e_least;
  const int mi = least(vp.mi, 0, M - 1), ii = least(vp.ii, 0, M - 1), im = least(vp.im, 1, M);
  const int i = m + mi, d = m + least(vp.md_into, 1, M);
  const int lowest = std::min({b, m, m + least(vp.mm, 1, M), i, i + im, i + ii, d,
                               d + least(vp.dm, 2, M), d + least(vp.dd_into, 2, M)});
  // A fake value meets one transition (row 1's candidates from row 0, D_1's from node 0) or two
  // (row 1's I, from row 0, then into row 2's M or I): neither sum may wrap.
  const int one = std::min({least(vp.mm, 1, M), im, least(vp.dm, 2, M), mi, ii,
                            least(vp.md_into, 1, M), least(vp.dd_into, 2, M)});
  const int fake = -32768 - std::min(one, std::min(mi, ii) + std::min(im, ii));
  out.fake = pair(fake);
  // X + lowest >= -32768, X + lowest > fake, X >= 0 (the padding's X - 32768).
  if (lowest > -32768)
    out.min_move = std::max({-32768 - lowest - ::gpuseq::hmm::kBaseW,
                             fake + 1 - lowest - ::gpuseq::hmm::kBaseW, -::gpuseq::hmm::kBaseW});
  return out;
}

// Pairs of the targets ids (longest first) and the groups' lists: each pair, longest first, to
// the group with the least work so far (longest processing time first).
struct SystolicPlan {
  std::vector<SystolicPair> pairs;
  std::vector<int32_t> order, first;  // group g: order[first[g]] .. order[first[g + 1] - 1]
  int64_t rows = 0;                   // interleaved rows of all pairs
};

inline SystolicPlan systolic_plan(const std::vector<int32_t>& positions,
                                  const std::vector<int64_t>& offsets,
                                  const std::vector<int32_t>& lengths,
                                  const std::vector<int32_t>& xb, int groups) {
  SystolicPlan plan;
  const size_t n = positions.size();
  for (size_t t = 0; t < n; t += 2) {
    SystolicPair pr{};
    const bool two = t + 1 < n;
    pr.a_offset = offsets[t], pr.a_length = lengths[t], pr.a_pos = positions[t];
    pr.rows_at = plan.rows;
    pr.b_offset = two ? offsets[t + 1] : offsets[t];
    pr.b_length = two ? lengths[t + 1] : 0;
    pr.b_pos = two ? positions[t + 1] : -1;
    pr.xb = (static_cast<uint32_t>(xb[t]) & 0xffffu) |
            (static_cast<uint32_t>(two ? xb[t + 1] : xb[t]) << 16);
    plan.rows += pr.a_length;
    plan.pairs.push_back(pr);
  }
  std::vector<std::vector<int32_t>> lists(static_cast<size_t>(groups));
  using Load = std::pair<int64_t, int>;
  std::priority_queue<Load, std::vector<Load>, std::greater<>> least;
  for (int g = 0; g < groups; ++g) least.push({0, g});
  for (size_t q = 0; q < plan.pairs.size(); ++q) {  // pairs come longest first
    auto [work, g] = least.top();
    least.pop();
    lists[g].push_back(static_cast<int32_t>(q));
    least.push({work + plan.pairs[q].a_length, g});
  }
  plan.first.push_back(0);
  for (const auto& list : lists) {
    plan.order.insert(plan.order.end(), list.begin(), list.end());
    plan.first.push_back(static_cast<int32_t>(plan.order.size()));
  }
  return plan;
}

}  // namespace gpuseq::cuda::hmm
