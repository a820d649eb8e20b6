// Viterbi filter on the GPU, a thread per target (Walters et al. 2009, their HMMER2 P7Viterbi
// kernel, here computing HMMER3's Viterbi filter): the variant benchmarked beside the CUDAMPF
// warp kernel (viterbi_filter.cuh). GPU twin of viterbi_final_xc (cpp/hmm/viterbi_filter.hpp):
// the same final xC word, or INT_MAX on word overflow, for the same host conversion to nats.
//
// Each thread walks its own target row by row and, within a row, the model nodes k = 1..M in
// order, in 32-bit ints clamped to 16 bits at every point where HMMER saturates (spec 5.5;
// where only the floor can act, one DPX add-max does the add, the clamp and the max).
// Going along k in order makes the whole D->D chain one more max per node (D(k-1) of this row
// is in a register), so there is no lazy-F test: the full chain gives HMMER's result exactly.
//
// DP rows, as in the paper: previous and current row of M, I and D per thread (6 rows), int16,
// in global scratch interleaved by thread: node k (1-based) of thread t at
// (k - 1) * nthreads + t, so a warp's 32 loads or stores of one node are 64 contiguous bytes.
// The predecessors of node k in the previous row (node k-1) are kept in registers from the
// previous step, and so are this row's M(k-1) and D(k-1): each node costs 3 loads and 3 stores.
//
// Model tables through the read-only data cache (ld.global.nc), not constant memory, on
// Hopper: the paper put HMMER2's model in constant memory (texture past 64 KB) on a G80, where
// global loads were uncached. Constant memory serves one address per warp per access and
// serialises distinct ones; the emission score depends on each thread's own residue, so a load
// would be replayed once per distinct residue among the warp's 32 targets, and models past
// M ~ 800 (80 bytes a node) would not fit its 64 KB anyway. The read-only cache broadcasts a
// warp-uniform address (the transitions, one 16-byte load a node) and serves a node's
// emissions, laid out node-major with the residue scores side by side in 64 bytes, in at most
// two sectors; a model of M = 3072 (240 KB) stays in L2 (50 MB).
#pragma once

#include <climits>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "hmm/msv.cuh"
#include "hmm/profile.hpp"

namespace gpuseq::cuda::hmm {

// Tables, node k (1-based) at index j = k - 1, as in ViterbiProfile:
//  transitions[j], one 128-bit load: x = (begin, mm), y = (im, dm), z = (mi, ii), w = (md, dd),
//  the first of each pair in the low half (into M_k: begin, mm, im, dm; into I_k: mi, ii; into
//  D_k: md, dd from node k-1);
//  emissions[j * 32 + x]: rw[x][k] for the 29 residue codes, padded to 32 (64 bytes a node).
constexpr int kWaltersEmissionStride = 32;

// The two tables from the CPU profile (host code).
inline std::vector<int4> walters_transitions(const ::gpuseq::hmm::ViterbiProfile& vp) {
  auto pair = [](int16_t low, int16_t high) {
    // The kernel's saturation shortcut (max_sat_add) needs every transition word <= 0, as
    // words of log-probabilities are.
    if (low > 0 || high > 0) throw std::logic_error("positive Viterbi transition word");
    return static_cast<int>(static_cast<uint32_t>(static_cast<uint16_t>(low)) |
                            static_cast<uint32_t>(static_cast<uint16_t>(high)) << 16);
  };
  std::vector<int4> out(static_cast<size_t>(vp.M));
  for (int j = 0; j < vp.M; ++j)
    out[j] = make_int4(pair(vp.begin[j], vp.mm[j]), pair(vp.im[j], vp.dm[j]),
                       pair(vp.mi[j], vp.ii[j]), pair(vp.md_into[j], vp.dd_into[j]));
  return out;
}

inline std::vector<int16_t> walters_emissions(const ::gpuseq::hmm::ViterbiProfile& vp) {
  std::vector<int16_t> out(static_cast<size_t>(vp.M) * kWaltersEmissionStride,
                           ::gpuseq::hmm::kWordNegInf);
  for (int x = 0; x < kAminoKp; ++x)
    for (int j = 0; j < vp.M; ++j)
      out[static_cast<size_t>(j) * kWaltersEmissionStride + x] = vp.emission_row(x)[j];
  return out;
}

__device__ __forceinline__ int low_s16(int pair) {
  return static_cast<int16_t>(static_cast<uint16_t>(pair));
}
__device__ __forceinline__ int high_s16(int pair) { return pair >> 16; }  // arithmetic shift

// max(sat(a + t), b) for a 16-bit value a, a transition word t and b >= -32768, where sat is
// HMMER's 16-bit saturation: every transition word is <= 0 (walters_transitions checks), so
// a + t <= 32767 and only the floor can act, and max(max(a + t, -32768), b) = max(a + t, b):
// one DPX instruction on sm_90.
__device__ __forceinline__ int max_sat_add(int a, int t, int b) { return __viaddmax_s32(a, t, b); }

// list.param = each target's N/C/J MOVE word; list.ids should be sorted by target length
// (descending, the host does it) so that the threads of a warp finish together.
// rows: 6 * (M + 1) * (gridDim.x * blockDim.x) int16 of scratch, no initial contents needed.
__global__ void __launch_bounds__(128)
    viterbi_walters_kernel(const int4* __restrict__ transitions,
                           const int16_t* __restrict__ emissions, int M, int e_move,
                           TargetList list, int16_t* __restrict__ rows) {
  constexpr int kBaseW = 12000;
  constexpr int kNeg = -32768;
  const int tid = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int nthreads = static_cast<int>(gridDim.x * blockDim.x);
  // The six rows of this thread, [previous, current] x [M, I, D], each M + 1 entries of stride
  // nthreads: node k at index k - 1; index M is a pad that the next node's load (issued one
  // step ahead) reads at the row's end; it is only ever -32768.
  const size_t row_size = static_cast<size_t>(M + 1) * nthreads;
  int16_t* prev_m = rows + tid;
  int16_t* prev_i = prev_m + row_size;
  int16_t* prev_d = prev_i + row_size;
  int16_t* cur_m = prev_d + row_size;
  int16_t* cur_i = cur_m + row_size;
  int16_t* cur_d = cur_i + row_size;
  const size_t pad = static_cast<size_t>(M) * nthreads;
  prev_m[pad] = prev_i[pad] = prev_d[pad] = cur_m[pad] = cur_i[pad] = cur_d[pad] = kNeg;

  // Targets tid, tid + nthreads, ...: in length order, so each round's warp runs similar
  // lengths (the grid is the resident threads, or fewer).
  for (int w = tid; w < list.n; w += nthreads) {
    const int id = list.ids[w];
    const int64_t begin = list.offsets[id], L = list.offsets[id + 1] - begin;
    const uint8_t* seq = list.residues + begin;
    const int ncj_move = list.param[w];
    for (size_t at = 0; at < pad; at += nthreads) prev_m[at] = prev_i[at] = prev_d[at] = kNeg;
    const int xN = kBaseW;  // N.LOOP = 0: xN never changes
    int xB = xN + ncj_move, xJ = kNeg, xC = kNeg;
    bool overflow = false;
    for (int64_t i = 0; i < L; ++i) {
      const int16_t* rw = emissions + __ldg(seq + i);
      // Node k-1 of the previous row (M, I, D) and of this row (M, D); node 0 does not exist.
      int m_diag = kNeg, i_diag = kNeg, d_diag = kNeg, m_left = kNeg, d_left = kNeg;
      int row_max = kNeg;
      // Node k of the previous row, loaded one step ahead so its latency overlaps a step.
      int mp = prev_m[0], ip = prev_i[0], dp = prev_d[0];
      size_t at = 0;
      // Not unrolled: unrolling adds no loads in flight (to the compiler the stores of node k
      // may alias the loads of node k+1, so only the explicit look-ahead overlaps) and takes
      // 76 registers, 6 blocks per SM instead of 8 at 64 (sm_90, nvcc 13).
#pragma unroll 1
      for (int k = 0; k < M; ++k, at += nthreads) {
        const int mp_next = prev_m[at + nthreads], ip_next = prev_i[at + nthreads],
                  dp_next = prev_d[at + nthreads];
        const int4 t = __ldg(transitions + k);
        const int e = __ldg(rw + k * kWaltersEmissionStride);
        // Each candidate saturates separately, then the max, then the emission (which can be
        // positive) saturates at both ends. xB <= 32266 (xJ <= 32766 - 500, N/C/J moves < 0).
        int m = max_sat_add(xB, low_s16(t.x), kNeg);
        m = max_sat_add(m_diag, high_s16(t.x), m);
        m = max_sat_add(i_diag, low_s16(t.y), m);
        m = max_sat_add(d_diag, high_s16(t.y), m);
        m = min(max(m + e, kNeg), 32767);
        const int ic = max_sat_add(ip, high_s16(t.z), max_sat_add(mp, low_s16(t.z), kNeg));
        // The full D->D chain: D(k-1) of this row is final when D(k) is computed.
        const int dc = max_sat_add(d_left, high_s16(t.w), max_sat_add(m_left, low_s16(t.w), kNeg));
        cur_m[at] = static_cast<int16_t>(m);
        cur_i[at] = static_cast<int16_t>(ic);
        cur_d[at] = static_cast<int16_t>(dc);
        row_max = max(row_max, m);
        m_diag = mp;
        i_diag = ip;
        d_diag = dp;
        m_left = m;
        d_left = dc;
        mp = mp_next;
        ip = ip_next;
        dp = dp_next;
      }
      const int xE = row_max;
      if (xE >= 32767) {  // a true 32767 also counts as overflow, as in HMMER
        overflow = true;
        break;
      }
      xC = max(xC, xE + e_move);
      xJ = max(xJ, xE + e_move);
      xB = max(xJ, xN) + ncj_move;
      int16_t* swap = prev_m;
      prev_m = cur_m;
      cur_m = swap;
      swap = prev_i;
      prev_i = cur_i;
      cur_i = swap;
      swap = prev_d;
      prev_d = cur_d;
      cur_d = swap;
    }
    list.out[w] = overflow ? INT_MAX : xC;
  }
}

}  // namespace gpuseq::cuda::hmm
