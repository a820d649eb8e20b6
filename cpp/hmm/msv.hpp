// SSV and MSV filter kernels (HMMER's p7_SSVFilter / p7_MSVFilter), one copy per instruction set.
//
// Layout: rows are in model order (k = 1..M contiguous, "linear"), not HMMER's striped order.
// Every cell of row i depends only on row i-1, so a whole row is computed with full-width SIMD
// from an unaligned load of the previous row shifted by one cell. Results are layout independent
// (spec 5.6); all saturation points are HMMER's: +bias saturates at 255, -cost at 0.
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
  const int M = om.M;
  uint8_t* prev = work;
  uint8_t* cur = work + om.stride;
  std::memset(work, 0, 2 * static_cast<size_t>(om.stride));
  const sv::Vec bias = sv::set1_u8(om.bias);
  sv::Vec best = sv::set1_u8(0);
  for (int64_t i = 0; i < L; ++i) {
    const uint8_t* rb = om.row(dsq[i]);
    for (int k = 1; k <= M; k += sv::kBytes) {
      const sv::Vec v = sv::subs_u8(sv::adds_u8(sv::load(prev + k - 1), bias), sv::load(rb + k));
      sv::store(cur + k, v);
      best = sv::max_u8(best, v);
    }
    std::swap(prev, cur);
    if ((i & 63) == 63 && sv::hmax_u8(best) >= stop_at) break;  // answer already decided
  }
  return sv::hmax_u8(best);
}

// The MSV recurrence with the J state (spec 5.3), unsigned saturating bytes, 0 = -inf.
inline int msv_final_xj(const MsvProfile& om, const uint8_t* dsq, int64_t L, int tjb,
                        uint8_t* work) {
  const int M = om.M;
  const int tjbm = (tjb + om.tbm) & 0xff;
  uint8_t* prev = work;
  uint8_t* cur = work + om.stride;
  std::memset(work, 0, 2 * static_cast<size_t>(om.stride));
  const sv::Vec bias = sv::set1_u8(om.bias);
  int xJ = 0;
  int xB = std::max(0, kBaseB - tjbm);
  for (int64_t i = 0; i < L; ++i) {
    const uint8_t* rb = om.row(dsq[i]);
    const sv::Vec begin = sv::set1_u8(static_cast<uint8_t>(xB));
    sv::Vec row_max = sv::set1_u8(0);
    for (int k = 1; k <= M; k += sv::kBytes) {
      sv::Vec v = sv::max_u8(sv::load(prev + k - 1), begin);
      v = sv::subs_u8(sv::adds_u8(v, bias), sv::load(rb + k));
      sv::store(cur + k, v);
      row_max = sv::max_u8(row_max, v);
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
