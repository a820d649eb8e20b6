// SSV and MSV filter kernels (HMMER's p7_SSVFilter / p7_MSVFilter), one copy per instruction set.
//
// Layout: rows are in model order (node k at index k - 1, "linear"), not HMMER's striped order.
// Every cell of row i depends only on row i-1, so a row is computed in whole SIMD vectors; the
// diagonal predecessor (node k-1) comes from shifting the aligned previous-row vector by one lane
// in registers (an unaligned reload of a just-stored row would defeat store forwarding).
// Results are layout independent (spec 5.6); all saturation points are HMMER's: +bias saturates
// at 255, -cost at 0.
#pragma once

#include <algorithm>
#include <cstring>
#include <utility>

#include "common/simd.hpp"
#include "hmm/profile.hpp"

namespace gpuseq::hmm::GPUSEQ_SIMD_NS {

namespace sv = gpuseq::simd::GPUSEQ_SIMD_NS;

// R[k] = max(0, R_prev[k-1] + bias - rb[x][k]) over all rows; returns max over all cells.
// Byte saturation at 255 only happens after some cell exceeded 127 - bias, where the SSV's
// answer no longer depends on the exact maximum (spec 5.2 (A)).
inline int ssv_best_diagonal(const MsvProfile& om, const uint8_t* dsq, int64_t L, int stop_at,
                             uint8_t* work) {
  const int V = (om.M + sv::kBytes - 1) / sv::kBytes;
  uint8_t* prev = work;
  uint8_t* cur = work + om.stride;
  std::memset(work, 0, 2 * static_cast<size_t>(om.stride));
  const sv::Vec zero = sv::set1_u8(0);
  const sv::Vec bias = sv::set1_u8(om.bias);
  sv::Vec best = zero;
  for (int64_t i = 0; i < L; ++i) {
    const uint8_t* rb = om.row(dsq[i]);
    sv::Vec before = zero;  // node 0: the begin level, R = 0
    for (int v = 0; v < V; ++v) {
      const sv::Vec p = sv::load(prev + v * sv::kBytes);
      const sv::Vec r = sv::subs_u8(sv::adds_u8(sv::shift_in_u8(p, before), bias),
                                    sv::load(rb + v * sv::kBytes));
      before = p;
      sv::store(cur + v * sv::kBytes, r);
      best = sv::max_u8(best, r);
    }
    std::swap(prev, cur);
    if ((i & 63) == 63 && sv::hmax_u8(best) >= stop_at) break;  // answer already decided
  }
  return sv::hmax_u8(best);
}

// The MSV recurrence with the J state (spec 5.3), unsigned saturating bytes, 0 = -inf.
inline int msv_final_xj(const MsvProfile& om, const uint8_t* dsq, int64_t L, int tjb,
                        uint8_t* work) {
  const int V = (om.M + sv::kBytes - 1) / sv::kBytes;
  const int tjbm = (tjb + om.tbm) & 0xff;
  uint8_t* prev = work;
  uint8_t* cur = work + om.stride;
  std::memset(work, 0, 2 * static_cast<size_t>(om.stride));
  const sv::Vec zero = sv::set1_u8(0);
  const sv::Vec bias = sv::set1_u8(om.bias);
  int xJ = 0;
  int xB = std::max(0, kBaseB - tjbm);
  for (int64_t i = 0; i < L; ++i) {
    const uint8_t* rb = om.row(dsq[i]);
    const sv::Vec begin = sv::set1_u8(static_cast<uint8_t>(xB));
    sv::Vec before = zero;  // M_0 does not exist: -inf
    sv::Vec row_max = zero;
    for (int v = 0; v < V; ++v) {
      const sv::Vec p = sv::load(prev + v * sv::kBytes);
      sv::Vec r = sv::max_u8(sv::shift_in_u8(p, before), begin);
      r = sv::subs_u8(sv::adds_u8(r, bias), sv::load(rb + v * sv::kBytes));
      before = p;
      sv::store(cur + v * sv::kBytes, r);
      row_max = sv::max_u8(row_max, r);
    }
    int xE = sv::hmax_u8(row_max);
    if (xE + om.bias >= 255) return -1;  // checked before the J update, every row
    xE = std::max(0, xE - om.tec);
    xJ = std::max(xJ, xE);
    xB = std::max(0, std::max(kBaseB, xJ) - tjbm);
    std::swap(prev, cur);
  }
  return xJ;
}

}  // namespace gpuseq::hmm::GPUSEQ_SIMD_NS
