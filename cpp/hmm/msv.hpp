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

// SSV (spec 5.2): R[k] = max(0, R_prev[k-1] + bias - rb[x][k]) over all rows; returns the max
// over all cells. Each diagonal d = k - i is independent, so a block of diagonals lives in
// registers for the whole sweep down the rows: per row, one unaligned load of the read-only
// score row, one subtract, one max; no DP row is stored.
// As in HMMER, v = R - 128 is held as a signed byte: v - sb saturates at -128 exactly where R
// floors at 0 (sb = min(rb - bias, 127)), and the unsigned view of v is R + 128 while R < 128,
// so an unsigned max tracks max R. Values above 127 - bias only matter as "the answer is
// decided" (spec 5.2 (A)), and every diagonal passes through [127 - bias, 127] before it could
// wrap, so that bound is always seen.
template <int kSsvVectors>
inline int ssv_best_diagonal_v(const MsvProfile& om, const uint8_t* dsq, int64_t L, int stop_at) {
  constexpr int kLanes = kSsvVectors * sv::kBytes;  // diagonals per block
  static_assert(kLanes <= kSsvPad, "SSV rows are not padded enough for this block");
  const int64_t M = om.M;
  const sv::Vec begin = sv::set1_u8(0x80);  // v = -128: R = 0
  sv::Vec best = begin;
  // Diagonal d = k - i (0-based node k, row i) runs from -(L-1) to M-1.
  for (int64_t d0 = -(L - 1); d0 <= M - 1; d0 += kLanes) {
    // Rows where some diagonal of [d0, d0 + kLanes) is inside the model.
    const int64_t first = std::max<int64_t>(0, -(d0 + kLanes - 1));
    const int64_t last = std::min<int64_t>(L - 1, M - 1 - d0);
    sv::Vec v[kSsvVectors];
    sv::Vec block_best[kSsvVectors];
    for (int j = 0; j < kSsvVectors; ++j) v[j] = block_best[j] = begin;
    for (int64_t i = first; i <= last; ++i) {
      const int8_t* costs = om.ssv_row(dsq[i]) + i + d0;  // node of lane 0 on this row
      for (int j = 0; j < kSsvVectors; ++j) {
        v[j] = sv::subs_s8(v[j], sv::load(costs + j * sv::kBytes));
        block_best[j] = sv::max_u8(block_best[j], v[j]);
      }
    }
    for (int j = 0; j < kSsvVectors; ++j) best = sv::max_u8(best, block_best[j]);
    if (sv::hmax_u8(best) - 128 >= stop_at) break;  // answer already decided
  }
  return sv::hmax_u8(best) - 128;
}

// Block width: a block sweeps about min(L, M) + width rows, so wide blocks waste work on short
// models, narrow ones pay the per-row overhead more often. Measured (one Zen1 core, 20k random
// targets, GCUPS for 32/64/128 diagonals per block): M=71 AVX2 17.0/15.6/12.2, SSE2 -/12.1/11.0;
// M=260 AVX2 24.1/24.8/22.0, SSE2 -/16.6/17.4; M=803 AVX2 27.1/29.5/29.3, SSE2 -/18.3/20.3.
inline int ssv_best_diagonal(const MsvProfile& om, const uint8_t* dsq, int64_t L, int stop_at,
                             uint8_t* /*work*/) {
  if constexpr (sv::kBytes == 32) {
    return om.M < 128 ? ssv_best_diagonal_v<1>(om, dsq, L, stop_at)
                      : ssv_best_diagonal_v<2>(om, dsq, L, stop_at);
  } else {
    return om.M < 200 ? ssv_best_diagonal_v<2>(om, dsq, L, stop_at)
                      : ssv_best_diagonal_v<4>(om, dsq, L, stop_at);
  }
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
