#include "blast/ungapped.hpp"

#include <algorithm>
#include <limits>
#include <tuple>

#include "blast/alphabet.hpp"

namespace gpuseq::blast {

namespace {

constexpr int32_t kFarLeft = std::numeric_limits<int32_t>::min() / 2;

}  // namespace

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

// s_BlastAaExtendTwoHit: (q, s) is the second hit, first_end one past the first hit's word.
TwoHitFinder::Extension TwoHitFinder::extend(const uint8_t* subject, int32_t subject_length,
                                             int32_t q, int32_t s, int32_t first_end,
                                             int32_t x_drop) const {
  const ScoreMatrix& m = blosum62();

  // Start the left extension one past the best-scoring prefix of the second word.
  int32_t prefix_best = 0, prefix_len = 0, acc = 0;
  for (int i = 0; i < kWordSize; ++i) {
    acc += m[query_[q + i]][subject[s + i]];
    if (acc > prefix_best) {
      prefix_best = acc;
      prefix_len = i + 1;
    }
  }
  const int32_t q0 = q + prefix_len, s0 = s + prefix_len;

  // Left: positions (q0-1-t, s0-1-t) for t = 0..min(q0-1, s0-1); no stop at score <= 0.
  int32_t left_best = 0, left_len = 0;
  {
    const int32_t n = std::min(q0 - 1, s0 - 1);
    int32_t score = 0;
    for (int32_t t = 0; t <= n; ++t) {
      score += m[query_[q0 - 1 - t]][subject[s0 - 1 - t]];
      if (score > left_best) {
        left_best = score;
        left_len = t + 1;
      }
      if (left_best - score >= x_drop) break;
    }
  }

  Extension ext;
  int32_t right_best = 0, right_len = 0;
  // The right extension runs only if the left one reached back to the first hit.
  if (left_len >= s0 - first_end) {
    ext.right_extended = true;
    const int32_t n = std::min(subject_length - s0, query_length_ - q0);
    right_best = left_best;
    int32_t score = left_best, t = 0;
    for (; t < n; ++t) {
      score += m[query_[q0 + t]][subject[s0 + t]];
      if (score > right_best) {
        right_best = score;
        right_len = t + 1;
      }
      if (score <= 0 || right_best - score >= x_drop) break;
    }
    ext.s_last = s0 + t;
  }
  ext.hsp.q_start = q0 - left_len;
  ext.hsp.s_start = s0 - left_len;
  ext.hsp.length = left_len + right_len;
  ext.hsp.score = std::max(left_best, right_best);
  ext.hsp.seed_q = q;
  ext.hsp.seed_s = s;
  return ext;
}

std::vector<UngappedHsp> TwoHitFinder::run(const uint8_t* subject, int32_t subject_length,
                                           int64_t* word_hits, int64_t* extensions) {
  std::vector<UngappedHsp> hsps;
  if (subject_length < kWordSize || query_length_ < kWordSize) return hsps;
  // Fresh diagonal state per subject (blastp's running offset has the same effect).
  diagonals_.assign(static_cast<size_t>(query_length_) + subject_length, Diagonal{kFarLeft, 0});
  // Diagonal d = q - s lives at d + subject_length; locals keep the hot loop in registers.
  Diagonal* const diagonal = diagonals_.data() + subject_length;
  const int32_t window = window_;
  const bool several = contexts_.size() > 1;
  int64_t hits = 0, extended = 0;

  // The scan of scan_subject (lookup.hpp), written out for the two-hit state machine.
  for (int32_t s = 0; s + kWordSize <= subject_length; ++s) {
    const int cell = word_index(subject + s);
    const int32_t* q_end = lookup_.end(cell);
    for (const int32_t* qp = lookup_.begin(cell); qp != q_end; ++qp) {
      const int32_t q = *qp;
      ++hits;
      Diagonal& diag = diagonal[q - s];
      if (diag.extended) {
        if (s < diag.last_hit) continue;  // inside the stretch the last extension covered
        diag.last_hit = s;
        diag.extended = 0;
        continue;
      }
      const int64_t distance = static_cast<int64_t>(s) - diag.last_hit;
      if (distance >= window) {
        diag.last_hit = s;
        continue;
      }
      if (distance < kWordSize) continue;  // overlaps the remembered hit
      const int32_t c = several ? context_of(q) : 0;
      const QueryContext& context = contexts_[c];
      if (q - distance < context.start) {  // the remembered hit was in the previous query
        diag.last_hit = s;
        continue;
      }
      ++extended;
      Extension ext =
          extend(subject, subject_length, q, s, diag.last_hit + kWordSize, context.x_drop);
      if (ext.hsp.score >= context.cutoff) {
        ext.hsp.context = c;
        ext.hsp.q_start -= context.start;
        ext.hsp.seed_q -= context.start;
        hsps.push_back(ext.hsp);
      }
      if (ext.right_extended) {
        diag.extended = 1;
        diag.last_hit = ext.s_last - (kWordSize - 1);
      } else {
        diag.last_hit = s;
      }
    }
  }

  if (word_hits) *word_hits += hits;
  if (extensions) *extensions += extended;
  sort_by_score(hsps);
  return hsps;
}

void sort_by_score(std::vector<UngappedHsp>& hsps) {
  std::stable_sort(hsps.begin(), hsps.end(), [](const UngappedHsp& a, const UngappedHsp& b) {
    return std::make_tuple(-a.score, a.s_start, -(a.s_start + a.length), a.q_start,
                           -(a.q_start + a.length)) <
           std::make_tuple(-b.score, b.s_start, -(b.s_start + b.length), b.q_start,
                           -(b.q_start + b.length));
  });
}

}  // namespace gpuseq::blast
