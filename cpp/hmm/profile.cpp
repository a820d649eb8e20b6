#include "hmm/profile.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

// Numerics follow HMMER exactly: float32 arithmetic with one rounding per operation (this file
// is built with -ffp-contract=off), glibc log/logf, C roundf (halves away from zero).

namespace gpuseq::hmm {

namespace {
constexpr float kNegInf = -std::numeric_limits<float>::infinity();
constexpr double kLn2 = 0.69314718055994529;  // Easel's eslCONST_LOG2
constexpr int kMaxSimdLanes = 32;

int16_t min_word(int16_t a, int16_t b) { return a < b ? a : b; }
}  // namespace

const float kScaleB = static_cast<float>(3.0 / kLn2);
const float kScaleW = static_cast<float>(500.0 / kLn2);

int padded_row_length(int M) {
  return (M + kMaxSimdLanes - 1) / kMaxSimdLanes * kMaxSimdLanes;
}

// ---- p7_ProfileConfig, local multihit -------------------------------------------------------

ScoreProfile configure_profile(const HmmProbabilities& hmm) {
  const int M = hmm.M;
  if (M < 1) throw std::invalid_argument("model has no match states (M < 1)");
  const auto& f = kBackgroundFrequencies;
  auto mat = [&](int k, int x) { return hmm.match_emissions[static_cast<size_t>(k) * kAminoK + x]; };
  auto t = [&](int k, int c) { return hmm.transitions[static_cast<size_t>(k) * kNumTransitions + c]; };

  ScoreProfile gm;
  gm.M = M;
  gm.match.assign(static_cast<size_t>(M + 1) * kAminoKp, kNegInf);
  gm.transitions.assign(static_cast<size_t>(M + 1) * kNumTransitions, kNegInf);
  gm.begin.assign(static_cast<size_t>(M + 1), kNegInf);

  for (int k = 1; k <= M; ++k) {
    float* row = &gm.match[static_cast<size_t>(k) * kAminoKp];
    for (int x = 0; x < kAminoK; ++x) {
      const float p = mat(k, x);
      row[x] = p > 0.0f ? static_cast<float>(std::log(static_cast<double>(p) / static_cast<double>(f[x])))
                        : kNegInf;
    }
    // Degenerate residues: background-weighted expectation over members, ascending code order.
    for (int x = 21; x <= 26; ++x) {
      float num = 0.0f, den = 0.0f;
      for (int y = 0; y < kAminoK; ++y) {
        if (!degenerate_includes(x, y)) continue;
        num = num + row[y] * f[y];
        den = den + f[y];
      }
      row[x] = num / den;
    }
  }

  for (int k = 1; k < M; ++k) {
    for (int c = 0; c < kNumTransitions; ++c) {
      const float p = t(k, c);
      gm.transitions[static_cast<size_t>(k) * kNumTransitions + c] =
          p > 0.0f ? static_cast<float>(std::log(static_cast<double>(p))) : kNegInf;
    }
  }

  // Local entry B->M_k from match-state occupancy (p7_hmm_CalculateOccupancy).
  std::vector<float> occ(static_cast<size_t>(M + 1), 0.0f);
  occ[1] = t(0, kMI) + t(0, kMM);
  for (int k = 2; k <= M; ++k) {
    const float a = occ[k - 1] * (t(k - 1, kMM) + t(k - 1, kMI));
    const double b = (1.0 - static_cast<double>(occ[k - 1])) * static_cast<double>(t(k - 1, kDM));
    occ[k] = static_cast<float>(static_cast<double>(a) + b);
  }
  float Z = 0.0f;
  for (int k = 1; k <= M; ++k) Z = Z + occ[k] * static_cast<float>(M - k + 1);
  for (int k = 1; k <= M; ++k)
    gm.begin[k] = static_cast<float>(std::log(static_cast<double>(occ[k] / Z)));
  return gm;
}

// ---- byte and word conversions (p7_oprofile.c) ---------------------------------------------

uint8_t unbiased_byte(float score) {
  const float c = -std::roundf(kScaleB * score);
  return c > 255.0f ? 255 : static_cast<uint8_t>(c);
}

static uint8_t biased_byte(float score, uint8_t bias) {
  const float c = -std::roundf(kScaleB * score);
  return c > static_cast<float>(255 - bias) ? 255 : static_cast<uint8_t>(static_cast<int>(c) + bias);
}

int16_t score_to_word(float score) {
  const float v = std::roundf(kScaleW * score);
  if (v >= 32767.0f) return 32767;
  if (v <= -32768.0f) return -32768;
  return static_cast<int16_t>(v);
}

MsvProfile make_msv_profile(const ScoreProfile& gm) {
  const int M = gm.M;
  MsvProfile om;
  om.M = M;
  om.stride = padded_row_length(M);
  // Insert scores are 0, so the maximum over match and insert scores starts at 0.
  float max_score = 0.0f;
  for (int k = 1; k <= M; ++k)
    for (int x = 0; x < kAminoK; ++x) max_score = std::max(max_score, gm.msc(k, x));
  om.bias = unbiased_byte(-max_score);
  om.tbm = unbiased_byte(
      std::log(2.0f / (static_cast<float>(M) * static_cast<float>(M + 1))));  // uniform entry
  om.tec = unbiased_byte(std::log(0.5f));
  om.costs.assign(static_cast<size_t>(kAminoKp) * om.stride, 255);
  for (int x = 0; x < kAminoKp; ++x)
    for (int k = 1; k <= M; ++k)
      om.costs[static_cast<size_t>(x) * om.stride + k - 1] = biased_byte(gm.msc(k, x), om.bias);
  om.ssv_stride = M + 2 * kSsvPad;
  om.ssv_costs.assign(static_cast<size_t>(kAminoKp) * om.ssv_stride, 127);
  for (int x = 0; x < kAminoKp; ++x)
    for (int k = 1; k <= M; ++k)
      om.ssv_costs[static_cast<size_t>(x) * om.ssv_stride + kSsvPad + k - 1] =
          static_cast<int8_t>(std::min(om.row(x)[k - 1] - om.bias, 127));
  return om;
}

uint8_t msv_tjb(int64_t L) {
  return unbiased_byte(std::log(3.0f / static_cast<float>(L + 3)));
}

ViterbiProfile make_viterbi_profile(const ScoreProfile& gm) {
  const int M = gm.M;
  ViterbiProfile vp;
  vp.M = M;
  vp.stride = padded_row_length(M);
  const size_t n = static_cast<size_t>(vp.stride);
  for (auto* table : {&vp.begin, &vp.mm, &vp.im, &vp.dm, &vp.mi, &vp.ii, &vp.md_into, &vp.dd_into,
                       &vp.dd_span2, &vp.dd_span4, &vp.dd_span8, &vp.dd_prefix8, &vp.dd_prefix16})
    table->assign(n, kWordNegInf);
  vp.emissions.assign(static_cast<size_t>(kAminoKp) * n, kWordNegInf);

  auto w = [&](int k, int c) { return score_to_word(gm.tsc(k, c)); };
  for (int x = 0; x < kAminoKp; ++x)
    for (int k = 1; k <= M; ++k) vp.emissions[x * n + k - 1] = score_to_word(gm.msc(k, x));
  for (int k = 1; k <= M; ++k) {
    const int j = k - 1;
    vp.begin[j] = min_word(0, score_to_word(gm.begin[k]));
    if (k >= 2) {
      vp.mm[j] = min_word(0, w(k - 1, kMM));
      vp.im[j] = min_word(0, w(k - 1, kIM));
      vp.dm[j] = min_word(0, w(k - 1, kDM));
      vp.md_into[j] = min_word(0, w(k - 1, kMD));
      vp.dd_into[j] = w(k - 1, kDD);
    }
    if (k < M) {
      vp.mi[j] = min_word(0, w(k, kMI));
      vp.ii[j] = min_word(-1, w(k, kII));  // an II cost of 0 is forced to -1, as in HMMER
    }
  }
  // Sums of consecutive D->D words. Every word is <= 0, so a saturated sum equals a chain of
  // saturated additions: the scan gives the serial D->D recurrence bit for bit.
  for (int j = 0; j < M; ++j) {
    int sum = 0;
    for (int s = 1; s <= 8; ++s) {
      sum = j - s + 1 >= 0 ? std::max(-32768, sum + vp.dd_into[j - s + 1]) : -32768;
      if (s == 2) vp.dd_span2[j] = static_cast<int16_t>(sum);
      if (s == 4) vp.dd_span4[j] = static_cast<int16_t>(sum);
      if (s == 8) vp.dd_span8[j] = static_cast<int16_t>(sum);
    }
    for (auto [w, table] : {std::pair{8, &vp.dd_prefix8}, std::pair{16, &vp.dd_prefix16}}) {
      int prefix = 0;
      for (int t = j - j % w; t <= j; ++t) prefix = std::max(-32768, prefix + vp.dd_into[t]);
      (*table)[j] = static_cast<int16_t>(prefix);
    }
  }
  int ddbound = kWordNegInf;
  for (int k = 2; k < M - 1; ++k)
    ddbound = std::max(ddbound, static_cast<int>(w(k, kDD)) + static_cast<int>(w(k + 1, kDM)) -
                                    static_cast<int>(score_to_word(gm.begin[k + 2])));
  vp.ddbound = static_cast<int16_t>(std::clamp(ddbound, -32768, 32767));
  vp.e_move = score_to_word(static_cast<float>(-kLn2));
  return vp;
}

int16_t viterbi_ncj_move(int64_t L) {
  const float pmove = 3.0f / ((static_cast<float>(L) + 2.0f) + 1.0f);
  return score_to_word(std::log(pmove));
}

// ---- bias filter model (p7_bg_SetFilter + esl_hmm_Configure) --------------------------------

BiasFilterModel make_bias_filter_model(int M, const float* composition) {
  const auto& f = kBackgroundFrequencies;
  BiasFilterModel bf;
  for (int s = 0; s < 2; ++s) {
    const float* e = s == 0 ? f.data() : composition;
    for (int x = 0; x < kAminoKp; ++x) bf.odds[x][s] = 1.0f;  // gap, '*', '~'
    for (int x = 0; x < kAminoK; ++x) bf.odds[x][s] = e[x] / f[x];
    for (int x = 21; x <= 26; ++x) {
      float num = 0.0f, den = 0.0f;
      for (int y = 0; y < kAminoK; ++y) {
        if (!degenerate_includes(x, y)) continue;
        num = num + e[y];
        den = den + f[y];
      }
      bf.odds[x][s] = den > 0.0f ? num / den : 0.0f;
    }
  }
  const float L1 = static_cast<float>(static_cast<double>(static_cast<float>(M)) / 8.0);
  bf.t10 = 1.0f / (L1 + 1.0f);
  bf.t11 = L1 / (L1 + 1.0f);
  return bf;
}

SearchProfile make_search_profile(const HmmProbabilities& hmm, std::string name) {
  SearchProfile p;
  p.name = std::move(name);
  p.M = hmm.M;
  p.evalue_parameters = hmm.evalue_parameters;
  p.scores = configure_profile(hmm);
  p.msv = make_msv_profile(p.scores);
  p.viterbi = make_viterbi_profile(p.scores);
  p.bias_filter = make_bias_filter_model(hmm.M, hmm.composition);
  return p;
}

}  // namespace gpuseq::hmm
