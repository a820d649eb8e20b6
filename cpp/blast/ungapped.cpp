#include "blast/ungapped.hpp"

#include <algorithm>
#include <limits>
#include <tuple>

#include "blast/alphabet.hpp"

namespace gpuseq::blast {

TwoHitFinder::TwoHitFinder(const WordLookup& lookup, const uint8_t* query, int32_t query_length,
                           const UngappedParams& params)
    : TwoHitFinder(lookup, query, {QueryContext{0, query_length, params.x_drop, params.cutoff}},
                   params.window) {}

TwoHitFinder::TwoHitFinder(const WordLookup& lookup, const uint8_t* codes,
                           std::vector<QueryContext> contexts, int32_t window)
    : lookup_(lookup),
      query_(codes),
      query_length_(contexts.empty() ? 0 : contexts.back().start + contexts.back().length),
      contexts_(std::move(contexts)),
      window_(window) {}

int32_t TwoHitFinder::context_of(int32_t q) const {  // BSearchContextInfo
  auto it = std::upper_bound(contexts_.begin(), contexts_.end(), q,
                             [](int32_t v, const QueryContext& c) { return v < c.start; });
  return static_cast<int32_t>(it - contexts_.begin()) - 1;
}

std::vector<UngappedHsp> TwoHitFinder::run(const uint8_t* subject, int32_t subject_length,
                                           int64_t* word_hits, int64_t* extensions) {
  std::vector<UngappedHsp> hsps;
  if (subject_length < kWordSize || query_length_ < kWordSize) return hsps;
  // Fresh diagonal state per subject (blastp's running offset has the same effect).
  diagonals_.assign(static_cast<size_t>(query_length_) + subject_length, DiagonalState{});
  // Diagonal d = q - s lives at d + subject_length; locals keep the hot loop in registers.
  DiagonalState* const diagonal = diagonals_.data() + subject_length;
  const int32_t window = window_;
  const bool several = contexts_.size() > 1;
  int64_t hits = 0, extended = 0;
  const ScoreMatrix& m = lookup_.matrix();
  const uint8_t* const query = query_;
  const auto score = [&m, query](int32_t q, uint8_t b) { return m[query[q]][b]; };

  // The scan of scan_subject (lookup.hpp), written out for the two-hit state machine.
  for (int32_t s = 0; s + kWordSize <= subject_length; ++s) {
    const int cell = word_index(subject + s);
    const int32_t* q_end = lookup_.end(cell);
    for (const int32_t* qp = lookup_.begin(cell); qp != q_end; ++qp) {
      const int32_t q = *qp;
      ++hits;
      const bool ran = two_hit_step(
          diagonal[q - s], q, s, window, contexts_.data(),
          [&](int32_t at) { return several ? context_of(at) : 0; },
          [&](int32_t hq, int32_t hs, int32_t first_end, int32_t x_drop) {
            return extend_two_hit(query_length_, subject, subject_length, hq, hs, first_end, x_drop,
                                  score);
          },
          [&](const TwoHitExtension& ext, int32_t c) {
            const int32_t start = contexts_[c].start;
            hsps.push_back(UngappedHsp{ext.q_start - start, ext.s_start, ext.length, ext.score,
                                       q - start, s, c});
          });
      extended += ran;
    }
  }

  if (word_hits) *word_hits += hits;
  if (extensions) *extensions += extended;
  sort_by_score(hsps);
  return hsps;
}

bool ranks_before(const UngappedHsp& a, const UngappedHsp& b) {
  return std::make_tuple(-a.score, a.s_start, -(a.s_start + a.length), a.q_start,
                         -(a.q_start + a.length)) <
         std::make_tuple(-b.score, b.s_start, -(b.s_start + b.length), b.q_start,
                         -(b.q_start + b.length));
}

void sort_by_score(std::vector<UngappedHsp>& hsps) {
  std::stable_sort(hsps.begin(), hsps.end(), ranks_before);
}

}  // namespace gpuseq::blast
