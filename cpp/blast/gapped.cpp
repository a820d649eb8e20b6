#include "blast/gapped.hpp"

#include <algorithm>
#include <stdexcept>
#include <tuple>

#include "blast/alphabet.hpp"
#include "blast/semi_gapped.hpp"

namespace gpuseq::blast {

namespace {

constexpr int32_t kMinInt = kDpMinInt;
constexpr double kRestrictedFraction = 0.68;  // kRestrictedMult of BLAST_GetGappedScore

// The traceback of the DP (semi_gapped.hpp's Trace): one byte per computed cell, row by row,
// with each row's first column and length.
struct Trace {
  std::vector<uint8_t> bytes;
  std::vector<int64_t> row_offset;  // index of the row's first byte
  std::vector<int32_t> row_first;   // column of the row's first byte
  std::vector<int32_t> row_size;    // columns recorded in the row
  void start(int32_t size) {        // row 0: a horizontal gap
    row_offset.push_back(0);
    row_first.push_back(0);
    bytes.assign(size, kDpGapInA);
    row_size.push_back(size);
  }
  void begin_row(int32_t first) {
    row_offset.push_back(static_cast<int64_t>(bytes.size()));
    row_first.push_back(first);
  }
  void cell(uint8_t op) { bytes.push_back(op); }
  void end_row() { row_size.push_back(static_cast<int32_t>(bytes.size() - row_offset.back())); }
  uint8_t at(int32_t i, int32_t j) const {
    if (j < row_first[i] || j >= row_first[i] + row_size[i])
      throw std::logic_error("blast traceback left the computed band");
    return bytes[row_offset[i] + (j - row_first[i])];
  }
};

// The H and E rows of one X-drop DP over n columns, per thread, reused by every call (the DPs
// never run nested). Columns are written before they are read (row 0, then cells appended at
// row ends), so the rows need no clearing between calls.
ColumnRows dp_rows(int32_t n) {
  thread_local std::vector<int32_t> h_scratch, e_scratch;
  if (h_scratch.size() < static_cast<size_t>(n) + 2) {
    h_scratch.resize(static_cast<size_t>(n) + 2);
    e_scratch.resize(static_cast<size_t>(n) + 2);
  }
  return {h_scratch.data(), e_scratch.data()};
}

template <int Step, class Tracer>
DpEnd align_directed(const DirectedLetters<Step>& a, const DirectedLetters<Step>& b, int32_t x_drop,
                     Tracer& trace, const DpScoring& scoring) {
  DpEnd end;
  semi_gapped_dp(a, b, &(*scoring.matrix)[0][0], scoring.gap_open, scoring.gap_extend, x_drop,
                 dp_rows(b.count), trace, end);
  return end;
}

DpEnd align(const Letters& a, const Letters& b, int32_t x_drop, Trace* trace,
            const DpScoring& scoring = blosum62_scoring()) {
  if (a.step != b.step) throw std::logic_error("blast DP: both sequences in one direction");
  NoTrace none;
  if (a.step > 0) {
    const DirectedLetters<1> da{a.base, a.count}, db{b.base, b.count};
    return trace ? align_directed(da, db, x_drop, *trace, scoring)
                 : align_directed(da, db, x_drop, none, scoring);
  }
  const DirectedLetters<-1> da{a.base, a.count}, db{b.base, b.count};
  return trace ? align_directed(da, db, x_drop, *trace, scoring)
               : align_directed(da, db, x_drop, none, scoring);
}

// s_RestrictedGappedAlign (Cameron et al. 2004), blastp's approximate score-only extension
// for large databases: gaps may open only every kRestrictStep letters. In rows i with
// i % kRestrictStep != 0 no horizontal gap is used or updated; vertical gaps are read and
// updated only at the columns b_gap, b_gap + 10, ... of the row. Pruning, the best cell and
// the row ends are as in align(); a row without horizontal gaps hands the row end its last
// diagonal candidate as if it were one (blastp's behaviour).
constexpr int32_t kRestrictStep = 10;  // RESTRICT_SIZE

template <int Step>
DpEnd restricted_align(const DirectedLetters<Step>& a, const DirectedLetters<Step>& b,
                       int32_t x_drop, const DpScoring& scoring) {
  DpEnd end;
  const int32_t m = a.count, n = b.count;
  if (m <= 0 || n <= 0) return end;
  const ScoreMatrix& matrix = *scoring.matrix;
  const int32_t oe = scoring.gap_open + scoring.gap_extend, e = scoring.gap_extend;
  const int32_t x = std::max(x_drop, oe);
  const ColumnRows rows = dp_rows(n);
  int32_t* const H = rows.H;
  int32_t* const E = rows.E;

  H[0] = 0;
  E[0] = -oe;
  int32_t v = -oe, size = 1;
  for (; size <= n && v >= -x; ++size) {
    H[size] = v;
    E[size] = v - oe;
    v -= e;
  }
  int32_t best = 0, first = 0, b_gap = 0;
  for (int32_t i = 1; i <= m; ++i) {
    const auto& row = matrix[a[i]];
    const bool horizontal = i % kRestrictStep == 0;  // horizontal gaps allowed in this row
    int32_t cur = kMinInt, F = kMinInt, last = first;
    for (int32_t j = first; j < size; ++j) {
      const int32_t diag = H[j] + row[b[j + 1]];
      const bool vertical = j == b_gap;
      int32_t e_col = 0;
      if (vertical) {
        b_gap += kRestrictStep;
        e_col = E[j];
        if (cur < e_col) cur = e_col;
      }
      if (horizontal && cur < F) cur = F;
      if (best - cur > x) {
        H[j] = kMinInt;
        if (j == first) ++first;
      } else {
        last = j;
        if (cur > best) {
          best = cur;
          end.a_len = i;
          end.b_len = j;
        }
        if (horizontal) F = std::max(cur - oe, F - e);
        if (vertical) E[j] = std::max(cur - oe, e_col - e);
        H[j] = cur;
      }
      cur = diag;
    }
    if (!horizontal) F = cur;
    if (first == size) break;
    // The first column of the next row where a vertical gap may open.
    b_gap = first;
    if (first % kRestrictStep > 0) b_gap += kRestrictStep - first % kRestrictStep;
    if (last < size - 1) {
      size = last + 1;
    } else {
      while (F >= best - x && size <= n) {
        H[size] = F;
        E[size] = F - oe;
        F -= e;
        ++size;
      }
    }
    if (size <= n) {
      H[size] = kMinInt;
      E[size] = kMinInt;
      ++size;
    }
  }
  end.score = best;
  return end;
}

// The letters from `from` towards the sequence start (seed included) or towards its end.
Letters leftward(const uint8_t* s, int32_t from) { return Letters{s + from, from + 1, -1}; }
Letters rightward(const uint8_t* s, int32_t from, int32_t length) {
  return Letters{s + from, std::max(length - from, 0), 1};
}

// Of two HSPs with a common start or end, whether the one already in the set stays: the
// higher score, then the shorter query extent, then the shorter subject extent, then it.
bool member_wins(const GappedHsp& t, const GappedHsp& h) {
  if (t.score != h.score) return t.score > h.score;
  const int32_t tq = t.q_end - t.q_off, hq = h.q_end - h.q_off;
  if (tq != hq) return tq < hq;
  const int32_t ts = t.s_end - t.s_off, hs = h.s_end - h.s_off;
  if (ts != hs) return ts < hs;
  return true;
}

}  // namespace

DpScoring blosum62_scoring(int32_t gap_open, int32_t gap_extend) {
  return {&blosum62(), gap_open, gap_extend};
}

DpEnd semi_gapped_score(const Letters& a, const Letters& b, int32_t x_drop) {
  return align(a, b, x_drop, nullptr);
}

DpEnd traceback_align(const Letters& a, const Letters& b, int32_t x_drop, std::vector<char>* ops,
                      const DpScoring& scoring) {
  Trace trace;
  DpEnd end = align(a, b, x_drop, &trace, scoring);
  ops->clear();
  if (a.count <= 0 || b.count <= 0) return end;
  int32_t i = end.a_len, j = end.b_len;
  uint8_t state = kDpSub;
  while (i > 0 || j > 0) {
    const uint8_t v = trace.at(i, j);
    if (state == kDpGapInA)
      state = (v & kDpExtendA) ? kDpGapInA : (v & kDpOpMask);
    else if (state == kDpGapInB)
      state = (v & kDpExtendB) ? kDpGapInB : (v & kDpOpMask);
    else
      state = v & kDpOpMask;
    if (state == kDpGapInA) {
      --j;
      ops->push_back('D');
    } else if (state == kDpGapInB) {
      --i;
      ops->push_back('I');
    } else {
      --i;
      --j;
      ops->push_back('M');
    }
  }
  return end;
}

void strip_end_gaps(GappedHsp& h, int32_t gap_open, int32_t gap_extend) {
  auto run = [](auto begin, auto end) {
    int32_t n = 0;
    for (auto it = begin; it != end && *it != 'M' && *it == *begin; ++it) ++n;
    return n;
  };
  // Every gap run before the first pair and after the last, each with its opening cost, as
  // BLAST_GappedAlignmentWithTraceback prunes them: a walk can end in an insertion run and a
  // deletion run (random blastp seed 17230050: "IIDD" after its last pair).
  while (!h.ops.empty() && h.ops.front() != 'M') {
    const int32_t n = run(h.ops.begin(), h.ops.end());
    if (h.ops.front() == 'I')
      h.q_off += n;
    else
      h.s_off += n;
    h.score += gap_open + n * gap_extend;
    h.ops.erase(h.ops.begin(), h.ops.begin() + n);
  }
  while (!h.ops.empty() && h.ops.back() != 'M') {
    const int32_t n = run(h.ops.rbegin(), h.ops.rend());
    if (h.ops.back() == 'I')
      h.q_end -= n;
    else
      h.s_end -= n;
    h.score += gap_open + n * gap_extend;
    h.ops.resize(h.ops.size() - n);
  }
}

bool ContainmentSet::contains(const GappedHsp& h) const {
  for (const GappedHsp& t : members_) {
    if (h.score <= t.score && t.q_off <= h.q_off && h.q_off <= t.q_end && t.s_off <= h.s_off &&
        h.s_off <= t.s_end && t.q_off <= h.q_end && h.q_end <= t.q_end && t.s_off <= h.s_end &&
        h.s_end <= t.s_end)
      return true;
  }
  return false;
}

void ContainmentSet::add(const GappedHsp& h) {
  GappedHsp copy;  // the set needs coordinates and scores only
  copy.q_off = h.q_off;
  copy.q_end = h.q_end;
  copy.s_off = h.s_off;
  copy.s_end = h.s_end;
  copy.score = h.score;
  // A common start point, then a common end point: the better HSP of the two stays.
  for (auto it = members_.begin(); it != members_.end(); ++it) {
    if (it->q_off == h.q_off && it->s_off == h.s_off) {
      if (member_wins(*it, h)) return;
      members_.erase(it);
      break;
    }
  }
  for (auto it = members_.begin(); it != members_.end(); ++it) {
    if (it->q_end == h.q_end && it->s_end == h.s_end) {
      if (member_wins(*it, h)) return;
      members_.erase(it);
      break;
    }
  }
  members_.push_back(copy);
}

bool ranks_before(const GappedHsp& a, const GappedHsp& b) {
  return std::make_tuple(-a.score, a.s_off, -a.s_end, a.q_off, -a.q_end) <
         std::make_tuple(-b.score, b.s_off, -b.s_end, b.q_off, -b.q_end);
}

void sort_by_score(std::vector<GappedHsp>& hsps) {
  std::stable_sort(hsps.begin(), hsps.end(),
                   [](const GappedHsp& a, const GappedHsp& b) { return ranks_before(a, b); });
}

void purge_common_endpoints(std::vector<GappedHsp>& hsps) {
  if (hsps.size() < 2) return;
  std::stable_sort(hsps.begin(), hsps.end(), [](const GappedHsp& a, const GappedHsp& b) {
    return std::make_tuple(a.q_off, a.s_off, -a.score, -a.q_end, -a.s_end) <
           std::make_tuple(b.q_off, b.s_off, -b.score, -b.q_end, -b.s_end);
  });
  std::vector<GappedHsp> kept;
  for (GappedHsp& h : hsps)
    if (kept.empty() || kept.back().q_off != h.q_off || kept.back().s_off != h.s_off)
      kept.push_back(std::move(h));
  std::stable_sort(kept.begin(), kept.end(), [](const GappedHsp& a, const GappedHsp& b) {
    return std::make_tuple(a.q_end, a.s_end, -a.score, -a.q_off, -a.s_off) <
           std::make_tuple(b.q_end, b.s_end, -b.score, -b.q_off, -b.s_off);
  });
  hsps.clear();
  for (GappedHsp& h : kept)
    if (hsps.empty() || hsps.back().q_end != h.q_end || hsps.back().s_end != h.s_end)
      hsps.push_back(std::move(h));
}

namespace {

// The preliminary stage's DPs for extend_seed: exact, blastp's restricted approximation, or
// (ring_columns > 0) exact in a ring of that many columns and at most max_rows rows as the
// GPU's, not done where the live columns or the rows do not fit.
struct PrelimDp {
  int32_t x_drop;
  bool restricted;
  DpScoring scoring;
  int32_t ring_columns = 0, max_rows = 0;
  template <int Step>
  bool operator()(const DirectedLetters<Step>& a, const DirectedLetters<Step>& b,
                  DpEnd& end) const {
    if (restricted) {
      end = restricted_align(a, b, x_drop, scoring);
      return true;
    }
    NoTrace none;
    const int* matrix = &(*scoring.matrix)[0][0];
    if (ring_columns > 0) {
      thread_local std::vector<DpColumn> ring;
      ring.resize(static_cast<size_t>(ring_columns));
      return semi_gapped_dp(a, b, matrix, scoring.gap_open, scoring.gap_extend, x_drop,
                            RingRows{ring.data(), ring_columns - 1, max_rows}, none, end);
    }
    return semi_gapped_dp(a, b, matrix, scoring.gap_open, scoring.gap_extend, x_drop,
                          dp_rows(b.count), none, end);
  }
};

}  // namespace

SeedExtension seed_extension(const uint8_t* query, int32_t query_length, const uint8_t* subject,
                             int32_t subject_length, const UngappedHsp& u, int32_t x_drop,
                             int32_t ring_columns, int32_t max_rows, int32_t gap_open,
                             int32_t gap_extend, const ScoreMatrix& matrix) {
  if (ring_columns < 0 || (ring_columns & (ring_columns - 1)) != 0)
    throw std::invalid_argument("ring_columns must be 0 or a power of two");
  if (ring_columns > 0 && max_rows < 1) throw std::invalid_argument("max_rows must be positive");
  return extend_seed(query, query_length, subject, subject_length, u.q_start, u.s_start, u.length,
                     &matrix[0][0],
                     PrelimDp{x_drop, false, DpScoring{&matrix, gap_open, gap_extend},
                              ring_columns, max_rows});
}

std::vector<GappedHsp> preliminary_gapped(const uint8_t* query, int32_t query_length,
                                          const uint8_t* subject, int32_t subject_length,
                                          const std::vector<UngappedHsp>& ungapped,
                                          const GappedParams& params,
                                          const SeedExtension* extensions) {
  std::vector<GappedHsp> hsps;
  ContainmentSet tree;
  // Approximate (restricted) alignment when even the best ungapped HSP scores below 68% of
  // the cutoff; a score between that and the cutoff is inconclusive: then everything found
  // so far is dropped and the subject is aligned again exactly.
  const auto restricted_cutoff = static_cast<int32_t>(kRestrictedFraction * params.prelim_cutoff);
  bool restricted =
      params.restricted_allowed && !ungapped.empty() && ungapped[0].score < restricted_cutoff;
  for (size_t k = 0; k < ungapped.size(); ++k) {
    const UngappedHsp& u = ungapped[k];
    GappedHsp probe;
    probe.q_off = u.q_start;
    probe.q_end = u.q_start + u.length;
    probe.s_off = u.s_start;
    probe.s_end = u.s_start + u.length;
    probe.score = u.score;
    if (tree.contains(probe)) continue;
    const SeedExtension x =
        !restricted && extensions && extensions[k].done
            ? extensions[k]
            : extend_seed(query, query_length, subject, subject_length, u.q_start, u.s_start,
                          u.length, &(*params.scoring.matrix)[0][0],
                          PrelimDp{params.x_drop_prelim, restricted, params.scoring});
    GappedHsp h;
    h.seed_q = x.seed_q;
    h.seed_s = x.seed_s;
    h.q_off = x.q_off;
    h.s_off = x.s_off;
    h.q_end = x.q_end;
    h.s_end = x.s_end;
    h.score = x.score;
    if (restricted && h.score < params.prelim_cutoff && h.score >= restricted_cutoff) {
      hsps.clear();
      tree.clear();
      restricted = false;
      k = static_cast<size_t>(-1);  // start again from the first ungapped HSP
      continue;
    }
    if (h.score >= params.prelim_cutoff) {
      tree.add(h);
      hsps.push_back(std::move(h));
    }
  }
  purge_common_endpoints(hsps);
  sort_by_score(hsps);
  std::vector<GappedHsp> kept;
  for (GappedHsp& h : hsps) {
    h.evalue = params.evalues(h.score, params.kbp, query_length, subject_length);
    if (h.evalue <= params.evalue) kept.push_back(std::move(h));
  }
  return kept;
}

std::vector<GappedHsp> traceback_gapped(const uint8_t* query, int32_t query_length,
                                        const uint8_t* subject, int32_t subject_length,
                                        std::vector<GappedHsp> prelim, const GappedParams& params) {
  std::vector<GappedHsp> done;
  ContainmentSet tree;
  std::vector<char> left_ops, right_ops;
  for (GappedHsp& h : prelim) {
    if (tree.contains(h)) continue;  // by its preliminary coordinates and score
    const int32_t qs = h.seed_q, ss = h.seed_s;
    const DpEnd left = traceback_align(leftward(query, qs), leftward(subject, ss),
                                       params.x_drop_final, &left_ops, params.scoring);
    const DpEnd right = traceback_align(rightward(query, qs + 1, query_length),
                                        rightward(subject, ss + 1, subject_length),
                                        params.x_drop_final, &right_ops, params.scoring);
    h.q_off = qs - left.a_len + 1;
    h.s_off = ss - left.b_len + 1;
    h.q_end = qs + right.a_len + 1;
    h.s_end = ss + right.b_len + 1;
    h.score = left.score + right.score;
    // The left walk runs from the alignment's start to the seed, the right one from its end.
    h.ops = left_ops;
    h.ops.insert(h.ops.end(), right_ops.rbegin(), right_ops.rend());
    strip_end_gaps(h, params.scoring.gap_open, params.scoring.gap_extend);
    tree.add(h);
    done.push_back(std::move(h));
  }
  purge_common_endpoints(done);
  sort_by_score(done);
  tree.clear();
  std::vector<GappedHsp> kept;
  for (GappedHsp& h : done) {
    if (tree.contains(h)) continue;
    tree.add(h);
    kept.push_back(std::move(h));
  }
  std::vector<GappedHsp> result;
  for (GappedHsp& h : kept) {
    h.evalue = params.evalues(h.score, params.kbp, query_length, subject_length);
    if (h.evalue <= params.evalue) result.push_back(std::move(h));
  }
  sort_by_score(result);
  return result;
}

}  // namespace gpuseq::blast
