// Viterbi filter kernel (HMMER's p7_ViterbiFilter), one copy per instruction set.
//
// Signed 16-bit words with saturating adds, -32768 is the floor but not an absorbing -inf
// (spec 5.5). Rows are in model order: M and I cells of a row are full-width SIMD from the
// previous row; D cells get M->D in SIMD, then the D->D chain runs serially, and only when
// HMMER's lazy-F bound says it can change the next row (ddbound test, result neutral).
#pragma once

#include <algorithm>
#include <utility>

#include "common/simd.hpp"
#include "hmm/filter_kernels.hpp"
#include "hmm/profile.hpp"

namespace gpuseq::hmm::GPUSEQ_SIMD_NS {

namespace sv = gpuseq::simd::GPUSEQ_SIMD_NS;

inline int viterbi_final_xc(const ViterbiProfile& vp, const uint8_t* dsq, int64_t L,
                            int ncj_move, int16_t* work) {
  const int M = vp.M;
  const size_t S = static_cast<size_t>(vp.stride);
  std::fill(work, work + 6 * S, kWordNegInf);
  int16_t *Mp = work, *Ip = work + S, *Dp = work + 2 * S;
  int16_t *Mc = work + 3 * S, *Ic = work + 4 * S, *Dc = work + 5 * S;
  const int16_t *begin = vp.begin.data(), *mm = vp.mm.data(), *im = vp.im.data(),
                *dm = vp.dm.data(), *mi = vp.mi.data(), *ii = vp.ii.data(),
                *md = vp.md_into.data(), *dd = vp.dd_into.data();

  const int xN = kBaseW;  // N.LOOP = 0: xN never changes
  int xB = xN + ncj_move;
  int xJ = kWordNegInf, xC = kWordNegInf;
  for (int64_t i = 0; i < L; ++i) {
    const int16_t* rw = vp.emission_row(dsq[i]);
    const sv::Vec xBv = sv::set1_s16(static_cast<int16_t>(xB));
    sv::Vec row_max = sv::set1_s16(kWordNegInf);
    for (int k = 1; k <= M; k += sv::kWords) {
      // Each candidate saturates separately, then the max, then the emission saturates again.
      sv::Vec v = sv::adds_s16(xBv, sv::load(begin + k));
      v = sv::max_s16(v, sv::adds_s16(sv::load(Mp + k - 1), sv::load(mm + k)));
      v = sv::max_s16(v, sv::adds_s16(sv::load(Ip + k - 1), sv::load(im + k)));
      v = sv::max_s16(v, sv::adds_s16(sv::load(Dp + k - 1), sv::load(dm + k)));
      v = sv::adds_s16(v, sv::load(rw + k));
      sv::store(Mc + k, v);
      row_max = sv::max_s16(row_max, v);
      sv::store(Ic + k, sv::max_s16(sv::adds_s16(sv::load(Mp + k), sv::load(mi + k)),
                                    sv::adds_s16(sv::load(Ip + k), sv::load(ii + k))));
    }
    // M->D; cell M+1 is HMMER's padding lane, kept so that the lazy-F max is the same.
    sv::Vec d_max = sv::set1_s16(kWordNegInf);
    for (int k = 1; k <= M + 1; k += sv::kWords) {
      const sv::Vec d = sv::adds_s16(sv::load(Mc + k - 1), sv::load(md + k));
      sv::store(Dc + k, d);
      d_max = sv::max_s16(d_max, d);
    }
    const int xE = sv::hmax_s16(row_max);
    if (xE >= 32767) return kViterbiOverflow;
    xC = std::max(xC, xE + vp.e_move);
    xJ = std::max(xJ, xE + vp.e_move);
    xB = std::max(xJ + ncj_move, xN + ncj_move);
    if (sv::hmax_s16(d_max) + vp.ddbound > xB) {
      for (int k = 2; k <= M; ++k)
        Dc[k] = std::max<int16_t>(Dc[k],
                                  static_cast<int16_t>(std::clamp(Dc[k - 1] + dd[k], -32768, 32767)));
    }
    std::swap(Mp, Mc);
    std::swap(Ip, Ic);
    std::swap(Dp, Dc);
  }
  return xC;
}

}  // namespace gpuseq::hmm::GPUSEQ_SIMD_NS
