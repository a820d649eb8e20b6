// Karlin-Altschul statistics as blastp 2.12 computes them (spec: blastp.md sections 5, 13).
// Every function names the NCBI routine whose arithmetic it follows; the operation order is
// kept so that the doubles, and therefore cutoffs and printed E-values, come out the same.
#pragma once

#include <cstdint>
#include <vector>

namespace gpuseq::blast {

inline constexpr double kLn2 = 0.69314718055994530941723212145818;  // NCBIMATH_LN2

struct KarlinBlock {
  double lambda = -1.0;
  double K = -1.0;
  double logK = 0.0;
  double H = -1.0;
  bool valid() const { return lambda > 0.0 && K > 0.0 && H > 0.0; }
};

// Tabulated parameters of a row of blast_stat.c's tables: lambda, K, H, alpha, beta.
struct TabulatedParams {
  double lambda, K, H, alpha, beta;
};

// One row of blast_stat.c's table of a matrix: the gap costs it holds for (a gap of k letters
// costs gap_open + k gap_extend; 32767/32767 is the ungapped row), the gapped block and
// alpha, beta of the length adjustment (Altschul et al. 2001), then Spouge's C, alpha_v and
// sigma of the finite-size correction. The rows of each matrix: matrices.hpp.
struct GapCostRow {
  int32_t gap_open, gap_extend;
  TabulatedParams params;
  double C, alpha_v, sigma;
};
inline constexpr int32_t kUngappedRowCost = 32767;  // INT2_MAX: the ungapped row's gap costs

// The gapped block of a row (the same for every query): lambda, K, ln K, H.
KarlinBlock gapped_karlin(const GapCostRow& row);

// BLAST_GetAlphaBeta for a gapped search: the length adjustment's alpha and beta, the row's,
// but 0 and 0 for the ungapped row (32767/32767, the first), which its look-up skips.
struct AlphaBeta {
  double alpha, beta;
};
AlphaBeta gapped_alpha_beta(const GapCostRow& row);

// Gumbel parameters for Spouge's finite-size correction (Blast_GumbelBlkLoadFromTables: the
// row's, with the matrix's ungapped row; b, Beta, Tau derived as NCBI derives them).
struct GumbelBlock {
  double lambda, C, G, a, Alpha, Sigma, a_un, Alpha_un, b, Beta, Tau;
  int64_t db_length;  // total database residues (or -dbsize)
};
GumbelBlock gumbel_block(const GapCostRow& row, const GapCostRow& ungapped, int64_t db_length);

// BLAST_SpougeStoE: the database-wide E-value of a raw score for a query of length m and a
// subject of length n (real lengths). kbp: the block the score is in (gapped).
double spouge_evalue(int32_t score, const KarlinBlock& kbp, const GumbelBlock& gbp, int32_t m,
                     int32_t n);

// BLAST_SpougeEtoS: the largest score whose E-value is still above e0 (blastp saves gapped
// HSPs scoring at least this).
int32_t spouge_cutoff(double e0, const KarlinBlock& kbp, const GumbelBlock& gbp, int32_t m,
                      int32_t n);

struct ProteinMatrix;

// The query's own ungapped block (Blast_ScoreBlkKbpUngappedCalc): query residue frequencies
// (X not counted) against Robinson & Robinson background frequencies under the matrix.
// codes: the query's NCBIstdaa search buffer. The block is invalid (lambda = -1) when the
// score distribution has no negative mean, e.g. a query of X only.
KarlinBlock query_ungapped_karlin(const uint8_t* codes, int64_t length,
                                  const ProteinMatrix& matrix);

// Blast_KarlinLambdaNR on score probabilities over [min_score, max_score] (probabilities[0]
// is min_score's) with their mean, starting from lambda_guess; -1 when no lambda exists.
double karlin_lambda_nr(const double* probabilities, int min_score, int max_score, double mean,
                        double lambda_guess);

// The ideal ungapped lambda of a matrix (Blast_ScoreBlkKbpIdealCalc): Robinson & Robinson
// frequencies on both sides. The composition stage works at this lambda over 32.
double ideal_ungapped_lambda(const ProteinMatrix& matrix);

// BLAST_ComputeLengthAdjustment: the integer length adjustment of the effective lengths.
int32_t length_adjustment(double K, double logK, double alpha_over_lambda, double beta,
                          int32_t query_length, int64_t db_length, int32_t db_sequences);

// BLAST_CalcEffLengths for one query: (db_length - N*adj) * (query_length - adj), the
// effective database length at least 1.
int64_t effective_search_space(int32_t query_length, int64_t db_length, int32_t db_sequences,
                               int32_t adjustment);

// BLAST_KarlinStoE_simple: searchsp * K * exp(-lambda * S).
double karlin_evalue(int32_t score, const KarlinBlock& kbp, int64_t search_space);

// How blastp computes gapped E-values: Spouge's (a Gumbel block), or, where -searchsp was given,
// the classic searchsp K exp(-lambda S) over the query's search space. blastp's -searchsp sets
// OLD_FSC, and with it blastp makes no Gumbel block (BlastScoreBlkNew), so every gapped E-value
// and cutoff takes the classic formula, even for -searchsp 0 (then over the computed space,
// which a huge -dbsize can wrap below 0 as blastp's 64-bit product does).
struct GappedEvalues {
  GumbelBlock gbp{};
  bool classic = false;      // -searchsp given
  int64_t search_space = 0;  // classic: the query's search space
  double operator()(int32_t score, const KarlinBlock& kbp, int32_t m, int32_t n) const;
};

// BLAST_Cutoffs without gap decay: the smallest score whose E-value over search_space is at
// most evalue (BlastKarlinEtoS_simple), and at least 1.
int32_t cutoff_score(double evalue, const KarlinBlock& kbp, int64_t search_space);

// (lambda * S - ln K) / ln 2 (Blast_HSPListGetBitScores).
double bit_score(int32_t score, const KarlinBlock& kbp);

}  // namespace gpuseq::blast
