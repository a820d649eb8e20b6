#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <array>
#include <cmath>
#include <cub/device/device_select.cuh>
#include <limits>
#include <map>
#include <exception>
#include <mutex>
#include <memory>
#include <future>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "common/alphabet.hpp"
#include "common/check.cuh"
#include "common/parallel.hpp"
#include "hmm/filter_kernels.hpp"
#include "hmm/bias_filter.hpp"
#include "hmm/bias_filter.cuh"
#include "hmm/filters.hpp"
#include "hmm/gpu_filters.hpp"
#include "hmm/msv.cuh"
#include "hmm/runtime_compile.hpp"
#include "hmm/msv_multi.cuh"
#include "hmm/forward_bound.cuh"
#include "hmm/sequence_blocks.hpp"
#include "hmm/viterbi_filter.cuh"
#include "hmm/viterbi_systolic.cuh"
#include "hmm/viterbi_fused.cuh"
#include "hmm/viterbi_walters.cuh"

namespace gpuseq::cuda::hmm {

namespace cpu = ::gpuseq::hmm;

namespace {

// Every launch, copy and temporary of the filters goes on the calling thread's own stream, so
// that the cascades that several threads run at once (hmmsearch's models in flight) overlap on
// the GPU; nothing here uses the legacy default stream, which waits for every other stream,
// and temporaries are stream-ordered (cudaFree would wait for the whole device).
const cudaStream_t kStream = cudaStreamPerThread;

// Stripe counts compiled statically; a model uses the smallest that covers it (the extra
// stripes hold padding nodes, which stay at minus infinity). 128 nodes per stripe for the byte
// kernels, 64 for the word kernels.
using ByteStripeCounts = std::integer_sequence<int, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24>;
using WordStripeCounts =
    std::integer_sequence<int, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 28, 32, 40, 48>;
constexpr int kByteNodesPerStripe = 128;
constexpr int kWordNodesPerStripe = 64;
// The fused Viterbi kernel with 2 or 4 targets per warp (32 or 16 nodes a stripe): the counts
// of the short models it is chosen for (choose_viterbi_targets_per_warp).
constexpr int kGroupedViterbiMaxStripes = 8;
// With NVRTC two targets a warp are chosen up to this count (choose_viterbi_targets_per_warp).
constexpr int kGroupedViterbiRuntimeMaxStripes = 16;
using GroupedViterbiStripeCounts = std::integer_sequence<int, 2, 3, 4, 5, 6, 7, 8>;
constexpr int kThreadsPerBlock = 128;

// Targets from which the SSV/MSV warp kernels claim them longest first (TargetList::order):
// with fewer a warp takes one to four, and the sort and its upload cost more than they even out.
constexpr int kLongestFirstMinTargets = 8192;

// Longest model of the kernels compiled at run time, in 16-bit stripes (64 nodes each; the
// byte kernels need half as many). The bound is the Viterbi kernel's register budget: it holds
// 3Q words per thread, and ptxas (CUDA 13.0, sm_90a, 255 registers) spills 72 bytes at Q = 48
// (the largest static kernel), 160 at 52, 316 at 56 and 636 at 64 (388 bytes of spill loads,
// which stay in L1 at this occupancy; sm_80: none at 56, 208 at 64); the SSV/MSV kernels
// spill nothing up to Q = 128. 64 stripes (4096 nodes) takes every Pfam model;
// bench_hmm_filters.py measures what the spills cost (rows M > 3072).
constexpr int kRuntimeMaxWordStripes = 64;

// 16-bit stripe counts at which the SSV/MSV warp kernels copy their table into shared memory
// (msv.cuh, *_shared): the models past the S-lane kernels' 48 stripes of 32 nodes, up to 48
// (M = 3072; the table, 178 KB there, fits to 62, but at 512 threads the MSV has 128 registers
// and spills from 55). Measured: bench_hmm_filters.py, results/gpu-h100-80gb-hbm3-20261124-i.
constexpr int kSharedWarpTableStripes = 25;
constexpr int kSharedWarpTableMaxStripes = 48;

// Testing hook (off: the L1 kernels at every count, as before the *_shared ones).
std::atomic<bool>& warp_tables_in_shared_switch() {
  static std::atomic<bool> on{true};
  return on;
}

// Benchmark hook (off: the SSV/MSV warp and S-lane kernels run the exact stripe count, slow or
// not).
std::atomic<bool>& warp_stripes_past_slow_switch() {
  static std::atomic<bool> on{true};
  return on;
}

// Benchmark hook (off: the SSV/MSV warp kernels take their targets by CUDAMPF's static rule).
std::atomic<bool>& warp_kernels_claim_targets_switch() {
  static std::atomic<bool> on{true};
  return on;
}

// Testing and benchmark hook (off: every row of the fused Viterbi kernel keeps its floors).
std::atomic<bool>& viterbi_rows_without_floors_switch() {
  static std::atomic<bool> on{true};
  return on;
}

// A profile with two fused Viterbi targets a warp by model length runs four a warp (each
// target on 8 threads) on the launches with rows enough for them (viterbi_by_launch), up to
// this many nodes (16 stripes of 16 with NVRTC, 8 without); on the largest launches, the
// systolic pipeline (kPipelineRowsPerLongest) instead, up to 384 nodes.
constexpr int kFourTargetsMaxNodes = 256;

// A launch has rows enough for four targets a warp where its residues reach this many times
// its longest target's. Four a warp run each target's rows on 8 threads with twice the
// stripes of two: more cells an instruction, but a longer row; where a launch has few rows a
// resident warp, its longest target's rows set its end, and two a warp run them sooner.
// H200, launch time four / two a warp (results/gpu-h200-20261129-j, call 4; log-normal
// lengths up to 3,000, a 35,000-residue target added in the last row), sampled M = 50-256 and
// RRM_1, 2OG-FeII_Oxy_3, Caudal_act, globins4:
//   residues / longest  3,304 (10 M): 0.92-1.40 (two faster on 6 of 10, globins4 1.40)
//                       4,963 (15 M): 0.43-1.02 (RRM_1 1.01, globins4 1.02)
//                       6,616 (20 M): 0.67-0.92;  9,946 (30 M): 0.65-0.92
//                       284-854 (10-30 M and 35,000): 0.79-1.78 (two faster on 37 of 40)
// and on 100 M residues (33,000) four a warp ran 1.24-1.97 TCUPS where two ran 0.80-1.81
// (call 3; M = 50 1238 / 803, RRM_1 1573 / 1216, globins4 1802 / 1654 GCUPS). A search gives a
// model's Viterbi filter about 10 M residues (3,300 at most), so it runs two a warp.
constexpr double kFourTargetsRowsPerLongest = 5000;

// A launch of a model the systolic pipeline takes (up to 384 nodes) runs through it from this
// many times its longest target's residues, where the profile leaves the pipeline to its
// default (viterbi_systolic 0). The pipeline hands back the few targets whose score passes xN
// to the fused kernel, a lone warp's rows for the longest of them after the pipeline: a fixed
// 0.2-0.6 ms that a launch must be large to carry. H200, launch time pipeline / the faster of
// two and four a warp (results/gpu-h200-20261129-j, call 9), by residues / longest:
//   sampled M = 50-384:            3,304: 0.80-1.15; 9,946: 0.80-0.91; 33,207: 0.67-0.90
//   RRM_1, Caudal_act, globins4:   3,304: 0.98-1.55; 9,946: 1.03-1.06; 16,613: 1.02-1.04;
//                                  33,207: 0.95-0.99
//   Pkinase (260):                 3,304: 1.17; 9,946: 1.10; 16,613: 0.98; 33,207: 0.95
// (a fixed cost and a rate fitted to the Pfam models' 50 M and 100 M times cross at 20,000-
// 28,000).
constexpr double kPipelineRowsPerLongest = 30000;

// Testing and benchmark hook: kFourTargetsRowsPerLongest and kPipelineRowsPerLongest, or what
// set_viterbi_by_launch_rows gave.
std::atomic<double>& four_targets_rows() {
  static std::atomic<double> rows{kFourTargetsRowsPerLongest};
  return rows;
}
std::atomic<double>& pipeline_rows() {
  static std::atomic<double> rows{kPipelineRowsPerLongest};
  return rows;
}

int warp_table_bytes(int Q) { return kAminoKp * Q * 32 * 4; }

bool warp_table_fits(int msv_bits, int Q) {
  if (msv_bits != 16 || Q < kSharedWarpTableStripes || Q > kSharedWarpTableMaxStripes) return false;
  int device = 0, most = 0;
  GPUSEQ_CUDA_CHECK(cudaGetDevice(&device));
  GPUSEQ_CUDA_CHECK(cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  return warp_table_bytes(Q) <= most;
}

// Stripes a model of M nodes needs (at least 2: the kernels' stripe loops need a q - 1).
int needed_stripes(int M, int nodes_per_stripe) {
  return std::max((M - 1) / nodes_per_stripe + 1, 2);
}

// 16-bit stripe counts at which the SSV warp kernel ran at 6.5-7.0 TCUPS where its neighbours
// ran at 10.4-11.7, with the same registers and no spills (H100, CUDA 13.0 NVRTC, every count
// from 20 to 40: benchmarks/sweep_warp_stripes.py, results/gpu-h100-80gb-hbm3-20261124-d/).
// A model needing one of them gets SSV/MSV tables of the next count up (padding nodes: the
// same scores); its Viterbi keeps the exact count. 37-39 left the list once warps claimed
// their targets from shared tables: 15.49, 15.14, 15.00 TCUPS against 15.60 at 40 (--exact
// --first 36 --last 41, results/gpu-h100-80gb-hbm3-20261127/sweep_exact_36_41.log). 42 and 43
// run at 13.11 and 11.63 where 44 runs at 14.61 (41: 13.63, as 44's tables give it;
// sweep_exact_41_48.log there). 33 on the H200: 13.1 where 34 runs at 14.9 (results/
// gpu-h200-20261128-i/wsweep-5.log; 27 was only 3% slower there than 28, 42 and 43 6-25%).
constexpr int kSlowWarpSsvWordStripes[] = {27, 33, 42, 43};

// S-lane kernels (msv_multi.cuh): S targets per warp, H stripes of W = 64 / S nodes (16-bit
// lanes) or 128 / S (bytes).
using WordMultiSequenceCounts = std::integer_sequence<int, 2, 4, 8, 16, 32, 64>;
using ByteMultiSequenceCounts = std::integer_sequence<int, 2, 4, 8, 16, 32, 64, 128>;
using MultiStripeCounts =
    std::integer_sequence<int, 2, 3, 4, 6, 8, 12, 16, 20, 24, 28, 32, 40, 48>;
// H_max (CUDAMPF++ section 3.4.1): the most stripes a model may take before a smaller S (more
// nodes per stripe) is chosen, and the largest S worth running. Measured on the H100 with the
// score tables in shared memory (bench_hmm_filters.py --multi, 16-bit lanes, GCUPS SSV/MSV,
// benchmarks/results/gpu-h100-80gb-hbm3-20261123-b/bench_hmm_filters_multi_shared-c3821fc.log):
//   H = 48 still pays: M = 1536, S = 2 (H = 48) 14213/8904 against S = 1 11559/8023; M = 768,
//   S = 4 (H = 48) 13908/8154 = S = 2 (H = 24) 13849/7908; at M = 192 and 384 the S that
//   H = 48 picks is within 8% of the best.
//   S = 32 and 64 never win (M = 32..128: S = 16 runs 5717..12311 SSV, S = 32 4926..5855):
//   with one thread per target a target ends every few rows and each end costs a reduction.
// The K40's H_max was 45. Byte lanes keep the first measurement (32, every S; global-memory
// tables then): they are slower on sm_90 and the default only where DPX is emulated.
// Past 48 (NVRTC, tables of 200-224 KB) S = 2 does not pay against the warp kernel with claimed
// targets: M = 1600 (H = 50) SSV/MSV 13.91/6.79 against 14.35/8.51, M = 1792 (H = 56) 14.76/9.27
// against 14.51/10.45 (results/gpu-h100-80gb-hbm3-20261125-h/claims-and-s2-past-48-*.log).
constexpr int kMultiMaxStripes = 48;

// 16-bit stripe counts at which an S-lane filter runs slower per real node than at a count a
// little higher, padding nodes included (at least 5% faster within 4 counts up: time per node
// H / rate(H)), for S = 16, 8, 4, 2; each filter takes its own H past its own list. Measured on
// today's kernels: H200, NVRTC, every H from 8 (S = 16) or 25 to 48, M = W x H, 100 M residues,
// scores equal to the CPU at every H (results/gpu-h200-20261128-i/sweeps-3.log). Since the
// kernels tell ptxas to plan for one block an SM (multi_min_blocks in msv_multi.cuh) only the
// SSV at S = 16 keeps two, in the range that still plans for more (11: 8.6 TCUPS, 12: 10.7;
// 19: 10.2, 20: 12.8); before, the SSV was slow at 28-29, 36-37 and 44-46 for every S and the
// MSV at 34 and 42-43 (results/gpu-h200-20261128-e). A model needing one of them gets the next
// count up that is not (padding nodes: the same scores). The slow counts move when the kernels
// change.
struct SlowMultiStripes {
  int S;
  int ssv[12];
  int msv[12];
};
constexpr SlowMultiStripes kSlowMultiWordStripes[] = {
    {16, {11, 19}, {}},
    {8, {}, {}},
    {4, {}, {}},
    {2, {}, {}},
};
constexpr int kWordMultiMaxSequences = 16;
constexpr int kByteMultiMaxStripes = 32;

template <int... Qs>
int covering_stripes(int M, int nodes_per_stripe, std::integer_sequence<int, Qs...>) {
  const int needed = needed_stripes(M, nodes_per_stripe);
  int chosen = 0;
  ((chosen == 0 && Qs >= needed ? (chosen = Qs) : 0), ...);
  return chosen;  // 0: longer than every compiled kernel
}

// Calls f(std::integral_constant<int, Q>) for the compiled Q equal to `stripes`.
template <class F, int... Qs>
void with_stripes(int stripes, std::integer_sequence<int, Qs...>, F&& f) {
  const bool found =
      ((stripes == Qs ? (f(std::integral_constant<int, Qs>{}), true) : false) || ...);
  if (!found) throw std::logic_error("no kernel for " + std::to_string(stripes) + " stripes");
}

// Blocks of kernel f (`threads` each, with `shared_bytes` of dynamic shared memory, allowed
// above the default 48 KB limit) that stay resident on the whole device at once; at least one
// per multiprocessor.
int resident_blocks(const void* f, int threads, int shared_bytes) {
  if (shared_bytes > 48 * 1024)
    GPUSEQ_CUDA_CHECK(
        cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes));
  int device = 0, sms = 0, per_sm = 0;
  GPUSEQ_CUDA_CHECK(cudaGetDevice(&device));
  GPUSEQ_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  GPUSEQ_CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, f, threads, shared_bytes));
  return std::max(per_sm, 1) * sms;
}

// The 16-bit S-lane kernels with this S run one block (16 warps) an SM: with two or three
// (tables of H <= 28 stripes fit twice) they ran 30-50% slower, SSV and MSV (H200, S = 16: H =
// 13 7.5 -> 11.3 TCUPS, 22 9.5 -> 13.7; at S = 8 one block ran slower: H = 28 12.9 -> 11.3;
// results/gpu-h200-20261128-e/one-block-per-sm.log).
constexpr int kOneBlockPerSmSequences = 16;

// Dynamic shared memory for a block that leaves no room for a second one on its SM (the table
// itself needs less; the rest is unused).
int one_block_per_sm_shared_bytes() {
  int device = 0, per_sm = 0, reserved = 0, per_block = 0;
  GPUSEQ_CUDA_CHECK(cudaGetDevice(&device));
  GPUSEQ_CUDA_CHECK(
      cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device));
  GPUSEQ_CUDA_CHECK(
      cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, device));
  GPUSEQ_CUDA_CHECK(
      cudaDeviceGetAttribute(&per_block, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  return std::min(per_block, per_sm / 2 - reserved + 128);
}

// Persistent grid of blocks of `threads`: exactly the warps that fit on the device at once
// (CUDAMPF), fewer when there are fewer warps' worth of work.
int grid_blocks(const void* f, int warps, int threads = kThreadsPerBlock, int shared_bytes = 0) {
  const int warps_per_block = threads / 32;
  const int needed = (warps + warps_per_block - 1) / warps_per_block;
  return std::max(1, std::min(resident_blocks(f, threads, shared_bytes), needed));
}

template <class... Params>
int grid_blocks(void (*kernel)(Params...), int warps) {
  return grid_blocks(reinterpret_cast<const void*>(kernel), warps);
}

// Byte tables: word of thread t, stripe q, residue x at (x*Q + q)*32 + t; node j (0-based) in
// byte b of that word when j = q + Q*(4t + b).
std::vector<uint32_t> stripe_bytes(const cpu::MsvProfile& om, int Q) {
  std::vector<uint32_t> out(static_cast<size_t>(kAminoKp) * Q * 32, 0);
  for (int x = 0; x < kAminoKp; ++x)
    for (int q = 0; q < Q; ++q)
      for (int t = 0; t < 32; ++t) {
        uint32_t word = 0;
        for (int b = 0; b < 4; ++b) {
          const int j = q + Q * (4 * t + b);
          const uint32_t cost = j < om.M ? om.row(x)[j] : 255u;
          word |= cost << (8 * b);
        }
        out[(static_cast<size_t>(x) * Q + q) * 32 + t] = word;
      }
  return out;
}

// 16-bit SSV/MSV tables: the scores bias - rb, node j in half b of thread t's word at stripe q
// when j = q + Q*(2t + b); nodes past M score kPadScore16.
std::vector<uint32_t> stripe_score_words(const cpu::MsvProfile& om, int Q) {
  std::vector<uint32_t> out(static_cast<size_t>(kAminoKp) * Q * 32, 0);
  for (int x = 0; x < kAminoKp; ++x)
    for (int q = 0; q < Q; ++q)
      for (int t = 0; t < 32; ++t) {
        uint32_t word = 0;
        for (int b = 0; b < 2; ++b) {
          const int j = q + Q * (2 * t + b);
          const int score = j < om.M ? om.bias - om.row(x)[j] : kPadScore16;
          word |= static_cast<uint32_t>(static_cast<uint16_t>(score)) << (16 * b);
        }
        out[(static_cast<size_t>(x) * Q + q) * 32 + t] = word;
      }
  return out;
}

// Nodes per stripe of one target in the S-lane kernels.
int multi_width(int msv_bits, int S) { return (msv_bits == 8 ? 128 : 64) / S; }

// S-lane SSV/MSV tables: entry ((h*32 + x)*W + w) is node h + H*w for residue x, as the
// warp-per-target tables: 16-bit scores bias - rb (nodes past M and the marker codes x >= 29:
// kPadScore16) or byte costs rb (there: 255). Entries little-endian in the words.
std::vector<uint32_t> multi_table(const cpu::MsvProfile& om, int msv_bits, int S, int H) {
  const int W = multi_width(msv_bits, S);
  const size_t count = static_cast<size_t>(H) * kMultiCodes * W;
  std::vector<uint32_t> words(count * msv_bits / 32, 0);
  for (int h = 0; h < H; ++h)
    for (int x = 0; x < kMultiCodes; ++x)
      for (int w = 0; w < W; ++w) {
        const int j = h + H * w;
        const bool real = x < kAminoKp && j < om.M;
        const size_t i = (static_cast<size_t>(h) * kMultiCodes + x) * W + w;
        if (msv_bits == 16) {
          const int score = real ? om.bias - om.row(x)[j] : kPadScore16;
          words[i / 2] |= static_cast<uint32_t>(static_cast<uint16_t>(score)) << (16 * (i % 2));
        } else {
          const uint32_t cost = real ? om.row(x)[j] : 255u;
          words[i / 4] |= cost << (8 * (i % 4));
        }
      }
  return words;
}

// Word tables: node j in half b (low first) of thread t's word at stripe q when
// j = q + Q*(2t + b); padding -32768.
void append_striped_words(std::vector<uint32_t>& out, const int16_t* by_node, int M, int Q) {
  for (int q = 0; q < Q; ++q)
    for (int t = 0; t < 32; ++t) {
      uint32_t word = 0;
      for (int b = 0; b < 2; ++b) {
        const int j = q + Q * (2 * t + b);
        const int16_t v = j < M ? by_node[j] : cpu::kWordNegInf;
        word |= static_cast<uint32_t>(static_cast<uint16_t>(v)) << (16 * b);
      }
      out.push_back(word);
    }
}

// The fused Viterbi kernel's tables (viterbi_fused.cuh), in one buffer of words: transitions
// (a uint4 and two uint2 per stripe and thread), D->D with its floors and M->D (two words and
// one per stripe and thread, in fused_dd_floors_apart's order), then emissions (a uint2 per
// residue, stripe and thread); nodes
// striped as in append_striped_words, padding as the kernel's header says. Every section is a
// whole number of uint4, so each starts aligned.
struct FusedViterbiTables {
  std::vector<uint32_t> words;
  size_t dd_at = 0, emissions_at = 0;  // in words
  int emission_max = 0;                // the largest emission word of the model
  // Rows without floors (viterbi_fused.cuh): the least ncj_move they take, and the residues
  // with a -32768 emission.
  int fast_min_move = 0;
  uint32_t weak_residues = 0;
};

// M->D into the first padding node. Its D = M_M + this (the next padding nodes' D copy it, by
// M->D and D->D words 0 from a padding M of -32768): at most the row's best M less 16384, so
// that HMMER's lazy-F test (max D + ddbound > xB) does not run the D->D chain for it; any word
// from -32768 up would do in rows with floors, and in those without, M_M + this must not wrap.
constexpr int kPaddingMd = -16384;

// The bound of the kernel's "Rows without floors": with xB >= X in every row (X = 12000 +
// ncj_move), every M of a real node is >= X + B + E (B, E: the least B->M and emission words
// of the residues other than the weak ones), every I of a node below M >= that + the least
// M->I, every D of a node from 2 on >= that + the least M->D; each sum of such a value and a
// transition it meets must stay >= -32768. Returns the least ncj_move for which all do.
int fused_fast_min_move(const cpu::ViterbiProfile& vp, int M, uint32_t weak_residues) {
  auto least = [&](const std::vector<int16_t>& v, int from) {  // over nodes from + 1 .. M
    int m = 0;
    for (int j = from; j < M; ++j) m = std::min(m, static_cast<int>(v[j]));
    return m;
  };
  int e_least = 0;
  for (int x = 0; x < kAminoKp; ++x)
    if (!((weak_residues >> x) & 1u))
      for (int j = 0; j < M; ++j)
        e_least = std::min(e_least, static_cast<int>(vp.emission_row(x)[j]));
  int i_least_mi = 0, i_least_ii = 0;  // over the nodes with an I (1 .. M - 1)
  for (int j = 0; j + 1 < M; ++j) {
    i_least_mi = std::min(i_least_mi, static_cast<int>(vp.mi[j]));
    i_least_ii = std::min(i_least_ii, static_cast<int>(vp.ii[j]));
  }
  const int b = least(vp.begin, 0);
  const int m = b + e_least;               // M - X
  const int i = m + i_least_mi;            // I - X
  const int d = m + least(vp.md_into, 1);  // D - X (nodes 2 .. M)
  // Sums (less X) that must stay >= -32768: B's, M's, M + MM, I + IM, I + II, D + DM, D + DD;
  // DM and DD from node 3 on (those out of D_1 are 0).
  const int lowest = std::min({b, m, m + least(vp.mm, 1), m + kPaddingMd, i, i + least(vp.im, 1),
                               i + i_least_ii, d, d + least(vp.dm, 2), d + least(vp.dd_into, 2)});
  return -32768 - lowest - 12000;
}

// The fused tables' D->D and M->D words into node j (0-based; past M the padding's, see
// kPaddingMd): 0 out of D_1 and into node 1, whose sources are always -32768.
int fused_dd_into(const cpu::ViterbiProfile& vp, int M, int j) {
  return j < 2 ? 0 : j < M ? static_cast<int>(vp.dd_into[j]) : 0;
}
int fused_md_into(const cpu::ViterbiProfile& vp, int M, int j) {
  return j < 1 ? 0 : j < M ? static_cast<int>(vp.md_into[j]) : j == M ? kPaddingMd : 0;
}

// node_offset: the first node of these tables (a split model's warp, viterbi_split_kernel:
// 64 Q w); zero_first: M->D and D->D into that node 0 (the kernel adds them itself there).
FusedViterbiTables fused_viterbi_tables(const cpu::ViterbiProfile& vp, int M, int Q, int T,
                                        int node_offset = 0, bool zero_first = false) {
  // -32768 - t: the floor of a saturating add of t <= 0 (every transition word is).
  auto floor_of = [](int t) { return -32768 - t; };
  // Words whose source is always -32768 (into node 1; out of D_1): 0, as the kernel's header says.
  auto value = [M](const std::vector<int16_t>& by_node, int j, int always_neg_below = 0) {
    if (j < always_neg_below) return 0;
    return j < M ? static_cast<int>(by_node[j]) : static_cast<int>(cpu::kWordNegInf);
  };
  // Word of thread t at stripe q: node j = q + Q*(2g + b) in half b, from f(j), g = t's place
  // in its group of 32 / T threads (T targets per warp).
  const int G = 32 / T;
  auto word = [Q, G, node_offset](int q, int t, auto f) {
    uint32_t w = 0;
    for (int b = 0; b < 2; ++b)
      w |= static_cast<uint32_t>(
               static_cast<uint16_t>(f(node_offset + q + Q * (2 * (t % G) + b))))
           << (16 * b);
    return w;
  };
  FusedViterbiTables out;
  std::vector<uint32_t>& words = out.words;
  const std::vector<int16_t>&mm = vp.mm, &im = vp.im, &dm = vp.dm;
  auto mm_w = [&](int j) { return value(mm, j, 1); };
  auto im_w = [&](int j) { return value(im, j, 1); };
  auto dm_w = [&](int j) { return value(dm, j, 2); };
  for (int q = 0; q < Q; ++q) {
    for (int t = 0; t < 32; ++t) {
      words.push_back(word(q, t, [&](int j) { return value(vp.begin, j); }));
      words.push_back(word(q, t, mm_w));
      words.push_back(word(q, t, im_w));
      words.push_back(word(q, t, dm_w));
    }
    for (int t = 0; t < 32; ++t) {
      words.push_back(word(q, t, [&](int j) { return value(vp.mi, j); }));
      words.push_back(word(q, t, [&](int j) { return value(vp.ii, j); }));
    }
    for (int t = 0; t < 32; ++t) {
      words.push_back(word(q, t, [&](int j) { return floor_of(im_w(j)); }));
      words.push_back(word(q, t, [&](int j) { return floor_of(mm_w(j)); }));
    }
  }
  // Into the padding's D: from M_M by kPaddingMd, then 0 (see fused_fast_min_move).
  auto first = [&](int j) { return zero_first && j == node_offset; };
  auto dd_w = [&](int j) { return first(j) ? 0 : fused_dd_into(vp, M, j); };
  auto md_w = [&](int j) { return first(j) ? 0 : fused_md_into(vp, M, j); };
  auto dd_floor_w = [&](int j) { return floor_of(dd_w(j)); };
  out.dd_at = words.size();  // the kernel's order (viterbi_fused.cuh): see its tables
  const bool apart = fused_dd_floors_apart(Q);
  for (int q = 0; q < Q; ++q)
    for (int t = 0; t < 32; ++t) {
      words.push_back(word(q, t, dd_w));
      if (!apart) words.push_back(word(q, t, dd_floor_w));
    }
  for (int q = 0; q < Q; ++q)
    for (int t = 0; t < 32; ++t) words.push_back(word(q, t, md_w));
  if (apart)
    for (int q = 0; q < Q; ++q)
      for (int t = 0; t < 32; ++t) words.push_back(word(q, t, dd_floor_w));
  out.emissions_at = words.size();
  out.emission_max = cpu::kWordNegInf;
  for (int x = 0; x < kAminoKp; ++x) {
    const int16_t* e = vp.emission_row(x);
    for (int j = 0; j < M; ++j) {
      out.emission_max = std::max(out.emission_max, static_cast<int>(e[j]));
      if (e[j] == cpu::kWordNegInf) out.weak_residues |= 1u << x;
    }
    // Padding: e = 1 with floor 32767 (its M wraps to -32768 in every row).
    auto emission = [&](int j) { return j < M ? static_cast<int>(e[j]) : 1; };
    auto floor = [&](int j) { return j < M ? floor_of(std::min(emission(j), 0)) : 32767; };
    for (int q = 0; q < Q; ++q)
      for (int t = 0; t < 32; ++t) {
        words.push_back(word(q, t, emission));
        words.push_back(word(q, t, floor));
      }
  }
  out.fast_min_move = fused_fast_min_move(vp, M, out.weak_residues);
  return out;
}

// ---- kernels compiled at run time (NVRTC) -------------------------------------------------

// The kernels of one NVRTC program, loaded with the runtime's library API (no libcuda at
// link time), in the order of their names. Shared by every profile that needs them.
struct RuntimeProgram {
  cudaLibrary_t library = nullptr;
  std::vector<cudaKernel_t> kernels;
  RuntimeProgram() = default;
  RuntimeProgram(const RuntimeProgram&) = delete;
  RuntimeProgram& operator=(const RuntimeProgram&) = delete;
  ~RuntimeProgram() {
    if (library != nullptr) cudaLibraryUnload(library);
  }
};

// A model's kernels compiled at run time, from one or two programs (runtime_kernels): its warp
// kernels (SSV, MSV, Viterbi) for its exact stripe counts, or its S-lane pair (SSV, MSV) for
// its exact H.
struct RuntimeKernels {
  std::vector<std::shared_ptr<const RuntimeProgram>> programs;  // kept loaded
  cudaKernel_t ssv = nullptr, msv = nullptr, viterbi = nullptr;
  cudaKernel_t ssv_shared = nullptr, msv_shared = nullptr;  // when the table fits (msv.cuh)
};

struct RuntimeState {
  std::mutex mutex;
  // By device + names + options, from when the first profile to need them starts compiling
  // them: later ones wait for that compilation instead of running their own beside it.
  std::map<std::string, std::shared_future<std::shared_ptr<const RuntimeProgram>>> loaded;
  std::string failure;  // why run-time compilation is off ("" while it works)
  bool notice_taken = false;
};

// Never destroyed: libraries are not unloaded after the CUDA runtime has shut down at exit.
RuntimeState& runtime_state() {
  static RuntimeState* state = new RuntimeState;
  return *state;
}

bool runtime_compilation_works() {
  if (!rtc::load_nvrtc()) return false;
  RuntimeState& state = runtime_state();
  std::lock_guard<std::mutex> lock(state.mutex);
  return state.failure.empty();
}

// The code NVRTC builds for this device: a CUBIN for its own architecture (sm_90a on Hopper,
// whose DPX instructions the 16-bit kernels use), and the device's name for the cache key.
void device_target(std::string& arch, std::string& device_key) {
  int device = 0;
  GPUSEQ_CUDA_CHECK(cudaGetDevice(&device));
  cudaDeviceProp prop{};
  GPUSEQ_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  arch = "sm_" + std::to_string(prop.major) + std::to_string(prop.minor);
  if (prop.major == 9 && prop.minor == 0) arch += "a";
  device_key = std::string(prop.name) + " (compute capability " + std::to_string(prop.major) +
               "." + std::to_string(prop.minor) + ")";
}

std::shared_ptr<const RuntimeProgram> load_program(const std::vector<std::string>& names,
                                                   const std::vector<std::string>& options) {
  std::string arch, device_key;
  device_target(arch, device_key);
  int device = 0;
  GPUSEQ_CUDA_CHECK(cudaGetDevice(&device));
  std::string key = std::to_string(device);
  for (const std::string& n : names) key += " " + n;
  for (const std::string& o : options) key += " " + o;
  RuntimeState& state = runtime_state();
  std::promise<std::shared_ptr<const RuntimeProgram>> promise;
  std::shared_future<std::shared_ptr<const RuntimeProgram>> pending;
  {
    std::lock_guard<std::mutex> lock(state.mutex);
    if (auto it = state.loaded.find(key); it != state.loaded.end())
      pending = it->second;
    else
      state.loaded.emplace(key, promise.get_future().share());
  }
  if (pending.valid()) return pending.get();  // rethrows the compiling thread's error
  // Compiled outside the lock: profiles needing other kernels compile theirs at the same time
  // (NVRTC runs one program a thread; a cold cache costs seconds a Viterbi kernel).
  try {
    const rtc::CompiledKernels code = rtc::cached_compile(names, arch, device_key, options);
    auto program = std::make_shared<RuntimeProgram>();
    cudaError_t err = cudaLibraryLoadData(&program->library, code.image.data(), nullptr, nullptr,
                                          0, nullptr, nullptr, 0);
    program->kernels.assign(names.size(), nullptr);
    for (size_t i = 0; i < names.size() && err == cudaSuccess; ++i)
      err = cudaLibraryGetKernel(&program->kernels[i], program->library, code.lowered[i].c_str());
    if (err != cudaSuccess) {
      cudaGetLastError();  // not sticky: clear it
      throw rtc::CompileError(std::string("the kernels NVRTC compiled do not load on ") +
                              device_key + ": " + cudaGetErrorString(err));
    }
    promise.set_value(program);
    return program;
  } catch (...) {
    {
      std::lock_guard<std::mutex> lock(state.mutex);
      state.loaded.erase(key);  // a later call tries again
    }
    promise.set_exception(std::current_exception());  // to the threads waiting for it
    throw;
  }
}

// Kernels compiled (or read from the disk cache) and loaded; null when NVRTC is missing or
// fails, with the reason kept for the one notice (and run-time compilation then stays off in
// this process).
std::shared_ptr<const RuntimeProgram> compiled_or_null(
    const std::vector<std::string>& names, const std::vector<std::string>& options = {}) {
  if (!runtime_compilation_works()) return nullptr;
  try {
    return load_program(names, options);
  } catch (const rtc::CompileError& e) {
    RuntimeState& state = runtime_state();
    std::lock_guard<std::mutex> lock(state.mutex);
    if (state.failure.empty()) state.failure = e.what();
    return nullptr;
  }
}

// Whether NVRTC passes a register usage level on to ptxas (13 and later).
bool register_usage_level_reaches_ptxas() { return rtc::nvrtc_info().major >= 13; }

// The NVRTC options that compile a program at ptxas's register usage `level` (5, its default:
// none), with the level told to the kernels' tables (GPUSEQ_PTXAS_REGISTER_USAGE_LEVEL). Only
// NVRTC 13 and later are given the option (measured with 13.0); older ones compile at the
// default, with the tables that go with it. Only a Viterbi kernel takes a level other than the
// default (fused_register_usage_level): the SSV and MSV warp kernels changed by -3.8% to +2.5%
// at level 0 (M 800-3000, results/gpu-h200-20261129-h, call 2), so they are then compiled
// apart (runtime_kernels; within 0.1% of their speed at level 0 at M 2176-2816, results/
// gpu-h200-20261129-i, call 3).
std::vector<std::string> register_usage_options(int level) {
  if (level == 5 || !register_usage_level_reaches_ptxas()) return {};
  return {"--ptxas-options=--register-usage-level=" + std::to_string(level),
          "-DGPUSEQ_PTXAS_REGISTER_USAGE_LEVEL=" + std::to_string(level)};
}

// The SSV, MSV and Viterbi warp kernels for these exact stripe counts (and the SSV/MSV with
// the table in shared memory where it fits), null if NVRTC could not build them. One program,
// unless the Viterbi kernel takes a register usage level other than the default: then the SSV
// and MSV are a program of their own, at the default. (Each program is one more cache read and
// library load in a search's first run; warm commands of 6 and 24 models could not tell one
// from two a model within their spread of about 0.1 s, results/gpu-h200-20261129-i, calls 5
// and 6, so a model is split only where the options differ.)
// viterbi_targets: the fused Viterbi kernel's targets per warp (0: the CUDAMPF kernel);
// viterbi_warps > 1: the split kernel's warps per target instead (viterbi_stripes a warp).
std::shared_ptr<const RuntimeKernels> runtime_kernels(int msv_bits, int msv_stripes,
                                                      int viterbi_stripes, int viterbi_targets,
                                                      int viterbi_warps = 1) {
  const bool bytes = msv_bits == 8;
  std::vector<std::string> names = {
      rtc::kernel_name(bytes ? "ssv_warp_kernel" : "ssv_warp_kernel_s16", msv_stripes),
      rtc::kernel_name(bytes ? "msv_warp_kernel" : "msv_warp_kernel_s16", msv_stripes)};
  const bool shared_table = warp_table_fits(msv_bits, msv_stripes);
  if (shared_table) {
    names.push_back(rtc::kernel_name("ssv_warp_kernel_s16_shared", msv_stripes));
    names.push_back(rtc::kernel_name("msv_warp_kernel_s16_shared", msv_stripes));
  }
  const std::string viterbi_name =
      viterbi_warps > 1
          ? rtc::kernel_name("viterbi_split_kernel", {viterbi_stripes, viterbi_warps})
      : viterbi_targets != 0
          ? rtc::kernel_name("viterbi_fused_kernel", {viterbi_stripes, viterbi_targets})
          : rtc::kernel_name("viterbi_warp_kernel", viterbi_stripes);
  const int level = viterbi_warps > 1 || viterbi_targets != 0
                        ? fused_register_usage_level(viterbi_stripes, viterbi_targets,
                                                     viterbi_warps)
                        : 5;
  const std::vector<std::string> options = register_usage_options(level);
  std::vector<std::shared_ptr<const RuntimeProgram>> programs;
  if (options.empty()) {
    names.push_back(viterbi_name);
    programs = {compiled_or_null(names)};
  } else {
    programs = {compiled_or_null(names), compiled_or_null({viterbi_name}, options)};
  }
  for (const auto& program : programs)
    if (!program) return nullptr;
  auto kernels = std::make_shared<RuntimeKernels>();
  kernels->programs = programs;
  const std::vector<cudaKernel_t>& filters = programs.front()->kernels;
  kernels->ssv = filters[0];
  kernels->msv = filters[1];
  if (shared_table) {
    kernels->ssv_shared = filters[2];
    kernels->msv_shared = filters[3];
  }
  kernels->viterbi = programs.back()->kernels.back();
  return kernels;
}

// The S-lane SSV and MSV kernels (msv_multi.cuh) for S targets per warp and exactly H stripes
// (each filter its own).
std::shared_ptr<const RuntimeKernels> runtime_multi_kernels(int msv_bits, int S, int ssv_h,
                                                            int msv_h) {
  auto program = compiled_or_null({rtc::kernel_name("ssv_multi_kernel", {msv_bits, S, ssv_h}),
                                   rtc::kernel_name("msv_multi_kernel", {msv_bits, S, msv_h})});
  if (!program) return nullptr;
  auto kernels = std::make_shared<RuntimeKernels>();
  kernels->programs = {program};
  kernels->ssv = program->kernels[0];
  kernels->msv = program->kernels[1];
  return kernels;
}

// Launches a kernel loaded at run time. `signature` is the statically compiled instance of the
// same template (any Q): each argument is converted to its parameter's type, as <<<>>> would;
// blocks of kThreads.
template <int kThreads = kThreadsPerBlock, class... Params, class... Args>
void launch_loaded(void (*signature)(Params...), cudaKernel_t kernel, int n, Args... args) {
  static_assert(sizeof...(Params) == sizeof...(Args), "one argument per kernel parameter");
  (void)signature;
  std::tuple<Params...> values(args...);
  std::array<void*, sizeof...(Params)> pointers{};
  std::apply([&](auto&... v) { pointers = {static_cast<void*>(&v)...}; }, values);
  const void* f = reinterpret_cast<const void*>(kernel);
  GPUSEQ_CUDA_CHECK(cudaLaunchKernel(f, dim3(grid_blocks(f, n, kThreads)), dim3(kThreads),
                                     pointers.data(), 0, kStream));
}

// Launches the split Viterbi kernel loaded at run time (viterbi_split_kernel, W warps a
// block, a target a block at a time): as many blocks as stay resident, fewer for fewer targets.
template <class... Args>
void launch_split(cudaKernel_t kernel, int n, int W, Args... args) {
  // Each argument converted to its parameter's type (as <<<>>> would; the static instance
  // checks the list).
  using Params = std::tuple<const uint32_t*, int, int, int, const int*, int, int, int, int,
                            uint32_t, TargetList>;
  static_assert(std::is_same_v<decltype(&viterbi_split_kernel<2, 2>),
                               void (*)(const uint32_t*, int, int, int, const int*, int, int,
                                        int, int, uint32_t, TargetList)>,
                "viterbi_split_kernel's parameters");
  Params values(args...);
  std::array<void*, sizeof...(Args)> pointers{};
  std::apply([&](auto&... v) { pointers = {static_cast<void*>(&v)...}; }, values);
  const void* f = reinterpret_cast<const void*>(kernel);
  const int threads = 32 * W;
  const int blocks = std::max(1, std::min(resident_blocks(f, threads, 0), n));
  GPUSEQ_CUDA_CHECK(
      cudaLaunchKernel(f, dim3(blocks), dim3(threads), pointers.data(), 0, kStream));
}

// Launches an SSV/MSV warp kernel with its table in shared memory (`f`: the static instance or
// the one loaded at run time; `signature` as for launch_loaded): as many blocks of
// kSharedTableThreads as stay resident, fewer when there are fewer targets.
template <class... Params, class... Args>
void launch_with_shared_table(void (*signature)(Params...), const void* f, int n, int table_bytes,
                              Args... args) {
  static_assert(sizeof...(Params) == sizeof...(Args), "one argument per kernel parameter");
  (void)signature;
  std::tuple<Params...> values(args...);
  std::array<void*, sizeof...(Params)> pointers{};
  std::apply([&](auto&... v) { pointers = {static_cast<void*>(&v)...}; }, values);
  const int blocks = grid_blocks(f, n, kSharedTableThreads, table_bytes);
  GPUSEQ_CUDA_CHECK(cudaLaunchKernel(f, dim3(blocks), dim3(kSharedTableThreads), pointers.data(),
                                     table_bytes, kStream));
}

}  // namespace

namespace {

// The first count from `exact` up that is not among the measured slow ones (unused entries 0).
template <size_t N>
int past_slow_counts(const int (&slow)[N], int exact) {
  while (std::find(std::begin(slow), std::end(slow), exact) != std::end(slow)) ++exact;
  return exact;
}

}  // namespace

int run_time_multi_stripes(int msv_bits, int S, int exact, bool msv) {
  if (msv_bits == 16 && warp_stripes_past_slow_switch().load())
    for (const SlowMultiStripes& slow : kSlowMultiWordStripes)
      if (slow.S == S) return past_slow_counts(msv ? slow.msv : slow.ssv, exact);
  return exact;
}

int run_time_msv_stripes(int msv_bits, int exact) {
  return msv_bits == 16 && warp_stripes_past_slow_switch().load()
             ? past_slow_counts(kSlowWarpSsvWordStripes, exact)
             : exact;
}

std::string take_runtime_compilation_notice() {
  RuntimeState& state = runtime_state();
  std::string reason;
  {
    std::lock_guard<std::mutex> lock(state.mutex);
    if (state.notice_taken) return "";
    reason = state.failure;
  }
  if (reason.empty()) {
    if (rtc::load_nvrtc()) return "";
    reason = rtc::nvrtc_info().reason;
  }
  std::lock_guard<std::mutex> lock(state.mutex);
  if (state.notice_taken) return "";
  state.notice_taken = true;
  return "GPU filter kernels: run-time compilation (NVRTC) is unavailable, using the static "
         "kernels (stripe counts rounded up, models up to " +
         std::to_string(max_model_length(false)) + " nodes): " + reason;
}

void clear_runtime_kernels() {
  RuntimeState& state = runtime_state();
  std::lock_guard<std::mutex> lock(state.mutex);
  state.loaded.clear();
}

// ---- resident data ------------------------------------------------------------------------

// Warp-based sequence blocks of one launch's targets on the GPU (msv_multi.cuh), with the plan
// they were filled by.
struct DeviceSequenceBlocks {
  int sequences_per_warp = 0, max_warps = 0;
  bool all_non_empty = false;  // ids are DeviceTargets::non_empty (compared without a scan)
  std::vector<int32_t> ids;  // the launch's targets, in its order
  cpu::SequenceBlockPlan plan;
  DeviceArray<uint8_t> bytes;
  DeviceArray<int64_t> warp_offset;
  DeviceArray<int32_t> warp_rows, column_start, column_items;
};

// The host's part of a set of sequence blocks: the plan, and each placed target with the byte of
// its first residue (the GPU fills the bytes from them).
struct PlannedBlocks {
  cpu::SequenceBlockPlan plan;
  std::vector<int32_t> fill_ids;
  std::vector<int64_t> fill_dest;
};

// A set of the SSV's sequence blocks being planned on a host thread (DeviceTargets::Buffers).
struct PendingSsvBlocks {
  std::vector<int32_t> ids;
  bool all_non_empty = false;
  std::future<PlannedBlocks> planned;
};

struct DeviceTargets::Buffers {
  DeviceArray<uint8_t> residues;
  DeviceArray<int64_t> offsets;
  std::vector<int64_t> host_offsets;  // the same offsets on the host (target lengths)
  // Sequence blocks of the S-lane SSV. Every model's SSV of a search runs on all the targets,
  // so its blocks are planned and filled once per (S, resident warps) and reused by every
  // model with those (at most kMaxSsvBlockSets sets), from any thread (the lock guards the
  // map; a launch holds its set, which is freed when the map and every launch have let it go,
  // after the device's queued work). The MSV's (the targets the SSV left undecided, different
  // for each model) are each launch's own.
  mutable std::mutex blocks_mutex;
  mutable std::map<std::pair<int, int>, std::shared_ptr<const DeviceSequenceBlocks>> ssv_blocks;
  // Sets being planned for profiles that do not wait for them
  // (DeviceProfile::ssv_blocks_background); declared after host_offsets, which their threads
  // read, so that destruction waits for the threads first.
  mutable std::map<std::pair<int, int>, PendingSsvBlocks> ssv_block_plans;
  // DeviceTargets::non_empty and length_class on the GPU; the positions of non_empty, longest
  // first (from kLongestFirstMinTargets of them): the order in which the SSV/MSV warp kernels
  // claim them (TargetList::order). Made with the upload, not by the first cascade: its SSV
  // over a chunk of 1.4 M targets waited 30-40 ms for them (H200 host,
  // results/gpu-h200-20261129-d, section 3), where the host's part of the upload waits for
  // the CUDA context anyway.
  DeviceArray<int32_t> non_empty, length_class, non_empty_longest_first;
  // The cascade's SSV results and their compaction, kept for the next model (cudaMalloc and
  // cudaFree cost more than the kernels that use them); a cascade at a time. (A second set, so
  // that the next model's SSV could be queued while this one's results are read, measured no
  // faster with 8 models in flight on the H100: the cascades' kernels take turns on the GPU
  // anyway, and their sum is the time a model takes.)
  mutable std::mutex cascade_mutex;
  mutable DeviceArray<int32_t> ssv_best, positions, candidate_best, count;
  mutable DeviceArray<uint8_t> flags, select_temp;
  mutable size_t select_temp_bytes = 0;
};

DeviceTargets::DeviceTargets(const SequenceBatch& batch)
    : count_(batch.count), host_(batch), buffers_(std::make_unique<Buffers>()) {
  cpu::TargetLengthIndex index = cpu::index_target_lengths(batch, kLongestFirstMinTargets);
  non_empty_ = std::move(index.non_empty);
  lengths_ = std::move(index.lengths);
  length_class_ = std::move(index.length_class);
  // What depends on the length alone, once a distinct length (logf is most of the upload's host
  // work when it runs per target), then spread to the targets with the offsets rebased to the
  // uploaded residues.
  const size_t classes = lengths_.size();
  std::vector<uint8_t> class_tjb(classes + 1, cpu::msv_tjb(0));  // [classes]: empty targets
  std::vector<int16_t> class_ncj_move(classes + 1, cpu::viterbi_ncj_move(0));
  std::vector<float> class_null1(classes + 1, cpu::null1_score(0));
  for (size_t c = 0; c < classes; ++c) {
    class_tjb[c] = cpu::msv_tjb(lengths_[c]);
    class_ncj_move[c] = cpu::viterbi_ncj_move(lengths_[c]);
    class_null1[c] = cpu::null1_score(lengths_[c]);
  }
  const int64_t first = batch.count ? batch.offsets[0] : 0;
  residues_ = batch.count ? batch.offsets[batch.count] - first : 0;
  tjb_.resize(static_cast<size_t>(count_));
  ncj_move_.resize(static_cast<size_t>(count_));
  null1_.resize(static_cast<size_t>(count_));
  std::vector<int64_t>& offsets = buffers_->host_offsets;
  offsets.resize(static_cast<size_t>(count_) + 1);
  offsets[count_] = residues_;
  auto spread = [&](int64_t begin, int64_t end, int) {
    for (int64_t i = begin; i < end; ++i) {
      const size_t c = length_class_[i] < 0 ? classes : static_cast<size_t>(length_class_[i]);
      tjb_[i] = class_tjb[c];
      ncj_move_[i] = class_ncj_move[c];
      null1_[i] = class_null1[c];
      offsets[i] = batch.offsets[i] - first;
    }
  };
  parallel_for_blocks(count_, 1 << 16, default_thread_count(), spread);
  const std::vector<int32_t>& longest_first = index.longest_first;  // positions in non_empty_
  buffers_->residues = device_copy(batch.residues + first, static_cast<size_t>(residues_));
  buffers_->offsets = device_copy(buffers_->host_offsets.data(), buffers_->host_offsets.size());
  buffers_->non_empty = device_copy(non_empty_.data(), non_empty_.size());
  buffers_->length_class = device_copy(length_class_.data(), length_class_.size());
  if (!longest_first.empty())
    buffers_->non_empty_longest_first = device_copy(longest_first.data(), longest_first.size());
}

DeviceTargets::~DeviceTargets() = default;

size_t DeviceTargets::ssv_block_sets() const {
  std::lock_guard<std::mutex> lock(buffers_->blocks_mutex);
  return buffers_->ssv_blocks.size();
}

struct DeviceProfile::Tables {
  DeviceArray<uint32_t> msv_costs;            // kAminoKp x Q_msv x 32 words (8- or 16-bit)
  DeviceArray<uint32_t> viterbi_emissions;    // kAminoKp x Q_vit x 32 words
  DeviceArray<uint32_t> viterbi_transitions;  // kVtCount x Q_vit x 32 words
  std::shared_ptr<const RuntimeKernels> runtime;  // null: the static kernels
  std::shared_ptr<const RuntimeKernels> runtime_multi;  // the S-lane pair; null: static
  DeviceArray<int4> walters_transitions;       // thread per target: M records
  DeviceArray<int16_t> walters_emissions;      // thread per target: M x 32 words
  DeviceArray<uint32_t> ssv_multi, msv_multi;  // S-lane tables: H x 32 codes x W entries
  DeviceArray<uint32_t> fused_viterbi;        // viterbi_fused.cuh: FusedViterbiTables
  DeviceArray<double> forward_match, forward_transitions;  // forward_bound.cuh
  DeviceArray<float> bias_odds;  // bias_filter.cuh: BiasFilterModel::odds
  size_t fused_dd_at = 0, fused_emissions_at = 0;
  // A split model (viterbi_split_kernel): words of one warp's tables in fused_viterbi, and per
  // warp its D->D sum and the M->D and D->D words into its first node.
  size_t split_warp_words = 0;
  DeviceArray<int32_t> split_constants;
  int fused_emission_max = 0;
  int fused_fast_min_move = 0;
  uint32_t fused_weak_residues = 0;
  // viterbi_systolic.cuh: SystolicTables on the GPU, its values here.
  DeviceArray<uint32_t> systolic_words;
  DeviceArray<int16_t> systolic_emissions;
  uint32_t systolic_fake = 0, systolic_weak_residues = 0;
  int systolic_min_move = INT_MAX;
};

DeviceProfile::DeviceProfile(const cpu::SearchProfile& profile, const KernelOptions& options)
    : profile_(profile), options_(options), tables_(std::make_unique<Tables>()) {
  if (options_.msv_bits == 0) options_.msv_bits = default_msv_bits();
  const int msv_bits = options_.msv_bits;
  if (msv_bits != 8 && msv_bits != 16)
    throw std::invalid_argument("msv_bits must be 8 or 16, not " + std::to_string(msv_bits));
  const int M = profile.M;
  const bool may_compile = options_.runtime_compiled;
  runtime_compile_allowed_ = may_compile;
  auto too_long = [&](bool runtime_compiled) {
    return std::invalid_argument("model " + profile.name + " (M = " + std::to_string(M) +
                                 ") is longer than the GPU filter kernels take (" +
                                 std::to_string(max_model_length(runtime_compiled)) + ")");
  };
  const int msv_nodes = msv_bits == 8 ? kByteNodesPerStripe : kWordNodesPerStripe;
  tables_->bias_odds = device_copy(&profile.bias_filter.odds[0][0], 2 * size_t{kAminoKp});
  msv_stripes_ = msv_bits == 8 ? covering_stripes(M, kByteNodesPerStripe, ByteStripeCounts{})
                                : covering_stripes(M, kWordNodesPerStripe, WordStripeCounts{});
  const bool fused = options_.viterbi == KernelOptions::Viterbi::kWarpFused;
  int& T = options_.viterbi_targets_per_warp;
  int& split = options_.viterbi_warps_per_target;
  const bool split_chosen = split == 0;
  if (split == 0)
    split = fused && (T == 0 || T == 1) ? choose_viterbi_warps_per_target(M, may_compile) : 1;
  if (split < 1 || split > 4)
    throw std::invalid_argument("viterbi_warps_per_target must be 0 to 4, not " +
                                std::to_string(split));
  if (split > 1 && (!fused || (T != 0 && T != 1)))
    throw std::invalid_argument(
        "viterbi_warps_per_target > 1 needs the fused Viterbi kernel with one target a warp");
  if (split > 1) T = 1;
  // The systolic pipeline in front of the one-warp fused kernel (which scores what it hands
  // back), where asked.
  int& systolic = options_.viterbi_systolic;
  if (systolic < -1 || systolic > 1)
    throw std::invalid_argument("viterbi_systolic must be -1, 0 or 1, not " +
                                std::to_string(systolic));
  const SystolicShape shape = systolic_shape(M);
  if (systolic == 1 && (!fused || split > 1 || shape.G == 0))
    throw std::invalid_argument("viterbi_systolic needs the fused Viterbi kernel with one warp a "
                                "target and a model of at most 384 nodes (" + profile.name +
                                ": M = " + std::to_string(M) + ")");
  // Off unless asked. H200, 10 M random residues, GCUPS with the pipeline / the fused kernel
  // alone (two targets a warp): sampled models M = 100 1091 / 1021, 150 1564 / 1514, 256
  // 1994 / 1801, 384 1341 / 1733; the hmmer-examples models a search runs lose, globins4 1246
  // / 1563, Pkinase 1507 / 1692: the 14-21 targets they hand back (xC above xN) take the fused
  // kernel 0.19-0.24 ms, a lone warp's rows for the longest of them, after the pipeline
  // (results/gpu-h200-20261128-j). Neither the CPU twin's threads (0.27-1.9 ms for them on
  // the H200 host's 16 cores), nor the fused kernel beside the pipeline taking the targets it
  // reports as it finds them, nor an exact layer for the J state in the pipeline (nothing
  // handed back, but each step 15-20% slower) did better (results/gpu-h200-20261129).
  // On 100 M residues, where the hand-back is a smaller share, the pipeline is the fastest
  // Viterbi kernel up to 150 nodes (RRM_1 1682 against 1213 GCUPS, globins4 1912 against
  // 1650), but a search gives one model's Viterbi about 10 M (results/gpu-h200-20261129-e).
  const bool systolic_left = systolic == 0;  // the pipeline may run the largest launches
  if (systolic == 0) systolic = -1;
  int& by_launch = options_.viterbi_by_launch;
  if (by_launch < -1 || by_launch > 1)
    throw std::invalid_argument("viterbi_by_launch must be -1, 0 or 1, not " +
                                std::to_string(by_launch));
  const bool by_launch_asked = by_launch == 1;
  const bool targets_chosen = T == 0;
  // Behind the pipeline the fused kernel scores only the few targets handed back, a lone warp's
  // rows each: one target a warp takes 14-24% less time there than two (H200: globins4's 21
  // targets 0.237 -> 0.197 ms, sampled M = 384's 1.10 -> 0.84 ms; results/gpu-h200-20261128-j,
  // call 13).
  if (T == 0 && systolic == 1) T = 1;
  if (T == 0) T = fused ? choose_viterbi_targets_per_warp(M, may_compile) : 1;
  // Chosen by launch (run_kernel): four targets a warp, and the pipeline past them.
  if (by_launch != -1 && fused && targets_chosen && split == 1 && systolic != 1) {
    four_by_launch_ = T == 2 && viterbi_four_targets_by_launch(M, may_compile);
    pipeline_by_launch_ = systolic_left && shape.G != 0;
  }
  by_launch = four_by_launch_ || pipeline_by_launch_ ? 1 : -1;
  if (by_launch_asked && by_launch != 1)
    throw std::invalid_argument(
        "viterbi_by_launch needs the fused Viterbi kernel with its targets per warp chosen by "
        "model length (viterbi_targets_per_warp 0), one warp a target, and a model that four "
        "targets a warp or the systolic pipeline (viterbi_systolic 0) take (" + profile.name +
        ": M = " + std::to_string(M) + ")");
  if (T != 1 && T != 2 && T != 4)
    throw std::invalid_argument("viterbi_targets_per_warp must be 0, 1, 2 or 4, not " +
                                std::to_string(T));
  if (T != 1 && !fused)
    throw std::invalid_argument("viterbi_targets_per_warp " + std::to_string(T) +
                                " needs the fused Viterbi kernel (viterbi='warp_fused')");
  int viterbi_nodes = kWordNodesPerStripe / T;  // a stripe of one target's G threads
  auto too_long_for_groups = [&](int longest, const char* how) {
    return std::invalid_argument("model " + profile.name + " (M = " + std::to_string(M) +
                                 ") is longer than the fused Viterbi kernels with " +
                                 std::to_string(T) + " targets per warp take" + how + " (" +
                                 std::to_string(longest) + "); use fewer targets per warp");
  };
  viterbi_stripes_ = T == 1 ? covering_stripes(M, viterbi_nodes, WordStripeCounts{})
                            : covering_stripes(M, viterbi_nodes, GroupedViterbiStripeCounts{});
  // Run-time compilation where the static set has no kernel for the counts wanted: the exact
  // ones, but the SSV/MSV's past a slow count (a static kernel for them is the same code,
  // without the compilation).
  const int runtime_msv = run_time_msv_stripes(msv_bits, needed_stripes(M, msv_nodes));
  const int exact_viterbi = needed_stripes(M, viterbi_nodes);
  const bool static_has_them = msv_stripes_ == runtime_msv && viterbi_stripes_ == exact_viterbi;
  if (split > 1) {
    // The split kernel: NVRTC only; each warp's stripes as the one-warp kernel's (its first
    // split_resident_stripes(Q) in registers).
    if (exact_viterbi > kRuntimeMaxWordStripes) throw too_long(true);
    const int per_warp = needed_stripes(M, kWordNodesPerStripe * split);
    if (!may_compile || !runtime_compilation_works())
      throw std::invalid_argument("viterbi_warps_per_target > 1 needs NVRTC (" +
                                  rtc::nvrtc_info().reason + ")");
    tables_->runtime = runtime_kernels(msv_bits, runtime_msv, per_warp, 1, split);
    if (tables_->runtime) {
      msv_stripes_ = runtime_msv;
      viterbi_stripes_ = per_warp;
    } else if (!split_chosen) {
      throw std::invalid_argument("NVRTC could not build the split Viterbi kernel for " +
                                  profile.name);
    } else {
      split = 1;  // chosen by model length: one warp's kernels instead (below)
    }
  }
  if (split == 1 && options_.runtime_compiled && !static_has_them) {
    if (exact_viterbi > kRuntimeMaxWordStripes && runtime_compilation_works()) {
      if (T != 1) throw too_long_for_groups(viterbi_nodes * kRuntimeMaxWordStripes, "");
      throw too_long(true);
    }
    tables_->runtime = runtime_kernels(msv_bits, runtime_msv, exact_viterbi, fused ? T : 0);
    if (tables_->runtime) {
      msv_stripes_ = runtime_msv;
      viterbi_stripes_ = exact_viterbi;
    }
  }
  if (targets_chosen && T != 1 && viterbi_stripes_ == 0) {
    // Two targets a warp past the static counts, and NVRTC did not build them: one target a
    // warp from the static set.
    T = 1;
    four_by_launch_ = false;
    by_launch = pipeline_by_launch_ ? 1 : -1;
    viterbi_nodes = kWordNodesPerStripe;
    viterbi_stripes_ = covering_stripes(M, viterbi_nodes, WordStripeCounts{});
  }
  options_.runtime_compiled = tables_->runtime != nullptr;
  if (T != 1 && viterbi_stripes_ == 0)
    throw too_long_for_groups(viterbi_nodes * kGroupedViterbiMaxStripes, " without NVRTC");
  if (msv_stripes_ == 0 || viterbi_stripes_ == 0) throw too_long(false);
  const std::vector<uint32_t> costs = msv_bits == 8
                                          ? stripe_bytes(profile.msv, msv_stripes_)
                                          : stripe_score_words(profile.msv, msv_stripes_);
  tables_->msv_costs = device_copy(costs.data(), costs.size());

  int& S = options_.sequences_per_warp;
  // S chosen by model length (choose_sequences_per_warp) or given: S > 1 runs the MSV on the
  // S-lane kernels (the targets the SSV left undecided), and the SSV when S is given or
  // set_ssv_multi says so. The S-lane SSV kernel is the faster one up to M = 1536 (12.0
  // against 4.5 TCUPS at M = 150), but its sequence blocks are planned on the host once per
  // chunk and S (about 10 ms for 180,000 targets), more than one model's SSV over the chunk
  // saves (about 1.3 ms at M = 150): they pay when several models of a search share them.
  ssv_multi_ = sequences_per_warp_given_ = S != 0;
  if (S == 0) S = choose_sequences_per_warp(M, msv_bits);
  if (S != 1) {
    const int most = msv_bits == 16 ? 64 : 128;  // one target per lane
    if (S < 2 || S > most || (S & (S - 1)) != 0)
      throw std::invalid_argument("sequences_per_warp must be 0, 1, 2, 4, ..., " +
                                  std::to_string(most) + " with " + std::to_string(msv_bits) +
                                  "-bit lanes, not " + std::to_string(S));
    // H: the fewest stripes that hold the model (past the filter's slow counts), compiled by
    // NVRTC where the static set has no kernel for them (else the next count up: padding
    // nodes, the same scores).
    const int W = multi_width(msv_bits, S);
    const int needed = needed_stripes(M, W);
    const int covering = covering_stripes(M, W, MultiStripeCounts{});
    ssv_multi_stripes_ = msv_multi_stripes_ = covering;
    const int ssv_h = run_time_multi_stripes(msv_bits, S, needed, false);
    const int msv_h = run_time_multi_stripes(msv_bits, S, needed, true);
    if (may_compile && (covering != ssv_h || covering != msv_h) &&
        std::max(ssv_h, msv_h) <= kMultiMaxStripes) {
      tables_->runtime_multi = runtime_multi_kernels(msv_bits, S, ssv_h, msv_h);
      if (tables_->runtime_multi) {
        ssv_multi_stripes_ = ssv_h;
        msv_multi_stripes_ = msv_h;
        options_.runtime_compiled = true;
      }
    }
    if (covering == 0 && !tables_->runtime_multi)
      throw std::invalid_argument("model " + profile.name + " (M = " + std::to_string(M) +
                                  ") is longer than " + std::to_string(S) +
                                  " targets per warp take");
    const std::vector<uint32_t> ssv_table =
        multi_table(profile.msv, msv_bits, S, ssv_multi_stripes_);
    tables_->ssv_multi = device_copy(ssv_table.data(), ssv_table.size());
    const std::vector<uint32_t> msv_table =
        multi_table(profile.msv, msv_bits, S, msv_multi_stripes_);
    tables_->msv_multi = device_copy(msv_table.data(), msv_table.size());
  }

  const cpu::ViterbiProfile& vp = profile.viterbi;
  if (fused && split > 1) {
    // One copy of the fused tables a warp, for its nodes (viterbi_split_kernel).
    const int Q = viterbi_stripes_, nodes = kWordNodesPerStripe * Q;
    std::vector<uint32_t> words;
    std::vector<int32_t> constants;
    FusedViterbiTables tables;
    for (int w = 0; w < split; ++w) {
      tables = fused_viterbi_tables(vp, M, Q, 1, w * nodes, w > 0);
      words.insert(words.end(), tables.words.begin(), tables.words.end());
      int sum = 0;  // as the kernel's halves add them: the table's words
      for (int j = w * nodes; j < (w + 1) * nodes; ++j)
        sum += w > 0 && j == w * nodes ? 0 : static_cast<int16_t>(fused_dd_into(vp, M, j));
      constants.insert(constants.end(), {sum, fused_md_into(vp, M, w * nodes),
                                         fused_dd_into(vp, M, w * nodes)});
    }
    tables_->split_warp_words = tables.words.size();
    tables_->fused_viterbi = device_copy(words.data(), words.size());
    tables_->split_constants = device_copy(constants.data(), constants.size());
    tables_->fused_dd_at = tables.dd_at;
    tables_->fused_emissions_at = tables.emissions_at;
    tables_->fused_emission_max = tables.emission_max;
    tables_->fused_fast_min_move = tables.fast_min_move;
    tables_->fused_weak_residues = tables.weak_residues;
  } else if (fused) {
    const FusedViterbiTables tables = fused_viterbi_tables(vp, M, viterbi_stripes_, T);
    tables_->fused_viterbi = device_copy(tables.words.data(), tables.words.size());
    tables_->fused_dd_at = tables.dd_at;
    tables_->fused_emissions_at = tables.emissions_at;
    tables_->fused_emission_max = tables.emission_max;
    tables_->fused_fast_min_move = tables.fast_min_move;
    tables_->fused_weak_residues = tables.weak_residues;
  } else {
    std::vector<uint32_t> emissions;
    for (int x = 0; x < kAminoKp; ++x)
      append_striped_words(emissions, vp.emission_row(x), M, viterbi_stripes_);
    tables_->viterbi_emissions = device_copy(emissions.data(), emissions.size());
    std::vector<uint32_t> transitions;
    // In ViterbiTransition order.
    for (const std::vector<int16_t>* t :
         {&vp.begin, &vp.mm, &vp.im, &vp.dm, &vp.mi, &vp.ii, &vp.md_into, &vp.dd_into})
      append_striped_words(transitions, t->data(), M, viterbi_stripes_);
    tables_->viterbi_transitions = device_copy(transitions.data(), transitions.size());
  }

  if (options_.viterbi_systolic == 1) {
    const SystolicTables st = systolic_tables(vp, M, shape);
    tables_->systolic_words = device_copy(st.words.data(), st.words.size());
    tables_->systolic_emissions = device_copy(st.emissions.data(), st.emissions.size());
    tables_->systolic_fake = st.fake;
    tables_->systolic_min_move = st.min_move;
    tables_->systolic_weak_residues = st.weak_residues;
    systolic_lanes_ = shape.G;
    systolic_nodes_ = shape.B;
  }
  {
    // The Forward bound's tables in its slot order (forward_bound.cuh): node k = l * B + j + 1
    // of lane l at slot j * lanes + l; padding past M stays 0.
    const ::gpuseq::hmm::ForwardProfile fp = ::gpuseq::hmm::make_forward_profile(profile.scores);
    const int B = ::gpuseq::hmm::forward_block_nodes(M);
    const size_t lanes = static_cast<size_t>(::gpuseq::hmm::forward_lanes(M));
    const size_t width = static_cast<size_t>(B) * lanes;
    auto slot_of = [&](int k) { return static_cast<size_t>((k - 1) % B) * lanes + (k - 1) / B; };
    std::vector<double> match(kAminoKp * width, 0.0);
    for (int x = 0; x < kAminoKp; ++x)
      for (int k = 1; k <= M; ++k) match[x * width + slot_of(k)] = fp.match_row(x)[k];
    // DeviceForwardTables::Array order; "into" arrays hold the transition out of node k - 1.
    const std::vector<double>* arrays[] = {&fp.mm, &fp.im, &fp.dm, &fp.begin,
                                           &fp.mi, &fp.ii, &fp.md, &fp.dd};
    const bool into[] = {true, true, true, false, false, false, true, true};
    std::vector<double> transitions(8 * width, 0.0);
    for (int a = 0; a < 8; ++a)
      for (int k = 1; k <= M; ++k)
        transitions[a * width + slot_of(k)] = (*arrays[a])[into[a] ? k - 1 : k];
    tables_->forward_match = device_copy(match.data(), match.size());
    tables_->forward_transitions = device_copy(transitions.data(), transitions.size());
  }
  if (options_.viterbi == KernelOptions::Viterbi::kThreadPerTarget) {
    const std::vector<int4> walters = walters_transitions(vp);
    tables_->walters_transitions = device_copy(walters.data(), walters.size());
    const std::vector<int16_t> emissions_by_node = walters_emissions(vp);
    tables_->walters_emissions = device_copy(emissions_by_node.data(), emissions_by_node.size());
  }
}

// The same model's profile with T fused Viterbi targets a warp (0: by model length) and the
// systolic pipeline on (1) or off (-1), made once; null where it could not be made (NVRTC
// failing, no GPU memory left for its tables): the launch is left to the other kernels, and
// nothing is thrown out of call_once.
const DeviceProfile* DeviceProfile::made_for_launches(std::once_flag& once,
                                                      std::unique_ptr<DeviceProfile>& made, int T,
                                                      int systolic) const {
  std::call_once(once, [&] {
    KernelOptions o = options_;
    o.runtime_compiled = runtime_compile_allowed_;
    o.viterbi_targets_per_warp = T;
    o.viterbi_systolic = systolic;
    o.viterbi_by_launch = -1;
    o.sequences_per_warp = 1;  // (its SSV and MSV are not run)
    try {
      made = std::make_unique<DeviceProfile>(profile_, o);
    } catch (const std::exception&) {
    }
  });
  return made.get();
}

const DeviceProfile* DeviceProfile::viterbi_four_targets() const {
  return four_by_launch_ ? made_for_launches(four_made_, four_, 4, -1) : nullptr;
}

const DeviceProfile* DeviceProfile::viterbi_pipeline() const {
  // (one target a warp behind the pipeline)
  return pipeline_by_launch_ ? made_for_launches(pipeline_made_, pipeline_, 0, 1) : nullptr;
}

DeviceProfile::~DeviceProfile() = default;

void DeviceProfile::set_ssv_multi(bool on) {
  if (on && options_.sequences_per_warp < 2)
    throw std::invalid_argument("the SSV runs on sequence blocks only with 2 or more targets "
                                "per warp");
  ssv_multi_ = on;
}

void set_allocation_limit_for_tests(size_t bytes) { allocation_limit_for_tests().store(bytes); }

void fail_allocation_for_tests(int64_t n) { allocations_before_failure_for_tests().store(n); }

bool thread_stream_idle_for_tests() { return cudaStreamQuery(kStream) == cudaSuccess; }

void set_warp_tables_in_shared(bool on) { warp_tables_in_shared_switch().store(on); }

void set_viterbi_rows_without_floors(bool on) { viterbi_rows_without_floors_switch().store(on); }

namespace {
thread_local ViterbiSystolicCounts systolic_counts;  // run_viterbi_systolic's last
}  // namespace

ViterbiSystolicCounts last_viterbi_systolic_counts() { return systolic_counts; }

namespace {
thread_local std::string last_viterbi;  // run_kernel's last (a launch's own, not a hand-back)
}  // namespace

std::string last_viterbi_kernel() { return last_viterbi; }

void set_viterbi_by_launch_rows(double four, double pipeline) {
  four_targets_rows().store(four > 0 ? four : kFourTargetsRowsPerLongest);
  pipeline_rows().store(pipeline > 0 ? pipeline : kPipelineRowsPerLongest);
}

void set_warp_kernels_claim_targets(bool on) { warp_kernels_claim_targets_switch().store(on); }

void set_warp_stripes_past_slow(bool on) { warp_stripes_past_slow_switch().store(on); }

int DeviceProfile::viterbi_fast_min_move() const {
  if (options_.viterbi != KernelOptions::Viterbi::kWarpFused) return INT_MAX;
  return tables_->fused_fast_min_move;
}

int max_model_length(bool runtime_compiled) {
  if (runtime_compiled && runtime_compilation_works())
    return kRuntimeMaxWordStripes * kWordNodesPerStripe;
  constexpr int bytes = 24 * kByteNodesPerStripe, words = 48 * kWordNodesPerStripe;
  return std::min(bytes, words);
}

// Fused Viterbi targets per warp by model length. Two (16 threads each) up to M = 256, where
// they cover the model in at most 8 stripes (the static kernels'): H100, NVRTC, 10 M residues
// of mean length 350, GCUPS one / two / four per warp: M = 50 215 / 358 / 349, 100 421 / 607 /
// 572, 150 555 / 848 / 727, 200 638 / 861 / 582, 256 817 / 841 / 720, 300 871 / 839 / 719,
// 520 826 / 987 / 815, 800 1009 / 981 / 606 (results/gpu-h100-80gb-hbm3-20261125/
// viterbi-targets-per-warp.log). Four never ran fastest. After d06cc3c's rows, two also up to
// M = 320 (9 and 10 stripes, compiled at run time), GCUPS one / two per warp: M = 257 1234 /
// 1395, 280 1348 / 1521, 300 1442 / 1550, 320 1538 / 1647, Pkinase (260) 1462 / 1511; at 352
// (11 stripes) 1429 / 1344 (results/gpu-h100-80gb-hbm3-20261128-b/
// viterbi-targets-per-warp-257-352.log). With rows together (9f62b1a), two up to M = 512 (16
// stripes, all held in registers): H200, one / two per warp, M = 320 1628 / 1868, 352 1601 /
// 1708, 384 1747 / 1717, LuxC (400) 1715 / 1771, 416 1737 / 1832, 448 1871 / 1828, 480 1720 /
// 1884, 512 1834 / 1877 (results/gpu-h200-20261128-h/t2-past-320-9.log): two gain 2-10% where
// their 32-node stripes pad less than one's 64-node ones, and lose up to 2.3% where neither
// pads; at 520 (17 stripes, some streamed) 1524 against one's 1740.
// Fused Viterbi warps per target (viterbi_split_kernel, NVRTC only). H200, GCUPS one warp /
// two / three / four: M = 1100 1543 / 1278 / 1118 / -, SMC_N (1142) 1675 / 1326 / 1161 / -,
// 1400 1479 / 1533 / 1273 / -, 1600 1351 / 1601 / 897 / -, 2000 1235 / 1572 / 1038 / -
// (results/gpu-h200-20261128-f, section 8); with a warp's last stripes streamed past 16 a
// warp (split_resident_stripes): 2049 1198 / 1319 / 1064 / 1035, 2200 1228 / 1311 / 1086 /
// 1101, 2400 1202 / 1339 / 1114 / 1147, 2600 1219 / 1279 / 1165 / 1199, 2816 1153 / 1377 /
// 1153 / 1326, 3000 965 / 1196 / 1110 / 1322, 3500 608 / 1181 / 874 / 1381, 4096 421 / 1153
// / 990 / 1330 (results/gpu-h200-20261128-g): two from 22 stripes of one warp (M > 1344).
// With a split warp's D->D words held past 16 stripes and its exchange as records
// (results/gpu-h200-20261129-f, call 5), one / two / four: 1344
// 1558 / 1516 / 1070, 2400 1203 / 1467 / 1252, 2560 - / 1422 / 1378, 2600 1172 / 1338 /
// 1291, 2816 1159 / 1388 / 1401, 3000 1001 / 1146 / 1456; with the D->D chain in two parts
// at 20 stripes a warp (results/gpu-h200-20261129-g, call 5), two / four: 2400 1485 / 1294,
// 2560 1470 / 1381, 2816 1379 / 1432. So two up to 21 stripes each (M = 2688), and four past
// it: at M 2689-2816 two warps take 22 stripes each, four take 11 over the same nodes. Where
// NVRTC compiles at ptxas's register usage level 0 (fused_register_usage_level, NVRTC 13 on),
// two warps of 22 stripes hold 14 in registers and ran faster than four (H200, M = 2816: 1519
// against 1448; at 24 and 26 stripes two still lose, 3000 1332 / 1457, 3300 1285 / 1493:
// results/gpu-h200-20261129-h, call 7): two up to M = 2816 there.
int choose_viterbi_warps_per_target(int M, bool runtime_compiled) {
  if (!runtime_compiled || !runtime_compilation_works() || M <= 1344) return 1;
  const int two_up_to = register_usage_level_reaches_ptxas() ? 2816 : 2688;
  return M <= two_up_to ? 2 : 4;
}

int choose_viterbi_targets_per_warp(int M, bool runtime_compiled) {
  constexpr int nodes = kWordNodesPerStripe / 2;  // a stripe of one target's 16 threads
  if (M <= kGroupedViterbiMaxStripes * nodes) return 2;
  const bool compiled = runtime_compiled && runtime_compilation_works();
  return compiled && M <= kGroupedViterbiRuntimeMaxStripes * nodes ? 2 : 1;
}

bool viterbi_four_targets_by_launch(int M, bool runtime_compiled) {
  const bool compiled = runtime_compiled && runtime_compilation_works();
  const int most = compiled ? kGroupedViterbiRuntimeMaxStripes : kGroupedViterbiMaxStripes;
  return M <= kFourTargetsMaxNodes && M <= most * kWordNodesPerStripe / 4;
}

int choose_sequences_per_warp(int M, int msv_bits) {
  const int most = msv_bits == 8 ? 128 : kWordMultiMaxSequences;
  const int max_stripes = msv_bits == 8 ? kByteMultiMaxStripes : kMultiMaxStripes;
  for (int S = most; S >= 2; S /= 2)
    if (multi_width(msv_bits, S) * max_stripes >= M) return S;
  return 1;
}

// Measured with benchmarks/bench_hmm_filters.py (H100, see benchmarks/results): the DPX words
// run the SSV and MSV faster on sm_90, where the byte instructions are emulated; elsewhere the
// paper's bytes.
int default_msv_bits() {
  int device = 0, major = 0;
  GPUSEQ_CUDA_CHECK(cudaGetDevice(&device));
  GPUSEQ_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  return major >= 9 ? 16 : 8;
}

// ---- launches -----------------------------------------------------------------------------

namespace {

enum class Kernel { kSsv, kMsv, kViterbi };

std::vector<int32_t> run_viterbi_thread_per_target(const DeviceProfile& dp,
                                                   const DeviceTargets& dt,
                                                   const std::vector<int32_t>& ids,
                                                   const std::vector<int32_t>& params,
                                                   int repeats, double* seconds);
std::vector<int32_t> run_viterbi_systolic(const DeviceProfile& dp, const DeviceTargets& dt,
                                          const std::vector<int32_t>& ids,
                                          const std::vector<int32_t>& params, int repeats,
                                          double* seconds);
// out[at[k]] = values[k].
__global__ void scatter_kernel(const int32_t* at, const int32_t* values, int n, int32_t* out) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) out[at[k]] = values[k];
}

// 1 where target ids[w]'s SSV result best[w] reaches its length's pass floor (the host looks
// at it), else 0 (the MSV test rejects it).
__global__ void ssv_floor_flags_kernel(const int32_t* best, const int32_t* ids,
                                       const int32_t* length_class, const int16_t* floors, int n,
                                       uint8_t* flags) {
  const int w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w < n) flags[w] = best[w] >= floors[length_class[ids[w]]] ? 1 : 0;
}

// out[k] = values[at[k]].
__global__ void gather_kernel(const int32_t* at, const int32_t* values, int n, int32_t* out) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) out[k] = values[at[k]];
}

// A launch whose targets and results stay on the GPU: ids, the same as the host's ids, already
// there; results written to out (in the order of ids), and nothing returned to the host.
struct DeviceSink {
  const int32_t* ids;
  int32_t* out;
};

// The launch order of targets `ids` longest first (order[j]: the index in ids of slot j), stable.
// Warps and blocks take targets at a fixed stride, so a launch lasts as long as its most loaded
// one: longest first evens them out (H100, fused Viterbi at M 149 on log-normal lengths: 0.34
// TCUPS in database order, 0.45 longest first, 0.48 with every length equal).
// (A counting sort: a comparison sort of a 1.4 M-target chunk took 0.2 s on the H100 host,
// which every model's first SSV waited for.)
std::vector<int32_t> longest_first(const DeviceTargets& dt, const std::vector<int32_t>& ids) {
  const std::vector<int64_t>& offsets = dt.buffers().host_offsets;
  std::vector<int64_t> lengths(ids.size());
  for (size_t j = 0; j < ids.size(); ++j) lengths[j] = offsets[ids[j] + 1] - offsets[ids[j]];
  return cpu::longest_first_order(lengths);
}

// values[order[j]] for every slot j.
std::vector<int32_t> in_order(const std::vector<int32_t>& values,
                              const std::vector<int32_t>& order) {
  std::vector<int32_t> out(order.size());
  for (size_t j = 0; j < order.size(); ++j) out[j] = values[order[j]];
  return out;
}

std::optional<std::vector<int32_t>> run_multi_kernel(Kernel kernel, const DeviceProfile& dp,
                                                     const DeviceTargets& dt,
                                                     const std::vector<int32_t>& ids,
                                                     const std::vector<int32_t>& params,
                                                     int repeats, double* seconds,
                                                     const DeviceSink* sink = nullptr);

// Whether the MSV of n targets runs on the S-lane kernels: where S was given, or where their
// sequence blocks give every multiprocessor a block of warps. A cascade's MSV takes only the
// targets the SSV left undecided (about 3,000 of 1.4 M at M = 149): as S-lane blocks they made
// 192 warps of tall columns on 12 multiprocessors (0.40 ms on the H100), where a warp per target
// spreads them over the whole device.
bool msv_fills_sequence_blocks(const DeviceProfile& dp, int n) {
  if (dp.sequences_per_warp_given()) return true;
  int device = 0, sms = 0;
  GPUSEQ_CUDA_CHECK(cudaGetDevice(&device));
  GPUSEQ_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return static_cast<int64_t>(n) >=
         static_cast<int64_t>(dp.sequences_per_warp()) * sms * (kMultiThreadsPerBlock / 32);
}

// Runs one kernel over the targets `ids` (with one parameter each) and returns its integers.
// With `seconds`, the kernel runs `repeats` times and *seconds is the median time of one run.
// SSV/MSV with sequences_per_warp > 1 run the S-lane kernels unless `multi` is false; the
// Viterbi filter runs a thread per target when the profile says so, and the systolic pipeline
// first (viterbi_systolic) unless `multi` is false. With a sink (SSV and MSV only), the
// results stay on the GPU.
std::vector<int32_t> run_kernel(Kernel kernel, const DeviceProfile& dp, const DeviceTargets& dt,
                                const std::vector<int32_t>& ids, const std::vector<int32_t>& params,
                                int repeats = 1, double* seconds = nullptr, bool multi = true,
                                const DeviceSink* sink = nullptr) {
  if (kernel == Kernel::kViterbi) {  // longest first; the results in the order of ids
    const std::vector<int32_t> order = longest_first(dt, ids);
    if (!std::is_sorted(order.begin(), order.end())) {
      const std::vector<int32_t> sorted_params = params.empty() ? params : in_order(params, order);
      const std::vector<int32_t> sorted_out =
          run_kernel(kernel, dp, dt, in_order(ids, order), sorted_params, repeats, seconds, multi);
      std::vector<int32_t> out(ids.size());
      for (size_t j = 0; j < order.size(); ++j) out[order[j]] = sorted_out[j];
      return out;
    }
    if (dp.viterbi_by_launch() && !ids.empty()) {
      // Four targets a warp or the systolic pipeline where the launch has rows enough for its
      // longest target (kFourTargetsRowsPerLongest, kPipelineRowsPerLongest; ids are longest
      // first).
      const std::vector<int64_t>& offsets = dt.buffers().host_offsets;
      int64_t residues = 0;
      for (int32_t id : ids) residues += offsets[id + 1] - offsets[id];
      const int64_t longest = offsets[ids[0] + 1] - offsets[ids[0]];
      const double rows = longest > 0 ? static_cast<double>(residues) / longest : 0.0;
      const DeviceProfile* other = nullptr;
      if (rows >= pipeline_rows().load()) other = dp.viterbi_pipeline();
      if (other == nullptr && rows >= four_targets_rows().load()) other = dp.viterbi_four_targets();
      if (other != nullptr)
        return run_kernel(kernel, *other, dt, ids, params, repeats, seconds, multi, sink);
    }
    if (multi) {
      const KernelOptions& o = dp.options();
      using V = KernelOptions::Viterbi;
      last_viterbi = o.viterbi == V::kThreadPerTarget ? "thread"
                     : o.viterbi == V::kWarpPerTarget ? "warp"
                     : dp.viterbi_systolic()          ? "systolic"
                     : o.viterbi_warps_per_target > 1
                         ? "split/W" + std::to_string(o.viterbi_warps_per_target)
                         : "fused/T" + std::to_string(o.viterbi_targets_per_warp);
    }
    if (dp.options().viterbi == KernelOptions::Viterbi::kThreadPerTarget)
      return run_viterbi_thread_per_target(dp, dt, ids, params, repeats, seconds);
    // The fused kernels take targets with xN + ncj_move >= 0, i.e. shorter than about 5e7
    // residues (viterbi_fused.cuh, "Begin"); params are the targets' ncj_move.
    if (dp.options().viterbi == KernelOptions::Viterbi::kWarpFused && !params.empty()) {
      const auto least = std::min_element(params.begin(), params.end());
      if (::gpuseq::hmm::kBaseW + *least < 0) {
        const int32_t id = ids[static_cast<size_t>(least - params.begin())];
        throw std::invalid_argument(
            "target " + std::to_string(id) + " has " + std::to_string(dt.host().length(id)) +
            " residues: the fused Viterbi kernel takes fewer than about 5e7 (hmmsearch: at "
            "most 100,000); viterbi='warp' takes any length");
      }
    }
    if (multi && dp.viterbi_systolic())
      return run_viterbi_systolic(dp, dt, ids, params, repeats, seconds);
  }
  const int n = static_cast<int>(ids.size());
  std::vector<int32_t> out(sink == nullptr ? ids.size() : 0);
  if (n == 0) return out;
  if (multi && dp.sequences_per_warp() > 1 &&
      ((kernel == Kernel::kMsv && msv_fills_sequence_blocks(dp, n)) ||
       (kernel == Kernel::kSsv && dp.ssv_multi()))) {
    // (Nothing: the SSV's blocks are still being planned, and the profile does not wait.)
    if (auto out = run_multi_kernel(kernel, dp, dt, ids, params, repeats, seconds, sink))
      return std::move(*out);
  }
  DeviceArray<int32_t> d_ids, d_out;
  if (sink == nullptr) {
    d_ids = device_copy_on(ids.data(), ids.size(), kStream);
    d_out = device_alloc_on<int32_t>(ids.size(), kStream);
  }
  DeviceArray<int32_t> d_params = device_copy_on(params.data(), params.size(), kStream);
  TargetList list{dt.buffers().residues.get(),
                  dt.buffers().offsets.get(),
                  sink != nullptr ? sink->ids : d_ids.get(),
                  params.empty() ? nullptr : d_params.get(),
                  sink != nullptr ? sink->out : d_out.get(),
                  n};
  // The warps claim their targets, longest first: the Viterbi filter's sorted above, the
  // SSV/MSV's through TargetList::order where a warp takes several. H100, 100 M residues of
  // log-normal lengths, SSV TCUPS by CUDAMPF's static rule / claimed in database order /
  // claimed longest first: M = 1600 13.23 / 14.35 / 14.63, M = 2400 12.09 / 13.15 / 13.49
  // (MSV at M = 1600: 9.47 static, 10.49 longest first; results/
  // gpu-h100-80gb-hbm3-20261125-h/claims-*.log).
  DeviceArray<int32_t> d_claims, d_order;
  if (kernel == Kernel::kViterbi || warp_kernels_claim_targets_switch().load()) {
    d_claims = device_alloc_on<int32_t>(1, kStream);
    list.claims = d_claims.get();
    if (kernel != Kernel::kViterbi && n >= kLongestFirstMinTargets) {
      const DeviceTargets::Buffers& buffers = dt.buffers();
      if (&ids == &dt.non_empty()) {  // every model's SSV over a chunk: sorted with the upload
        list.order = buffers.non_empty_longest_first.get();
      } else {
        const std::vector<int32_t> order = longest_first(dt, ids);
        d_order = device_copy_on(order.data(), order.size(), kStream);
        list.order = d_order.get();
      }
    }
  }
  const cpu::SearchProfile& p = dp.profile();
  const auto& tables = dp.tables();
  const bool fused = dp.options().viterbi == KernelOptions::Viterbi::kWarpFused;
  const int fused_targets = dp.viterbi_targets_per_warp();  // a warp takes this many at once
  const int fused_warps = (n + fused_targets - 1) / fused_targets;
  const uint32_t* fused_words = tables.fused_viterbi.get();
  const auto* fused_transitions = reinterpret_cast<const uint4*>(fused_words);
  const uint32_t* fused_dd = fused_words + tables.fused_dd_at;
  const auto* fused_emissions =
      reinterpret_cast<const uint2*>(fused_words + tables.fused_emissions_at);
  const int fast_min_move =
      viterbi_rows_without_floors_switch().load() ? tables.fused_fast_min_move : INT_MAX;
  // The 16-bit SSV/MSV tables of long models are read from shared memory where they fit.
  const bool shared_table = kernel != Kernel::kViterbi && warp_tables_in_shared_switch().load() &&
                            warp_table_fits(dp.msv_bits(), dp.msv_stripes());
  const int table_bytes = warp_table_bytes(dp.msv_stripes());
  std::vector<double> times;
  for (int run = 0; run < std::max(1, repeats); ++run) {
    if (list.claims != nullptr)
      GPUSEQ_CUDA_CHECK(cudaMemsetAsync(list.claims, 0, sizeof(int32_t), kStream));
    DeviceTimer timer(kStream);
    if (seconds != nullptr) timer.start();  // (timed launches wait for their kernel)
    const RuntimeKernels* rt = tables.runtime.get();
    if (rt != nullptr) {
      // Compiled for the exact stripe counts; the Q = 2 instances give the parameter types.
      if (kernel == Kernel::kViterbi && fused && dp.viterbi_warps_per_target() > 1)
        launch_split(rt->viterbi, n, dp.viterbi_warps_per_target(), fused_words,
                     static_cast<int>(tables.split_warp_words),
                     static_cast<int>(tables.fused_dd_at),
                     static_cast<int>(tables.fused_emissions_at), tables.split_constants.get(),
                     tables.fused_emission_max, p.viterbi.e_move, p.viterbi.ddbound,
                     fast_min_move, tables.fused_weak_residues, list);
      else if (kernel == Kernel::kViterbi && fused)
        launch_loaded<kFusedThreadsPerBlock>(
            viterbi_fused_kernel<2, 1>, rt->viterbi, fused_warps, fused_transitions, fused_dd,
            fused_emissions, tables.fused_emission_max, p.viterbi.e_move, p.viterbi.ddbound,
            fast_min_move, tables.fused_weak_residues, list);
      else if (kernel == Kernel::kViterbi)
        launch_loaded(viterbi_warp_kernel<2>, rt->viterbi, n, tables.viterbi_emissions.get(),
                      tables.viterbi_transitions.get(), p.viterbi.e_move, p.viterbi.ddbound,
                      list);
      else if (dp.msv_bits() == 8 && kernel == Kernel::kSsv)
        launch_loaded(ssv_warp_kernel<2>, rt->ssv, n, tables.msv_costs.get(), p.msv.bias,
                      cpu::ssv_overflow_level(p.msv), list);
      else if (dp.msv_bits() == 8)
        launch_loaded(msv_warp_kernel<2>, rt->msv, n, tables.msv_costs.get(), p.msv.bias,
                      p.msv.tec, list);
      else if (shared_table && kernel == Kernel::kSsv && rt->ssv_shared != nullptr)
        launch_with_shared_table(ssv_warp_kernel_s16_shared<2>,
                                 reinterpret_cast<const void*>(rt->ssv_shared), n, table_bytes,
                                 tables.msv_costs.get(), table_bytes / 4,
                                 cpu::ssv_overflow_level(p.msv), list);
      else if (shared_table && kernel == Kernel::kMsv && rt->msv_shared != nullptr)
        launch_with_shared_table(
            msv_warp_kernel_s16_shared<2>, reinterpret_cast<const void*>(rt->msv_shared), n,
            table_bytes, tables.msv_costs.get(), table_bytes / 4, p.msv.bias, p.msv.tec, list);
      else if (kernel == Kernel::kSsv)
        launch_loaded(ssv_warp_kernel_s16<2>, rt->ssv, n, tables.msv_costs.get(),
                      cpu::ssv_overflow_level(p.msv), list);
      else
        launch_loaded(msv_warp_kernel_s16<2>, rt->msv, n, tables.msv_costs.get(), p.msv.bias,
                      p.msv.tec, list);
    } else if (kernel == Kernel::kViterbi && fused) {
      auto launch = [&](auto stripes, auto targets) {
        const auto k = viterbi_fused_kernel<decltype(stripes)::value, decltype(targets)::value>;
        k<<<grid_blocks(reinterpret_cast<const void*>(k), fused_warps, kFusedThreadsPerBlock),
            kFusedThreadsPerBlock, 0, kStream>>>(
            fused_transitions, fused_dd, fused_emissions, tables.fused_emission_max,
            p.viterbi.e_move, p.viterbi.ddbound, fast_min_move, tables.fused_weak_residues, list);
      };
      const int Q = dp.viterbi_stripes();
      if (fused_targets == 1)
        with_stripes(Q, WordStripeCounts{},
                     [&](auto q) { launch(q, std::integral_constant<int, 1>{}); });
      else if (fused_targets == 2)
        with_stripes(Q, GroupedViterbiStripeCounts{},
                     [&](auto q) { launch(q, std::integral_constant<int, 2>{}); });
      else
        with_stripes(Q, GroupedViterbiStripeCounts{},
                     [&](auto q) { launch(q, std::integral_constant<int, 4>{}); });
    } else if (kernel == Kernel::kViterbi) {
      with_stripes(dp.viterbi_stripes(), WordStripeCounts{}, [&](auto stripes) {
        constexpr int Q = decltype(stripes)::value;
        const auto k = viterbi_warp_kernel<Q>;
        k<<<grid_blocks(k, n), kThreadsPerBlock, 0, kStream>>>(
            tables.viterbi_emissions.get(), tables.viterbi_transitions.get(), p.viterbi.e_move,
            p.viterbi.ddbound, list);
      });
    } else if (dp.msv_bits() == 8) {
      with_stripes(dp.msv_stripes(), ByteStripeCounts{}, [&](auto stripes) {
        constexpr int Q = decltype(stripes)::value;
        if (kernel == Kernel::kSsv) {
          const auto k = ssv_warp_kernel<Q>;
          k<<<grid_blocks(k, n), kThreadsPerBlock, 0, kStream>>>(
              tables.msv_costs.get(), p.msv.bias, cpu::ssv_overflow_level(p.msv), list);
        } else {
          const auto k = msv_warp_kernel<Q>;
          k<<<grid_blocks(k, n), kThreadsPerBlock, 0, kStream>>>(tables.msv_costs.get(), p.msv.bias,
                                                                 p.msv.tec, list);
        }
      });
    } else {
      with_stripes(dp.msv_stripes(), WordStripeCounts{}, [&](auto stripes) {
        constexpr int Q = decltype(stripes)::value;
        if constexpr (Q >= kSharedWarpTableStripes) {
          if (shared_table) {
            if (kernel == Kernel::kSsv)
              launch_with_shared_table(ssv_warp_kernel_s16_shared<Q>,
                                       reinterpret_cast<const void*>(ssv_warp_kernel_s16_shared<Q>),
                                       n, table_bytes, tables.msv_costs.get(), table_bytes / 4,
                                       cpu::ssv_overflow_level(p.msv), list);
            else
              launch_with_shared_table(msv_warp_kernel_s16_shared<Q>,
                                       reinterpret_cast<const void*>(msv_warp_kernel_s16_shared<Q>),
                                       n, table_bytes, tables.msv_costs.get(), table_bytes / 4,
                                       p.msv.bias, p.msv.tec, list);
            return;
          }
        }
        if (kernel == Kernel::kSsv) {
          const auto k = ssv_warp_kernel_s16<Q>;
          k<<<grid_blocks(k, n), kThreadsPerBlock, 0, kStream>>>(
              tables.msv_costs.get(), cpu::ssv_overflow_level(p.msv), list);
        } else {
          const auto k = msv_warp_kernel_s16<Q>;
          k<<<grid_blocks(k, n), kThreadsPerBlock, 0, kStream>>>(tables.msv_costs.get(), p.msv.bias,
                                                                 p.msv.tec, list);
        }
      });
    }
    GPUSEQ_CUDA_CHECK_LAUNCH("hmm filter kernel");
    if (seconds != nullptr) times.push_back(timer.stop_seconds());
  }
  if (seconds != nullptr) {
    std::sort(times.begin(), times.end());
    *seconds = times[times.size() / 2];
  }
  if (sink != nullptr) return out;
  copy_to_host_on(out.data(), d_out.get(), out.size(), kStream);
  return out;
}

// Walters et al. 2009: a thread per target, `ids` longest first (run_kernel sorts them) so that
// the threads of a warp run similar lengths.
std::vector<int32_t> run_viterbi_thread_per_target(const DeviceProfile& dp,
                                                   const DeviceTargets& dt,
                                                   const std::vector<int32_t>& ids,
                                                   const std::vector<int32_t>& params,
                                                   int repeats, double* seconds) {
  const int n = static_cast<int>(ids.size());
  std::vector<int32_t> out(ids.size());
  if (n == 0) return out;
  DeviceArray<int32_t> d_ids = device_copy_on(ids.data(), ids.size(), kStream);
  DeviceArray<int32_t> d_params = device_copy_on(params.data(), params.size(), kStream);
  DeviceArray<int32_t> d_out = device_alloc_on<int32_t>(ids.size(), kStream);
  const TargetList list{dt.buffers().residues.get(), dt.buffers().offsets.get(), d_ids.get(),
                        d_params.get(), d_out.get(), n};
  const auto kernel = viterbi_walters_kernel;
  // grid_blocks counts a warp per target; here a warp takes 32 targets.
  const int blocks = grid_blocks(kernel, (n + 31) / 32);
  const int M = dp.profile().M;
  // Six rows of M + 1 words per resident thread (DeviceOutOfMemory when they do not fit).
  DeviceArray<int16_t> rows = device_alloc_on<int16_t>(
      6 * static_cast<size_t>(M + 1) * static_cast<size_t>(blocks) * kThreadsPerBlock, kStream);
  const auto& tables = dp.tables();
  std::vector<double> times;
  for (int run = 0; run < std::max(1, repeats); ++run) {
    DeviceTimer timer(kStream);
    if (seconds != nullptr) timer.start();  // (timed launches wait for their kernel)
    kernel<<<blocks, kThreadsPerBlock, 0, kStream>>>(tables.walters_transitions.get(),
                                                     tables.walters_emissions.get(), M,
                                                     dp.profile().viterbi.e_move, list, rows.get());
    GPUSEQ_CUDA_CHECK_LAUNCH("viterbi_walters_kernel");
    if (seconds != nullptr) times.push_back(timer.stop_seconds());
  }
  if (seconds != nullptr) {
    std::sort(times.begin(), times.end());
    *seconds = times[times.size() / 2];
  }
  copy_to_host_on(out.data(), d_out.get(), out.size(), kStream);
  return out;
}

// The systolic kernel's node counts a lane (systolic_shape: 6 to 12).
template <class F>
void with_systolic_nodes(int B, F&& f) {
  switch (B) {
    case 6: return f(std::integral_constant<int, 6>{});
    case 7: return f(std::integral_constant<int, 7>{});
    case 8: return f(std::integral_constant<int, 8>{});
    case 9: return f(std::integral_constant<int, 9>{});
    case 10: return f(std::integral_constant<int, 10>{});
    case 11: return f(std::integral_constant<int, 11>{});
    case 12: return f(std::integral_constant<int, 12>{});
    default:
      throw std::logic_error("no systolic Viterbi kernel for " + std::to_string(B) +
                             " nodes a lane");
  }
}

// The systolic pipeline (viterbi_systolic.cuh) over `ids` (longest first, run_kernel sorts
// them), then the fused kernel over the targets it hands back and those it cannot take (empty,
// N/C/J move below its bound). With `seconds`: the two kernels' medians added.
std::vector<int32_t> run_viterbi_systolic(const DeviceProfile& dp, const DeviceTargets& dt,
                                          const std::vector<int32_t>& ids,
                                          const std::vector<int32_t>& params, int repeats,
                                          double* seconds) {
  const auto& tables = dp.tables();
  const SequenceBatch& host = dt.host();
  std::vector<int32_t> positions, lengths, xb;
  std::vector<int64_t> offsets;
  std::vector<int32_t> out(ids.size(), kSystolicRerun);
  for (size_t w = 0; w < ids.size(); ++w) {
    const int64_t L = host.length(ids[w]);
    if (L < 1 || params[w] < tables.systolic_min_move) continue;
    positions.push_back(static_cast<int32_t>(w));
    offsets.push_back(dt.buffers().host_offsets[ids[w]]);  // into the uploaded residues
    lengths.push_back(static_cast<int32_t>(L));
    xb.push_back(::gpuseq::hmm::kBaseW + params[w]);
  }
  double piped_seconds = 0;
  if (!positions.empty()) {
    const int B = dp.viterbi_systolic_nodes(), G = dp.viterbi_systolic_lanes();
    const void* f = nullptr;
    with_systolic_nodes(B, [&](auto nodes) {
      f = reinterpret_cast<const void*>(viterbi_systolic_kernel<decltype(nodes)::value>);
    });
    const int blocks = resident_blocks(f, kSystolicThreads, 0);
    const SystolicPlan plan =
        systolic_plan(positions, offsets, lengths, xb, blocks * (kSystolicThreads / 32) * (32 / G));
    DeviceArray<SystolicPair> d_pairs =
        device_copy_on(plan.pairs.data(), plan.pairs.size(), kStream);
    DeviceArray<int32_t> d_order = device_copy_on(plan.order.data(), plan.order.size(), kStream);
    DeviceArray<int32_t> d_first = device_copy_on(plan.first.data(), plan.first.size(), kStream);
    DeviceArray<int32_t> d_out = device_alloc_on<int32_t>(ids.size(), kStream);
    DeviceArray<uint16_t> d_rows =
        device_alloc_on<uint16_t>(static_cast<size_t>(plan.rows), kStream);
    DeviceArray<uint8_t> d_weak = device_alloc_on<uint8_t>(plan.pairs.size(), kStream);
    const int n_pairs = static_cast<int>(plan.pairs.size());
    std::vector<double> times;
    for (int run = 0; run < std::max(1, repeats); ++run) {
      DeviceTimer timer(kStream);
      if (seconds != nullptr) timer.start();
      systolic_rows_kernel<<<grid_blocks(systolic_rows_kernel, n_pairs), kThreadsPerBlock, 0,
                             kStream>>>(d_pairs.get(), n_pairs, dt.buffers().residues.get(),
                                        tables.systolic_weak_residues, d_rows.get(), d_weak.get());
      GPUSEQ_CUDA_CHECK_LAUNCH("systolic_rows_kernel");
      with_systolic_nodes(B, [&](auto nodes) {
        viterbi_systolic_kernel<decltype(nodes)::value><<<blocks, kSystolicThreads, 0, kStream>>>(
            tables.systolic_words.get(), tables.systolic_emissions.get(), G, d_pairs.get(),
            d_order.get(), d_first.get(), d_rows.get(), d_weak.get(), tables.systolic_fake,
            dp.profile().viterbi.e_move, d_out.get());
      });
      GPUSEQ_CUDA_CHECK_LAUNCH("viterbi_systolic_kernel");
      if (seconds != nullptr) times.push_back(timer.stop_seconds());
    }
    if (seconds != nullptr) {
      std::sort(times.begin(), times.end());
      piped_seconds = times[times.size() / 2];
    }
    std::vector<int32_t> piped(ids.size());
    copy_to_host_on(piped.data(), d_out.get(), piped.size(), kStream);
    for (int32_t w : positions) out[w] = piped[w];
  }
  std::vector<int32_t> back_ids, back_params, back_at;
  for (size_t w = 0; w < ids.size(); ++w)
    if (out[w] == kSystolicRerun) {
      back_ids.push_back(ids[w]);
      back_params.push_back(params[w]);
      back_at.push_back(static_cast<int32_t>(w));
    }
  double back_seconds = 0;
  if (!back_ids.empty()) {
    const std::vector<int32_t> back = run_kernel(Kernel::kViterbi, dp, dt, back_ids, back_params,
                                                 repeats, seconds ? &back_seconds : nullptr, false);
    for (size_t k = 0; k < back.size(); ++k) out[back_at[k]] = back[k];
  }
  systolic_counts = {static_cast<int64_t>(ids.size() - back_ids.size()),
                     static_cast<int64_t>(back_ids.size()), piped_seconds, back_seconds};
  if (seconds != nullptr) *seconds = piped_seconds + back_seconds;
  return out;
}

// Plans the sequence blocks of the targets `ids` (host work only: it may run on its own thread).
PlannedBlocks plan_blocks(const std::vector<int64_t>& offsets, const std::vector<int32_t>& ids,
                          int S, int max_warps) {
  std::vector<int64_t> lengths(ids.size());
  for (size_t p = 0; p < ids.size(); ++p) lengths[p] = offsets[ids[p] + 1] - offsets[ids[p]];
  PlannedBlocks planned;
  planned.plan = cpu::plan_sequence_blocks(lengths, S, max_warps);
  const cpu::SequenceBlockPlan& plan = planned.plan;
  planned.fill_ids.reserve(plan.column_items.size());
  planned.fill_dest.reserve(plan.column_items.size());
  for (size_t p = 0; p < ids.size(); ++p)
    if (plan.item_offset[p] >= 0) {
      planned.fill_ids.push_back(ids[p]);
      planned.fill_dest.push_back(plan.item_offset[p]);
    }
  return planned;
}

// Fills planned sequence blocks of the targets `ids` on the GPU from the resident targets.
std::unique_ptr<DeviceSequenceBlocks> fill_blocks(const DeviceTargets& dt,
                                                  std::vector<int32_t> ids, PlannedBlocks planned,
                                                  int S, int max_warps) {
  auto blocks = std::make_unique<DeviceSequenceBlocks>();
  blocks->sequences_per_warp = S;
  blocks->max_warps = max_warps;
  blocks->ids = std::move(ids);
  blocks->plan = std::move(planned.plan);
  const cpu::SequenceBlockPlan& plan = blocks->plan;
  const std::vector<int32_t>& fill_ids = planned.fill_ids;
  const std::vector<int64_t>& fill_dest = planned.fill_dest;
  blocks->bytes = device_alloc_on<uint8_t>(static_cast<size_t>(plan.bytes()), kStream);
  GPUSEQ_CUDA_CHECK(
      cudaMemsetAsync(blocks->bytes.get(), cpu::kBlockPadMarker, plan.bytes(), kStream));
  const int placed = static_cast<int>(fill_ids.size());
  if (placed > 0) {
    // (Freed in the stream's order: after the kernel is done with them.)
    DeviceArray<int32_t> d_fill_ids = device_copy_on(fill_ids.data(), fill_ids.size(), kStream);
    DeviceArray<int64_t> d_fill_dest =
        device_copy_on(fill_dest.data(), fill_dest.size(), kStream);
    fill_sequence_blocks_kernel<<<std::min(placed, 65535), kThreadsPerBlock, 0, kStream>>>(
        dt.buffers().residues.get(), dt.buffers().offsets.get(), d_fill_ids.get(),
        d_fill_dest.get(), placed, S, blocks->bytes.get());
    GPUSEQ_CUDA_CHECK_LAUNCH("sequence block filling");
  }
  blocks->warp_offset = device_copy_on(plan.warp_offset.data(), plan.warp_offset.size(), kStream);
  blocks->warp_rows = device_copy_on(plan.warp_rows.data(), plan.warp_rows.size(), kStream);
  blocks->column_start =
      device_copy_on(plan.column_start.data(), plan.column_start.size(), kStream);
  blocks->column_items =
      device_copy_on(plan.column_items.data(), plan.column_items.size(), kStream);
  return blocks;
}

// The S-lane kernels (msv_multi.cuh) over warp-based sequence blocks of `ids`, planned on the
// host (cpp/hmm/sequence_blocks.cpp) and filled on the GPU from the resident targets; targets
// over the blocks' length limit run on the warp-per-target kernel. Results in the order of ids;
// *seconds: both kernels' median times (not the filling). The SSV's blocks stay on the GPU
// (DeviceTargets) for every model's SSV on the same targets; nothing (and no launch) where
// they are still being planned for a profile that does not wait (ssv_blocks_background).
std::optional<std::vector<int32_t>> run_multi_kernel(Kernel kernel, const DeviceProfile& dp,
                                                     const DeviceTargets& dt,
                                                     const std::vector<int32_t>& ids,
                                                     const std::vector<int32_t>& params,
                                                     int repeats, double* seconds,
                                                     const DeviceSink* sink) {
  using MultiKernel = void (*)(const uint32_t*, int, int, BlockList);
  const int S = dp.sequences_per_warp();
  const int H = kernel == Kernel::kSsv ? dp.ssv_multi_stripes() : dp.msv_multi_stripes();
  MultiKernel k = nullptr;
  const void* f = nullptr;  // the kernel launched: k, or the NVRTC one for the exact H
  auto choose = [&](auto bits) {
    constexpr int kBits = decltype(bits)::value;
    return [&](auto s) {
      with_stripes(H, MultiStripeCounts{}, [&](auto h) {
        constexpr int kS = decltype(s)::value, kH = decltype(h)::value;
        k = kernel == Kernel::kSsv ? ssv_multi_kernel<kBits, kS, kH>
                                   : msv_multi_kernel<kBits, kS, kH>;
      });
    };
  };
  if (const RuntimeKernels* rt = dp.tables().runtime_multi.get()) {
    f = reinterpret_cast<const void*>(kernel == Kernel::kSsv ? rt->ssv : rt->msv);
  } else {
    if (dp.msv_bits() == 16)
      with_stripes(S, WordMultiSequenceCounts{}, choose(std::integral_constant<int, 16>{}));
    else
      with_stripes(S, ByteMultiSequenceCounts{}, choose(std::integral_constant<int, 8>{}));
    f = reinterpret_cast<const void*>(k);
  }
  constexpr int kWarpsPerBlock = kMultiThreadsPerBlock / 32;
  int shared_bytes = multi_shared_table_bytes(S, H);
  if (dp.msv_bits() == 16 && S == kOneBlockPerSmSequences)
    shared_bytes = std::max(shared_bytes, one_block_per_sm_shared_bytes());
  // Blocks are planned for the warps this kernel keeps resident (planned for more, the last
  // wave runs part-empty: 12.0 against 9.1 TCUPS at M = 150, S = 16, one block per SM).
  const int resident_warps =
      resident_blocks(f, kMultiThreadsPerBlock, shared_bytes) * kWarpsPerBlock;

  // The SSV's blocks (every model's SSV runs on the same targets) come from the targets'
  // cache, filled once; the MSV's (different targets for each model) are this launch's own.
  const DeviceTargets::Buffers& buffers = dt.buffers();
  std::unique_ptr<DeviceSequenceBlocks> own;
  std::shared_ptr<const DeviceSequenceBlocks> shared;  // the SSV's set, held until launched
  const DeviceSequenceBlocks* chosen = nullptr;
  if (kernel == Kernel::kSsv) {
    std::lock_guard<std::mutex> lock(buffers.blocks_mutex);
    const std::pair<int, int> key{S, resident_warps};
    const bool all_non_empty = &ids == &dt.non_empty();
    auto found = buffers.ssv_blocks.find(key);
    if (found != buffers.ssv_blocks.end() &&
        !(all_non_empty && found->second->all_non_empty) && found->second->ids != ids) {
      buffers.ssv_blocks.erase(found);
      found = buffers.ssv_blocks.end();
    }
    if (found == buffers.ssv_blocks.end()) {
      // A plan made (or being made) on a host thread for these targets, or none.
      std::optional<PlannedBlocks> planned;
      auto pending = buffers.ssv_block_plans.find(key);
      if (pending != buffers.ssv_block_plans.end() &&
          !(all_non_empty && pending->second.all_non_empty) && pending->second.ids != ids) {
        buffers.ssv_block_plans.erase(pending);  // (waits for its thread)
        pending = buffers.ssv_block_plans.end();
      }
      if (dp.ssv_blocks_background()) {
        if (pending == buffers.ssv_block_plans.end()) {
          PendingSsvBlocks started{ids, all_non_empty, {}};
          started.planned = std::async(
              std::launch::async,
              [&offsets = buffers.host_offsets, ids, S, resident_warps] {
                return plan_blocks(offsets, ids, S, resident_warps);
              });
          buffers.ssv_block_plans.emplace(key, std::move(started));
          return std::nullopt;
        }
        if (pending->second.planned.wait_for(std::chrono::seconds(0)) !=
            std::future_status::ready)
          return std::nullopt;
      }
      if (pending != buffers.ssv_block_plans.end()) {
        std::future<PlannedBlocks> plan = std::move(pending->second.planned);
        buffers.ssv_block_plans.erase(pending);  // (gone even if the plan failed)
        planned = plan.get();                    // (waits, or rethrows the plan's error)
      } else {
        planned = plan_blocks(buffers.host_offsets, ids, S, resident_warps);
      }
      if (buffers.ssv_blocks.size() >= DeviceTargets::kMaxSsvBlockSets)
        buffers.ssv_blocks.clear();  // bounded device memory: a set is about the targets' size
      std::unique_ptr<DeviceSequenceBlocks> filled =
          fill_blocks(dt, ids, std::move(*planned), S, resident_warps);
      filled->all_non_empty = all_non_empty;
      // Filled on this thread's stream; other threads' streams use it from now on.
      GPUSEQ_CUDA_CHECK(cudaStreamSynchronize(kStream));
      // Its last holder may free it while other threads' launches on it are still queued (on
      // their streams, not the freeing thread's): the device's work is waited for first.
      std::shared_ptr<const DeviceSequenceBlocks> set(
          filled.release(), [](const DeviceSequenceBlocks* b) {
            cudaDeviceSynchronize();
            delete b;
          });
      found = buffers.ssv_blocks.emplace(key, std::move(set)).first;
    }
    shared = found->second;
    chosen = shared.get();
  } else {
    own = fill_blocks(dt, ids, plan_blocks(buffers.host_offsets, ids, S, resident_warps), S,
                      resident_warps);
    chosen = own.get();
  }
  const DeviceSequenceBlocks& blocks = *chosen;
  const cpu::SequenceBlockPlan& plan = blocks.plan;
  const int placed = static_cast<int>(plan.column_items.size());

  DeviceArray<int32_t> d_params = device_copy_on(params.data(), params.size(), kStream);
  DeviceArray<int32_t> d_out = sink != nullptr ? DeviceArray<int32_t>()
                                               : device_alloc_on<int32_t>(ids.size(), kStream);
  int32_t* const out_on_device = sink != nullptr ? sink->out : d_out.get();
  const BlockList list{blocks.bytes.get(),
                       blocks.warp_offset.get(),
                       blocks.warp_rows.get(),
                       blocks.column_start.get(),
                       blocks.column_items.get(),
                       params.empty() ? nullptr : d_params.get(),
                       out_on_device,
                       plan.warps};
  const cpu::SearchProfile& p = dp.profile();
  std::vector<double> times;
  for (int run = 0; run < std::max(1, repeats) && placed > 0; ++run) {
    DeviceTimer timer(kStream);
    if (seconds != nullptr) timer.start();  // (timed launches wait for their kernel)
    const int blocks_needed = (plan.warps + kWarpsPerBlock - 1) / kWarpsPerBlock;
    const uint32_t* table =
        (kernel == Kernel::kSsv ? dp.tables().ssv_multi : dp.tables().msv_multi).get();
    int bias = p.msv.bias, tec = p.msv.tec;
    BlockList launch_list = list;
    void* arguments[] = {&table, &bias, &tec, &launch_list};  // as MultiKernel's parameters
    GPUSEQ_CUDA_CHECK(cudaLaunchKernel(f, dim3(blocks_needed), dim3(kMultiThreadsPerBlock),
                                       arguments, shared_bytes, kStream));
    GPUSEQ_CUDA_CHECK_LAUNCH("S-lane hmm filter kernel");
    if (seconds != nullptr) times.push_back(timer.stop_seconds());
  }
  std::vector<int32_t> out(sink == nullptr ? ids.size() : 0);
  if (placed > 0 && sink == nullptr) copy_to_host_on(out.data(), d_out.get(), out.size(), kStream);

  // Targets over the length limit: a warp each.
  double single_seconds = 0;
  if (!plan.single.empty()) {
    std::vector<int32_t> single_ids, single_params;
    for (int32_t q : plan.single) {
      single_ids.push_back(ids[q]);
      if (!params.empty()) single_params.push_back(params[q]);
    }
    const std::vector<int32_t> single = run_kernel(kernel, dp, dt, single_ids, single_params,
                                                   repeats,
                                                   seconds != nullptr ? &single_seconds : nullptr,
                                                   false);
    if (sink == nullptr) {
      for (size_t i = 0; i < plan.single.size(); ++i) out[plan.single[i]] = single[i];
    } else {  // into their places on the GPU
      DeviceArray<int32_t> d_at = device_copy_on(plan.single.data(), plan.single.size(), kStream);
      DeviceArray<int32_t> d_single = device_copy_on(single.data(), single.size(), kStream);
      const int n = static_cast<int>(single.size());
      scatter_kernel<<<(n + 255) / 256, 256, 0, kStream>>>(d_at.get(), d_single.get(), n,
                                                           sink->out);
      GPUSEQ_CUDA_CHECK_LAUNCH("scatter_kernel");
    }
  }
  if (seconds != nullptr) {
    std::sort(times.begin(), times.end());
    *seconds = (times.empty() ? 0.0 : times[times.size() / 2]) + single_seconds;
  }
  return out;
}

// MSV scores (SSV first, the full MSV where the SSV cannot decide: p7_MSVFilter) of every
// non-empty target; NaN for empty ones. With full_msv false, the SSV's own answers.
std::vector<float> msv_scores(const DeviceProfile& dp, const DeviceTargets& dt, bool full_msv) {
  const cpu::MsvProfile& om = dp.profile().msv;
  const SequenceBatch& host = dt.host();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> scores(static_cast<size_t>(host.count), nan);
  std::vector<int32_t> ids;
  const int ssv_range = cpu::ssv_tjb_limit(om);  // (P): tjb below it
  for (int64_t i = 0; i < host.count; ++i)
    if (host.length(i) > 0 && dt.tjb(i) < ssv_range) ids.push_back(static_cast<int32_t>(i));
  const std::vector<int32_t> best = run_kernel(Kernel::kSsv, dp, dt, ids, {});
  for (size_t w = 0; w < ids.size(); ++w)
    scores[ids[w]] = cpu::ssv_score_for_tjb(om, dt.tjb(ids[w]), best[w]);
  if (!full_msv) return scores;

  ids.clear();
  std::vector<int32_t> tjbm;
  for (int64_t i = 0; i < host.count; ++i)
    if (host.length(i) > 0 && std::isnan(scores[i])) {
      ids.push_back(static_cast<int32_t>(i));
      tjbm.push_back((dt.tjb(i) + om.tbm) & 0xff);
    }
  const std::vector<int32_t> xJ = run_kernel(Kernel::kMsv, dp, dt, ids, tjbm);
  const float inf = std::numeric_limits<float>::infinity();
  for (size_t w = 0; w < ids.size(); ++w)
    scores[ids[w]] = xJ[w] < 0 ? inf : cpu::msv_xj_to_nats(xJ[w], dt.tjb(ids[w]));
  return scores;
}

std::vector<float> viterbi_scores(const DeviceProfile& dp, const DeviceTargets& dt,
                                  const std::vector<int32_t>& ids) {
  std::vector<int32_t> ncj_move;
  ncj_move.reserve(ids.size());
  for (int32_t i : ids) ncj_move.push_back(dt.ncj_move(i));
  const std::vector<int32_t> xC = run_kernel(Kernel::kViterbi, dp, dt, ids, ncj_move);
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> scores(ids.size());
  for (size_t w = 0; w < ids.size(); ++w)
    scores[w] = xC[w] == cpu::kViterbiOverflow ? inf
                                                : cpu::viterbi_xc_to_nats(xC[w], ncj_move[w]);
  return scores;
}

// A thread block per target (forward_lanes(M) threads), longest first: rows in registers where
// the model allows it (rows_in_registers), else in at most kForwardScratchBytes of scratch.
std::vector<double> forward_scores_on_device(const DeviceProfile& dp, const DeviceTargets& dt,
                                             const std::vector<int32_t>& ids,
                                             bool rows_in_registers) {
  constexpr size_t kForwardScratchBytes = size_t{512} << 20;
  std::vector<double> out(ids.size(), std::numeric_limits<double>::quiet_NaN());
  if (ids.empty()) return out;
  const int M = dp.profile().M;
  const int B = ::gpuseq::hmm::forward_block_nodes(M);
  const int lanes = ::gpuseq::hmm::forward_lanes(M);
  const int64_t width = static_cast<int64_t>(B) * lanes;
  const std::vector<int32_t> order = longest_first(dt, ids);
  const DeviceForwardTables tables{dp.tables().forward_match.get(),
                                   dp.tables().forward_transitions.get(), width};
  const size_t n = order.size();
  const std::vector<int32_t> sorted = in_order(ids, order);
  DeviceArray<int32_t> d_ids = device_copy_on(sorted.data(), n, kStream);
  DeviceArray<double> d_c = device_alloc_on<double>(n, kStream);
  DeviceArray<long long> d_e = device_alloc_on<long long>(n, kStream);
  const TargetList list{dt.buffers().residues.get(), dt.buffers().offsets.get(), d_ids.get(),
                        nullptr, nullptr, static_cast<int>(n)};
  if (rows_in_registers && B <= kForwardRegisterNodes) {
    with_stripes(B, std::make_integer_sequence<int, kForwardRegisterNodes + 1>{}, [&](auto b) {
      constexpr int kB = std::max(1, decltype(b)::value);  // (B >= 1: the 0 is never taken)
      forward_bound_kernel<RegisterRow<kB>><<<static_cast<int>(n), lanes, 0, kStream>>>(
          tables, list, B, d_c.get(), d_e.get(), nullptr);
    });
  } else {
    // A block per target up to the scratch's most_blocks, which then stride.
    const size_t block_bytes = 3 * sizeof(double) * static_cast<size_t>(width);
    const size_t most_blocks = std::max<size_t>(1, kForwardScratchBytes / block_bytes);
    const int blocks = static_cast<int>(std::min(n, most_blocks));
    DeviceArray<double> rows = device_alloc_on<double>(
        static_cast<size_t>(blocks) * 3 * static_cast<size_t>(width), kStream);
    forward_bound_kernel<ScratchRow>
        <<<blocks, lanes, 0, kStream>>>(tables, list, B, d_c.get(), d_e.get(), rows.get());
  }
  GPUSEQ_CUDA_CHECK_LAUNCH("forward_bound_kernel");
  std::vector<double> c(n);
  std::vector<long long> e(n);
  copy_to_host_on(c.data(), d_c.get(), n, kStream);
  copy_to_host_on(e.data(), d_e.get(), n, kStream);
  for (size_t j = 0; j < n; ++j) out[order[j]] = ::gpuseq::hmm::forward_score_from(c[j], e[j]);
  return out;
}

// For each distinct target length (DeviceTargets::lengths), the lowest SSV result (the
// kernel's best diagonal) at which a target is not rejected outright: below it the SSV
// decides (ssv_score_for_tjb gives a score) and that score's P-value is above F1 (p7_Pipeline's
// MSV test). At or above it a target may pass, may need the full MSV, or overflowed: the host
// looks. The score rises with the result, so the rejected results are those below the floor,
// and a walk from the previous length's floor finds the next one in a few steps.
std::vector<int16_t> ssv_pass_floors(const cpu::SearchProfile& p, const DeviceTargets& dt,
                                     double F1) {
  const cpu::MsvProfile& om = p.msv;
  const auto& ev = p.evalue_parameters;
  const int ssv_range = cpu::ssv_tjb_limit(om);  // (P): tjb below it
  const std::vector<int64_t>& lengths = dt.lengths();
  std::vector<int16_t> floors(lengths.size(), 0);
  int b = 0;
  for (size_t c = 0; c < lengths.size(); ++c) {
    const int tjb = cpu::msv_tjb(lengths[c]);
    if (tjb >= ssv_range) continue;  // the SSV cannot decide: every such target to the host
    const float null_score = cpu::null1_score(lengths[c]);
    auto rejected = [&](int best) {
      const float sc = cpu::ssv_score_for_tjb(om, tjb, best);
      return std::isfinite(sc) &&
             cpu::fails_threshold(
                 cpu::gumbel_survival(cpu::bits_score(sc, null_score), ev[0], ev[1]), F1);
    };
    constexpr int kBestLimit = 256;  // past every overflow level
    if (rejected(b)) {
      while (b < kBestLimit && rejected(b)) ++b;
    } else {
      while (b > 0 && !rejected(b - 1)) --b;
    }
    floors[c] = static_cast<int16_t>(b);
  }
  return floors;
}

std::vector<int32_t> non_empty_targets(const SequenceBatch& host) {
  std::vector<int32_t> ids;
  for (int64_t i = 0; i < host.count; ++i)
    if (host.length(i) > 0) ids.push_back(static_cast<int32_t>(i));
  return ids;
}

}  // namespace

double kernel_seconds(const DeviceProfile& dp, const DeviceTargets& dt, Filter which,
                      int repeats) {
  const std::vector<int32_t> ids = non_empty_targets(dt.host());
  std::vector<int32_t> params;
  for (int32_t i : ids) {
    if (which == Filter::kMsv) params.push_back((dt.tjb(i) + dp.profile().msv.tbm) & 0xff);
    if (which == Filter::kViterbi) params.push_back(dt.ncj_move(i));
  }
  const Kernel kernel = which == Filter::kSsv   ? Kernel::kSsv
                        : which == Filter::kMsv ? Kernel::kMsv
                                                : Kernel::kViterbi;
  double seconds = 0;
  run_kernel(kernel, dp, dt, ids, params, repeats, &seconds);
  return seconds;
}

std::vector<double> forward_scores(const DeviceProfile& dp, const DeviceTargets& dt,
                                   const std::vector<int32_t>& ids, bool rows_in_registers) {
  return forward_scores_on_device(dp, dt, ids, rows_in_registers);
}

std::vector<float> filter_scores(const DeviceProfile& dp, const DeviceTargets& dt, Filter which) {
  if (which != Filter::kViterbi) return msv_scores(dp, dt, which == Filter::kMsv);
  const std::vector<int32_t> ids = non_empty_targets(dt.host());
  const std::vector<float> vit = viterbi_scores(dp, dt, ids);
  std::vector<float> scores(static_cast<size_t>(dt.count()),
                            std::numeric_limits<float>::quiet_NaN());
  for (size_t w = 0; w < ids.size(); ++w) scores[ids[w]] = vit[w];
  return scores;
}

std::vector<float> bias_filter_scores(const DeviceProfile& dp, const DeviceTargets& dt,
                                      const std::vector<int32_t>& ids, int threads,
                                      int64_t* on_host) {
  // A thread walks its target alone, a row at a time (~0.25 us a row on the H100, 20 times
  // the CPU's time): a launch lasts as long as its longest target, so the long ones run on
  // the host threads meanwhile.
  constexpr int64_t kLongestOnDevice = 1536;
  const SequenceBatch& host = dt.host();
  const cpu::BiasFilterModel& bf = dp.profile().bias_filter;
  std::vector<float> out(ids.size(), std::numeric_limits<float>::quiet_NaN());
  std::vector<int32_t> device_ids, device_at, rest;
  for (size_t j = 0; j < ids.size(); ++j) {
    if (host.length(ids[j]) <= kLongestOnDevice) {
      device_ids.push_back(ids[j]);
      device_at.push_back(static_cast<int32_t>(j));
    } else {
      rest.push_back(static_cast<int32_t>(j));
    }
  }
  auto on_the_host = [&](const std::vector<int32_t>& at) {
    parallel_for_blocks(static_cast<int64_t>(at.size()), 8, std::max(1, threads),
                        [&](int64_t begin, int64_t end, int) {
                          for (int64_t k = begin; k < end; ++k) {
                            const int32_t i = ids[at[k]];
                            out[at[k]] =
                                cpu::bias_filter_score(bf, host.sequence(i), host.length(i));
                          }
                        });
  };
  const size_t n = device_ids.size();
  if (n == 0) {
    on_the_host(rest);
  } else {
    DeviceArray<int32_t> d_ids = device_copy_on(device_ids.data(), n, kStream);
    DeviceArray<float> d_sum = device_alloc_on<float>(n, kStream);
    DeviceArray<uint8_t> d_unsure = device_alloc_on<uint8_t>(n, kStream);
    const TargetList list{dt.buffers().residues.get(), dt.buffers().offsets.get(), d_ids.get(),
                          nullptr, nullptr, static_cast<int>(n)};
    constexpr int kThreads = 128;
    bias_filter_kernel<<<static_cast<int>((n + kThreads - 1) / kThreads), kThreads, 0, kStream>>>(
        dp.tables().bias_odds.get(), bf.t10, bf.t11, list, d_sum.get(), d_unsure.get());
    GPUSEQ_CUDA_CHECK_LAUNCH("bias_filter_kernel");
    on_the_host(rest);  // while the kernel runs
    std::vector<float> sum(n);
    std::vector<uint8_t> unsure(n);
    copy_to_host_on(sum.data(), d_sum.get(), n, kStream);
    copy_to_host_on(unsure.data(), d_unsure.get(), n, kStream);
    std::vector<int32_t> unsure_at;
    for (size_t k = 0; k < n; ++k) {
      if (unsure[k])
        unsure_at.push_back(device_at[k]);
      else
        out[device_at[k]] = cpu::bias_filter_finish(sum[k], host.length(device_ids[k]));
    }
    on_the_host(unsure_at);
    rest.insert(rest.end(), unsure_at.begin(), unsure_at.end());
  }
  if (on_host != nullptr) *on_host = static_cast<int64_t>(rest.size());
  return out;
}

namespace {

// Waits for `stream`'s work when its scope is left by an exception (see run_cascade).
struct WaitForStreamOnUnwind {
  cudaStream_t stream;
  int exceptions = std::uncaught_exceptions();
  ~WaitForStreamOnUnwind() {
    if (std::uncaught_exceptions() > exceptions) cudaStreamSynchronize(stream);
  }
};

}  // namespace

cpu::CascadeResult run_cascade(const DeviceProfile& dp, const DeviceTargets& dt,
                               const cpu::CascadeOptions& options, CascadeSeconds* seconds,
                               bool all_scores) {
  using Clock = std::chrono::steady_clock;
  auto since = [](Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
  };
  auto t0 = Clock::now();
  const SequenceBatch& host = dt.host();
  const cpu::SearchProfile& p = dp.profile();
  const cpu::MsvProfile& om = p.msv;
  const int threads = std::max(1, options.threads);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  cpu::CascadeStages stages(p, host, options, dt.null1(), all_scores);
  const double setup_s = since(t0);

  // The SSV on every non-empty target, its results kept on the GPU; the pass floors reject
  // most targets there, and only the others (positions in targets) come to the host.
  const std::vector<int32_t>& targets = dt.non_empty();
  const int n = static_cast<int>(targets.size());
  const DeviceTargets::Buffers& buffers = dt.buffers();
  std::vector<int32_t> candidates, candidate_best, best;
  double ssv_kernel_s = 0;
  // Computed before the SSV's launch: it waits for nothing then.
  const std::vector<int16_t> floors =
      n > 0 ? ssv_pass_floors(p, dt, options.F1) : std::vector<int16_t>();
  const auto t_wait = Clock::now();
  std::unique_lock<std::mutex> workspace(buffers.cascade_mutex);
  // A cascade that fails while it holds the buffers (a refused allocation) leaves its launches
  // writing to them: it waits for them before the next cascade, on another thread's stream,
  // takes the buffers (unwound before `workspace`). Without it, one model's refused allocation
  // changed another model's SSV results now and then (results/gpu-h200-20261130-e).
  const WaitForStreamOnUnwind wait_on_unwind{kStream};
  const double ssv_wait_s = since(t_wait);
  if (n > 0) {
    if (!buffers.ssv_best) {
      // Kept only once all five are made: a refused allocation leaves none set, and the next
      // cascade on these targets tries again.
      auto ssv_best = device_alloc<int32_t>(targets.size());
      auto positions = device_alloc<int32_t>(targets.size());
      auto candidate_best = device_alloc<int32_t>(targets.size());
      auto flags = device_alloc<uint8_t>(targets.size());
      auto count = device_alloc<int32_t>(1);
      buffers.positions = std::move(positions);
      buffers.candidate_best = std::move(candidate_best);
      buffers.flags = std::move(flags);
      buffers.count = std::move(count);
      buffers.ssv_best = std::move(ssv_best);
    }
    int32_t* const d_best = buffers.ssv_best.get();
    int32_t* const d_positions = buffers.positions.get();
    const DeviceSink sink{buffers.non_empty.get(), d_best};
    DeviceTimer ssv_timer(kStream);
    ssv_timer.start();
    run_kernel(Kernel::kSsv, dp, dt, targets, {}, 1, nullptr, true, &sink);
    ssv_timer.stop();
    DeviceArray<int16_t> d_floors = device_copy_on(floors.data(), floors.size(), kStream);
    ssv_floor_flags_kernel<<<(n + 255) / 256, 256, 0, kStream>>>(
        d_best, buffers.non_empty.get(), buffers.length_class.get(), d_floors.get(), n,
        buffers.flags.get());
    GPUSEQ_CUDA_CHECK_LAUNCH("ssv_floor_flags_kernel");
    const thrust::counting_iterator<int32_t> position(0);
    size_t temp_bytes = 0;
    GPUSEQ_CUDA_CHECK(cub::DeviceSelect::Flagged(nullptr, temp_bytes, position,
                                                 buffers.flags.get(), d_positions,
                                                 buffers.count.get(), n, kStream));
    if (temp_bytes > buffers.select_temp_bytes) {
      buffers.select_temp.reset();
      buffers.select_temp_bytes = 0;  // until the larger one is made
      buffers.select_temp = device_alloc<uint8_t>(temp_bytes);
      buffers.select_temp_bytes = temp_bytes;
    }
    GPUSEQ_CUDA_CHECK(cub::DeviceSelect::Flagged(buffers.select_temp.get(), temp_bytes, position,
                                                 buffers.flags.get(), d_positions,
                                                 buffers.count.get(), n, kStream));
    int32_t count = 0;
    copy_to_host_on(&count, buffers.count.get(), 1, kStream);
    ssv_kernel_s = ssv_timer.seconds();
    candidates.resize(static_cast<size_t>(count));
    candidate_best.resize(static_cast<size_t>(count));
    if (count > 0) {
      int32_t* const d_candidate_best = buffers.candidate_best.get();
      gather_kernel<<<(count + 255) / 256, 256, 0, kStream>>>(d_positions, d_best, count,
                                                              d_candidate_best);
      GPUSEQ_CUDA_CHECK_LAUNCH("gather_kernel");
      copy_to_host_on(candidates.data(), d_positions, candidates.size(), kStream);
      copy_to_host_on(candidate_best.data(), d_candidate_best, candidate_best.size(), kStream);
    }
    if (all_scores) {
      // Every rejected target's score, and the check that the MSV test rejects it.
      best.resize(targets.size());
      copy_to_host_on(best.data(), d_best, best.size(), kStream);
      std::atomic<bool> wrong{false};
      parallel_for_blocks(static_cast<int64_t>(n), 4096, threads,
                          [&](int64_t begin, int64_t end, int) {
                            double P = 0;
                            for (int64_t w = begin; w < end; ++w) {
                              const int32_t i = targets[w];
                              if (best[w] >= floors[dt.length_class(i)]) continue;
                              const float sc = cpu::ssv_score_for_tjb(om, dt.tjb(i), best[w]);
                              if (stages.msv_passes(i, sc, &P)) wrong = true;
                            }
                          });
      if (wrong)
        throw std::logic_error("an SSV pass floor rejected a target that passes the MSV test");
    }
  }
  workspace.unlock();
  const double msv_s = since(t0);
  t0 = Clock::now();

  // Candidates: the SSV's score where it decides, the full MSV's on the GPU elsewhere.
  const size_t nc = candidates.size();
  const int ssv_range = cpu::ssv_tjb_limit(om);  // (P): tjb below it
  std::vector<float> msv(nc, nan);
  std::vector<int32_t> msv_ids, msv_at, tjbm;
  for (size_t k = 0; k < nc; ++k) {
    const int32_t i = targets[candidates[k]];
    const int tjb = dt.tjb(i);
    if (tjb < ssv_range) msv[k] = cpu::ssv_score_for_tjb(om, tjb, candidate_best[k]);
    if (std::isnan(msv[k])) {
      msv_ids.push_back(i);
      msv_at.push_back(static_cast<int32_t>(k));
      tjbm.push_back((tjb + om.tbm) & 0xff);
    }
  }
  if (!msv_ids.empty()) {
    const std::vector<int32_t> xJ = run_kernel(Kernel::kMsv, dp, dt, msv_ids, tjbm);
    for (size_t m = 0; m < msv_ids.size(); ++m)
      msv[msv_at[m]] = xJ[m] < 0 ? inf : cpu::msv_xj_to_nats(xJ[m], dt.tjb(msv_ids[m]));
  }
  // The MSV test, then the bias filter (GPU) on those that pass it.
  std::vector<double> P(nc);
  std::vector<uint8_t> passes(nc);
  // (Blocks of 8192: a few threads; the downstream's keep the cores busy meanwhile.)
  parallel_for_blocks(static_cast<int64_t>(nc), 8192, threads,
                      [&](int64_t begin, int64_t end, int) {
                        for (int64_t k = begin; k < end; ++k)
                          passes[k] = stages.msv_passes(targets[candidates[k]], msv[k], &P[k]);
                      });
  std::vector<int32_t> past_msv, past_at;
  for (size_t k = 0; k < nc; ++k)
    if (passes[k]) {
      past_msv.push_back(targets[candidates[k]]);
      past_at.push_back(static_cast<int32_t>(k));
    }
  std::vector<float> filter_score(past_msv.size());
  if (options.bias_filter) {
    const auto t_bias = Clock::now();
    filter_score = bias_filter_scores(dp, dt, past_msv, threads);
    if (seconds != nullptr) seconds->bias = since(t_bias);
  } else {
    for (size_t j = 0; j < past_msv.size(); ++j) filter_score[j] = dt.null1()[past_msv[j]];
  }
  std::vector<uint8_t> needs_viterbi(past_msv.size());
  parallel_for_blocks(static_cast<int64_t>(past_msv.size()), 8192, threads,
                      [&](int64_t begin, int64_t end, int) {
                        for (int64_t j = begin; j < end; ++j)
                          needs_viterbi[j] = stages.after_bias(past_msv[j], msv[past_at[j]],
                                                               filter_score[j], P[past_at[j]]);
                      });
  std::vector<int32_t> vit_ids, passed;
  std::vector<float> vit_filter;
  std::vector<std::pair<int32_t, float>> survivors;  // (target, filter score)
  for (size_t j = 0; j < past_msv.size(); ++j) {
    if (needs_viterbi[j]) {
      vit_ids.push_back(past_msv[j]);
      vit_filter.push_back(filter_score[j]);
    } else if (stages.stage(past_msv[j]) == cpu::kStagePassed) {
      survivors.emplace_back(past_msv[j], filter_score[j]);
    }
  }
  const double decisions_s = since(t0);
  t0 = Clock::now();
  const std::vector<float> vit = viterbi_scores(dp, dt, vit_ids);
  for (size_t w = 0; w < vit_ids.size(); ++w) {
    stages.after_viterbi(vit_ids[w], vit[w], vit_filter[w]);
    if (stages.stage(vit_ids[w]) == cpu::kStagePassed)
      survivors.emplace_back(vit_ids[w], vit_filter[w]);
  }
  std::sort(survivors.begin(), survivors.end());
  const double viterbi_s = since(t0);
  cpu::CascadeResult result = stages.finish();
  if (options.F3 < 1.0) {
    // The Forward bound: survivors that cannot pass HMMER's Forward test stay here.
    t0 = Clock::now();
    for (const auto& s : survivors) passed.push_back(s.first);
    const std::vector<double> fwd = forward_scores_on_device(dp, dt, passed, true);
    if (all_scores) result.downstream.assign(static_cast<size_t>(host.count), 0);
    for (size_t w = 0; w < passed.size(); ++w) {
      const int32_t i = passed[w];
      const bool may_pass = ::gpuseq::hmm::forward_may_pass(
          fwd[w], survivors[w].second, host.length(i), p.M, p.evalue_parameters[4],
          p.evalue_parameters[5], options.F3);
      if (all_scores) result.downstream[i] = may_pass ? 1 : 0;
      if (may_pass) result.survivors.push_back(i);
    }
    if (seconds != nullptr) seconds->forward = since(t0);
  } else {
    for (const auto& s : survivors) result.survivors.push_back(s.first);
  }
  if (seconds != nullptr) {
    seconds->ssv_kernel = ssv_kernel_s;
    seconds->setup = setup_s;
    seconds->ssv_wait = ssv_wait_s;
    seconds->msv = msv_s;
    seconds->decisions = decisions_s;
    seconds->viterbi = viterbi_s;
  }
  return result;
}

}  // namespace gpuseq::cuda::hmm
