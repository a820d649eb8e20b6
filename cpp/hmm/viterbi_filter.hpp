// Viterbi filter kernel (HMMER's p7_ViterbiFilter), one copy per instruction set.
//
// Signed 16-bit words with saturating adds; -32768 is the floor but not an absorbing -inf
// (spec 5.5). Rows are in model order (node k at index k - 1). M, I and the M->D part of D come
// from the previous row (and, for M->D, the current row's M) in whole vectors, predecessors
// shifted in registers. The D->D chain within a row is a max-plus prefix scan: carried across
// vectors, log-step inside a vector (exact because every D->D word is <= 0, see profile.cpp).
// It runs only when HMMER's lazy-F bound says it can change the next row (result neutral).
#pragma once

#include <algorithm>
#include <utility>

#include "common/simd.hpp"
#include "hmm/filter_kernels.hpp"
#include "hmm/profile.hpp"

namespace gpuseq::hmm::GPUSEQ_SIMD_NS {

namespace sv = gpuseq::simd::GPUSEQ_SIMD_NS;

// Completes D(k) = max(D(k), D(k-1) + DD(k-1)) along the row d[0..M) in place. Each vector is
// first scanned on its own (log-step, independent of the others, so they overlap); then the
// value carried out of the previous vector enters through a precomputed prefix of D->D costs.
// Only that last step is serial from vector to vector.
inline void viterbi_dd_chain(const ViterbiProfile& vp, int16_t* d, int V, sv::Vec neg) {
  const int16_t* prefix = sv::kWords == 16 ? vp.dd_prefix16.data() : vp.dd_prefix8.data();
  int16_t carry = kWordNegInf;  // D_0 does not exist
  for (int v = 0; v < V; ++v) {
    const int o = v * sv::kWords;
    sv::Vec x = sv::load(d + o);
    x = sv::max_s16(x, sv::adds_s16(sv::shift_words<1>(x, neg), sv::load(vp.dd_into.data() + o)));
    x = sv::max_s16(x, sv::adds_s16(sv::shift_words<2>(x, neg), sv::load(vp.dd_span2.data() + o)));
    x = sv::max_s16(x, sv::adds_s16(sv::shift_words<4>(x, neg), sv::load(vp.dd_span4.data() + o)));
    if constexpr (sv::kWords == 16)
      x = sv::max_s16(x, sv::adds_s16(sv::shift_words<8>(x, neg), sv::load(vp.dd_span8.data() + o)));
    x = sv::max_s16(x, sv::adds_s16(sv::set1_s16(carry), sv::load(prefix + o)));
    sv::store(d + o, x);
    carry = sv::last_s16(x);
  }
}

inline int viterbi_final_xc(const ViterbiProfile& vp, const uint8_t* dsq, int64_t L,
                            int ncj_move, int16_t* work) {
  const int V = (vp.M + sv::kWords - 1) / sv::kWords;
  const size_t S = static_cast<size_t>(vp.stride);
  std::fill(work, work + 6 * S, kWordNegInf);
  int16_t *Mp = work, *Ip = work + S, *Dp = work + 2 * S;
  int16_t *Mc = work + 3 * S, *Ic = work + 4 * S, *Dc = work + 5 * S;
  const sv::Vec neg = sv::set1_s16(kWordNegInf);

  const int xN = kBaseW;  // N.LOOP = 0: xN never changes
  int xB = xN + ncj_move;
  int xJ = kWordNegInf, xC = kWordNegInf;
  for (int64_t i = 0; i < L; ++i) {
    const int16_t* rw = vp.emission_row(dsq[i]);
    const sv::Vec xBv = sv::set1_s16(static_cast<int16_t>(xB));
    sv::Vec row_max = neg, d_max = neg;
    sv::Vec m_before = neg, i_before = neg, d_before = neg, mc_before = neg;
    for (int v = 0; v < V; ++v) {
      const int o = v * sv::kWords;
      const sv::Vec mp = sv::load(Mp + o), ip = sv::load(Ip + o), dp = sv::load(Dp + o);
      // Each candidate saturates separately, then the max, then the emission saturates again.
      sv::Vec m = sv::adds_s16(xBv, sv::load(vp.begin.data() + o));
      m = sv::max_s16(m, sv::adds_s16(sv::shift_in_s16(mp, m_before), sv::load(vp.mm.data() + o)));
      m = sv::max_s16(m, sv::adds_s16(sv::shift_in_s16(ip, i_before), sv::load(vp.im.data() + o)));
      m = sv::max_s16(m, sv::adds_s16(sv::shift_in_s16(dp, d_before), sv::load(vp.dm.data() + o)));
      m = sv::adds_s16(m, sv::load(rw + o));
      sv::store(Mc + o, m);
      row_max = sv::max_s16(row_max, m);
      sv::store(Ic + o, sv::max_s16(sv::adds_s16(mp, sv::load(vp.mi.data() + o)),
                                    sv::adds_s16(ip, sv::load(vp.ii.data() + o))));
      const sv::Vec d = sv::adds_s16(sv::shift_in_s16(m, mc_before), sv::load(vp.md_into.data() + o));
      sv::store(Dc + o, d);
      d_max = sv::max_s16(d_max, d);
      m_before = mp;
      i_before = ip;
      d_before = dp;
      mc_before = m;
    }
    const int xE = sv::hmax_s16(row_max);
    if (xE >= 32767) return kViterbiOverflow;
    xC = std::max(xC, xE + vp.e_move);
    xJ = std::max(xJ, xE + vp.e_move);
    xB = std::max(xJ + ncj_move, xN + ncj_move);
    if (sv::hmax_s16(d_max) + vp.ddbound > xB) viterbi_dd_chain(vp, Dc, V, neg);
    std::swap(Mp, Mc);
    std::swap(Ip, Ic);
    std::swap(Dp, Dc);
  }
  return xC;
}

}  // namespace gpuseq::hmm::GPUSEQ_SIMD_NS
