// Profile building: from an HMM's probabilities (as pyhmmer reads them) to the score tables the
// filters use, exactly as HMMER 3.4 computes them for hmmsearch (local multihit mode):
//   p7_ProfileConfig  -> ScoreProfile   (float log-odds, modelconfig.c)
//   mf_conversion     -> MsvProfile     (biased byte costs, impl_sse/p7_oprofile.c)
//   vf_conversion     -> ViterbiProfile (16-bit words)
//   p7_bg_SetFilter   -> BiasFilterModel (two-state composition HMM, p7_bg.c)
// Spec: shared/specs/hmmer3-filters.md sections 3, 4 and 6.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "common/alphabet.hpp"

namespace gpuseq::hmm {

// Transition columns in HMM files and pyhmmer's transition_probabilities.
enum Transition { kMM = 0, kMI, kMD, kIM, kII, kDM, kDD, kNumTransitions };

// Model probabilities, borrowed from the caller (float32, row-major).
struct HmmProbabilities {
  int M = 0;
  const float* match_emissions = nullptr;  // (M+1) x 20, row 0 unused
  const float* transitions = nullptr;      // (M+1) x 7 in Transition order
  const float* composition = nullptr;      // 20 (the COMPO line)
  std::array<float, 6> evalue_parameters{};  // MSV mu, lambda; VITERBI mu, lambda; FORWARD tau, lambda
};

// Float log-odds scores of the configured profile (natural log).
struct ScoreProfile {
  int M = 0;
  std::vector<float> match;        // (M+1) x kAminoKp: MSC(k, x); row 0 is -inf
  std::vector<float> transitions;  // (M+1) x 7: TSC(k, c) for k = 1..M-1; other rows -inf
  std::vector<float> begin;        // M+1: B->M_k (occupancy based local entry), [0] unused

  float msc(int k, int x) const { return match[static_cast<size_t>(k) * kAminoKp + x]; }
  float tsc(int k, int c) const { return transitions[static_cast<size_t>(k) * kNumTransitions + c]; }
};

ScoreProfile configure_profile(const HmmProbabilities& hmm);

// Row length of the byte and word tables: node k is at index k - 1, and the row is padded to a
// multiple of 32 elements so that any SIMD width up to 32 lanes covers it in whole vectors.
int padded_row_length(int M);

// ---- MSV / SSV (bytes, 1/3-bit units) -------------------------------------------------------
inline constexpr int kBaseB = 190;
extern const float kScaleB;  // f32(3 / ln 2)

// SSV rows carry this many padding cells (cost 127, the largest signed cost) on each side, so
// that a block of diagonals can read its whole width from a row even where part of the block
// lies outside the model: the padding resets a diagonal to the begin level, as entering the
// matrix does.
inline constexpr int kSsvPad = 128;

struct MsvProfile {
  int M = 0;
  int stride = 0;              // padded_row_length(M)
  int ssv_stride = 0;          // M + 2 * kSsvPad
  uint8_t bias = 0;            // bias_b
  uint8_t tbm = 0;             // uniform local entry cost 2/(M(M+1))
  uint8_t tec = 0;             // E->C, E->J: log 1/2
  std::vector<uint8_t> costs;  // kAminoKp rows x stride: rb[x][k] at k - 1; padding 255

  // HMMER's SSV costs sb[x][k] = min(rb[x][k] - bias, 127) as signed bytes (sf_conversion),
  // kAminoKp rows x ssv_stride, node k at kSsvPad + k - 1.
  std::vector<int8_t> ssv_costs;

  const uint8_t* row(int x) const { return costs.data() + static_cast<size_t>(x) * stride; }
  // Pointer to node 1 of the padded SSV row of residue x (valid from -kSsvPad to M + kSsvPad).
  const int8_t* ssv_row(int x) const {
    return ssv_costs.data() + static_cast<size_t>(x) * ssv_stride + kSsvPad;
  }
};

MsvProfile make_msv_profile(const ScoreProfile& gm);

// tjb_b(L): cost of the N->B / J->B / C->T moves for a target of length L (recomputed per target).
uint8_t msv_tjb(int64_t L);

// ---- Viterbi filter (signed words, 1/500-bit units) -------------------------------------------
inline constexpr int kBaseW = 12000;
extern const float kScaleW;  // f32(500 / ln 2)
inline constexpr int16_t kWordNegInf = -32768;

struct ViterbiProfile {
  int M = 0;
  int stride = 0;
  int16_t e_move = 0;    // E->C and E->J word (log 1/2)
  int16_t ddbound = 0;   // ddbound_w: lazy-F bound on D->D paths
  // Transition words, stride entries each, node k at index k - 1, padding -32768:
  //   into M_k: begin (B->M_k), mm, im, dm (from node k-1; -32768 for k = 1)
  //   into I_k: mi, ii (from node k, previous row)
  //   into D_k: md_into = MD(k-1), dd_into = DD(k-1) (-32768 for k = 1)
  // dd_span[s][k-1] = DD(k-s) + ... + DD(k-1), saturated: the cost of s D->D steps into D_k,
  // for s = 2, 4, 8 (the log-step scan of the D->D chain inside a vector).
  // dd_prefix[w][k-1]: the cost of the D->D steps from the end of the previous w-lane vector
  // into D_k (w = 8 for 128-bit, 16 for 256-bit vectors of words).
  std::vector<int16_t> begin, mm, im, dm, mi, ii, md_into, dd_into;
  std::vector<int16_t> dd_span2, dd_span4, dd_span8, dd_prefix8, dd_prefix16;
  std::vector<int16_t> emissions;  // kAminoKp rows x stride: rw[x][k] at k - 1

  const int16_t* emission_row(int x) const {
    return emissions.data() + static_cast<size_t>(x) * stride;
  }
};

ViterbiProfile make_viterbi_profile(const ScoreProfile& gm);

// N/C/J MOVE word for a target of length L (p7_oprofile_ReconfigRestLength).
int16_t viterbi_ncj_move(int64_t L);

// ---- Bias (composition) filter and null model ---------------------------------------------
struct BiasFilterModel {
  // Odds ratios e_s[x] / f[x] for state 0 (background) and 1 (model composition), all 29 codes.
  std::array<std::array<float, 2>, kAminoKp> odds{};
  float t10 = 0, t11 = 0;  // composition state: stay and leave
};

BiasFilterModel make_bias_filter_model(int M, const float* composition);

// ---- Everything a search needs for one model ----------------------------------------------
struct SearchProfile {
  std::string name;
  int M = 0;
  std::array<float, 6> evalue_parameters{};
  ScoreProfile scores;
  MsvProfile msv;
  ViterbiProfile viterbi;
  BiasFilterModel bias_filter;
};

SearchProfile make_search_profile(const HmmProbabilities& hmm, std::string name);

// Conversions of p7_oprofile.c (exposed for tests).
uint8_t unbiased_byte(float score);             // unbiased_byteify
int16_t score_to_word(float score);             // wordify

}  // namespace gpuseq::hmm
