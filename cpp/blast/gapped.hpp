// Gapped stages of blastp (composition-based statistics off): the preliminary score-only
// X-drop extension and the traceback, with blastp's containment set, common-endpoint purge
// and hit lists (spec: blastp.md sections 11, 12; NCBI blast_gapalign.c Blast_SemiGappedAlign,
// ALIGN_EX, BLAST_GetGappedScore, blast_traceback.c, blast_itree.c, blast_hits.c).
#pragma once

#include <cstdint>
#include <vector>

#include "blast/alphabet.hpp"
#include "blast/semi_gapped.hpp"
#include "blast/statistics.hpp"
#include "blast/ungapped.hpp"

namespace gpuseq::blast {

inline constexpr int kGapOpen = 11;  // blastp's default gap costs
inline constexpr int kGapExtend = 1;

// The letters of one extension direction, 1-based: letter k (1..count) is base[step*(k-1)];
// letter count + 1 is the sentinel code 0 next to the sequence end, which blastp reads.
struct Letters {
  const uint8_t* base = nullptr;
  int32_t count = 0;
  int32_t step = 1;  // +1 to the right of the seed, -1 to the left
  uint8_t operator[](int32_t k) const { return k <= count ? base[step * (k - 1)] : 0; }
};

// The DP's scoring: a matrix [a letter][b letter] and affine gap costs (a gap of k letters
// costs gap_open + k gap_extend). BLOSUM62 and -gapopen/-gapextend except in the
// composition stage, which aligns with a per-subject matrix in 1/32 units and the gap costs
// times 32.
struct DpScoring {
  const ScoreMatrix* matrix;
  int32_t gap_open, gap_extend;
};
DpScoring blosum62_scoring(int32_t gap_open = kGapOpen, int32_t gap_extend = kGapExtend);

// One direction of a semi-gapped X-drop alignment of a (rows) against b (columns).
DpEnd semi_gapped_score(const Letters& a, const Letters& b, int32_t x_drop);

// The same recurrence with a traceback; ops are the alignment columns from the end cell back
// to the start, 'M' (substitution), 'I' (a letter of a against a gap), 'D' (a letter of b).
DpEnd traceback_align(const Letters& a, const Letters& b, int32_t x_drop, std::vector<char>* ops,
                      const DpScoring& scoring = blosum62_scoring());

// A gapped HSP: [q_off, q_end) x [s_off, s_end), seeded at (seed_q, seed_s).
struct GappedHsp {
  int32_t q_off = 0, q_end = 0, s_off = 0, s_end = 0, score = 0;
  int32_t seed_q = 0, seed_s = 0;
  double evalue = 0.0;
  std::vector<char> ops;  // traceback: columns left to right
  // The composition-based method it was realigned with, as blastp's report names it
  // (comp_adjustment_method): 0 none, 1 "Composition-based stats.", 2 "Compositional matrix
  // adjust.".
  int8_t composition_method = 0;
};

// blastp's interval tree as a set (BlastIntervalTreeContainsHSP / BlastIntervalTreeAddHSP).
class ContainmentSet {
 public:
  bool contains(const GappedHsp& h) const;
  void add(const GappedHsp& h);
  void clear() { members_.clear(); }

 private:
  std::vector<GappedHsp> members_;  // coordinates and scores only
};

// Removes the gap runs at either end of an HSP's columns and gives their costs back to the score,
// as blastp's traceback does (spec section 12.2). The left walk starts at the seed pair, which
// it need not align: where nothing is aligned right of the seed, the columns can end in gaps
// (seed 9700940 of the random commands: a seed two query letters past the best end), and
// where the matrix changed since the preliminary stage (composition-based statistics) either
// end can.
void strip_end_gaps(GappedHsp& h, int32_t gap_open, int32_t gap_extend);

// Blast_HSPListPurgeHSPsWithCommonEndpoints then the score order (ScoreCompareHSPs: score
// descending, s_off ascending, s_end descending, q_off ascending, q_end descending).
void purge_common_endpoints(std::vector<GappedHsp>& hsps);
bool ranks_before(const GappedHsp& a, const GappedHsp& b);
void sort_by_score(std::vector<GappedHsp>& hsps);

// The preliminary stage's exact extension of one ungapped HSP (semi_gapped.hpp), as the GPU
// stage computes it ahead for every HSP. ring_columns > 0: in a ring of that many DP columns
// (a power of two) and at most max_rows rows a direction as the GPU's, not done where the live
// columns or the rows do not fit.
SeedExtension seed_extension(const uint8_t* query, int32_t query_length, const uint8_t* subject,
                             int32_t subject_length, const UngappedHsp& u, int32_t x_drop,
                             int32_t ring_columns = 0, int32_t max_rows = 0,
                             int32_t gap_open = kGapOpen, int32_t gap_extend = kGapExtend,
                             const ScoreMatrix& matrix = blosum62());

struct GappedParams {
  int32_t x_drop_prelim = 38;  // trunc(15 bits / lambda_g)
  int32_t x_drop_final = 64;   // trunc(max(25 bits / lambda_g, x_drop_prelim))
  int32_t prelim_cutoff = 0;   // score-only HSPs are kept from this score on
  double evalue = 10.0;
  bool restricted_allowed = true;  // evalue <= 10: blastp may align approximately first
  KarlinBlock kbp;                 // gapped block
  GappedEvalues evalues;           // Spouge's, or the classic ones of -searchsp
  DpScoring scoring = blosum62_scoring();  // the matrix and -gapopen/-gapextend
};

// Preliminary stage for one subject (BLAST_GetGappedScore, then the purge, the score order,
// E-values and the E-value threshold). ungapped: the subject's ungapped HSPs in blastp's order.
// extensions: nullptr, or seed_extension of each ungapped HSP (with params.x_drop_prelim)
// computed ahead; those not done, and restricted alignments, are computed here.
std::vector<GappedHsp> preliminary_gapped(const uint8_t* query, int32_t query_length,
                                          const uint8_t* subject, int32_t subject_length,
                                          const std::vector<UngappedHsp>& ungapped,
                                          const GappedParams& params,
                                          const SeedExtension* extensions = nullptr);

// Traceback stage for one subject (Blast_TracebackFromHSPList without composition-based
// statistics): final HSPs in score order, E-values set, ops filled.
std::vector<GappedHsp> traceback_gapped(const uint8_t* query, int32_t query_length,
                                        const uint8_t* subject, int32_t subject_length,
                                        std::vector<GappedHsp> prelim, const GappedParams& params);

}  // namespace gpuseq::blast
