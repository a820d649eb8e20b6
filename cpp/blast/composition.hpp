// Composition-based statistics for blastp (-comp_based_stats 1 and 2; spec: blastp.md 14):
// residue compositions as blastp counts them, the rule that picks a subject's matrix
// adjustment, and the lambda of a score matrix under two compositions. Functions name the
// NCBI routine (composition_adjustment/) whose arithmetic they follow, in the same order.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "blast/alphabet.hpp"
#include "blast/gapped.hpp"
#include "blast/matrices.hpp"
#include "blast/statistics.hpp"

namespace gpuseq::blast {

// The 20 true amino acids, in NCBI's composition order ARNDCQEGHILKMFPSTWYV.
inline constexpr int kTrueAminoAcids = 20;
using TrueAaProbabilities = std::array<double, kTrueAminoAcids>;

// Index in ARNDCQEGHILKMFPSTWYV of each NCBIstdaa code, -1 for the others (B, X, Z, U, ...).
const std::array<int, kAlphabetSize>& ncbi_to_true_aa();

// A matrix's background letter probabilities (Blast_GetMatrixBackgroundFreq).
TrueAaProbabilities matrix_background(const ProteinMatrix& matrix = blosum62_matrix());
// A matrix's joint pair probabilities, [i][j] in ARNDCQEGHILKMFPSTWYV order.
std::array<TrueAaProbabilities, kTrueAminoAcids> matrix_joint_probabilities(
    const ProteinMatrix& matrix = blosum62_matrix());

struct AaComposition {
  std::array<double, kAlphabetSize> probability{};  // by NCBIstdaa code; 0 for non-true codes
  int32_t true_amino_acids = 0;                     // how many letters were counted
};

// Blast_ReadAaComposition: the frequencies of the 20 true amino acids among themselves, U
// counted as C; every other letter (X, B, Z, J, O, *) is left out.
AaComposition read_composition(const uint8_t* codes, int64_t length);

// s_GatherLetterProbs: a composition in ARNDCQEGHILKMFPSTWYV order.
TrueAaProbabilities true_aa_probabilities(const AaComposition& composition);

// Blast_GetRelativeEntropy: the square root of the Jensen-Shannon divergence of a and b
// (the "distance" of the mode-2 rule).
double composition_distance(const TrueAaProbabilities& a, const TrueAaProbabilities& b);

// What a subject's matrix becomes (EMatrixAdjustRule).
enum class MatrixAdjustRule {
  kDontAdjust,      // mode 0
  kScaleOldMatrix,  // Schaffer et al. 2001: BLOSUM62 rescaled by a lambda ratio (mode 1)
  kRelativeEntropy  // Yu & Altschul 2005: target frequencies at relative entropy 0.44
};

// Blast_ChooseMatrixAdjustRule for blastp's modes 0-3. Lengths are the full sequence lengths,
// probabilities the true_aa_probabilities of query and subject.
MatrixAdjustRule choose_matrix_adjust_rule(int mode, int32_t query_length, int32_t subject_length,
                                           const TrueAaProbabilities& query,
                                           const TrueAaProbabilities& subject,
                                           const ProteinMatrix& matrix = blosum62_matrix());

// Blast_CalcLambdaFullPrecision: the positive lambda with
// sum_ij row_i col_j exp(lambda S_ij) = 1, by NCBI's safeguarded Newton iteration in
// x = exp(-lambda). scores: alphabet_size x alphabet_size, row major. Returns -1 when no
// lambda exists (non-negative mean or no positive score) or the iteration limit is reached;
// iterations receives the iteration count (max_iterations when it failed).
double lambda_full_precision(const std::vector<double>& scores, int alphabet_size,
                             const double* row_probabilities, const double* column_probabilities,
                             double lambda_tolerance, double function_tolerance, int max_iterations,
                             int* iterations = nullptr);

// Blast_OptimizeTargetFrequencies (Yu & Altschul 2005): the target frequencies x (n x n, row
// major) nearest to q in relative entropy whose row sums are row_sums, whose column sums are
// col_sums and, when constrain_relative_entropy, whose relative entropy under those margins
// is relative_entropy; Newton's method on the optimality conditions, steps kept inside the
// positive orthant. Returns 0 when it converged to a minimizer, 1 otherwise; iterations
// receives the number of Newton steps.
int optimize_target_frequencies(double* x, int n, int* iterations, const double* q,
                                const double* row_sums, const double* col_sums,
                                bool constrain_relative_entropy, double relative_entropy,
                                double tolerance, int max_iterations);

// blastp's composition stage works in scores scaled by 32 (SCALING_FACTOR in blast_kappa.c).
inline constexpr int kCompoScalingFactor = 32;

// Blast_Int4MatrixFromFreq: a matrix's frequency ratios as scores at lambda (rounded with
// NCBI's Nint; a zero ratio, e.g. the gap code's, scores -32768). At the ideal ungapped
// lambda / 32 this is the start matrix of the composition stage.
ScoreMatrix matrix_at_lambda(const ProteinMatrix& matrix, double lambda);

struct MatrixAdjustment {
  int status = 0;  // 0 adjusted; 1 a sequence without true amino acids (matrix untouched)
  MatrixAdjustRule rule = MatrixAdjustRule::kDontAdjust;
  double lambda_ratio = 1.0;  // scaling only (the scaled matrix is at lambda / this)
};

// Blast_AdjustScores for blastp's modes 1-3 (no composition p-value): the subject's matrix in
// matrix, from the start matrix (matrix_at_lambda(scoring, scaled_lambda)) and the compositions;
// lengths are the full sequence lengths (the mode-2 rule's). The relative-entropy adjustment
// (target relative entropy 0.44, 20 pseudocounts) falls back to scaling when its
// optimisation fails.
MatrixAdjustment adjust_scores(ScoreMatrix* matrix, int mode, const AaComposition& query,
                               int32_t query_length, const AaComposition& subject,
                               int32_t subject_length, double scaled_lambda,
                               const ScoreMatrix& start_matrix,
                               const ProteinMatrix& scoring = blosum62_matrix());

// The composition stage's realignment of one subject (Blast_RedoOneMatch for blastp, then
// s_HitlistReapContained, s_HitlistEvaluateAndPurge and s_HSPListNormalizeScores).
struct RedoParams {
  int mode = 2;
  double scaled_lambda = 0.0;  // the ideal ungapped lambda / 32
  const ProteinMatrix* matrix = &blosum62_matrix();  // -matrix
  ScoreMatrix start_matrix{};  // matrix_at_lambda(*matrix, scaled_lambda)
  KarlinBlock kbp;             // the gapped block with lambda / 32
  GappedEvalues evalues;  // Spouge's, or the classic ones of -searchsp
  double evalue = 10.0;
  int32_t x_drop = 0;  // trunc(max(25 ln2 / (lambda_g / 32), the unscaled final X-drop))
  int32_t gap_open = 11 * kCompoScalingFactor, gap_extend = kCompoScalingFactor;  // x 32
};

// prelim: the subject's preliminary HSPs in score order (unscaled scores, seeds). The query
// has U replaced by C; the subject is SEG-masked here. Returns the subject's HSPs in score
// order with E-values (from the scaled scores), scores rounded back to BLOSUM62 units, and
// columns; empty when the best E-value is above params.evalue. best_scaled_score (if given):
// the best HSP's score in 1/32 units, which blastp's composition heap ranks subjects on.
std::vector<GappedHsp> composition_realign(const uint8_t* query, int32_t query_length,
                                           const AaComposition& query_composition,
                                           const uint8_t* subject, int32_t subject_length,
                                           const std::vector<GappedHsp>& prelim,
                                           const RedoParams& params,
                                           int32_t* best_scaled_score = nullptr);

// Tolerances blastp uses for that lambda (composition_adjustment.c).
inline constexpr int kCompoLambdaIterationLimit = 100;
inline constexpr double kCompoLambdaErrorTolerance = 0.0000001;
inline constexpr double kCompoLambdaFunctionTolerance = 0.00001;

}  // namespace gpuseq::blast
