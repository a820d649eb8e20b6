// Viterbi filter on the GPU (CUDAMPF): a warp per target, signed 16-bit lanes in 32-bit
// registers, every add saturating (spec 5.5). GPU twin of cpp/hmm/viterbi_filter.hpp.
// Every transition word is <= 0 (profile.cpp: min(0, .) and DD <= 0), so the transition adds use
// the cheaper add_sat_nonpositive_s16; the emission add, of either sign, add_sat_s16.
//
// Striped model: thread t, word b (low half first) and stripe q hold node k = 1 + q + Q*(2t + b)
// (Q >= (M-1)/64 + 1, at least 2). The M, I and D values of a row live in 3Q registers.
// Tables, words of thread t at stripe q: emissions[(x*Q + q)*32 + t] for residue x, and
// transitions[(c*Q + q)*32 + t] for c in ViterbiTransition order. Nodes past M carry -32768 in
// every table, which keeps their M and I at -32768 and their D from feeding real states.
#pragma once

#ifndef __CUDACC_RTC__
#include <climits>
#include <cstdint>
#endif

#include "hmm/msv.cuh"
#include "hmm/warp_lanes.cuh"

namespace gpuseq::cuda::hmm {

// Into M_k: begin (B->M_k), mm, im, dm (from node k-1); into I_k: mi, ii; into D_k: md, dd
// (from node k-1), as in ViterbiProfile.
enum ViterbiTransition { kVtBegin = 0, kVtMM, kVtIM, kVtDM, kVtMI, kVtII, kVtMD, kVtDD, kVtCount };

constexpr uint32_t kNegWords = 0x80008000u;  // two lanes of -32768
constexpr uint32_t kNegWord = 0x8000u;

// param = the target's N/C/J MOVE word. Result: final xC, or INT_MAX on word overflow.
template <int Q>
__global__ void __launch_bounds__(128) viterbi_warp_kernel(const uint32_t* __restrict__ emissions,
                                                           const uint32_t* __restrict__ transitions,
                                                           int e_move, int ddbound,
                                                           TargetList list) {
  constexpr int kBaseW = 12000;
  constexpr int kNeg = -32768;
  const int lane = threadIdx.x & 31;
  const int warp = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) >> 5);
  const int warps = static_cast<int>((gridDim.x * blockDim.x) >> 5);
  const uint32_t* tr = transitions + lane;
  const uint32_t* my_emissions = emissions + lane;
  auto t = [tr](int c, int q) { return __ldg(tr + (c * Q + q) * 32); };

  for (int w = warp; w < list.n; w = next_target(list, w, warps)) {
    const int id = list.ids[w];
    const int64_t begin = list.offsets[id], L = list.offsets[id + 1] - begin;
    const uint8_t* seq = list.residues + begin;
    const int ncj_move = list.param[w];
    uint32_t M[Q], I[Q], D[Q];
#pragma unroll
    for (int q = 0; q < Q; ++q) M[q] = I[q] = D[q] = kNegWords;
    const int xN = kBaseW;  // N.LOOP = 0: xN never changes
    int xB = xN + ncj_move, xJ = kNeg, xC = kNeg;
    bool overflow = false;
    StagedResidues staged;
    for (int64_t i0 = 0; i0 < L && !overflow; i0 += 128) {
      staged.load(seq, i0, L);
      const int rows = L - i0 < 128 ? static_cast<int>(L - i0) : 128;
      for (int r = 0; r < rows; ++r) {
        const uint32_t* e = my_emissions + staged.at(r) * (Q * 32);
        const uint32_t xBv = splat_s16(xB);
        // Node k-1 of stripe 0 is stripe Q-1 one word down (previous row's values).
        const uint32_t m_first = shift_up_s16(M[Q - 1], kNegWord);
        const uint32_t i_first = shift_up_s16(I[Q - 1], kNegWord);
        const uint32_t d_first = shift_up_s16(D[Q - 1], kNegWord);
        uint32_t row_max = kNegWords;
        // Descending q: M[q-1], I[q-1], D[q-1] are still the previous row's when read.
#pragma unroll
        for (int q = Q - 1; q >= 0; --q) {
          const uint32_t mp = q ? M[q - 1] : m_first;
          const uint32_t ip = q ? I[q - 1] : i_first;
          const uint32_t dp = q ? D[q - 1] : d_first;
          I[q] = __vmaxs2(add_sat_nonpositive_s16(M[q], t(kVtMI, q)),
                          add_sat_nonpositive_s16(I[q], t(kVtII, q)));
          // Each candidate saturates separately, then the max, then the emission saturates.
          uint32_t m = add_sat_nonpositive_s16(xBv, t(kVtBegin, q));
          m = __vmaxs2(m, add_sat_nonpositive_s16(mp, t(kVtMM, q)));
          m = __vmaxs2(m, add_sat_nonpositive_s16(ip, t(kVtIM, q)));
          m = __vmaxs2(m, add_sat_nonpositive_s16(dp, t(kVtDM, q)));
          M[q] = add_sat_s16(m, __ldg(e + q * 32));
          row_max = __vmaxs2(row_max, M[q]);
        }
        // D from this row's M (M->D), then D->D only where HMMER's lazy-F bound says it can
        // change the next row (result neutral, spec 5.5).
        const uint32_t mc_first = shift_up_s16(M[Q - 1], kNegWord);
        uint32_t d_max = kNegWords;
#pragma unroll
        for (int q = Q - 1; q >= 0; --q) {
          D[q] = add_sat_nonpositive_s16(q ? M[q - 1] : mc_first, t(kVtMD, q));
          d_max = __vmaxs2(d_max, D[q]);
        }
        const int xE = warp_max_s16(row_max);
        if (xE >= 32767) {
          overflow = true;
          break;
        }
        xC = xC > xE + e_move ? xC : xE + e_move;
        xJ = xJ > xE + e_move ? xJ : xE + e_move;
        xB = (xJ > xN ? xJ : xN) + ncj_move;
        if (warp_max_s16(d_max) + ddbound > xB) {
          // Farrar's lazy F: sweeps of D(k) = max(D(k), D(k-1) + DD) until no lane changes;
          // the fixed point is the sequential chain's (saturation is monotone).
          for (;;) {
            const uint32_t carry = shift_up_s16(D[Q - 1], kNegWord);
            bool changed = false;
#pragma unroll
            for (int q = 0; q < Q; ++q) {
              const uint32_t d =
                  __vmaxs2(D[q], add_sat_nonpositive_s16(q ? D[q - 1] : carry, t(kVtDD, q)));
              changed |= d != D[q];
              D[q] = d;
            }
            if (!__any_sync(kFullWarp, changed)) break;
          }
        }
      }
    }
    if (lane == 0) list.out[w] = overflow ? INT_MAX : xC;
  }
}

}  // namespace gpuseq::cuda::hmm
