// Ungapped stage: blastp's two-hit rule and ungapped X-drop extension
// (spec: blastp.md sections 8, 9, 10; NCBI aa_ungapped.c s_BlastAaWordFinder_TwoHit,
// s_BlastAaExtendTwoHit, s_BlastAaExtendLeft, s_BlastAaExtendRight).
#pragma once

#include <cstdint>
#include <vector>

#include "blast/lookup.hpp"
#include "blast/two_hit.hpp"

namespace gpuseq::blast {

inline constexpr int kTwoHitWindow = 40;

// One ungapped alignment: [q_start, q_start + length) x [s_start, s_start + length).
// (seed_q, seed_s) is the second word hit that triggered the extension.
struct UngappedHsp {
  int32_t q_start = 0, s_start = 0, length = 0, score = 0;
  int32_t seed_q = 0, seed_s = 0;
  int32_t context = 0;  // which query (offsets are relative to its start)
};

struct UngappedParams {
  int32_t x_drop = 16;  // raw score, ceil(7 bits) for the query (statistics)
  int32_t cutoff = 1;   // keep extensions scoring at least this
  int32_t window = kTwoHitWindow;
};

// Per-subject work space of the two-hit method (one per thread).
class TwoHitFinder {
 public:
  TwoHitFinder(const WordLookup& lookup, const uint8_t* query, int32_t query_length,
               const UngappedParams& params);
  // Several queries scanned together: `codes` holds them with one 0 between neighbours and
  // the lookup table lists their words only. HSPs carry their context and its offsets.
  TwoHitFinder(const WordLookup& lookup, const uint8_t* codes, std::vector<QueryContext> contexts,
               int32_t window = kTwoHitWindow);

  // The ungapped HSPs of one subject scoring at least params.cutoff, in the order blastp
  // keeps its HSP list: score descending, s_start ascending, s_end descending, q_start
  // ascending, q_end descending (ScoreCompareHSPs). Adds the number of word hits and of
  // extensions to the counters.
  std::vector<UngappedHsp> run(const uint8_t* subject, int32_t subject_length,
                               int64_t* word_hits = nullptr, int64_t* extensions = nullptr);

 private:
  int32_t context_of(int32_t q) const;

  const WordLookup& lookup_;
  const uint8_t* query_;  // all queries
  int32_t query_length_;  // of the whole buffer
  std::vector<QueryContext> contexts_;
  int32_t window_;
  std::vector<DiagonalState> diagonals_;  // per diagonal d = q - s
};

// blastp's ScoreCompareHSPs: score descending, s_start ascending, s_end descending, q_start
// ascending, q_end descending.
bool ranks_before(const UngappedHsp& a, const UngappedHsp& b);

// Orders HSPs as blastp's ScoreCompareHSPs does (a stable sort).
void sort_by_score(std::vector<UngappedHsp>& hsps);

}  // namespace gpuseq::blast
