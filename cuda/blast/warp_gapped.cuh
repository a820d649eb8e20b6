// A warp's run of blastp's score-only X-drop DP (semi_gapped.hpp's semi_gapped_dp with NoTrace
// and RingRows): one HSP a warp, a row's cells 32 at a time, column j always lane j mod 32's
// (the chunks start at first rounded down to 32), so that each ring place is one lane's own
// and the lanes share nothing in shared memory.
// Its results equal the serial recurrence's exactly (tests/test_blast_cuda.py), for this
// reason. In the serial row a cell's value is max(diagonal, E, F) with F the horizontal gap
// carried left to right, and a cell is pruned where best - value > x, best the running
// maximum of the row's earlier live cells. Take instead F* over every earlier cell,
//   F*_j = max_{k<j} (D_k - oe - e (j - 1 - k)),  D_k = max(diagonal_k, E_k),
// a prefix maximum of D_k + e k (a gap through a cell that took F is never better, as
// oe >= e). F and F* differ only by contributions that passed a pruned cell; such a cell's
// value, and so whatever it passed on, lies below best - x for the rest of the row (best never
// falls, F only falls), so it decides neither a live cell's value nor any cell's pruning. The
// same holds for best: a pruned cell lies below it, so best is the prefix maximum of every
// cell's value. Stored rows are the serial DP's: a live cell writes H and E as there, a pruned
// one H = MININT and keeps E (columns left of the new first are never read again).
#pragma once

#include <cstdint>

#include "blast/semi_gapped.hpp"

namespace gpuseq::cuda::blast {

namespace warp_dp {

constexpr unsigned kAll = 0xffffffffu;

__device__ inline int32_t inclusive_max(int32_t v, int lane) {
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    const int32_t o = __shfl_up_sync(kAll, v, d);
    if (lane >= d) v = max(v, o);
  }
  return v;
}

}  // namespace warp_dp

// semi_gapped_dp(a, b, matrix, gap_open, gap_extend, x_drop, RingRows{ring, mask, max_rows},
// NoTrace, end) run by the 32 lanes of a warp, all of which call it with the same arguments:
// the same return value and end. ring: mask + 1 columns (a multiple of 32) of this warp's own.
template <int Step>
__device__ bool warp_semi_gapped_dp(const gpuseq::blast::DirectedLetters<Step>& a,
                                    const gpuseq::blast::DirectedLetters<Step>& b,
                                    const int* matrix, int32_t gap_open, int32_t gap_extend,
                                    int32_t x_drop, gpuseq::blast::DpColumn* ring, int32_t mask,
                                    int32_t max_rows, gpuseq::blast::DpEnd& end) {
  using gpuseq::blast::kDpMinInt;
  using warp_dp::kAll;
  end = gpuseq::blast::DpEnd{};
  const int lane = static_cast<int>(threadIdx.x & 31);
  const int32_t m = a.count, n = b.count;
  if (m <= 0 || n <= 0) return true;
  const int32_t oe = gap_open + gap_extend, e = gap_extend;
  const int32_t x = x_drop > oe ? x_drop : oe;

  // Row 0: columns 1.. while -oe - e (j - 1) >= -x (at least column 1, as x >= oe).
  const int32_t row0 = e > 0 ? min(n, (x - oe) / e + 1) : n;
  if (row0 > mask) return false;
  for (int32_t j = lane; j <= row0; j += 32) {
    const int32_t v = j == 0 ? 0 : -oe - e * (j - 1);
    ring[j & mask] = {v, v - oe};
  }
  int32_t size = row0 + 1;  // columns 0..size-1 are live

  int32_t best = 0, best_i = 0, best_j = 0, first = 0;
  for (int32_t i = 1; i <= m; ++i) {
    if (i > max_rows) return false;
    const int* row = matrix + a[i] * gpuseq::blast::kAlphabetSize;
    int32_t carry_t = kDpMinInt;  // max of D_k + e k over the row's earlier chunks
    int32_t carry_h = kDpMinInt;  // the previous row's H left of this chunk
    int32_t first_live = -1, last_live = -1;
    for (int32_t c0 = first & ~31; c0 < size; c0 += 32) {
      const int32_t j = c0 + lane;
      const bool valid = j >= first && j < size;
      gpuseq::blast::DpColumn* cell = ring + (j & mask);
      const int32_t h_old = valid ? cell->h : kDpMinInt;
      const int32_t e_col = valid ? cell->e : kDpMinInt;
      int32_t h_left = __shfl_up_sync(kAll, h_old, 1);
      if (lane == 0) h_left = carry_h;
      // The first column has no diagonal (the serial DP's cur starts at MININT).
      const int32_t diag = (valid && j > first) ? h_left + row[b[j]] : kDpMinInt;
      const int32_t d = max(diag, e_col);
      const int32_t t_incl = warp_dp::inclusive_max(valid ? d + e * j : kDpMinInt, lane);
      int32_t t_before = __shfl_up_sync(kAll, t_incl, 1);
      t_before = lane == 0 ? carry_t : max(carry_t, t_before);
      const int32_t f = t_before - oe - e * (j - 1);  // F*: near MININT where no cell came
      const int32_t cur = max(d, f);
      const int32_t c_incl = warp_dp::inclusive_max(valid ? cur : kDpMinInt, lane);
      int32_t c_before = __shfl_up_sync(kAll, c_incl, 1);
      c_before = lane == 0 ? best : max(best, c_before);
      const bool live = valid && !(c_before - cur > x);
      if (valid) {
        if (live)
          *cell = {cur, max(e_col - e, cur - oe)};
        else
          cell->h = kDpMinInt;
      }
      const unsigned lives = __ballot_sync(kAll, live);
      if (lives) {
        if (first_live < 0) first_live = c0 + __ffs(lives) - 1;
        last_live = c0 + 31 - __clz(lives);
      }
      // The chunk's maximum, at its first column, is the new best where it beats the old.
      const int32_t chunk_max = __shfl_sync(kAll, c_incl, 31);
      if (chunk_max > best) {
        best = chunk_max;
        best_i = i;
        best_j = c0 + __ffs(__ballot_sync(kAll, valid && cur == chunk_max)) - 1;
      }
      carry_t = max(carry_t, __shfl_sync(kAll, t_incl, 31));
      carry_h = __shfl_sync(kAll, h_old, 31);
    }
    if (first_live < 0) break;  // every cell pruned
    first = first_live;
    if (last_live < size - 1) {
      size = last_live + 1;
    } else {
      // The last column is alive: the horizontal gap F runs on while F >= best - x.
      const int32_t f_end = carry_t - oe - e * last_live;
      if (f_end >= best - x) {
        int32_t count = e > 0 ? (f_end - (best - x)) / e + 1 : n + 1 - size;
        count = min(count, n + 1 - size);
        if (count > 0 && size + count - 1 - first > mask) return false;
        for (int32_t j = size + ((lane - size) & 31); j < size + count; j += 32) {
          const int32_t v = f_end - e * (j - size);
          ring[j & mask] = {v, v - oe};
        }
        size += max(count, 0);
      }
    }
    if (size <= n) {
      if (size - first > mask) return false;
      if (lane == (size & 31)) ring[size & mask] = {kDpMinInt, kDpMinInt};
      ++size;
    }
  }
  end.score = best;
  end.a_len = best_i;
  end.b_len = best_j;
  return true;
}

}  // namespace gpuseq::cuda::blast
