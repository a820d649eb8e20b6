#include "blast/statistics.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "blast/alphabet.hpp"
#include "blast/matrices.hpp"

namespace gpuseq::blast {

namespace {

constexpr double kLambdaGuess = 0.5;         // BLAST_KARLIN_LAMBDA0_DEFAULT
constexpr double kLambdaTolerance = 1.0e-5;  // BLAST_KARLIN_LAMBDA_ACCURACY_DEFAULT
constexpr int kLambdaIterations = 20;
constexpr int kLambdaNewtonIterations = 20 + 17;  // 20 + BLAST_KARLIN_LAMBDA_ITER_DEFAULT
constexpr double kKSumLimit = 1.0e-4;             // BLAST_KARLIN_K_SUMLIMIT_DEFAULT
constexpr int kKIterations = 100;                 // BLAST_KARLIN_K_ITER_MAX

// Robinson & Robinson background frequencies (blast_stat.c), by letter.
constexpr std::array<std::pair<char, double>, 20> kRobinson{{
    {'A', 78.05}, {'C', 19.25}, {'D', 53.64}, {'E', 62.95}, {'F', 38.56},
    {'G', 73.77}, {'H', 21.99}, {'I', 51.42}, {'K', 57.44}, {'L', 90.19},
    {'M', 22.43}, {'N', 44.87}, {'P', 52.03}, {'Q', 42.64}, {'R', 51.29},
    {'S', 71.20}, {'T', 58.41}, {'V', 64.41}, {'W', 13.30}, {'Y', 32.16},
}};

// Score probabilities over the matrix's [loscore, hiscore] (Blast_ScoreFreq).
struct ScoreDistribution {
  int low = 0;
  std::vector<double> prob;
  int obs_min = 0, obs_max = 0;
  double mean = 0.0;
  double& at(int score) { return prob[score - low]; }
  double at(int score) const { return prob[score - low]; }
};

int gcd(int a, int b) {  // BLAST_Gcd
  b = std::abs(b);
  if (b > a) std::swap(a, b);
  while (b != 0) {
    int c = a % b;
    a = b;
    b = c;
  }
  return a;
}

double powi(double x, int n) {  // BLAST_Powi
  if (n == 0) return 1.0;
  if (x == 0.0) return n < 0 ? HUGE_VAL : 0.0;
  if (n < 0) {
    x = 1.0 / x;
    n = -n;
  }
  double y = 1.0;
  while (n > 0) {
    if (n & 1) y *= x;
    n /= 2;
    x *= x;
  }
  return y;
}

double expm1_series(double x) {  // BLAST_Expm1: a Taylor series for small |x|
  double absx = std::fabs(x);
  if (absx > 0.33) return std::exp(x) - 1.0;
  if (absx < 1.0e-16) return x;
  return x *
         (1. + x * (1. / 2. +
                    x * (1. / 6. +
                         x * (1. / 24. +
                              x * (1. / 120. +
                                   x * (1. / 720. +
                                        x * (1. / 5040. +
                                             x * (1. / 40320. +
                                                  x * (1. / 362880. +
                                                       x * (1. / 3628800. +
                                                            x * (1. / 39916800. +
                                                                 x * (1. / 479001600. +
                                                                      x / 6227020800.))))))))))));
}

// BlastScoreFreqCalc: P(score) under query frequencies p1 and background p2, renormalised
// over the observed score range.
ScoreDistribution score_distribution(const std::array<double, kAlphabetSize>& p1,
                                     const std::array<double, kAlphabetSize>& p2,
                                     const ProteinMatrix& matrix) {
  const ScoreMatrix& m = matrix.scores;
  ScoreDistribution d;
  d.low = matrix.low_score;
  d.prob.assign(static_cast<size_t>(matrix.high_score - matrix.low_score + 1), 0.0);
  for (int i = 0; i < kAlphabetSize; ++i)
    for (int j = 0; j < kAlphabetSize; ++j)
      if (m[i][j] >= matrix.low_score) d.at(m[i][j]) += p1[i] * p2[j];
  double sum = 0.0;
  bool seen = false;
  d.obs_min = d.obs_max = kScoreMin;
  for (int s = matrix.low_score; s <= matrix.high_score; ++s) {
    if (d.at(s) > 0.0) {
      sum += d.at(s);
      d.obs_max = s;
      if (!seen) d.obs_min = s;
      seen = true;
    }
  }
  d.mean = 0.0;
  if (sum > 0.0001 || sum < -0.0001) {
    for (int s = d.obs_min; s <= d.obs_max; ++s) {
      d.at(s) /= sum;
      d.mean += s * d.at(s);
    }
  }
  return d;
}

bool score_range_ok(int low, int high) {  // BlastScoreChk
  return low < 0 && high > 0 && low >= kScoreMin && high <= 32767 && high - low <= 10000;
}

// NlmKarlinLambdaNR: safeguarded Newton iteration on x = exp(-lambda) for the root in (0, 1)
// of sum_s P(s) x^(high - s) ... written as a polynomial evaluated by Horner's rule.
template <class Distribution>
double lambda_newton(const Distribution& d, int step, int low, int high,
                     double lambda_guess = kLambdaGuess) {
  double a = 0.0, b = 1.0;
  double f = 4.0;  // larger than any value of the polynomial on [0, 1]
  bool newton = false;
  double x0 = std::exp(-lambda_guess);
  double x = (0 < x0 && x0 < 1) ? x0 : 0.5;
  for (int k = 0; k < kLambdaIterations; ++k) {
    double fold = f;
    bool was_newton = newton;
    newton = false;
    double g = 0.0;
    f = d.at(low);
    for (int i = low + step; i < 0; i += step) {
      g = x * g + f;
      f = f * x + d.at(i);
    }
    g = x * g + f;
    f = f * x + d.at(0) - 1;
    for (int i = step; i <= high; i += step) {
      g = x * g + f;
      f = f * x + d.at(i);
    }
    if (f > 0) {
      a = x;
    } else if (f < 0) {
      b = x;
    } else {
      break;  // exact root
    }
    if (b - a < 2 * a * (1 - b) * kLambdaTolerance) {
      x = (a + b) / 2;
      break;
    }
    if (k >= kLambdaNewtonIterations || (was_newton && std::fabs(f) > .9 * std::fabs(fold)) ||
        g >= 0) {
      x = (a + b) / 2;
    } else {
      double p = -f / g;
      double y = x + p;
      if (y <= a || y >= b) {
        x = (a + b) / 2;
      } else {
        newton = true;
        x = y;
        if (std::fabs(p) < kLambdaTolerance * x * (1 - x)) break;
      }
    }
  }
  return -std::log(x) / step;
}

double karlin_lambda(const ScoreDistribution& d) {  // Blast_KarlinLambdaNR
  int low = d.obs_min, high = d.obs_max;
  if (d.mean >= 0.0) return -1.0;
  if (!score_range_ok(low, high)) return -1.0;
  int step = -low;
  for (int i = 1; i <= high - low && step > 1; ++i)
    if (d.at(i + low) != 0.0) step = gcd(step, i);
  return lambda_newton(d, step, low, high);
}

double karlin_H(const ScoreDistribution& d, double lambda) {  // BlastKarlinLtoH
  if (lambda < 0.0) return -1.0;
  int low = d.obs_min, high = d.obs_max;
  if (!score_range_ok(low, high)) return -1.0;
  double etonlam = std::exp(-lambda);
  double sum = low * d.at(low);
  for (int s = low + 1; s <= high; ++s) sum = s * d.at(s) + etonlam * sum;
  double scale = powi(etonlam, high);
  if (scale > 0.0) return lambda * sum / scale;
  return lambda * std::exp(lambda * high + std::log(sum));
}

// BlastKarlinLHtoK: the series over alignment lengths of the score-sum distribution.
double karlin_K(const ScoreDistribution& d, double lambda, double H) {
  if (lambda <= 0.0 || H <= 0.0) return -1.0;
  if (d.mean >= 0.0) return -1.0;
  int low = d.obs_min, high = d.obs_max;
  int range = high - low;
  int divisor = -low;
  for (int i = 1; i <= range && divisor > 1; ++i)
    if (d.at(low + i) != 0.0) divisor = gcd(divisor, i);
  high /= divisor;
  low /= divisor;
  lambda *= divisor;
  range = high - low;

  double first_term = H / lambda;
  double exp_minus_lambda = std::exp(-lambda);
  if (low == -1 && high == 1) {
    double diff = d.at(low * divisor) - d.at(high * divisor);
    return diff * diff / d.at(low * divisor);
  }
  if (low == -1 || high == 1) {
    if (high != 1) {
      double mean = d.mean / divisor;
      first_term = (mean * mean) / first_term;
    }
    return first_term * (1.0 - exp_minus_lambda);
  }

  // P[j] = probability that an alignment of the current length scores (low_total + j).
  // Scores of the (divided) distribution are read at low + k, k = 0..range; as in NCBI, the
  // original array is indexed at multiples of the divisor only through k.
  auto step_prob = [&](int k) { return d.at(d.obs_min + k); };
  std::vector<double> P(static_cast<size_t>(kKIterations) * range + 1, 0.0);
  double outer_sum = 0.0;
  int low_total = 0, high_total = 0;
  P[0] = 1.0;
  double inner_sum = 1.0;
  for (int iter = 0; iter < kKIterations && inner_sum > kKSumLimit;) {
    int first = range, last = range;
    low_total += low;
    high_total += high;
    // New distribution, computed from the top index down (in place, as NCBI does).
    for (int p = high_total - low_total; p >= 0; --p) {
      double sum = 0.0;
      for (int a = p - first, k = first; a >= p - last; --a, ++k) sum += P[a] * step_prob(k);
      P[p] = sum;
      if (first) --first;
      if (p <= range) --last;
    }
    // Horner's rule: sum_{score < 0} P * exp(lambda*score) + sum_{score >= 0} P.
    int p = 0;
    inner_sum = P[p];
    int score = low_total + 1;
    for (; score < 0; ++score) inner_sum = P[++p] + inner_sum * exp_minus_lambda;
    inner_sum *= exp_minus_lambda;
    for (; score <= high_total; ++score) inner_sum += P[++p];
    inner_sum /= ++iter;
    outer_sum += inner_sum;
  }
  return -std::exp(-2.0 * outer_sum) / (first_term * expm1_series(-lambda));
}

// Score probabilities over any integer range (the composition stage's scaled matrices).
struct WideScoreDistribution {
  const double* prob;
  int low;
  double at(int score) const { return prob[score - low]; }
};

// Blast_ResFreqStdComp then Blast_ResFreqNormalize(..., 1.0): Robinson & Robinson by code.
std::array<double, kAlphabetSize> robinson_background() {
  std::array<double, kAlphabetSize> background{};
  for (const auto& [letter, freq] : kRobinson) background[kNcbiLetters.find(letter)] = freq;
  double sum = 0.0;
  for (double p : background) sum += p;
  for (double& p : background) {
    p /= sum;
    p *= 1.0;
  }
  return background;
}

}  // namespace

double karlin_lambda_nr(const double* probabilities, int min_score, int max_score, double mean,
                        double lambda_guess) {
  if (mean >= 0.0) return -1.0;
  if (!score_range_ok(min_score, max_score)) return -1.0;
  const WideScoreDistribution d{probabilities, min_score};
  int step = -min_score;
  for (int i = 1; i <= max_score - min_score && step > 1; ++i)
    if (d.at(i + min_score) != 0.0) step = gcd(step, i);
  return lambda_newton(d, step, min_score, max_score, lambda_guess);
}

double ideal_ungapped_lambda(const ProteinMatrix& matrix) {
  const std::array<double, kAlphabetSize> background = robinson_background();
  return karlin_lambda(score_distribution(background, background, matrix));
}

KarlinBlock query_ungapped_karlin(const uint8_t* codes, int64_t length,
                                  const ProteinMatrix& matrix) {
  // Blast_ResFreqString: counts per code, the ambiguous residue X not counted.
  std::array<double, kAlphabetSize> count{};
  for (int64_t i = 0; i < length; ++i) count[codes[i] & 31] += 1;
  count[kCodeX] = 0;
  double total = 0.0;
  for (double c : count) total += c;
  std::array<double, kAlphabetSize> query_prob{};
  if (total != 0.0)
    for (int i = 0; i < kAlphabetSize; ++i) query_prob[i] = count[i] / total;

  const std::array<double, kAlphabetSize> background = robinson_background();

  ScoreDistribution d = score_distribution(query_prob, background, matrix);
  KarlinBlock kbp;
  double lambda = karlin_lambda(d);
  if (lambda < 0.0) return KarlinBlock{};
  double H = karlin_H(d, lambda);
  if (H < 0.0) return KarlinBlock{};
  double K = karlin_K(d, lambda, H);
  if (K < 0.0) return KarlinBlock{};
  kbp.lambda = lambda;
  kbp.H = H;
  kbp.K = K;
  kbp.logK = std::log(K);
  return kbp;
}

KarlinBlock gapped_karlin(const GapCostRow& row) {
  KarlinBlock kbp;
  kbp.lambda = row.params.lambda;
  kbp.K = row.params.K;
  kbp.logK = std::log(kbp.K);
  kbp.H = row.params.H;
  return kbp;
}

AlphaBeta gapped_alpha_beta(const GapCostRow& row) {
  if (row.gap_open == kUngappedRowCost && row.gap_extend == kUngappedRowCost) return {0.0, 0.0};
  return {row.params.alpha, row.params.beta};
}

GumbelBlock gumbel_block(const GapCostRow& row, const GapCostRow& ungapped, int64_t db_length) {
  GumbelBlock g{};
  g.lambda = row.params.lambda;
  g.C = row.C;
  g.G = row.gap_open + row.gap_extend;
  g.a = row.params.alpha;
  g.Alpha = row.alpha_v;
  g.Sigma = row.sigma;
  g.a_un = ungapped.params.alpha;
  g.Alpha_un = ungapped.alpha_v;
  g.b = 2.0 * g.G * (g.a_un - g.a);
  g.Beta = 2.0 * g.G * (g.Alpha_un - g.Alpha);
  g.Tau = 2.0 * g.G * (g.Alpha_un - g.Sigma);
  g.db_length = db_length;
  return g;
}

namespace {

// Horner's rule from the highest coefficient down, the order blastp evaluates its polynomials.
template <size_t N>
double horner(const std::array<double, N>& c, double x) {
  double r = c[N - 1];
  for (size_t i = N - 1; i-- > 0;) r = r * x + c[i];
  return r;
}

// erf (invert false) or erfc (true) as blastp computes them: ErfC of boost_erf.c, NCBI's port
// of Boost's 53-bit erf. Boost's rational approximations, result = Y + P(x)/Q(x) per range,
// scaled by exp(-z^2)/z in long double where erfc is computed directly. Not std::erfc: the
// port leaves out the last Q coefficient of the range 0.5 <= z < 1.5 (0.337511472483094676155e-5),
// which moves erfc there by up to ~1e-9 relative, enough to change the last printed digits
// of a large E-value (session 76: -dbsize 1e18 -evalue 1e300 on the globins, where std::erfc
// gave 768964978987 and blastp prints 768964977289).
double blast_erf_impl(double z, bool invert) {
  if (z < 0) {
    if (!invert) return -blast_erf_impl(-z, false);
    if (z < -0.5) return 2.0 - blast_erf_impl(-z, true);
    return 1 + blast_erf_impl(-z, false);
  }
  double result;
  if (z < 0.5) {  // erf
    if (z < 1e-10) {
      result = z == 0 ? 0.0 : z * 1.125 + z * 0.003379167095512573896158903121545171688;
    } else {
      constexpr double Y = 1.044948577880859375;
      constexpr std::array<double, 5> P{0.0834305892146531832907, -0.338165134459360935041,
                                        -0.0509990735146777432841, -0.00772758345802133288487,
                                        -0.000322780120964605683831};
      constexpr std::array<double, 5> Q{1.0, 0.455004033050794024546, 0.0875222600142252549554,
                                        0.00858571925074406212772, 0.000370900071787748000569};
      const double zz = z * z;
      result = z * (Y + horner(P, zz) / horner(Q, zz));
    }
  } else if (invert ? z < 28.0 : z < 5.8) {  // erfc
    invert = !invert;
    // Boost's ranges, below `upper`: x = z - shift, or 1/z in the last. Coefficients from x^0
    // up, padded with zeros above (exact under Horner's rule); the first range's Q ends at
    // x^5 where Boost's has an x^6 term: the port's missing coefficient.
    struct Range {
      double upper, Y, shift;
      std::array<double, 7> P, Q;
    };
    static constexpr std::array<Range, 4> kRanges{{
        {1.5, 0.405935764312744140625, 0.5,
         {-0.098090592216281240205, 0.178114665841120341155, 0.191003695796775433986,
          0.0888900368967884466578, 0.0195049001251218801359, 0.00180424538297014223957, 0},
         {1.0, 1.84759070983002217845, 1.42628004845511324508, 0.578052804889902404909,
          0.12385097467900864233, 0.0113385233577001411017, 0}},
        {2.5, 0.50672817230224609375, 1.5,
         {-0.0243500476207698441272, 0.0386540375035707201728, 0.04394818964209516296,
          0.0175679436311802092299, 0.00323962406290842133584, 0.000235839115596880717416, 0},
         {1.0, 1.53991494948552447182, 0.982403709157920235114, 0.325732924782444448493,
          0.0563921837420478160373, 0.00410369723978904575884, 0}},
        {4.5, 0.5405750274658203125, 3.5,
         {0.00295276716530971662634, 0.0137384425896355332126, 0.00840807615555585383007,
          0.00212825620914618649141, 0.000250269961544794627958, 0.113212406648847561139e-4, 0},
         {1.0, 1.04217814166938418171, 0.442597659481563127003, 0.0958492726301061423444,
          0.0105982906484876531489, 0.000479411269521714493907, 0}},
        {INFINITY, 0.5579090118408203125, 0,
         {0.00628057170626964891937, 0.0175389834052493308818, -0.212652252872804219852,
          -0.687717681153649930619, -2.5518551727311523996, -3.22729451764143718517,
          -2.8175401114513378771},
         {1.0, 2.79257750980575282228, 11.0567237927800161565, 15.930646027911794143,
          22.9367376522880577224, 13.5064170191802889145, 5.48409182238641741584}},
    }};
    const Range* r = &kRanges[0];
    while (z >= r->upper) ++r;
    const double x = r->upper == INFINITY ? 1.0 / z : z - r->shift;
    result = r->Y + horner(r->P, x) / horner(r->Q, x);
    // (-z * z rounds in double; the exponential, the division and the product in long double.)
    result = static_cast<double>(result * (std::exp(static_cast<long double>(-z * z)) / z));
  } else {  // erfc has underflowed to 0 (erf is 1)
    result = 0;
    invert = !invert;
  }
  return invert ? 1 - result : result;
}

double blast_erfc(double x) { return blast_erf_impl(x, true); }

}  // namespace

double spouge_evalue(int32_t score, const KarlinBlock& kbp, const GumbelBlock& gbp, int32_t m,
                     int32_t n) {
  // a, Alpha and Sigma scale with lambda when scores are scaled (composition-based stats).
  const double scale = kbp.lambda / gbp.lambda;
  const double db_scale = gbp.db_length ? static_cast<double>(gbp.db_length) / n : 1.0;
  const double lambda = kbp.lambda;
  const double a = gbp.a * scale, b = gbp.b;
  const double alpha = gbp.Alpha * scale, beta = gbp.Beta;
  const double sigma = gbp.Sigma * scale, tau = gbp.Tau;
  const double inv_sqrt_2pi = 0.39894228040143267793994605993438;
  const double y = score;

  // The same terms for the query (m) and the subject (n): the matrix is symmetric.
  const double m_len = m - (a * y + b);
  const double m_var = std::max(2.0 * alpha / lambda, alpha * y + beta);
  const double m_sd = std::sqrt(m_var);
  const double m_z = m_len / m_sd;
  const double m_P = blast_erfc(-m_z / std::sqrt(2.0)) / 2.0;
  const double p1 = m_len * m_P + m_sd * inv_sqrt_2pi * std::exp(-0.5 * m_z * m_z);

  const double n_len = n - (a * y + b);
  const double n_var = std::max(2.0 * alpha / lambda, alpha * y + beta);
  const double n_sd = std::sqrt(n_var);
  const double n_z = n_len / n_sd;
  const double n_P = blast_erfc(-n_z / std::sqrt(2.0)) / 2.0;
  const double p2 = n_len * n_P + n_sd * inv_sqrt_2pi * std::exp(-0.5 * n_z * n_z);

  const double c = std::max(2.0 * sigma / lambda, sigma * y + tau);
  const double area = p1 * p2 + c * m_P * n_P;
  return area * kbp.K * std::exp(-lambda * y) * db_scale;
}

int32_t spouge_cutoff(double e0, const KarlinBlock& kbp, const GumbelBlock& gbp, int32_t m,
                      int32_t n) {
  const double db_scale = gbp.db_length ? static_cast<double>(gbp.db_length) : 1.0;
  int32_t a = 0;
  int32_t b = std::max(static_cast<int32_t>(std::log(db_scale / e0) / kbp.lambda), 2);
  if (spouge_evalue(b, kbp, gbp, m, n) > e0) {
    do {
      a = b;
      b *= 2;
    } while (spouge_evalue(b, kbp, gbp, m, n) > e0);
  }
  // Bisection: a keeps E > e0, b has E <= e0.
  while (b - a > 1) {
    int32_t c = (a + b) / 2;
    if (spouge_evalue(c, kbp, gbp, m, n) > e0)
      a = c;
    else
      b = c;
  }
  return a;
}

int32_t length_adjustment(double K, double logK, double alpha_over_lambda, double beta,
                          int32_t query_length, int64_t db_length, int32_t db_sequences) {
  const double m = query_length;
  const double n = static_cast<double>(db_length);
  const double N = db_sequences;
  // ell_max: the largest ell with K (m - ell)(n - N ell) > max(m, n), by the quadratic formula.
  double c = n * m - std::max(m, n) / K;
  if (c < 0) return 0;
  double mb = m * N + n;
  double ell_max = 2 * c / (mb + std::sqrt(mb * mb - 4 * N * c));
  double ell_min = 0, ell_next = 0, ell = 0;
  bool converged = false;
  for (int i = 1; i <= 20; ++i) {
    ell = ell_next;
    double ss = (m - ell) * (n - N * ell);
    double ell_bar = alpha_over_lambda * (logK + std::log(ss)) + beta;
    if (ell_bar >= ell) {
      ell_min = ell;
      if (ell_bar - ell_min <= 1.0) {
        converged = true;
        break;
      }
      if (ell_min == ell_max) break;
    } else {
      ell_max = ell;
    }
    if (ell_min <= ell_bar && ell_bar <= ell_max)
      ell_next = ell_bar;
    else
      ell_next = (i == 1) ? ell_max : (ell_min + ell_max) / 2;
  }
  auto adjustment = static_cast<int32_t>(ell_min);
  if (converged) {
    // floor(ell_min) is the answer unless ceil(ell_min) still satisfies the fixed-point test.
    ell = std::ceil(ell_min);
    if (ell <= ell_max) {
      double ss = (m - ell) * (n - N * ell);
      if (alpha_over_lambda * (logK + std::log(ss)) + beta >= ell)
        adjustment = static_cast<int32_t>(ell);
    }
  }
  return adjustment;
}

int64_t effective_search_space(int32_t query_length, int64_t db_length, int32_t db_sequences,
                               int32_t adjustment) {
  int64_t effective_db = db_length - static_cast<int64_t>(db_sequences) * adjustment;
  if (effective_db <= 0) effective_db = 1;
  // blastp's Int8 product wraps past 2^63 (-dbsize 2^63 - 1 with -searchsp 0 makes the space
  // negative, and its E-values with it); unsigned arithmetic wraps the same way, defined.
  return static_cast<int64_t>(static_cast<uint64_t>(effective_db) *
                              static_cast<uint64_t>(int64_t{query_length} - adjustment));
}

double karlin_evalue(int32_t score, const KarlinBlock& kbp, int64_t search_space) {
  if (kbp.lambda < 0.0 || kbp.K < 0.0 || kbp.H < 0.0) return -1.0;
  return static_cast<double>(search_space) * std::exp(-kbp.lambda * score + kbp.logK);
}

double GappedEvalues::operator()(int32_t score, const KarlinBlock& kbp, int32_t m,
                                 int32_t n) const {
  return classic ? karlin_evalue(score, kbp, search_space) : spouge_evalue(score, kbp, gbp, m, n);
}

int32_t cutoff_score(double evalue, const KarlinBlock& kbp, int64_t search_space) {
  int32_t s = 1;
  if (evalue > 0.0) {
    if (kbp.lambda < 0.0 || kbp.K < 0.0 || kbp.H < 0.0) return s;
    double e = std::max(evalue, 1.0e-297);
    const double es =
        std::ceil(std::log(kbp.K * static_cast<double>(search_space) / e) / kbp.lambda);
    // blastp converts with (Int4), which on x86-64 gives INT4_MIN for NaN (a space below 0)
    // and for values past the int range, so the cutoff then stays 1.
    if (es > s && es < 2147483648.0) s = static_cast<int32_t>(es);
  }
  return s;
}

double bit_score(int32_t score, const KarlinBlock& kbp) {
  return (score * kbp.lambda - kbp.logK) / kLn2;
}

}  // namespace gpuseq::blast
