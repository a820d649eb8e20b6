// Viterbi filter on the GPU, a warp per target as viterbi_filter.cuh (same striping, HMMER's
// lazy-F test, same results bit for bit; spec 5.5), with the saturating adds fused into DPX
// instructions and the D->D chain a warp scan (dd_chain)
// (`GpuProfile(..., viterbi="warp_fused")`, KernelOptions::Viterbi::kWarpFused).
//
// Transitions. Every transition word t is <= 0, so with its floor f = -32768 - t (exact, in
// [-32768, 0]) sat(a + t) = max(a, f) + t, and that add cannot wrap. Hence
//   max(sat(a + t), c) = __viaddmax_s16x2(__vmaxs2(a, f), t, c)
// exactly: two instructions per candidate where add_sat_nonpositive_s16 and a max take five.
// Every thread keeps the words of its first fused_resident_stripes(Q) stripes (all of them
// while Q <= kFusedResidentStripes) in registers for the whole launch and raises a to f in one
// VIADDMNMX (~t + 0x8001 = f) after a NOT, in the rows that need floors at all (most need none:
// "Rows without floors" below); it reads the other stripes' words (and the floors of MM and
// IM) from L1 every row. (Offset-binary values with these adds as IMAD on the FMA pipe,
// where the ALU pipe takes every DPX instruction, gave the same scores but ran up to 10%
// slower, and 7% with only the adds that take no max moved: results/gpu-h200-20261129-g.)
//
// Emissions (e of either sign). The lower floor max(m, -32768 - min(e, 0)) is stored beside e and
// is the first operand of the candidates' max; the upper clamp at 32767 - e is never applied:
// M = m + e wraps only where the true sum reaches 32768, and then the target overflows anyway.
// Every M, I, D and xB value is at most high = max(12000, every earlier row's xE) (a candidate
// sat(v + t) is <= v, and xB <= max(xJ, xN)), so while high + max(e) < 32767 no lane can wrap;
// in the other rows a check after the row finds a wrapped lane (row_wrapped) and ends the target
// as the overflow it is; a lane at exactly 32767 is the usual xE >= 32767 overflow.
// Begin. xB >= 12000 + ncj_move, which is >= 0 for every target shorter than about 5e7 residues:
// then xB + B (B in [-32768, 0]) cannot wrap and needs no floor, and a row index fits 32 bits.
// The launcher refuses longer targets (run_kernel; a search's are at most 100,000 residues): a
// copy of the row loops with that floor and 64-bit rows doubled the kernels' compile time
// for targets no search has (ptxas, Q = 18: 1.44 -> 0.93 s, 122 -> 74 KB of code).
//
// Targets per warp T = 1, 2 or 4 (`GpuProfile(..., viterbi_targets_per_warp=T)`): each target
// on a group of G = 32 / T threads, the model striped over the group's G threads (Q stripes of
// 2G nodes), every shuffle, reduction and vote within the group. A short model's row then
// takes more stripes per thread and fewer rows' fixed work (the xE reduction, the special
// states, the tests) per node: at M = 149, T = 2 runs Q = 5 where T = 1 runs Q = 3 with the
// same fixed work for half as many targets. The warp runs its targets' rows together until the
// longest ends (targets come longest first, so neighbours' lengths are close); a group past its
// target's end, or whose target overflowed, computes rows nobody reads.
//
// Tables (built by gpu_filters.cu), thread t, stripe q, node k = 1 + q + Q*(2(t % G) + b) in half
// b:
//   transitions: 1 KB a stripe: uint4 at q*64 + t = {B, MM, IM, DM}, then uint2 {MI, II} for
//                every t, then uint2 {f(IM), f(MM)} (the floors apart: rows without floors,
//                streamed, read 24 bytes a stripe, not 32)
//   dd:          uint2 at q*32 + t = {DD, f(DD)}, then the word MD at (2Q + q)*32 + t; where
//                stripes are streamed (fused_dd_floors_apart), DD at q*32 + t, MD at
//                (Q + q)*32 + t, f(DD) at (2Q + q)*32 + t instead
//   emissions:   uint2 at (x*Q + q)*32 + t = {e, f(min(e, 0))}
// f(t) = -32768 - t per lane. Nodes past M: emission 1 with floor 32767, so that their M =
// max(32767, ...) + 1 wraps to exactly -32768 in every row, whatever their other values; M->D
// -16384 into the first (kPaddingMd in gpu_filters.cu), then M->D and D->D 0, so that their D
// is at most D_M or M_M - 16384 and hardly ever runs the lazy-F chain by itself; other
// transitions -32768. Words whose source is always -32768 (into node 1 from node 0; out of D_1,
// which nothing enters) are 0: -32768 + 0 is what HMMER's saturated sum is.
//
// Rows without floors. A warp whose targets all have ncj_move >= fast_min_move (a bound the host
// computes from the model, fused_fast_min_move in gpu_filters.cu) and no weak residue
// (`weak_residues`, those with a -32768 emission at some node: gap, `*`, `~`; their rows may hold M
// = -32768) runs its rows after the first two (the -32768 of row 0 is still in I there) with no
// floors at all: every M is then >= xB + B + e (B, e: the model's least entry and emission words)
// and every I and D
// >= such an M plus one transition, so no sum of a value and a transition can fall below
// -32768 and the floors change nothing. I_M (no transition leaves it but into the padding) and
// the padding's I and D may then wrap: nothing real reads them, and the padding's M is -32768
// whatever they hold. A row without floors takes 8 instructions per word where one with
// computed floors takes 14 (streamed words: ~14 where ~22, loads included); the other warps
// keep them in every row.
#pragma once

#ifndef __CUDACC_RTC__
#include <climits>
#include <cstdint>
#endif

#include "hmm/msv.cuh"
#include "hmm/viterbi_filter.cuh"
#include "hmm/warp_lanes.cuh"

namespace gpuseq::cuda::hmm {

// ptxas's register usage level (0-10; 5 its default) that the kernels of this program were
// compiled with: NVRTC passes fused_register_usage_level's choice (gpu_filters.cu), which some
// tables below follow; the static kernels keep ptxas's default.
#ifndef GPUSEQ_PTXAS_REGISTER_USAGE_LEVEL
#define GPUSEQ_PTXAS_REGISTER_USAGE_LEVEL 5
#endif

// The register usage level a fused Viterbi kernel of Q stripes, T targets a warp and W warps a
// target is compiled with (NVRTC): 0 where it measured faster, else ptxas's default (5). At 0
// ptxas spills less (none in the split kernels, where the default spills up to 348 bytes at
// some counts) and allocates the rows anew: H200, 100 M residues, GCUPS default / 0
// (results/gpu-h200-20261129-h, calls 2-4, two rounds each within 0.3%): T = 2, Q = 10 (M =
// 300) 1713 / 1822, 16 (512) 2037 / 2060; T = 1, Q = 21 (1344) 1589 / 1614; split over two
// warps, Q = 16 (2048) 1656 / 1793, 17-21 with the stripes kept in registers that level allows
// (split_resident_stripes: 2176 1503 / 1611, 2304 1525 / 1627, 2400 1478 / 1605, 2560 1470 /
// 1562, 2600 1342 / 1587; Q = 22 (2816) 1383 / 1519, call 7). Elsewhere level 0 lost up to 7%
// (M = 1792 over two warps 1846 / 1720; Q = 10-14 over four warps 1-6%) or changed less than 1%;
// levels 6-10 compile alike and spill (call 2: no count gained more than 1.3% over the
// default). Over four warps Q = 15 and 16 gained (M = 3800 1375 / 1485, 4096 1408 / 1556;
// results/gpu-h200-20261129-i, call 2: 3648 1321 / 1418, 3840 1389 / 1487, 4096 1400 / 1553);
// the SSV and MSV warp kernels, which lost up to 3.8% at level 0, are compiled in a program of
// their own at the default (gpu_filters.cu, runtime_kernels).
__host__ __device__ constexpr int fused_register_usage_level(int Q, int T, int W) {
  const bool zero = W == 1   ? (T == 2 && (Q == 10 || Q == 16)) || (T == 1 && Q == 21)
                    : W == 2 ? Q >= 16 && Q <= 22
                             : W == 4 && (Q == 15 || Q == 16);
  return zero ? 0 : 5;
}

// Largest stripe count whose transition words (7 per stripe, no floors) all stay in registers
// with the 3 row words per stripe: ptxas (CUDA 13.0, sm_90a, T = 1) gives 80 registers at Q = 4,
// 134 at 8, 210 at 12, 248 at 16, no spills; 255 and 188 bytes of spills at 19, 412 at 20.
constexpr int kFusedResidentStripes = 16;

// Stripes whose transition words stay in registers, the first R of Q (the others are read
// every row, fused_row): all up to kFusedResidentStripes; past it the most that ptxas (CUDA
// 13.0, sm_90a, T = 1) fits beside the row's 3Q words without spills: 16 at Q = 17-19, 14 at
// 20, 13 at 21, 10 at 22; from 23 on nearly every R spills, so none (every R from 4 to 16
// compiled: results/gpu-h100-80gb-hbm3-20261125-i/resident-stripes-ptxas.log).
__host__ __device__ constexpr int fused_resident_stripes(int Q) {
  return Q <= 19   ? (Q < kFusedResidentStripes ? Q : kFusedResidentStripes)
         : Q == 20 ? 14
         : Q == 21 ? 13
         : Q == 22 ? 10
                   : 0;
}

// Whether a row's emission address comes from an opaque pointer (FusedTarget::row_emissions):
// one IMAD.WIDE where the lane merged back into the index takes three ALU instructions. It
// costs registers that ptxas finds without loss only at some counts. H200, GCUPS with / without:
// Q = 2 (M = 50, T = 2) +3.0%, 3 (RRM_1, fn3) +4.8-6.5%, 13-16 +1.3-8.1% (T = 2 at M 400-512,
// Patched, M = 1024, the split at 1600), SMC_N +1.0%, the split at 2400 -0.1%
// (results/gpu-h200-20261128-h, call 12); at Q = 7-10, -3% to -6% (call 5: 119 -> 124
// registers at Q = 5, one warp an SM fewer).
__host__ __device__ constexpr bool fused_opaque_emissions(int Q) { return Q <= 3 || Q >= 13; }

// Whether the floors of D->D sit apart from the words (the tables above). Where stripes are
// streamed the row is bound by L1 bandwidth (ncu: 88% of peak at Q = 25 and 38), and the D->D
// chain of a row without floors then reads 4 bytes a stripe and pass, not 8: M 1200-2400 ran
// 1.4-5.8% faster on the H100. With every transition in registers, the pairs ran 1-4% faster
// at most counts (results/gpu-h100-80gb-hbm3-20261127/dd-floors-apart-ab.log).
__host__ __device__ constexpr bool fused_dd_floors_apart(int Q) {
  return Q > kFusedResidentStripes;
}

// max(sat(a + t), c) for t <= 0, f = -32768 - t per lane: a raised to f, so a + t cannot wrap.
__device__ __forceinline__ uint32_t add_sat_max(uint32_t a, uint32_t t, uint32_t f, uint32_t c) {
  return __viaddmax_s16x2(__vmaxs2(a, f), t, c);
}

// max(a, -32768 - t) per lane for t <= 0, in one VIADDMNMX (after a NOT): ~t + 0x8001. The
// opaque copy of t keeps the compiler from hoisting the floor out of the row loop into a
// register of its own (a register per word held for the rare rows that need it).
__device__ __forceinline__ uint32_t raise_to_floor(uint32_t a, uint32_t t) {
  asm volatile("" : "+r"(t));
  return __viaddmax_s16x2(~t, words_min_plus_one(), a);
}

// The larger of a thread's two signed 16-bit lanes.
__device__ __forceinline__ int word_max_s16(uint32_t v) {
  const int lo = static_cast<int16_t>(v & 0xffffu), hi = static_cast<int16_t>(v >> 16);
  return lo > hi ? lo : hi;
}

// Largest signed 16-bit lane of the group's vector (G threads), in each of its threads: one
// REDUX on sm_80 and later for the whole warp, two for halves (each over one half's values),
// else a butterfly within the group.
template <int G>
__device__ __forceinline__ int group_max_s16(uint32_t v) {
  int m = word_max_s16(v);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  constexpr bool kReduce = G >= 16;
#else
  constexpr bool kReduce = false;
#endif
  if constexpr (kReduce && G == 32) {
    return __reduce_max_sync(kFullWarp, m);
  } else if constexpr (kReduce) {
    const bool low = (threadIdx.x & 16) == 0;  // -32768: no lane is smaller
    const int from_low = __reduce_max_sync(kFullWarp, low ? m : -32768);
    const int from_high = __reduce_max_sync(kFullWarp, low ? -32768 : m);
    return low ? from_low : from_high;
  } else {
#pragma unroll
    for (int offset = G / 2; offset > 0; offset >>= 1)
      m = max(m, __shfl_xor_sync(kFullWarp, m, offset));
    return m;
  }
}

// Whether p holds in some thread of the caller's group of G threads (every thread calls it).
template <int G>
__device__ __forceinline__ bool group_any(bool p) {
  if constexpr (G == 32) {
    return __any_sync(kFullWarp, p);
  } else {
    const unsigned votes = __ballot_sync(kFullWarp, p) >> (threadIdx.x & 31 & ~(G - 1));
    return (votes & ((1u << G) - 1)) != 0;
  }
}

// Max of the words a[0..Q) lane by lane: a tree of three-way maxes (depth log3 Q, on the path
// from one row's M to the next row's xB).
template <int Q>
__device__ __forceinline__ uint32_t words_max_s16(const uint32_t (&a)[Q]) {
  if constexpr (Q == 1) {
    return a[0];
  } else {
    constexpr int kGroups = (Q + 2) / 3;
    uint32_t m[kGroups];
#pragma unroll
    for (int g = 0; g < kGroups; ++g) {
      const int rest = Q - 3 * g;
      m[g] = rest >= 3   ? __vimax3_s16x2(a[3 * g], a[3 * g + 1], a[3 * g + 2])
             : rest == 2 ? __vmaxs2(a[3 * g], a[3 * g + 1])
                         : a[3 * g];
    }
    return words_max_s16<kGroups>(m);
  }
}

// One stripe's transition words of a thread; streamed, also the floors of MM and IM stored
// beside them (the others are computed where used).
struct FusedStripe {
  uint32_t b, mm, fmm, im, fim, dm, mi, ii, md;
};

// Stripe q's words of thread `lane` from the transition table `tr` (see the top) and the M->D
// table `md` (already offset by the lane): md only for the resident words (streamed, D is a
// pass of its own after the row, fused_row), the floors of MM and IM only where asked.
template <bool kMd, bool kFloorWords>
__device__ __forceinline__ FusedStripe load_fused_stripe(const uint4* __restrict__ tr,
                                                         const uint32_t* __restrict__ md, int q,
                                                         int lane) {
  const uint4* stripe = tr + q * 64;  // 1 KB a stripe: 32 uint4, then 2 x 32 uint2
  const uint4 into_m = __ldg(stripe + lane);
  const uint2 into_i = __ldg(reinterpret_cast<const uint2*>(stripe + 32) + lane);
  FusedStripe s;
  s.b = into_m.x;
  s.mm = into_m.y;
  s.im = into_m.z;
  s.dm = into_m.w;
  s.mi = into_i.x;
  s.ii = into_i.y;
  s.fim = s.fmm = 0;
  if constexpr (kFloorWords) {
    const uint2 floors = __ldg(reinterpret_cast<const uint2*>(stripe + 48) + lane);
    s.fim = floors.x;
    s.fmm = floors.y;
  }
  s.md = kMd ? __ldg(md + q * 32) : 0;
  return s;
}

// a raised to the floor of t where the row keeps floors (kFloors): from the stored floor f
// (stored, a constant where the caller's loop is unrolled) or computed from t; else a itself
// (see "Rows without floors" at the top).
template <bool kFloors>
__device__ __forceinline__ uint32_t lift(uint32_t a, uint32_t t, uint32_t f = 0,
                                         bool stored = false) {
  if constexpr (!kFloors) {
    return a;
  } else {
    return stored ? __vmaxs2(a, f) : raise_to_floor(a, t);
  }
}

// One row: M and I from the previous row's M, I, D (stripe 0's predecessors m_first, i_first,
// d_first: stripe Q-1 one word down), and D from this row's M by M->D only. Descending q:
// M[q-1], I[q-1], D[q-1] are still the previous row's when read. Stripes q < R keep their
// transition words in registers (`resident`); the others read them (and the floors of MM and
// IM) every row. D[q+1] takes this row's M[q] as soon as it exists where stripe q+1 is resident
// (the previous row's D[q+1] was last read for M[q+2]); the streamed stripes' D is a pass of
// its own after the row, which keeps fewer values live at once (ptxas spills less for large
// Q). kFloors: each sum of a value and a transition floored. Returns the shifted M[Q-1] that
// stripe 0's D needed (and the next row's m_first).
template <int Q, int R, int G, bool kFloors>
__device__ __forceinline__ uint32_t fused_row(uint32_t (&M)[Q], uint32_t (&I)[Q], uint32_t (&D)[Q],
                                              const FusedStripe (&resident)[R > 0 ? R : 1],
                                              const uint4* __restrict__ tr,
                                              const uint32_t* __restrict__ md,
                                              const uint2* __restrict__ e, uint32_t xBv,
                                              uint32_t m_first, uint32_t i_first, uint32_t d_first,
                                              int lane) {
  uint32_t md_above = 0;  // stripe q+1's M->D word, where it is resident
#pragma unroll
  for (int q = Q - 1; q >= 0; --q) {
    const bool held = q < R;  // resident (constant once the loop is unrolled)
    const FusedStripe s =
        held ? resident[held ? q : 0] : load_fused_stripe<false, kFloors>(tr, md, q, lane);
    const uint32_t mp = q ? M[q - 1] : m_first;
    const uint32_t ip = q ? I[q - 1] : i_first;
    const uint32_t dp = q ? D[q - 1] : d_first;
    I[q] =
        __viaddmax_s16x2(lift<kFloors>(M[q], s.mi), s.mi, __vadd2(lift<kFloors>(I[q], s.ii), s.ii));
    const uint2 em = __ldg(e + q * 32);  // {e, floor of min(e, 0)}
    // Each candidate saturated, their max with the emission floor, then + e (see the top).
    // With the transitions in registers B comes last, as only it waits for the previous row's
    // reduction (xB); streamed, first (ptxas then holds fewer values at once: fewer spills).
    // The floors of MM and IM: stored beside streamed words, computed for resident ones.
    const uint32_t b_from = xBv;  // xBv + s.b cannot wrap (see "Begin" at the top)
    uint32_t m = held ? em.y : __viaddmax_s16x2(b_from, s.b, em.y);
    m = __viaddmax_s16x2(lift<kFloors>(mp, s.mm, s.fmm, !held), s.mm, m);
    m = __viaddmax_s16x2(lift<kFloors>(ip, s.im, s.fim, !held), s.im, m);
    m = __viaddmax_s16x2(lift<kFloors>(dp, s.dm), s.dm, m);
    if (held) m = __viaddmax_s16x2(b_from, s.b, m);
    M[q] = __vadd2(m, em.x);
    if (held) {
      if (q + 1 < R) D[q + 1] = __vadd2(lift<kFloors>(M[q], md_above), md_above);
      md_above = s.md;
    }
  }
  const uint32_t mc_first = shift_up_s16<G>(M[Q - 1], kNegWord);
  if constexpr (R > 0) D[0] = __vadd2(lift<kFloors>(mc_first, md_above), md_above);
#pragma unroll
  for (int q = Q - 1; q >= (R > 0 ? R : 0); --q) {
    const uint32_t t = __ldg(md + q * 32);
    D[q] = __vadd2(lift<kFloors>(q ? M[q - 1] : mc_first, t), t);
  }
  return mc_first;
}

// Whether the unclamped emission add of this row wrapped in some lane of the group, i.e. a true sum
// m + e reached 32768 (m >= -32768 - min(e, 0)): exactly where M < max(e, 0) - 32768. With e <= 0
// the sum stays in [-32768, 32767] and the bound is -32768; with e > 0 an unwrapped M is >= e -
// 32768 and a wrapped one, m + e - 65536, is at most e - 32769. The padding's M, -32768 by its
// wrapped add (floor 32767, the only positive floor), is not checked.
template <int Q, int G>
__device__ __forceinline__ bool row_wrapped(const uint32_t (&M)[Q], const uint2* __restrict__ e) {
  // Read again (rare rows): an opaque copy keeps the compiler from holding the row's emission
  // words in registers until here instead.
  asm volatile("" : "+l"(e));
  uint32_t below = 0;
#pragma unroll
  for (int q = 0; q < Q; ++q) {
    const uint2 em = __ldg(e + q * 32);
    const uint32_t bound = __vadd2(__vmaxs2(em.x, 0u), words_min());
    const uint32_t real = ~__vcmpgts2(em.y, 0u);      // 0xffff in a lane of a node <= M
    below |= (__vmins2(M[q], bound) ^ bound) & real;  // nonzero in a lane where M < bound
  }
  return group_any<G>(below != 0);
}

// The D->D chain of a row as a warp scan (replaces Farrar's sweeps, which took ~4 a row on
// sampled models at Q = 3; same fixed point). Half b of thread t holds the Q consecutive nodes
// 1 + Q*(2t + b) ..; the chain through a half maps a D entering it to max(a, D + b), a = the
// half's last D from inside the half, b = the sum of its DD words (constant). Threads compose
// these in int32 (no saturation can act: every D is >= -32768 and every DD <= 0, so the
// saturating chain is the exact one floored at -32768), a Hillis-Steele scan gives each
// thread the D entering it, and one last pass through the stripes applies it.
// The windows of the scan: in registers up to kFusedResidentStripes stripes (5 per thread;
// ptxas 13.0, Q = 7: 545 -> 505 instructions for two rows without floors), else in the block's
// shared memory, written by warp 0 (the same for every warp; past 16 stripes registers spill).
// Where the windows are in registers, so are the thread's D->D words, which the chain of a row
// without floors then reads from there instead of L1 (its floors, for the other rows, are
// still read): +2-8% at M 100-1024 (results/gpu-h200-20261128-f). A split warp of 17-22
// stripes holds its words too (kHoldWords, split_dd_words_held), its windows in shared memory.
// The stripe where each pass of a thread's D->D chain starts its second part, for Q stripes,
// T targets a warp and W warps a target (0: one part). The two parts run side by side, so
// each pass's serial path is about half as long; the first part's end enters the second by
// sums: the D out of a half is max(the second part's end, the first's end + the sum of the
// second's words), and the D entering the second part in the last pass max(the first's end,
// the D into the half + the sum of the first's words) (int32, exact as the scan's compositions
// are). It costs a few instructions and registers a row, and ptxas then allocates the whole
// row differently: H200, 100 M residues, GCUPS one part / two (results/gpu-h200-20261129-g,
// calls 3 and 4): Q = 16 in one warp (T = 2, M = 512: 1946 / 2038; T = 1, M = 1024: 1994 /
// 2074), 20 split over two warps (M = 2560: 1422 / 1469) and 21 in one (M = 1344: 1558 /
// 1589) gain; Q = 16 over two warps is even (M = 2048: 1655 / 1657), over four loses (M =
// 4096: 1407 / 1354), and so do Q = 7, 10, 12-14, 18, 19 and 22 (2-7%).
__host__ __device__ constexpr int dd_chain_split_at(int Q, int T, int W) {
  const bool two = (Q == 16 && T <= 2 && W == 1) || (Q == 20 && W == 2) || (Q == 21 && W == 1);
  return two ? (Q + 1) / 2 : 0;
}

// The sums of a thread's D->D words in its chain's first part (dd_chain_split_at), per half.
template <bool kTwoParts>
struct DdChainParts {
  int first_part[2];
};
template <>
struct DdChainParts<false> {};

template <int Q, bool kInRegisters, bool kHoldWords = kInRegisters, int kSplit = 0>
struct DdChainSums : DdChainParts<(kSplit > 0)> {
  static constexpr bool kHeld = kHoldWords;
  static constexpr int kSplitAt = kSplit;
  int half[2];                   // b of the thread's halves
  uint32_t word[kHeld ? Q : 1];  // the DD words, where held
  // Per scan step: the sum of b0 + b1 over threads t - 2^step + 1 .. t of the group, or
  // kNoWindow in a thread with fewer than 2^step threads of its group below it (no step from
  // there, so the scan needs no test). In registers, or shared[step * 32 + t].
  int window[kInRegisters ? 5 : 1];
  const int* shared;

  __device__ __forceinline__ int at(int step, int lane) const {
    if constexpr (kInRegisters) {
      return window[step];
    } else {
      return shared[step * 32 + lane];
    }
  }
};

// Below every D a step could come from (D >= -32768 and <= 32767, in int32 past any sum).
constexpr int kNoWindow = -(1 << 30);

__device__ __forceinline__ int low_s16(uint32_t v) { return static_cast<int16_t>(v & 0xffffu); }
__device__ __forceinline__ int high_s16(uint32_t v) { return static_cast<int16_t>(v >> 16); }

// Stripe q's D->D word of a thread (my_dd: its words, see the tables at the top).
template <int Q>
__device__ __forceinline__ uint32_t dd_word(const uint32_t* __restrict__ my_dd, int q) {
  return __ldg(my_dd + (fused_dd_floors_apart(Q) ? q * 32 : q * 64));
}

// The thread's sums and the scan's windows (scans within groups of G threads); `shared`: 160
// ints where they are not kept in registers, written by the warps with `writes` (one warp of
// the block where every warp holds the same nodes). Every thread of the block calls it.
template <int Q, int G, bool kInRegisters, bool kHoldWords = kInRegisters, int kSplit = 0>
__device__ __forceinline__ DdChainSums<Q, kInRegisters, kHoldWords, kSplit> dd_chain_sums(
    const uint32_t* __restrict__ my_dd, int lane, int* shared, bool writes) {
  DdChainSums<Q, kInRegisters, kHoldWords, kSplit> c;
  c.half[0] = c.half[1] = 0;
#pragma unroll
  for (int q = 0; q < Q; ++q) {
    const uint32_t dd = dd_word<Q>(my_dd, q);
    if constexpr (kHoldWords) c.word[q] = dd;
    if constexpr (kSplit > 0) {
      if (q == kSplit) {
        c.first_part[0] = c.half[0];
        c.first_part[1] = c.half[1];
      }
    }
    c.half[0] += low_s16(dd);
    c.half[1] += high_s16(dd);
  }
  c.shared = shared;
  if (kInRegisters || writes) {
    int w = c.half[0] + c.half[1];
#pragma unroll
    for (int step = 0; (1 << step) < G; ++step) {
      const bool below = (lane & (G - 1)) >= (1 << step);
      const int window = below ? w : kNoWindow;
      if constexpr (kInRegisters) {
        c.window[step] = window;
      } else {
        shared[step * 32 + lane] = window;
      }
      const int up = __shfl_up_sync(kFullWarp, w, 1 << step, G);
      if (below) w += up;
    }
  }
  if constexpr (!kInRegisters) __syncthreads();
  return c;
}

// max(D + t, c) for stripe q's D->D word t (dd: the thread's words, see the top), saturated
// where the row keeps its floors (f: t's floor, read apart only then).
template <int Q, bool kFloors>
__device__ __forceinline__ uint32_t dd_step(uint32_t d, const uint32_t* __restrict__ dd, int q,
                                            uint32_t c) {
  if constexpr (fused_dd_floors_apart(Q)) {
    const uint32_t t = __ldg(dd + q * 32);
    return kFloors ? add_sat_max(d, t, __ldg(dd + (2 * Q + q) * 32), c)
                   : __viaddmax_s16x2(d, t, c);
  } else {
    const uint2 t = __ldg(reinterpret_cast<const uint2*>(dd) + q * 32);
    return kFloors ? add_sat_max(d, t.x, t.y, c) : __viaddmax_s16x2(d, t.x, c);
  }
}

// The first part of dd_chain: the first pass through the thread's stripes, then the scan over
// the group's threads. Returns the D out of the thread from paths inside the group (int32), and
// in a0 the thread's low half's last D.
template <int Q, int G, bool kFloors, typename Sums>
__device__ __forceinline__ int dd_chain_through(uint32_t (&D)[Q],
                                                const uint32_t* __restrict__ my_dd,
                                                const Sums& sums, int lane, int& a0) {
  // The words (and floors) not held in registers (large Q would spill) are read in each pass:
  // an opaque copy of the pointer keeps the compiler from merging the two passes' loads.
  constexpr bool kHeld = Sums::kHeld && !kFloors;
  const uint32_t* dd = my_dd;
  asm volatile("" : "+l"(dd));
  constexpr int k = Sums::kSplitAt;  // the second part starts afresh there (dd_chain_split_at)
#pragma unroll
  for (int q = 1; q < Q; ++q)
    if (q != k)
      D[q] = kHeld ? __viaddmax_s16x2(D[q - 1], sums.word[kHeld ? q : 0], D[q])
                   : dd_step<Q, kFloors>(D[q - 1], dd, q, D[q]);
  a0 = low_s16(D[Q - 1]);
  int a1 = high_s16(D[Q - 1]);
  if constexpr (k > 0) {
    a0 = max(a0, low_s16(D[k - 1]) + sums.half[0] - sums.first_part[0]);
    a1 = max(a1, high_s16(D[k - 1]) + sums.half[1] - sums.first_part[1]);
  }
  int through = max(a1, a0 + sums.half[1]);  // out of this thread, from its halves alone
#pragma unroll
  for (int step = 0; (1 << step) < G; ++step) {
    // A thread without 2^step below it reads its own value and kNoWindow: no change.
    const int up = __shfl_up_sync(kFullWarp, through, 1 << step, G);
    through = max(through, up + sums.at(step, lane));
  }
  return through;
}

// The second part: into0, the D entering the thread's low half (>= -32768), gives the D
// entering its high half, and one last pass applies both.
template <int Q, int G, bool kFloors, typename Sums>
__device__ __forceinline__ void dd_chain_carry(uint32_t (&D)[Q], const uint32_t* __restrict__ my_dd,
                                               const Sums& sums, int a0, int into0) {
  constexpr bool kHeld = Sums::kHeld && !kFloors;
  const int into1 = max(a0, into0 + sums.half[0]);  // >= -32768 as a0 is
  // (into0 & 0xffff) | (into1 << 16) as one PRMT: a mask and a shift took a LOP3 more.
  const uint32_t carry =
      __byte_perm(static_cast<uint32_t>(into0), static_cast<uint32_t>(into1), 0x5410);
  // The D entering the second part: its first part's end, or the carry through the first part.
  constexpr int k = Sums::kSplitAt;
  uint32_t carry_second = 0;
  if constexpr (k > 0)
    carry_second = __byte_perm(
        static_cast<uint32_t>(max(low_s16(D[k - 1]), into0 + sums.first_part[0])),
        static_cast<uint32_t>(max(high_s16(D[k - 1]), into1 + sums.first_part[1])), 0x5410);
  const uint32_t* dd = my_dd;
  asm volatile("" : "+l"(dd));
#pragma unroll
  for (int q = 0; q < Q; ++q) {
    const uint32_t from = q == 0 ? carry : q == k ? carry_second : D[q - 1];
    D[q] = kHeld ? __viaddmax_s16x2(from, sums.word[kHeld ? q : 0], D[q])
                 : dd_step<Q, kFloors>(from, dd, q, D[q]);
  }
}

// D after every D->D path of the row (HMMER's lazy F, computed at once), in each group.
template <int Q, int G, bool kFloors, typename Sums>
__device__ __forceinline__ void dd_chain(uint32_t (&D)[Q], const uint32_t* __restrict__ my_dd,
                                         const Sums& sums, int lane) {
  int a0;
  const int through = dd_chain_through<Q, G, kFloors>(D, my_dd, sums, lane, a0);
  // (through is >= -32768: it is a max over 16-bit values and the sums below them)
  int into0 = __shfl_up_sync(kFullWarp, through, 1, G);
  if ((lane & (G - 1)) == 0) into0 = -32768;
  dd_chain_carry<Q, G, kFloors>(D, my_dd, sums, a0, into0);
}

// One target per group, row by row: M, I, D and the special states of the group's target.
// L = its length, rows = the longest of the warp's targets (warp-uniform); ncj_move = its N/C/J
// MOVE word; emission_max = the largest emission word of the model.
// A model split over the W warps of a block (viterbi_split_kernel): what each warp publishes
// of a row for the others, by the row's parity (one barrier a row: a warp writes row i + 1's
// words only after every warp has passed row i's barrier, and row i + 2's after row i + 1's,
// by when every warp has read row i's). Lane 31 writes: the warp's xE, the D out of its last
// node from paths inside the warp (dd_chain_through), and its last node's M and I; as a
// record of four (kWhole: split_whole_records) or in an array each.
template <int W, bool kWhole>
struct SplitExchange {
  int xe[2][W], through[2][W], m_last[2][W], i_last[2][W];
  int claim;  // the block's next target
};
template <int W>
struct SplitExchange<W, true> {
  int4 row[2][W];  // {xE, through, M, I}
  int claim;
};

// Whether a split warp stores and loads its values as one 16-byte record rather than one by
// one, which takes fewer instructions a row but holds four registers at once. H200, GCUPS one
// by one / as records: M = 2048 (16 stripes a warp) 1590 / 1664, 3000 over four warps (12)
// 1345 / 1454, 3500 (14) 1408 / 1475, 4096 (16) 1336 / 1370; past 16 stripes, where registers
// are short, 2304 (18) 1543 / 1501, 2560 (20) 1449 / 1397, 2600 (21) 1355 / 1321, 2816 (22)
// 1418 / 1422 (results/gpu-h200-20261129-f, call 4).
__host__ __device__ constexpr bool split_whole_records(int Q) { return Q <= kFusedResidentStripes; }

// Whether a split warp keeps its D->D words in registers (dd_chain_through and dd_chain_carry
// read them from there in rows without floors; else from L1 in both passes of every row): at
// 17-22 stripes a warp, at the cost of transition stripes (split_resident_stripes). H200,
// GCUPS before / after: M = 2176 (17 stripes) 1352 / 1499, 2304 (18) 1397 / 1543, 2400 (19)
// 1361 / 1491, 2560 (20) 1358 / 1449, 2600 (21) 1320 / 1355, 2816 (22) 1347 / 1418
// (results/gpu-h200-20261129-f, calls 2-4). The one-warp kernel at 17-21 stripes gained at some
// counts and lost at others (call 3): it keeps them in L1.
__host__ __device__ constexpr bool split_dd_words_held(int Q, int W) {
  return Q <= kFusedResidentStripes || (W > 1 && Q <= 22);
}

template <int Q, int R, int G, int W = 1>
struct FusedTarget {
  static constexpr int kStripes = Q;
  static constexpr bool kWordsHeld = split_dd_words_held(Q, W);  // DdChainSums' kHeld
  // 32-bit counters and compares (targets of fewer than about 5e7 residues: "Begin" at the
  // top): fewer instructions in each row's bookkeeping than 64-bit ones.
  using Row = int;
  const FusedStripe (&resident)[R > 0 ? R : 1];
  const uint4* __restrict__ transitions;
  const uint32_t* __restrict__ my_dd;
  const uint32_t* __restrict__ my_md;
  const uint2* __restrict__ my_emissions;
  const DdChainSums<Q, (Q <= kFusedResidentStripes), kWordsHeld,
                    dd_chain_split_at(Q, 32 / G, W)>& dd_sums;
  int lane;
  const uint8_t* __restrict__ seq;
  Row L;
  int ncj_move, emission_max, e_move, ddbound;

  static constexpr int kBaseW = 12000;
  // Rows without floors, transitions all in registers (run): kLazyRows with HMMER's lazy-F
  // test, then, where it fired in at least kChainFires of them, kChainRows with the D->D chain
  // in every row, then the test again (results/gpu-h200-20261128-f: 16, 24 and 28 of 32 within
  // 1-4% of each other on sampled and Pfam models).
  static constexpr int kLazyRows = 32;
  static constexpr int kChainFires = 24;
  static constexpr int kChainRows = 256;
  static constexpr int xN = kBaseW;  // N.LOOP = 0: xN never changes
  uint32_t M[Q], I[Q], D[Q];
  // xJ is xC in this filter (J and C loops 0, E->J = E->C = e_move): both are the largest
  // xE + e_move so far, so xC serves for both.
  int xB = xN + ncj_move, xC = -32768;
  // Rows near the ceiling: max(xN, every earlier row's xE) + emission_max >= 32767 (see the
  // top), i.e. xC >= ceiling_xC.
  int ceiling_xC = xN + emission_max >= 32767 ? -(1 << 30) : 32767 - emission_max + e_move;
  bool overflowed = false;       // the group's target ended as an overflow
  uint32_t m_first = kNegWords;  // the previous row's M[Q-1] shifted one word up
  // Each row's residue is loaded (one broadcast byte) a row ahead, off the row's critical path.
  int x_next = 0;
  // A model split over W warps (W > 1, viterbi_split_kernel; set after construction): the
  // block's exchange, this warp's index, the sum of this warp's D->D words below this thread,
  // per warp its D->D sum and the true M->D and D->D words into its first node (the table holds
  // 0 for both there: see split_row), and the previous warp's last I and D of the previous row.
  SplitExchange<W, split_whole_records(Q)>* exchange = nullptr;
  int warp_index = 0, dd_prefix = 0;
  int split_dd_sum[W] = {}, split_md_into[W] = {}, split_dd_into[W] = {};
  int first_i = -32768, first_d = -32768;
  int split_first_floor = -32768;  // -32768 - DD_{s+1} (split_row), in the warp's thread 0

  // The thread's emission words of residue x. Where fused_opaque_emissions(Q) holds, the
  // pointer is opaque to the compiler: the address is then one IMAD.WIDE (FMA pipe) instead of
  // the lane merged back into the index (LOP3, LEA, LEA.HI.X on the ALU pipe, which the short
  // models' rows keep the busiest).
  __device__ __forceinline__ const uint2* row_emissions(int x) const {
    const uint2* e = my_emissions;
    if constexpr (fused_opaque_emissions(Q)) asm("" : "+l"(e));
    return e + static_cast<uint32_t>(x) * (Q * 32);
  }

  __device__ __forceinline__ void start() {
#pragma unroll
    for (int q = 0; q < Q; ++q) M[q] = I[q] = D[q] = kNegWords;
    x_next = L > 0 ? __ldg(seq) : 0;
  }

  // Row i, with or without floors (kFloors); true when the warp is done. kChainAlways: the
  // D->D chain runs untested (rows without floors only); else HMMER's lazy-F test decides, and
  // `fired` counts the rows where it ran. kTogether: a row before every group's last (run), so
  // that each group is in its target and has a next residue.
  template <bool kFloors, bool kChainAlways = false, bool kTogether = false>
  __device__ __forceinline__ bool row(Row i, int& fired) {
    static_assert(!(kFloors && kChainAlways), "the untested chain is for rows without floors");
    // Group-uniform. A whole warp's target stops at its overflow, so only groups test it. A
    // group whose target overflowed may count as live in the rows together: its result is
    // INT_MAX whatever it computes, and its votes only repeat that it overflowed.
    const bool live = G == 32 || kTogether || (i < L && !overflowed);
    const uint2* e = row_emissions(x_next);
    if (kTogether || i + 1 < L) x_next = __ldg(seq + i + 1);
    // Streamed transitions are read again every row: an opaque copy of the pointer keeps the
    // compiler from hoisting those loads out of the row loop into registers it does not have.
    const uint4* tr = transitions;
    const uint32_t* md = my_md;
    if constexpr (R < Q) asm volatile("" : "+l"(tr), "+l"(md));
    const uint32_t i_first =
        shift_up_s16<G>(I[Q - 1], W > 1 ? static_cast<uint32_t>(first_i) : kNegWord);
    const uint32_t d_first =
        shift_up_s16<G>(D[Q - 1], W > 1 ? static_cast<uint32_t>(first_d) : kNegWord);
    m_first = fused_row<Q, R, G, kFloors>(M, I, D, resident, tr, md, e, splat_s16(xB),
                                                   m_first, i_first, d_first, lane);
    int xE = group_max_s16<G>(words_max_s16(M));
    if constexpr (W > 1) xE = split_row<kFloors>(i, xE);
    // Untested, the chain needs neither this row's xB nor a vote: it is in the same block of
    // code as the reduction, and its shuffles overlap the REDUX's latency (the same D as the
    // test's: spec 5.5).
    if constexpr (kChainAlways && W == 1) dd_chain<Q, G, false>(D, my_dd, dd_sums, lane);
    // Overflow: xE at the ceiling, or a lane wrapped, which only a row near it can; one vote
    // for both in the usual row. xC (hence near_ceiling) is the same in every thread of a group.
    const bool near_ceiling = live && xC >= ceiling_xC;
    if (__any_sync(kFullWarp, near_ceiling || (live && xE >= 32767))) {
      bool wrapped = row_wrapped<Q, G>(M, e);  // every thread: it votes
      if constexpr (W > 1) wrapped = __syncthreads_or(wrapped);  // (block-uniform here)
      const bool overflow = (near_ceiling && wrapped) || (live && xE >= 32767);
      if (__any_sync(kFullWarp, overflow)) {
        overflowed = overflowed || overflow;
        if (__all_sync(kFullWarp, overflowed || i + 1 >= L)) return true;
      }
    }
    // A group whose target overflowed in this row may update xC too: it is not live after it
    // (nor is the warp of a lone target), and its result is INT_MAX.
    if (live) {
      xC = xC > xE + e_move ? xC : xE + e_move;
      xB = (xC > xN ? xC : xN) + ncj_move;
    }
    // HMMER's lazy-F test (max over the row of the M->D values + ddbound > xB), decided by a
    // vote on each thread's own maximum; result neutral (spec 5.5), so a group whose test
    // fails may run the chain with one whose test holds. (Taken into the vote above, with this
    // row's xB, the rows ran 1-12% slower: results/gpu-h100-80gb-hbm3-20261128-b.)
    if constexpr (!kChainAlways && W == 1) {
      if (__any_sync(kFullWarp, live && word_max_s16(words_max_s16(D)) + ddbound > xB)) {
        dd_chain<Q, G, kFloors>(D, my_dd, dd_sums, lane);
        ++fired;
      }
    }
    return false;
  }

  // A split model's row after its DP (W > 1): the D->D chain, which crosses the warps, every
  // row (no lazy-F test: it would have to be the block's), and the exchange. Node s, a warp's
  // first (w > 0), has 0 for its M->D and D->D words in the table, and its thread 0 takes
  // -32768 for the M before it, so its D from inside the warp is -32768; its true D, X =
  // max(sat(M_{s-1} + MD_s), sat(D_{s-1} + DD_s)), comes from the previous warp's words after
  // the barrier and enters as the D into thread 0's low half (+ DD_s = 0), and into thread t's
  // as X + the D->D words of the threads below (dd_prefix). The previous warp's final last D
  // is max(its through, its X + its D->D sum): the next row's D before node s, as its last M
  // and I are. Returns the block's xE.
  template <bool kFloors>
  __device__ __forceinline__ int split_row(Row i, int warp_xE) {
    // Node s's D is X, known only after the barrier; the first pass must not carry s's -32768
    // on (unfloored, -32768 + DD_{s+1} would wrap): it starts from -32768 - DD_{s+1}, whose
    // step into s + 1 is exactly -32768 (no path), and the last pass from -32768 again, so
    // that it takes X.
    const bool first_node = lane == 0 && warp_index > 0;
    if (first_node)
      D[0] = (D[0] & 0xffff0000u) | (static_cast<uint32_t>(split_first_floor) & 0xffffu);
    int a0;
    const int through = dd_chain_through<Q, G, kFloors>(D, my_dd, dd_sums, lane, a0);
    if (first_node) D[0] = (D[0] & 0xffff0000u) | 0x8000u;
    const int p = static_cast<int>(i & 1);
    constexpr bool kWhole = split_whole_records(Q);
    if (lane == 31) {
      const int m_last = high_s16(M[Q - 1]), i_last = high_s16(I[Q - 1]);
      if constexpr (kWhole) {
        exchange->row[p][warp_index] = make_int4(warp_xE, through, m_last, i_last);
      } else {
        exchange->xe[p][warp_index] = warp_xE;
        exchange->through[p][warp_index] = through;
        exchange->m_last[p][warp_index] = m_last;
        exchange->i_last[p][warp_index] = i_last;
      }
    }
    __syncthreads();
    int x = -32768, m_prev = -32768, i_prev = -32768, d_prev = -32768;
    // Into warp v + 1 from warp v (v < warp_index): its last D, M and I, and X (split_row's top).
    auto from_warp = [&](int v, int through_v, int m_last_v, int i_last_v) {
      const int next = v + 1 < W ? v + 1 : v;  // (v + 1 wherever it is read)
      d_prev = max(max(through_v, x + split_dd_sum[v]), -32768);
      m_prev = m_last_v;
      i_prev = i_last_v;
      x = max(max(m_prev + split_md_into[next], d_prev + split_dd_into[next]), -32768);
    };
    int xE;
    if constexpr (kWhole) {
      xE = -32768;  // (every warp's is >= -32768)
#pragma unroll
      for (int v = 0; v < W; ++v) {
        const int4 r = exchange->row[p][v];
        xE = max(xE, r.x);
        if (v < warp_index) from_warp(v, r.y, r.z, r.w);
      }
    } else {
      xE = exchange->xe[p][0];
#pragma unroll
      for (int v = 0; v < W; ++v) {
        if (v > 0) xE = max(xE, exchange->xe[p][v]);
        if (v < warp_index)
          from_warp(v, exchange->through[p][v], exchange->m_last[p][v], exchange->i_last[p][v]);
      }
    }
    int into0 = __shfl_up_sync(kFullWarp, through, 1);
    into0 = lane == 0 ? x : max(into0, x + dd_prefix);  // >= -32768 as x and through are
    dd_chain_carry<Q, G, kFloors>(D, my_dd, dd_sums, a0, into0);
    first_i = i_prev;
    first_d = d_prev;
    if (lane == 0) m_first = (m_first & 0xffff0000u) | (static_cast<uint32_t>(m_prev) & 0xffffu);
    return xE;
  }

  // Rows i .. end - 1 without floors; true when the warp is done. With every transition in
  // registers, two rows an iteration: ptxas then alternates the row's registers instead of
  // copying ~25 words back at the end of each (ptxas 13.0, Q = 10: 720 -> 681 instructions).
  // The pair's second row runs even where the first ended the warp (an overflow, or every
  // group past its target): its result is not read (the overflowed targets' is INT_MAX, the
  // groups past their end are not live), and one exit a pair keeps the alternation (an exit
  // after each row cost 17-33 more register moves a pair at Q = 7).
  template <bool kChainAlways, bool kTogether = false>
  __device__ __forceinline__ bool fast_rows(Row& i, Row end, int& fired) {
    if constexpr (R < Q) {
      for (; i < end; ++i)
        if (row<false, kChainAlways, kTogether>(i, fired)) return true;
      return false;
    }
    for (; i + 1 < end; i += 2) {
      const bool first = row<false, kChainAlways, kTogether>(i, fired);
      const bool second = row<false, kChainAlways, kTogether>(i + 1, fired);
      if (first || second) return true;
    }
    if (i < end) {
      if (row<false, kChainAlways, kTogether>(i, fired)) return true;
      ++i;
    }
    return false;
  }

  // Every row: the final xC, or INT_MAX on word overflow. fast: the warp runs its rows after
  // the first two without floors (see the top). Rows 0 and 1 keep their
  // floors (the -32768 of row 0 is still in I): then either the others without, or all with
  // (a loop each, so that neither pays for the other).
  // together: the rows before the last row of the warp's shortest target (every group in its
  // target, with a next residue); the warp-uniform bound of the rows without per-group tests.
  __device__ __forceinline__ int run(Row rows, bool fast, Row together = 0) {
    start();
    Row i = 0;
    bool done = false;
    int fired = 0;
    for (; i < rows && i < 2 && !done; ++i) done = row<true>(i, fired);
    if (fast) {
      // HMMER's lazy-F test fires in 96-100% of the rows of sampled models, in 23-53% with
      // Pfam's: where it keeps firing, the chain runs untested (kLazyRows, kChainFires,
      // kChainRows): +10-18% at sampled M 50-1024, Pfam models -1% to +10%
      // (results/gpu-h200-20261128-f). Where transitions are streamed (Q > 16) it measured
      // -3% to +5% by Q: those rows keep the test.
      if constexpr (R == Q && W == 1) {
        // Groups of a warp take targets of about one length (longest first), so nearly every
        // row is a row together (T > 1): without each group's test of its end and of its
        // next residue, 12-14 fewer instructions a row, most of them on the ALU pipe that
        // the DPX instructions keep 69-75% busy (ncu, T = 2): H200 +3.3% to +7.9% at M
        // 50-300, globins4 1478 -> 1555 GCUPS (results/gpu-h200-20261128-h).
        constexpr bool kTogether = G < 32;
        const Row end = kTogether ? together : rows;
        while (!done && i < end) {
          fired = 0;
          const Row lazy_end = i + kLazyRows < end ? i + kLazyRows : end;
          done = fast_rows<false, kTogether>(i, lazy_end, fired);
          if (!done && i < end && fired >= kChainFires)
            done = fast_rows<true, kTogether>(i, i + kChainRows < end ? i + kChainRows : end,
                                              fired);
        }
        if (kTogether && !done) fast_rows<false>(i, rows, fired);
      } else {
        fast_rows<false>(i, rows, fired);
      }
      return overflowed ? INT_MAX : xC;
    }
    for (; i < rows && !done; ++i) done = row<true>(i, fired);
    return overflowed ? INT_MAX : xC;
  }
};

// The kernel runs in blocks of one warp: an SM then holds as many warps as the registers
// allow, where blocks of four left one to three warps' worth of registers unused (Q = 3-5 at T
// = 2, 11 at T = 1). H200, GCUPS blocks of four / of one warp: globins4 1441 / 1471, M = 150
// 1371 / 1398, 704 1701 / 1740, 1024 1873 / 1918, LuxC 1675 / 1723; no count slower (0.999
// at worst; results/gpu-h200-20261128-g, section 7).
constexpr int kFusedThreadsPerBlock = 32;

// Warps an SM that the kernel is compiled to fit (0: as many as its registers allow; measured
// as blocks of four warps, which ptxas compiles alike). The short models' rows are bound by
// dependent-instruction latency with few warps resident (ncu, Q = 5-7: 24% of the warps,
// results/gpu-h200-20261127/ncu-vit.txt), but more warps help only where ptxas fits them
// without spills: Q = 3 at T = 1 (M 129-192 if asked for): 24 (80 registers, one 8-byte spill;
// 89 and 20 warps otherwise); Q = 5 at T = 1 (M 257-320): 20 (96 registers, none spilled,
// against 109 and 16 warps): Pkinase 1255 -> 1393, M = 300 1238 -> 1386 GCUPS on the H100.
// Twenty warps at T = 2 (Q = 5: 24 bytes spilled) lost 3%; at Q = 7 (spills) 34%; 24 or 28
// with fewer stripes resident, 4-30% (results/gpu-h100-80gb-hbm3-20261128/
// occupancy-launch-bounds.log). With the untested chain's loop beside the tested one (run),
// ptxas takes 150 registers at T = 2, Q = 7 and 197 at Q = 10, four warps an SM fewer than
// before; asked for 16 and 12 warps it fits them in 128 and 168 with 20 bytes spilled: M =
// 200 1420 -> 1501, M = 300 1479 -> 1675 GCUPS on the H200 (results/gpu-h200-20261128-f).
__host__ __device__ constexpr int fused_min_warps(int Q, int T) {
  if (T == 2) return Q == 7 ? 16 : Q == 10 ? 12 : 0;
  return T == 1 ? (Q == 3 ? 24 : Q == 5 ? 20 : 0) : 0;
}

// param = the target's N/C/J MOVE word; emission_max = the largest emission word of the model;
// fast_min_move and weak_residues: see "Rows without floors" at the top.
// Result: final xC, or INT_MAX on word overflow. T targets per warp (see the top): warp w of
// the list's ceil(n / T) takes targets wT .. wT + T - 1, group g of the warp target wT + g.
template <int Q, int T>
__global__ void __launch_bounds__(kFusedThreadsPerBlock, fused_min_warps(Q, T))
    viterbi_fused_kernel(const uint4* __restrict__ transitions, const uint32_t* __restrict__ dd,
                         const uint2* __restrict__ emissions, int emission_max, int e_move,
                         int ddbound, int fast_min_move, uint32_t weak_residues, TargetList list) {
  static_assert(T == 1 || T == 2 || T == 4, "1, 2 or 4 targets per warp");
  constexpr int G = 32 / T;  // threads per target
  constexpr int R = fused_resident_stripes(Q);
  const int lane = threadIdx.x & 31;
  const int warp = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) >> 5);
  const int warps = static_cast<int>((gridDim.x * blockDim.x) >> 5);
  constexpr bool kApart = fused_dd_floors_apart(Q);
  const uint32_t* my_dd = dd + (kApart ? lane : 2 * lane);  // the thread's D->D words
  const uint32_t* my_md = dd + (kApart ? Q : 2 * Q) * 32 + lane;
  FusedStripe resident[R > 0 ? R : 1];
  if constexpr (R > 0) {
#pragma unroll
    for (int q = 0; q < R; ++q)
      resident[q] = load_fused_stripe<true, false>(transitions, my_md, q, lane);
  }
  __shared__ int dd_windows[Q <= kFusedResidentStripes ? 1 : 5 * 32];
  const auto dd_sums =
      dd_chain_sums<Q, G, (Q <= kFusedResidentStripes), (Q <= kFusedResidentStripes),
                    dd_chain_split_at(Q, T, 1)>(my_dd, lane, dd_windows, threadIdx.x < 32);
  const int warp_targets = (list.n + T - 1) / T;
  for (int w = warp; w < warp_targets; w = next_target(list, w, warps)) {
    const int j = w * T + lane / G;  // this group's target in the list
    const bool real = j < list.n;    // the list's last warp may have fewer than T
    const int id = real ? list.ids[j] : 0;
    const int64_t begin = real ? list.offsets[id] : 0;
    const int64_t L = real ? list.offsets[id + 1] - begin : 0;
    const uint8_t* seq = list.residues + begin;
    const int ncj_move = real ? list.param[j] : 0;
    int64_t rows = L, shortest = L;
#pragma unroll
    for (int offset = G; offset < 32; offset <<= 1) {
      const int64_t other = __shfl_xor_sync(kFullWarp, rows, offset);
      rows = rows > other ? rows : other;
      const int64_t other_shortest = __shfl_xor_sync(kFullWarp, shortest, offset);
      shortest = shortest < other_shortest ? shortest : other_shortest;
    }
    const int64_t together = shortest > 0 ? shortest - 1 : 0;  // FusedTarget::run
    // Rows without floors: for every target of the warp ncj_move >= fast_min_move, and no
    // residue weak (its rows may hold M = -32768; each group reads its target once here).
    bool fast = __all_sync(kFullWarp, !real || ncj_move >= fast_min_move);
    if (fast) {
      bool weak = false;
      for (int64_t k = lane & (G - 1); k < L; k += G)
        if ((weak_residues >> __ldg(seq + k)) & 1u) weak = true;
      fast = !__any_sync(kFullWarp, weak);
    }
    // Every target shorter than about 5e7 residues (run_kernel): rows fit 32 bits, and xB + B
    // cannot wrap ("Begin" at the top).
    using Target = FusedTarget<Q, R, G>;
    using Row = typename Target::Row;
    const int result = Target{resident,     transitions, my_dd,    my_md, emissions + lane,
                              dd_sums,      lane,        seq,      static_cast<Row>(L),
                              ncj_move,     emission_max, e_move,  ddbound}
                           .run(static_cast<Row>(rows), fast, static_cast<Row>(together));
    if ((lane & (G - 1)) == 0 && real) list.out[j] = result;
  }
}

// Runs a split model's target (viterbi_split_kernel) with the warp's part of the model set.
template <int W, typename Target, typename Exchange>
__device__ __forceinline__ int run_split_target(Target target, Exchange* exchange,
                                                int warp_index, int dd_prefix,
                                                const int (&dd_sum)[W], const int (&md_into)[W],
                                                const int (&dd_into)[W], bool fast) {
  target.exchange = exchange;
  target.warp_index = warp_index;
  target.dd_prefix = dd_prefix;
  // -32768 - DD_{s+1}, s the warp's first node (split_row): thread 0's second stripe, low half.
  if constexpr (Target::kWordsHeld)
    target.split_first_floor = -32768 - low_s16(target.dd_sums.word[1]);
  else
    target.split_first_floor = -32768 - low_s16(dd_word<Target::kStripes>(target.my_dd, 1));
#pragma unroll
  for (int v = 0; v < W; ++v) {
    target.split_dd_sum[v] = dd_sum[v];
    target.split_md_into[v] = md_into[v];
    target.split_dd_into[v] = dd_into[v];
  }
  return target.run(target.L, fast);
}

// Stripes a split model's warp keeps in registers (the others are streamed as in the one-warp
// kernel): all up to kFusedResidentStripes, then fewer than one warp keeps, as the exchange,
// the carry and the D->D words (split_dd_words_held) take registers too. H200, W = 2, GCUPS
// with 9 / 10 / 11 / 12 (the D->D words held): Q = 17 1493 / 1476 / 1490 / 1502, 18 1422 /
// 1461 / 1510 / 1535, 19 1452 / 1493 / 1429 / 1415, 20 1368 / 1451 / 1358 / 1424, 21 1347 /
// 1353 / 1354 / 1241, 22 1406 / 1372 / 1333 / 1304 (results/gpu-h200-20261129-f, call 3).
// Past 22, none (the words are read from L1 there: results/gpu-h200-20261128-g).
// Compiled with ptxas's register usage level 0 (fused_register_usage_level), 17-21 stripes
// keep 15 or 16, which spilled and lost at the default level: H200, level 0, GCUPS with 13 /
// 14 / 15 / 16, against the table above at the default level: Q = 17 1565 / 1598 / 1543 /
// 1611 (1503), 18 1622 / 1614 / 1580 / 1627 (1525), 19 1460 / 1562 / 1553 / 1605 (1478), 20
// 1504 / 1533 / 1562 / 1548 (1470), 21 1336 / 1423 / 1550 / 1587 (1342)
// (results/gpu-h200-20261129-h, call 4; at the default level the same counts ran 2-21% slower);
// 22 with 12 / 14 / 16: 1415 / 1519 / 1484 (1383; call 7).
__host__ __device__ constexpr int split_resident_stripes(int Q) {
  if (GPUSEQ_PTXAS_REGISTER_USAGE_LEVEL == 0 && Q > kFusedResidentStripes && Q <= 22)
    return Q == 20 ? 15 : Q == 22 ? 14 : 16;
  return Q <= kFusedResidentStripes ? Q : Q <= 18 ? 12 : Q <= 21 ? 10 : Q == 22 ? 9 : 0;
}

// A model too long for one warp split over the W warps of a block (W = 2..4): warp w holds
// nodes 1 + 64Qw + q + Q(2t + b) from its own copy of the fused tables (`words` + w *
// warp_words: transitions, then D->D and M->D at dd_at, emissions at emissions_at, as the
// top says), its first split_resident_stripes(Q) stripes in registers, and the block runs one
// target at a time, the warps' rows together with one barrier a row (FusedTarget::split_row).
// `constants`: per warp its D->D sum and the true M->D and D->D words into its first node (3
// ints). Result as viterbi_fused_kernel's; targets in the list's order, claimed a block at a
// time.
template <int Q, int W>
__global__ void __launch_bounds__(32 * W)
    viterbi_split_kernel(const uint32_t* __restrict__ words, int warp_words, int dd_at,
                         int emissions_at, const int* __restrict__ constants, int emission_max,
                         int e_move, int ddbound, int fast_min_move, uint32_t weak_residues,
                         TargetList list) {
  static_assert(W >= 2 && W <= 4, "2 to 4 warps a target");
  constexpr int G = 32;
  constexpr int R = split_resident_stripes(Q);
  constexpr bool kApart = fused_dd_floors_apart(Q);
  constexpr bool kSumsHeld = Q <= kFusedResidentStripes;
  constexpr bool kWordsHeld = split_dd_words_held(Q, W);
  const int lane = threadIdx.x & 31;
  const int warp_index = threadIdx.x >> 5;
  const uint32_t* mine = words + static_cast<size_t>(warp_index) * warp_words;
  const auto* transitions = reinterpret_cast<const uint4*>(mine);
  const uint32_t* my_dd = mine + dd_at + (kApart ? lane : 2 * lane);
  const uint32_t* my_md = mine + dd_at + (kApart ? Q : 2 * Q) * 32 + lane;
  const auto* emissions = reinterpret_cast<const uint2*>(mine + emissions_at);
  FusedStripe resident[R > 0 ? R : 1];
  if constexpr (R > 0) {
#pragma unroll
    for (int q = 0; q < R; ++q)
      resident[q] = load_fused_stripe<true, false>(transitions, my_md, q, lane);
  }
  // Each warp's scan windows (its own nodes), in shared memory where not in registers.
  __shared__ int dd_windows[kSumsHeld ? 1 : W * 5 * 32];
  const auto dd_sums =
      dd_chain_sums<Q, G, kSumsHeld, kWordsHeld, dd_chain_split_at(Q, 1, W)>(my_dd, lane,
                                                 dd_windows + (kSumsHeld ? 0 : warp_index * 160),
                                                 true);
  // The sum of the D->D words of the threads below this one.
  const int own = dd_sums.half[0] + dd_sums.half[1];
  int below = own;
#pragma unroll
  for (int offset = 1; offset < 32; offset <<= 1) {
    const int up = __shfl_up_sync(kFullWarp, below, offset);
    if (lane >= offset) below += up;
  }
  below -= own;
  int dd_sum[W], md_into[W], dd_into[W];
#pragma unroll
  for (int v = 0; v < W; ++v) {
    dd_sum[v] = __ldg(constants + 3 * v);
    md_into[v] = __ldg(constants + 3 * v + 1);
    dd_into[v] = __ldg(constants + 3 * v + 2);
  }
  __shared__ SplitExchange<W, split_whole_records(Q)> exchange;
  for (int j = blockIdx.x; j < list.n;) {
    const int id = list.ids[j];
    const int64_t begin = list.offsets[id];
    const int64_t L = list.offsets[id + 1] - begin;
    const uint8_t* seq = list.residues + begin;
    const int ncj_move = list.param[j];
    // Rows without floors (see the top): the block's threads read the target once.
    bool weak = false;
    for (int64_t k = threadIdx.x; k < L; k += 32 * W)
      if ((weak_residues >> __ldg(seq + k)) & 1u) weak = true;
    const bool fast = !__syncthreads_or(weak) && ncj_move >= fast_min_move;
    using Target = FusedTarget<Q, R, G, W>;  // targets shorter than about 5e7 (run_kernel)
    const int result = run_split_target(
        Target{resident, transitions, my_dd, my_md, emissions + lane, dd_sums, lane, seq,
               static_cast<typename Target::Row>(L), ncj_move, emission_max, e_move, ddbound},
        &exchange, warp_index, below, dd_sum, md_into, dd_into, fast);
    if (threadIdx.x == 0) {
      list.out[j] = result;
      exchange.claim = list.claims != nullptr
                           ? static_cast<int>(gridDim.x) + atomicAdd(list.claims, 1)
                           : j + static_cast<int>(gridDim.x);
    }
    __syncthreads();
    j = exchange.claim;
    __syncthreads();  // every thread has read it before thread 0 writes the next
  }
}

}  // namespace gpuseq::cuda::hmm
