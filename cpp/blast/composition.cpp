// Composition-based statistics (spec: blastp.md 14); see composition.hpp.
#include "blast/composition.hpp"

#include <algorithm>
#include <climits>
#include <cmath>

#include "blast/seg.hpp"

namespace gpuseq::blast {

namespace {

// Thresholds of the mode-2 rule (compo_mode_condition.c).
constexpr double kQueryMatchDistanceThreshold = 0.16;
constexpr double kLengthRatioThreshold = 3.0;
constexpr double kAngleDegreeThreshold = 70.0;
constexpr double kHighPairThreshold = 0.4;
constexpr int32_t kLengthLowerThreshold = 50;
constexpr double kPi = 3.1415926543;  // NCBI's own value, which the angle test uses

constexpr double kCompoScoreMin = -32768.0;  // COMPO_SCORE_MIN (INT2_MIN)

// s_HighPairFrequencies: a sequence longer than 50 whose two commonest letters make up more
// than 40% of it.
bool high_pair_frequencies(const TrueAaProbabilities& p, int32_t length) {
  if (length <= kLengthLowerThreshold) return false;
  double first = 0.0, second = 0.0;
  for (double v : p) {
    if (v > second) {
      second = v;
      if (v > first) {
        second = first;
        first = v;
      }
    }
  }
  return first + second > kHighPairThreshold;
}

}  // namespace

const std::array<int, kAlphabetSize>& ncbi_to_true_aa() {
  // NCBIstdaa "-ABCDEFGHIKLMNPQRSTVWXYZU*OJ" -> ARNDCQEGHILKMFPSTWYV
  static const std::array<int, kAlphabetSize> table{-1, 0,  -1, 4,  3,  6,  13, 7,  8,  9,
                                                    11, 10, 12, 2,  14, 5,  1,  15, 16, 19,
                                                    17, -1, 18, -1, -1, -1, -1, -1};
  return table;
}

TrueAaProbabilities matrix_background(const ProteinMatrix& matrix) {
  TrueAaProbabilities p{};
  for (int i = 0; i < kTrueAminoAcids; ++i) p[i] = matrix.tables->background[i];
  return p;
}

std::array<TrueAaProbabilities, kTrueAminoAcids> matrix_joint_probabilities(
    const ProteinMatrix& matrix) {
  std::array<TrueAaProbabilities, kTrueAminoAcids> p{};
  for (int i = 0; i < kTrueAminoAcids; ++i)
    for (int j = 0; j < kTrueAminoAcids; ++j)
      p[i][j] = matrix.tables->joint_probabilities[i * kTrueAminoAcids + j];
  return p;
}

AaComposition read_composition(const uint8_t* codes, int64_t length) {
  AaComposition c;
  const auto& true_aa = ncbi_to_true_aa();
  for (int64_t i = 0; i < length; ++i) {
    const uint8_t code = codes[i];
    if (code < kAlphabetSize && (true_aa[code] >= 0 || code == kCodeU)) {
      c.probability[code] += 1.0;
      ++c.true_amino_acids;
    }
  }
  // U counts as C, so that a U does not make a sequence look more complex than its C twin.
  c.probability[kCodeC] += c.probability[kCodeU];
  c.probability[kCodeU] = 0.0;
  if (c.true_amino_acids > 0)
    for (double& p : c.probability) p /= c.true_amino_acids;
  return c;
}

TrueAaProbabilities true_aa_probabilities(const AaComposition& composition) {
  TrueAaProbabilities p{};
  const auto& true_aa = ncbi_to_true_aa();
  for (int code = 0; code < kAlphabetSize; ++code)
    if (true_aa[code] >= 0) p[true_aa[code]] = composition.probability[code];
  return p;
}

double composition_distance(const TrueAaProbabilities& a, const TrueAaProbabilities& b) {
  double value = 0.0;
  for (int i = 0; i < kTrueAminoAcids; ++i) {
    const double mean = (a[i] + b[i]) / 2;
    if (mean > 0) {
      if (a[i] > 0) value += a[i] * std::log(a[i] / mean) / 2;
      if (b[i] > 0) value += b[i] * std::log(b[i] / mean) / 2;
    }
  }
  if (value < 0) value = 0;  // rounding
  return std::sqrt(value);
}

MatrixAdjustRule choose_matrix_adjust_rule(int mode, int32_t query_length, int32_t subject_length,
                                           const TrueAaProbabilities& query,
                                           const TrueAaProbabilities& subject,
                                           const ProteinMatrix& matrix) {
  if (mode == 0) return MatrixAdjustRule::kDontAdjust;
  if (mode == 1) return MatrixAdjustRule::kScaleOldMatrix;
  if (mode != 2) return MatrixAdjustRule::kRelativeEntropy;
  const TrueAaProbabilities background = matrix_background(matrix);
  const double d_subject_matrix = composition_distance(subject, background);
  const double d_query_matrix = composition_distance(query, background);
  const double d_subject_query = composition_distance(subject, query);
  // The angle at the matrix's composition in the triangle of the three distances.
  double angle = std::acos((d_subject_matrix * d_subject_matrix + d_query_matrix * d_query_matrix -
                            d_subject_query * d_subject_query) /
                           2.0 / d_subject_matrix / d_query_matrix);
  angle = angle * 180 / kPi;
  const double len_q = 1.0 * query_length, len_s = 1.0 * subject_length;
  const double len_large = len_q > len_s ? len_q : len_s;
  const double len_small = len_q > len_s ? len_s : len_q;
  if (high_pair_frequencies(query, query_length) || high_pair_frequencies(subject, subject_length))
    return MatrixAdjustRule::kRelativeEntropy;
  if (d_subject_query > kQueryMatchDistanceThreshold &&
      len_large / len_small > kLengthRatioThreshold && angle > kAngleDegreeThreshold)
    return MatrixAdjustRule::kScaleOldMatrix;
  return MatrixAdjustRule::kRelativeEntropy;
}

double lambda_full_precision(const std::vector<double>& scores, int alphabet_size,
                             const double* row_probabilities, const double* column_probabilities,
                             double lambda_tolerance, double function_tolerance, int max_iterations,
                             int* iterations) {
  const int n = alphabet_size;
  auto score = [&](int i, int j) { return scores[static_cast<size_t>(i) * n + j]; };
  double max_score = kCompoScoreMin, mean_score = 0.0;
  for (int i = 0; i < n; ++i) {
    if (row_probabilities[i] == 0.0) continue;
    for (int j = 0; j < n; ++j) {
      if (column_probabilities[j] == 0.0) continue;
      if (max_score < score(i, j)) max_score = score(i, j);
      mean_score += row_probabilities[i] * column_probabilities[j] * score(i, j);
    }
  }
  if (max_score <= 0.0 || mean_score >= 0) {
    if (iterations) *iterations = max_iterations;
    return -1.0;
  }
  // Solve f(x) = -x^M + sum row_i col_j x^(M - S_ij) = 0 for x = exp(-lambda) in (0, 1):
  // Newton steps kept inside the bracket [left, right], bisection when they misbehave.
  double f = 4;  // above any real value of f
  double left = 0, right = 1;
  double x = 0.367879441171;  // exp(-1)
  bool is_newton = false;
  int k = 0;
  for (; k < max_iterations; ++k) {
    const double f_old = f;
    const double lambda = -std::log(x);
    const bool was_newton = is_newton;
    const double x_pow_max = std::exp(-max_score * lambda);
    f = -x_pow_max;
    double slope = max_score * f / x;
    for (int i = 0; i < n; ++i) {
      if (row_probabilities[i] == 0.0) continue;
      for (int j = 0; j < n; ++j) {
        if (column_probabilities[j] == 0.0) continue;
        double term;
        if (max_score != score(i, j)) {
          const double diff = max_score - score(i, j);
          term = row_probabilities[i] * column_probabilities[j] * std::exp(-lambda * diff);
          slope += diff * term / x;
        } else {
          term = row_probabilities[i] * column_probabilities[j];
        }
        f += term;
      }
    }
    if (f > 0) {
      left = x;
    } else if (f < 0) {
      right = x;
    } else {
      break;  // exact
    }
    if (right - left <= 2 * left * (1 - right) * lambda_tolerance &&
        std::fabs(f / x_pow_max) <= function_tolerance) {
      x = (left + right) / 2;
      break;
    }
    if ((was_newton && std::fabs(f) > .9 * std::fabs(f_old)) || slope >= 0) {
      x = (left + right) / 2;
    } else {
      const double step = -f / slope;
      const double y = x + step;
      if (y <= left || y >= right) {
        x = (left + right) / 2;
      } else {
        is_newton = true;
        x = y;
        if (std::fabs(step) <= lambda_tolerance * x * (1 - x) &&
            std::fabs(f / x_pow_max) <= function_tolerance)
          break;
      }
    }
  }
  if (iterations) *iterations = k;
  return k < max_iterations ? -std::log(x) : -1.0;
}

}  // namespace gpuseq::blast

namespace gpuseq::blast {

namespace {

// The linear constraints of the target-frequency problem as a (2n-1) x n^2 matrix A: rows
// 0..n-1 are column sums, rows n..2n-2 the sums of rows 1..n-1 (row 0's sum follows from
// the others). y = beta y + alpha A x.
void multiply_by_a(double beta, double* y, int n, double alpha, const double* x) {
  if (beta == 0.0) {
    for (int i = 0; i < 2 * n - 1; ++i) y[i] = 0.0;
  } else if (beta != 1.0) {
    for (int i = 0; i < 2 * n - 1; ++i) y[i] *= beta;
  }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) y[j] += alpha * x[i * n + j];
  for (int i = 1; i < n; ++i)
    for (int j = 0; j < n; ++j) y[i + n - 1] += alpha * x[i * n + j];
}

// y = beta y + alpha A^T x.
void multiply_by_a_transpose(double beta, double* y, int n, double alpha, const double* x) {
  if (beta == 0.0) {
    for (int k = 0; k < n * n; ++k) y[k] = 0.0;
  } else if (beta != 1.0) {
    for (int k = 0; k < n * n; ++k) y[k] *= beta;
  }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const int k = i * n + j;
      y[k] += alpha * x[j];
      if (i > 0) y[k] += alpha * x[i + n - 1];
    }
}

// Nlm_EuclideanNorm: the 2-norm, scaled against overflow.
double euclidean_norm(const double* v, int n) {
  double sum = 1.0, scale = 0.0;
  for (int i = 0; i < n; ++i) {
    if (v[i] != 0.0) {
      const double a = std::fabs(v[i]);
      if (scale < a) {
        sum = 1.0 + sum * (scale / a) * (scale / a);
        scale = a;
      } else {
        sum += (a / scale) * (a / scale);
      }
    }
  }
  return scale * std::sqrt(sum);
}

// A lower-triangular matrix, row i holding columns 0..i.
using LowerTriangle = std::vector<std::vector<double>>;

// Nlm_FactorLtriangPosDef: Cholesky factor of the symmetric positive definite matrix whose
// lower triangle a holds, in place.
void cholesky_factor(LowerTriangle& a, int m) {
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < i; ++j) {
      double t = a[i][j];
      for (int k = 0; k < j; ++k) t -= a[i][k] * a[j][k];
      a[i][j] = t / a[j][j];
    }
    double t = a[i][i];
    for (int k = 0; k < i; ++k) t -= a[i][k] * a[i][k];
    a[i][i] = std::sqrt(t);
  }
}

// Nlm_SolveLtriangPosDef: solves L L^T y = b in place.
void cholesky_solve(double* x, int m, const LowerTriangle& l) {
  for (int i = 0; i < m; ++i) {
    double t = x[i];
    for (int j = 0; j < i; ++j) t -= l[i][j] * x[j];
    x[i] = t / l[i][i];
  }
  for (int j = m - 1; j >= 0; --j) {
    x[j] /= l[j][j];
    for (int i = 0; i < j; ++i) x[i] -= l[j][i] * x[j];
  }
}

}  // namespace

int optimize_target_frequencies(double* x, int n, int* iterations, const double* q,
                                const double* row_sums, const double* col_sums,
                                bool constrain_relative_entropy, double relative_entropy,
                                double tolerance, int max_iterations) {
  const int nn = n * n;
  const int m_linear = 2 * n - 1;
  const int m = constrain_relative_entropy ? m_linear + 1 : m_linear;
  std::vector<double> resid_x(nn), resid_z(m_linear + 1), z(m_linear + 1, 0.0);
  std::vector<double> old_scores(nn), work(nn), grad_value(nn), grad_re(nn), d_inv(nn);
  LowerTriangle w(2 * n);
  for (int i = 0; i < 2 * n; ++i) w[i].assign(i + 1, 0.0);
  // Scores (lambda 1) of q under the wanted margins: the relative entropy constraint's term.
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      old_scores[i * n + j] = std::log(q[i * n + j] / (row_sums[i] * col_sums[j]));
  for (int k = 0; k < nn; ++k) x[k] = q[k];

  int its = 0;
  double rnorm = 0.0;
  while (its <= max_iterations) {
    // Objective sum x ln(x/q) and the relative entropy constraint, with their gradients.
    double value_re = 0.0;
    for (int k = 0; k < nn; ++k) {
      double t = std::log(x[k] / q[k]);
      grad_value[k] = t + 1;
      if (constrain_relative_entropy) {
        t += old_scores[k];
        value_re += x[k] * t;
        grad_re[k] = t + 1;
      }
    }
    // Residuals: dual (gradient of the Lagrangian) and primal (constraints).
    if (constrain_relative_entropy) {
      const double eta = z[m_linear];
      for (int k = 0; k < nn; ++k) resid_x[k] = -grad_value[k] + eta * grad_re[k];
    } else {
      for (int k = 0; k < nn; ++k) resid_x[k] = -grad_value[k];
    }
    multiply_by_a_transpose(1.0, resid_x.data(), n, 1.0, z.data());
    const double norm_x = euclidean_norm(resid_x.data(), nn);
    for (int i = 0; i < n; ++i) resid_z[i] = col_sums[i];
    for (int i = 1; i < n; ++i) resid_z[i + n - 1] = row_sums[i];
    multiply_by_a(1.0, resid_z.data(), n, -1.0, x);
    double norm_z;
    if (constrain_relative_entropy) {
      resid_z[m_linear] = relative_entropy - value_re;
      norm_z = euclidean_norm(resid_z.data(), 2 * n);
    } else {
      norm_z = euclidean_norm(resid_z.data(), m_linear);
    }
    rnorm = std::sqrt(norm_x * norm_x + norm_z * norm_z);
    if (!(rnorm > tolerance)) break;  // converged (a NaN norm stops too)
    if (++its > max_iterations) break;

    // Factor the Newton system (D J^T; J 0) by block reduction: D is diagonal, W holds the
    // Cholesky factor of J D^-1 J^T.
    if (constrain_relative_entropy) {
      const double eta = z[m - 1];
      for (int k = 0; k < nn; ++k) d_inv[k] = x[k] / (1 - eta);
    } else {
      for (int k = 0; k < nn; ++k) d_inv[k] = x[k];
    }
    for (int r = 0; r < m_linear; ++r)
      for (int c = 0; c <= r; ++c) w[r][c] = 0.0;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        const double d = d_inv[i * n + j];
        w[j][j] += d;
        if (i > 0) {
          w[i + n - 1][j] += d;
          w[i + n - 1][i + n - 1] += d;
        }
      }
    if (constrain_relative_entropy) {
      w[m - 1][m - 1] = 0.0;
      for (int k = 0; k < nn; ++k) {
        work[k] = d_inv[k] * grad_re[k];
        w[m - 1][m - 1] += grad_re[k] * work[k];
      }
      multiply_by_a(0.0, w[m - 1].data(), n, 1.0, work.data());
    }
    cholesky_factor(w, m);

    // Solve for the step (in resid_x, resid_z).
    for (int k = 0; k < nn; ++k) work[k] = resid_x[k] * d_inv[k];
    multiply_by_a(1.0, resid_z.data(), n, -1.0, work.data());
    if (constrain_relative_entropy)
      for (int k = 0; k < nn; ++k) resid_z[m - 1] -= grad_re[k] * work[k];
    cholesky_solve(resid_z.data(), m, w);
    if (constrain_relative_entropy)
      for (int k = 0; k < nn; ++k) resid_x[k] += grad_re[k] * resid_z[m - 1];
    multiply_by_a_transpose(1.0, resid_x.data(), n, 1.0, resid_z.data());
    for (int k = 0; k < nn; ++k) resid_x[k] *= d_inv[k];

    // Nlm_StepBound: the largest step up to 1/0.95 that keeps x non-negative, times 0.95.
    double alpha = 1.0 / .95;
    for (int k = 0; k < nn; ++k) {
      const double to_boundary = -x[k] / resid_x[k];
      if (to_boundary >= 0 && to_boundary < alpha) alpha = to_boundary;
    }
    alpha *= 0.95;
    for (int k = 0; k < nn; ++k) x[k] += alpha * resid_x[k];
    for (int i = 0; i < m; ++i) z[i] += alpha * resid_z[i];
  }
  if (iterations) *iterations = its;
  const bool converged =
      its <= max_iterations && rnorm <= tolerance && (!constrain_relative_entropy || z[m - 1] < 1);
  return converged ? 0 : 1;
}

}  // namespace gpuseq::blast

namespace gpuseq::blast {

namespace {

constexpr int kPseudocounts = 20;                // kReMatrixAdjustmentPseudocounts
constexpr double kTargetRelativeEntropy = 0.44;  // kFixedReBlosum62
constexpr double kMaximumXScore = -1.0;
constexpr double kAdjustTolerance = 0.00000001;
constexpr int kAdjustIterationLimit = 2000;
constexpr double kLambdaRatioLowerBound = 0.5;

// NCBIstdaa codes the adjustment treats specially.
constexpr int kB = 2, kD = 4, kE = 5, kI = 9, kL = 11, kN = 13, kQ = 15, kZ = 23, kJ = 27;
constexpr int kStop = 25;

using RealMatrix = std::array<std::array<double, kAlphabetSize>, kAlphabetSize>;

// NCBI's Nint: round half away from zero, then truncate.
long nint(double x) {
  x += (x >= 0. ? 0.5 : -0.5);
  return static_cast<long>(x);
}

// Blast_FreqRatioToScore on a whole matrix.
void ratios_to_scores(RealMatrix& m, double lambda) {
  for (auto& row : m)
    for (double& v : row) v = (0.0 == v) ? kCompoScoreMin : std::log(v) / lambda;
}

// s_RoundScoreMatrix.
void round_scores(ScoreMatrix* out, const RealMatrix& m) {
  for (int i = 0; i < kAlphabetSize; ++i)
    for (int j = 0; j < kAlphabetSize; ++j)
      (*out)[i][j] = m[i][j] < INT_MIN ? INT_MIN : static_cast<int>(nint(m[i][j]));
}

// s_CalcAvgScore: the mean of scores[k * stride] over the true amino acids k.
double average_score(const double* scores, int stride, const double* probabilities) {
  double sum = 0.0;
  const auto& true_aa = ncbi_to_true_aa();
  for (int j = 0; j < kAlphabetSize; ++j)
    if (true_aa[j] >= 0) sum += scores[j * stride] * probabilities[j];
  return sum;
}

double x_score(const double* scores, int stride, const double* probabilities) {
  const double average = average_score(scores, stride, probabilities);
  return average < kMaximumXScore ? average : kMaximumXScore;
}

// s_SetXUOScores: X scores are averages (at most -1), U scores as C, O as X.
void set_xuo_scores(RealMatrix& m, const double* row_probs, const double* col_probs) {
  const auto& true_aa = ncbi_to_true_aa();
  double score_xx = 0.0;
  for (int i = 0; i < kAlphabetSize; ++i) {
    if (true_aa[i] >= 0) {
      const double average_ix = average_score(m[i].data(), 1, col_probs);
      m[i][kCodeX] = average_ix < kMaximumXScore ? average_ix : kMaximumXScore;
      score_xx += average_ix * row_probs[i];
      m[kCodeX][i] = x_score(&m[0][i], kAlphabetSize, row_probs);
    }
  }
  m[kCodeX][kCodeX] = score_xx < kMaximumXScore ? score_xx : kMaximumXScore;
  for (int ambiguous : {kB, kZ, kJ}) {
    m[ambiguous][kCodeX] = x_score(m[ambiguous].data(), 1, col_probs);
    m[kCodeX][ambiguous] = x_score(&m[0][ambiguous], kAlphabetSize, row_probs);
  }
  m[kCodeU] = m[kCodeC];
  for (int i = 0; i < kAlphabetSize; ++i) m[i][kCodeU] = m[i][kCodeC];
  m[kCodeO] = m[kCodeX];
  for (int i = 0; i < kAlphabetSize; ++i) m[i][kCodeO] = m[i][kCodeX];
}

void copy_stop_scores(ScoreMatrix* m, const ScoreMatrix& start) {
  for (int i = 0; i < kAlphabetSize; ++i) {
    (*m)[i][kStop] = start[i][kStop];
    (*m)[kStop][i] = start[kStop][i];
  }
}

// s_ScaleSquareMatrix: the matrix's frequency ratios at lambda, X/U/O under the compositions.
void scale_square_matrix(ScoreMatrix* out, const double* row_probs, const double* col_probs,
                         double lambda, const ScoreMatrix& start, const ProteinMatrix& matrix) {
  RealMatrix scores;
  for (int i = 0; i < kAlphabetSize; ++i)
    for (int j = 0; j < kAlphabetSize; ++j)
      scores[i][j] = matrix.tables->frequency_ratios[i * kAlphabetSize + j];
  ratios_to_scores(scores, lambda);
  set_xuo_scores(scores, row_probs, col_probs);
  round_scores(out, scores);
  copy_stop_scores(out, start);
}

// Blast_CompositionBasedStats (Schaffer et al. 2001): lambda of the start matrix under the two
// compositions; the matrix rescaled by the ratio to the standard lambda, clamped to [0.5, 1].
double composition_based_stats(ScoreMatrix* out, const double* query_prob,
                               const double* subject_prob, double scaled_lambda,
                               const ScoreMatrix& start, const ProteinMatrix& matrix) {
  // s_GetScoreRange and s_GetMatrixScoreProbs over the true amino acid columns.
  const auto& true_aa = ncbi_to_true_aa();
  int min_score = 0, max_score = 0;
  for (int i = 0; i < kAlphabetSize; ++i)
    for (int j = 0; j < kAlphabetSize; ++j) {
      if (true_aa[j] < 0) continue;
      const int s = start[i][j];
      if (s < min_score && s > kCompoScoreMin) min_score = s;
      if (s > max_score) max_score = s;
    }
  std::vector<double> probs(max_score - min_score + 1, 0.0);
  for (int i = 0; i < kAlphabetSize; ++i)
    for (int j = 0; j < kAlphabetSize; ++j) {
      if (true_aa[j] < 0) continue;
      if (start[i][j] >= min_score)
        probs[start[i][j] - min_score] += query_prob[i] * subject_prob[j];
    }
  // s_CalcLambda
  double mean = 0.0;
  for (int k = 0; k <= max_score - min_score; ++k) mean += (min_score + k) * probs[k];
  const double lambda = karlin_lambda_nr(probs.data(), min_score, max_score, mean, scaled_lambda);
  double ratio = lambda / scaled_lambda;
  if (ratio > 1) ratio = 1;
  if (ratio < kLambdaRatioLowerBound) ratio = kLambdaRatioLowerBound;
  scale_square_matrix(out, query_prob, subject_prob, scaled_lambda / ratio, start, matrix);
  return ratio;
}

// Blast_ApplyPseudocounts: mix the observed frequencies with the background.
void apply_pseudocounts(TrueAaProbabilities& probs, int observations,
                        const TrueAaProbabilities& background) {
  double sum = 0.0;
  for (double p : probs) sum += p;
  if (sum == 0.0) sum = 1.0;
  const double pseudocounts = kPseudocounts;
  const double weight = pseudocounts / (observations + pseudocounts);
  for (int i = 0; i < kTrueAminoAcids; ++i)
    probs[i] = (1.0 - weight) * probs[i] / sum + weight * background[i];
}

// s_UnpackLetterProbs and s_SetPairAmbigProbsToSum: ARND... probabilities by NCBIstdaa code,
// B, Z and J the sums of their two letters.
std::array<double, kAlphabetSize> unpack_probabilities(const TrueAaProbabilities& p) {
  std::array<double, kAlphabetSize> out{};
  const auto& true_aa = ncbi_to_true_aa();
  for (int c = 0; c < kAlphabetSize; ++c) out[c] = true_aa[c] >= 0 ? p[true_aa[c]] : 0.0;
  out[kB] = out[kD] + out[kN];
  out[kZ] = out[kE] + out[kQ];
  out[kJ] = out[kI] + out[kL];
  return out;
}

// s_ScoresStdAlphabet: target frequencies (20 x 20) as NCBIstdaa scores at lambda.
void scores_from_target_frequencies(ScoreMatrix* out, const std::vector<double>& target,
                                    const TrueAaProbabilities& row_prob,
                                    const TrueAaProbabilities& col_prob, double lambda,
                                    const ScoreMatrix& start) {
  const std::array<double, kAlphabetSize> rows = unpack_probabilities(row_prob);
  const std::array<double, kAlphabetSize> cols = unpack_probabilities(col_prob);
  // Blast_TrueAaToStdTargetFreqs: normalised, ambiguity pairs summed.
  const auto& true_aa = ncbi_to_true_aa();
  double sum = 0.0;
  for (int a = 0; a < kTrueAminoAcids; ++a)
    for (int b = 0; b < kTrueAminoAcids; ++b) sum += target[a * kTrueAminoAcids + b];
  RealMatrix m{};
  for (int a_code = 0; a_code < kAlphabetSize; ++a_code) {
    const int a = true_aa[a_code];
    if (a < 0) continue;  // rows of other codes stay 0
    for (int b_code = 0; b_code < kAlphabetSize; ++b_code) {
      const int b = true_aa[b_code];
      m[a_code][b_code] = b < 0 ? 0.0 : target[a * kTrueAminoAcids + b] / sum;
    }
    m[a_code][kB] = m[a_code][kD] + m[a_code][kN];
    m[a_code][kZ] = m[a_code][kE] + m[a_code][kQ];
    m[a_code][kJ] = m[a_code][kI] + m[a_code][kL];
  }
  for (auto [pair, first, second] : {std::array<int, 3>{kB, kD, kN}, {kZ, kE, kQ}, {kJ, kI, kL}}) {
    m[pair] = m[first];
    for (int c = 0; c < kAlphabetSize; ++c) m[pair][c] += 1.0 * m[second][c];
  }
  // Blast_CalcFreqRatios
  for (int i = 0; i < kAlphabetSize; ++i)
    if (rows[i] > 0)
      for (int j = 0; j < kAlphabetSize; ++j)
        if (cols[j] > 0) m[i][j] /= (rows[i] * cols[j]);
  ratios_to_scores(m, lambda);
  set_xuo_scores(m, rows.data(), cols.data());
  round_scores(out, m);
  copy_stop_scores(out, start);
}

// Blast_CompositionMatrixAdj with a target relative entropy (eUserSpecifiedRelEntropy).
int relative_entropy_matrix(ScoreMatrix* out, const AaComposition& query,
                            const AaComposition& subject, double scaled_lambda,
                            const ScoreMatrix& start, const ProteinMatrix& matrix) {
  // Blast_GetJointProbsForMatrix: the joint probabilities and their margins, summed here.
  const auto joint = matrix_joint_probabilities(matrix);
  std::vector<double> q(kTrueAminoAcids * kTrueAminoAcids);
  TrueAaProbabilities first_margin{}, second_margin{};
  for (int i = 0; i < kTrueAminoAcids; ++i)
    for (int j = 0; j < kTrueAminoAcids; ++j) {
      q[i * kTrueAminoAcids + j] = joint[i][j];
      first_margin[i] += joint[i][j];
      second_margin[j] += joint[i][j];
    }
  TrueAaProbabilities row_probs = true_aa_probabilities(query);
  TrueAaProbabilities col_probs = true_aa_probabilities(subject);
  apply_pseudocounts(row_probs, query.true_amino_acids, first_margin);
  apply_pseudocounts(col_probs, subject.true_amino_acids, second_margin);
  std::vector<double> target(q.size());
  int iterations = 0;
  const int status =
      optimize_target_frequencies(target.data(), kTrueAminoAcids, &iterations, q.data(),
                                  row_probs.data(), col_probs.data(), kTargetRelativeEntropy > 0.0,
                                  kTargetRelativeEntropy, kAdjustTolerance, kAdjustIterationLimit);
  if (status != 0) return status;
  scores_from_target_frequencies(out, target, row_probs, col_probs, scaled_lambda, start);
  return 0;
}

}  // namespace

ScoreMatrix matrix_at_lambda(const ProteinMatrix& matrix, double lambda) {
  ScoreMatrix out;
  for (int i = 0; i < kAlphabetSize; ++i)
    for (int j = 0; j < kAlphabetSize; ++j) {
      const double ratio = matrix.tables->frequency_ratios[i * kAlphabetSize + j];
      const double score = 0.0 == ratio ? kCompoScoreMin : std::log(ratio) / lambda;
      out[i][j] = score < INT_MIN ? INT_MIN : static_cast<int>(nint(score));
    }
  return out;
}

MatrixAdjustment adjust_scores(ScoreMatrix* matrix, int mode, const AaComposition& query,
                               int32_t query_length, const AaComposition& subject,
                               int32_t subject_length, double scaled_lambda,
                               const ScoreMatrix& start_matrix, const ProteinMatrix& scoring) {
  MatrixAdjustment result;
  if (query.true_amino_acids == 0 || subject.true_amino_acids == 0) {
    result.status = 1;  // e.g. a subject SEG masked entirely: nothing to adjust to
    return result;
  }
  result.rule = mode == 1 ? MatrixAdjustRule::kScaleOldMatrix
                          : choose_matrix_adjust_rule(mode, query_length, subject_length,
                                                      true_aa_probabilities(query),
                                                      true_aa_probabilities(subject), scoring);
  if (result.rule != MatrixAdjustRule::kScaleOldMatrix) {
    if (relative_entropy_matrix(matrix, query, subject, scaled_lambda, start_matrix, scoring) == 0)
      return result;
    result.rule = MatrixAdjustRule::kScaleOldMatrix;  // the optimisation failed
  }
  result.lambda_ratio =
      composition_based_stats(matrix, query.probability.data(), subject.probability.data(),
                              scaled_lambda, start_matrix, scoring);
  return result;
}

}  // namespace gpuseq::blast

namespace gpuseq::blast {

namespace {

constexpr double kContainmentBits = 2.0;  // KAPPA_BIT_TOL

// The near-identity test (blast_kappa.c s_TestNearIdentical): a subject aligning almost
// identically to the query keeps its low-complexity regions (no SEG). Identities are counted
// along the alignment's ranges allowing shifts of up to 8 letters, 8-letter words re-anchoring.
constexpr int kMaxShift = 8;
constexpr int kWordSize = 8;
constexpr uint64_t kWordMask = 0xFFFFFFFFFFull;
constexpr double kNearIdenticalBitsPerPosition = 1.74;
constexpr int32_t kMinimumLengthNearIdentical = 50;
constexpr double kMinFractionNearIdentical = 0.96;

int extend_right(const uint8_t* q, int qlen, const uint8_t* s, int slen, int* q_ext, int* s_ext,
                 int* align_len) {
  int identical = 0, qp = 0, sp = 0, gaps_q = 0, gaps_s = 0;
  while (qp < qlen && sp < slen) {
    bool match = false;
    while (qp < qlen && sp < slen && q[qp] == s[sp]) {
      ++identical;
      ++qp;
      ++sp;
    }
    for (int n = 1; n < kMaxShift && qp + n + 1 < qlen && sp + n + 1 < slen && !match; ++n) {
      if (q[qp + n] == s[sp + n] && q[qp + n + 1] == s[sp + n + 1]) {
        qp += n + 2;
        sp += n + 2;
        identical += 2;
        match = true;
      }
      if (!match && q[qp + n] == s[sp] && q[qp + n + 1] == s[sp + 1]) {
        qp += n + 2;
        sp += 2;
        identical += 2;
        gaps_s += n;
        match = true;
      }
      if (!match && q[qp] == s[sp + n] && q[qp + 1] == s[sp + n + 1]) {
        qp += 2;
        sp += n + 2;
        identical += 2;
        gaps_q += n;
        match = true;
      }
    }
    if (!match) break;
  }
  *q_ext = qp;
  *s_ext = sp;
  *align_len = qp > sp ? qp + gaps_q : sp + gaps_s;
  return identical;
}

int extend_left(const uint8_t* q, int qlen, const uint8_t* s, int slen, int* q_ext, int* s_ext,
                int* align_len) {
  int identical = 0, qp = qlen - 1, sp = slen - 1, gaps_q = 0, gaps_s = 0;
  while (qp >= 0 && sp >= 0) {
    bool match = false;
    while (qp > 0 && sp > 0 && q[qp] == s[sp]) {
      ++identical;
      --qp;
      --sp;
    }
    for (int n = 1; n < kMaxShift && qp - n - 1 > 0 && sp - n - 1 > 0 && !match; ++n) {
      if (q[qp - n] == s[sp - n] && q[qp - n - 1] == s[sp - n - 1]) {
        qp -= n + 2;
        sp -= n + 2;
        identical += 2;
        match = true;
      }
      if (!match && q[qp - n] == s[sp] && q[qp - n - 1] == s[sp - 1]) {
        qp -= n + 2;
        sp -= 2;
        identical += 2;
        gaps_s += n;
        match = true;
      }
      if (!match && q[qp] == s[sp - n] && q[qp - 1] == s[sp - n - 1]) {
        qp -= 2;
        sp -= n + 2;
        identical += 2;
        gaps_q += n;
        match = true;
      }
    }
    if (!match) break;
  }
  *q_ext = qlen - qp - 1;
  *s_ext = slen - sp - 1;
  *align_len += *q_ext > *s_ext ? *q_ext + gaps_q : *s_ext + gaps_s;
  return identical;
}

uint64_t word_hash(const uint8_t* data) {
  uint64_t hash = 0;
  for (int k = 0; k < kWordSize; ++k) {
    hash <<= 5;
    hash += data[k];
  }
  return hash;
}

// s_CreateWordArray: the hash of the word starting at each query position (the last one left
// 0, as NCBI leaves it); empty for a query shorter than a word.
std::vector<uint64_t> query_words(const uint8_t* query, int32_t length) {
  if (length < kWordSize) return {};
  std::vector<uint64_t> words(length - kWordSize + 1, 0);
  words[0] = word_hash(query);
  for (int32_t i = 1; i < length - kWordSize; ++i)
    words[i] = ((words[i - 1] << 5) & kWordMask) + query[i + kWordSize - 1];
  return words;
}

int count_identical(const uint8_t* q, const uint64_t* q_words, int qlen, const uint8_t* s,
                    int slen) {  // s_FindNumIdentical
  if (!q_words || qlen < kWordSize || slen < kWordSize) return 0;
  uint64_t hash = 0;
  int q_from = 0, s_from = 0, identical = 0;
  bool match = false;
  for (int sp = 0; sp < slen - kWordSize; ++sp) {
    if (sp == 0 || match) {
      hash = word_hash(s + sp);
    } else {
      hash <<= 5;
      hash &= kWordMask;
      hash += s[sp + kWordSize - 1];
    }
    int qp = q_from;
    for (; qp < qlen - kWordSize; ++qp)
      if (q_words[qp] == hash) break;
    if (qp < qlen - kWordSize) {
      const int q_start = qp, s_start = sp;
      int ql, sl, qr, sr, al = 0, ar = 0;
      match = true;
      identical += kWordSize;
      identical +=
          extend_left(q + q_from, q_start - q_from, s + s_from, s_start - s_from, &ql, &sl, &al);
      identical += extend_right(q + q_start + kWordSize, qlen - q_start - kWordSize,
                                s + s_start + kWordSize, slen - s_start - kWordSize, &qr, &sr, &ar);
      q_from = q_start + kWordSize + qr;
      s_from = s_start + kWordSize + sr;
      sp = s_from - 1;
    } else {
      match = false;
    }
  }
  return identical;
}

bool near_identical(const uint8_t* subject, const uint8_t* query,
                    const std::vector<uint64_t>& words,
                    const GappedHsp& a) {  // s_TestNearIdentical
  const int q_start = a.q_off, q_end = a.q_end - 1, s_start = a.s_off, s_end = a.s_end - 1;
  const int qlen = q_end - q_start + 1, slen = s_end - s_start + 1;
  const int align_len = std::min(qlen, slen);
  int ql = 0, sl = 0, qr = 0, sr = 0, al = 0, ar = 0;
  int identical = extend_right(query + q_start, qlen, subject + s_start, slen, &qr, &sr, &ar);
  auto fraction_ok = [&] {
    return static_cast<double>(identical) / static_cast<double>(align_len) >
           kMinFractionNearIdentical;
  };
  if (qr >= qlen || sr >= slen) return fraction_ok();
  identical += extend_left(query + q_start + qr, qlen - qr, subject + s_start + sr, slen - sr, &ql,
                           &sl, &al);
  if (ql + qr >= qlen || sl + sr >= slen) return fraction_ok();
  identical +=
      count_identical(query + q_start + qr, words.empty() ? nullptr : words.data() + q_start + qr,
                      qlen - ql - qr, subject + s_start + sr, slen - sl - sr);
  return fraction_ok();
}

// KAPPA_CONTAINED_IN_HSP / CONTAINED_IN_HSP: both corners of inner inside outer, inclusive.
bool corners_inside(const GappedHsp& outer, const GappedHsp& inner) {
  auto inside = [&](int32_t q, int32_t s) {
    return outer.q_off <= q && outer.q_end >= q && outer.s_off <= s && outer.s_end >= s;
  };
  return inside(inner.q_off, inner.s_off) && inside(inner.q_end, inner.s_end);
}

// s_IsSameEndPoint: the same start, or the same end, in query and subject.
bool same_end_point(const GappedHsp& a, const GappedHsp& h) {
  return (a.q_off == h.q_off && a.s_off == h.s_off) || (a.q_end == h.q_end && a.s_end == h.s_end);
}

// s_IsSimilarEndPoint: h's start (or end) inside a, on the diagonal of a's start (end).
bool similar_end_point(const GappedHsp& a, const GappedHsp& h) {
  auto inside = [&](int32_t q, int32_t s) {
    return a.q_off <= q && a.q_end >= q && a.s_off <= s && a.s_end >= s;
  };
  return (inside(h.q_off, h.s_off) && h.q_off - h.s_off == a.q_off - a.s_off) ||
         (inside(h.q_end, h.s_end) && h.q_end - h.s_end == a.q_end - a.s_end);
}

}  // namespace

std::vector<GappedHsp> composition_realign(const uint8_t* query, int32_t query_length,
                                           const AaComposition& query_composition,
                                           const uint8_t* subject, int32_t subject_length,
                                           const std::vector<GappedHsp>& prelim,
                                           const RedoParams& params,
                                           int32_t* best_scaled_score) {
  std::vector<GappedHsp> aligned;  // NCBI's list: newest first
  if (prelim.empty()) return aligned;
  const std::vector<uint64_t> words = query_words(query, query_length);
  const double near_cutoff = kNearIdenticalBitsPerPosition * kLn2 / params.kbp.lambda;
  // s_preliminaryTestNearIdentical: long enough and scoring enough per position.
  auto maybe_near_identical = [&](const GappedHsp& in) {
    if (in.s_end - in.s_off + 1 < std::min(query_length, kMinimumLengthNearIdentical)) return false;
    const int32_t align_len = std::min(in.q_end - in.q_off, in.s_end - in.s_off);
    return static_cast<double>(in.score * kCompoScalingFactor) / align_len >= near_cutoff;
  };
  std::vector<uint8_t> data;  // the subject as aligned: SEG-masked unless near-identical
  // The matrix before the subject's first adjustment. blastp keeps one per thread across
  // subjects: BLOSUM62 in standard units until an adjustment succeeds, then the last adjusted
  // one, which a subject whose adjustment fails (no true amino acid) realigns its later HSPs
  // with. A query without true amino acids fails every adjustment: BLOSUM62 for all (with
  // the scaled gap costs and lambda, so little passes). Otherwise the scaled matrix stands in
  // for the previous subject's; only an unmasked subject without true amino acids meets it.
  ScoreMatrix matrix =
      query_composition.true_amino_acids == 0 ? params.matrix->scores : params.start_matrix;
  const DpScoring scoring{&matrix, params.gap_open, params.gap_extend};
  const double containment = kContainmentBits * kLn2 / params.kbp.lambda;
  bool maybe_biased = true, near = true, old_near = false;
  int adjustments = 0;
  // Blast_RedoOneMatch's matrix_adjust_rule: none until an adjustment of this subject succeeds
  // (one that fails for want of true amino acids leaves it as it was).
  int8_t method = 0;
  std::vector<char> left_ops, right_ops;
  for (size_t index = 0; index < prelim.size(); ++index) {
    const GappedHsp& in = prelim[index];
    if (index == 0 || maybe_biased) near = maybe_near_identical(in);
    if (index == 0 || (maybe_biased && near != old_near)) {
      data.assign(subject, subject + subject_length);
      // s_SequenceGetProteinRange: the near-identity test looks at the subject's best HSP.
      if (maybe_biased && (!near || !near_identical(data.data(), query, words, prelim[0])))
        maybe_biased = seg_mask(data.data(), subject_length, kCompositionSegParameters);
    }
    // s_IsContained: inside a realigned HSP scoring at least 2 bits more.
    const double in_score = static_cast<double>(in.score * kCompoScalingFactor);
    bool contained = false;
    for (const GappedHsp& a : aligned)
      if (corners_inside(a, in) && in_score + containment <= a.score) contained = true;
    if (contained) {
      old_near = near;
      continue;
    }
    bool adjust_failed = false;
    if (index == 0 || near != old_near) {
      const MatrixAdjustment adjustment =
          adjust_scores(&matrix, params.mode, query_composition, query_length,
                        read_composition(data.data(), subject_length), subject_length,
                        params.scaled_lambda, params.start_matrix, *params.matrix);
      adjust_failed = adjustment.status != 0;  // no true amino acids: this HSP is dropped
      if (!adjust_failed) method = adjustment.rule == MatrixAdjustRule::kScaleOldMatrix ? 1 : 2;
      ++adjustments;
    }
    old_near = near;
    if (adjust_failed) continue;
    const uint8_t* target = data.data();
    const int32_t qs = in.seed_q, ss = in.seed_s;
    const DpEnd left =
        traceback_align(Letters{query + qs, qs + 1, -1}, Letters{target + ss, ss + 1, -1},
                        params.x_drop, &left_ops, scoring);
    const DpEnd right = traceback_align(Letters{query + qs + 1, query_length - qs - 1, 1},
                                        Letters{target + ss + 1, subject_length - ss - 1, 1},
                                        params.x_drop, &right_ops, scoring);
    GappedHsp h;
    h.seed_q = qs;
    h.seed_s = ss;
    h.q_off = qs - left.a_len + 1;
    h.s_off = ss - left.b_len + 1;
    h.q_end = qs + right.a_len + 1;
    h.s_end = ss + right.b_len + 1;
    h.score = left.score + right.score;
    h.composition_method = method;
    h.ops = left_ops;
    h.ops.insert(h.ops.end(), right_ops.rbegin(), right_ops.rend());
    strip_end_gaps(h, params.gap_open, params.gap_extend);
    if (h.score < 1) continue;
    // s_WithDistinctEnds: an HSP sharing a start or an end with a better one is dropped; a
    // new one replaces those it shares an end with. Once a second matrix adjustment has been
    // made for the subject (the near-identity status changed: HSPs realigned on the unmasked
    // subject may reach farther), "sharing" is an end inside the better HSP on the diagonal of
    // its end (is_same_adjustment false). Found by the random blastp commands (seed 10340131).
    const bool same_adjustment = adjustments == 1;
    bool include = true;
    for (const GappedHsp& a : aligned)
      if ((same_adjustment ? same_end_point(a, h) : similar_end_point(a, h)) &&
          h.score <= a.score) {
        include = false;
        break;
      }
    if (!include) continue;
    std::vector<GappedHsp> next;
    next.push_back(std::move(h));
    for (GappedHsp& a : aligned) {
      if (same_end_point(a, next.front())) continue;
      next.push_back(std::move(a));
    }
    aligned = std::move(next);
  }
  sort_by_score(aligned);
  // s_HitlistReapContained: drop an HSP inside an earlier one that scores at least as much.
  std::vector<bool> dropped(aligned.size(), false);
  for (size_t r = 1; r < aligned.size(); ++r)
    for (size_t b = 0; b < r && !dropped[r]; ++b)
      if (!dropped[b] && corners_inside(aligned[b], aligned[r]) &&
          aligned[r].score <= aligned[b].score)
        dropped[r] = true;
  std::vector<GappedHsp> result;
  double best = 0.0;
  bool any = false;
  for (size_t r = 0; r < aligned.size(); ++r) {
    if (dropped[r]) continue;
    GappedHsp& h = aligned[r];
    h.evalue = params.evalues(h.score, params.kbp, query_length, subject_length);
    if (h.evalue > params.evalue) continue;
    if (!any || h.evalue < best) best = h.evalue;
    any = true;
    result.push_back(std::move(h));
  }
  if (!any || best > params.evalue) return {};
  if (best_scaled_score) *best_scaled_score = result.front().score;
  for (GappedHsp& h : result)  // s_HSPListNormalizeScores: back to BLOSUM62 units
    h.score = static_cast<int32_t>(nint(static_cast<double>(h.score) / kCompoScalingFactor));
  // An HSP whose score rounds to 0 stays: it holds its subject's place in the hit list, and
  // blastp drops it only as it writes the output (gapped_search's final lists).
  return result;
}

}  // namespace gpuseq::blast
