// The decision logic of blastp's two-hit ungapped stage, one source for the CPU
// (cpp/blast/ungapped.cpp) and the GPU (cuda/blast/gpu_ungapped.cu): the state of one
// diagonal, the two-hit test of a word hit on it, and the X-drop extension of a pair
// (spec: blastp.md sections 8-10; NCBI aa_ungapped.c s_BlastAaWordFinder_TwoHit,
// s_BlastAaExtendTwoHit). Both sides process a diagonal's hits in increasing subject offset,
// which is what makes their results equal: diagonals are independent of each other.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define GPUSEQ_HOST_DEVICE __host__ __device__
#else
#define GPUSEQ_HOST_DEVICE
#endif

namespace gpuseq::blast {

inline constexpr int32_t kTwoHitWord = 3;  // = kWordSize (lookup.hpp), spelled here for devices
inline constexpr int32_t kFarLeft = -1073741824;  // "no hit yet" (INT32_MIN / 2)

// One query inside a buffer of several (blastp's concatenated query "contexts"): its start,
// length, X-drop and cutoff. The buffer holds the sentinel code 0 between queries.
// gapped_x_drop > 0 asks a pipelined stage (search.hpp) to extend each HSP as the
// preliminary gapped stage would, with that X-drop and gap costs (semi_gapped.hpp).
struct QueryContext {
  int32_t start = 0, length = 0;
  int32_t x_drop = 16, cutoff = 1;
  int32_t gapped_x_drop = 0;
  int32_t gap_open = 11, gap_extend = 1;  // -gapopen, -gapextend
};

// Per diagonal: the last hit's subject offset, and whether an extension has just covered the
// diagonal up to it (then last_hit is where that extension stopped, less kTwoHitWord - 1).
struct DiagonalState {
  int32_t last_hit = kFarLeft;
  int32_t extended = 0;
};

// The two-hit test of a word hit at subject offset s on a diagonal (hits in increasing s):
// true when s is the second hit of a pair to extend (a remembered hit at distance
// kTwoHitWord..window-1; the caller still checks that the pair lies in one query).
// Otherwise the state is updated as blastp does and the hit is done.
GPUSEQ_HOST_DEVICE inline bool two_hit_pair(DiagonalState& d, int32_t s, int32_t window) {
  if (d.extended) {
    if (s < d.last_hit) return false;  // inside the stretch the last extension covered
    d.last_hit = s;
    d.extended = 0;
    return false;
  }
  const int64_t distance = static_cast<int64_t>(s) - d.last_hit;
  if (distance >= window) {
    d.last_hit = s;
    return false;
  }
  return distance >= kTwoHitWord;  // a closer one overlaps the remembered hit: no change
}

// One ungapped extension: [q_start, q_start + length) x [s_start, s_start + length), and
// where the right extension stopped when it ran.
struct TwoHitExtension {
  int32_t q_start = 0, s_start = 0, length = 0, score = 0;
  bool right_extended = false;
  int32_t s_last = 0;
};

// The state after the pair whose second hit is at s was extended.
GPUSEQ_HOST_DEVICE inline void after_extension(DiagonalState& d, int32_t s,
                                               const TwoHitExtension& ext) {
  if (ext.right_extended) {
    d.extended = 1;
    d.last_hit = ext.s_last - (kTwoHitWord - 1);
  } else {
    d.last_hit = s;
  }
}

// One direction of an X-drop extension, a cell at a time: cells 0..n-1 scoring cell(t), from
// the running `sum` and `best`. `best_len` becomes t + 1 of the cell where the best was first
// reached; the result is the cell the walk stopped at (n if none). A rightward walk also stops
// where the sum falls to 0 or below (s_BlastAaExtendRight), a leftward one does not.
struct SequentialWalk {
  template <bool kRight, class Cell>
  GPUSEQ_HOST_DEVICE int32_t walk(int32_t n, int32_t x_drop, const Cell& cell, int32_t& sum,
                                  int32_t& best, int32_t& best_len) const {
    int32_t t = 0;
    for (; t < n; ++t) {
      sum += cell(t);
      if (sum > best) {
        best = sum;
        best_len = t + 1;
      }
      if ((kRight && sum <= 0) || best - sum >= x_drop) break;
    }
    return t;
  }
};

// s_BlastAaExtendTwoHit in two halves, so that the GPU's hit-based variant can run both
// before it knows whether the right one counts. score(q, b) is BLOSUM62 for query position q
// (its code in the whole buffer of queries) against subject code b; a query PSSM gives the
// same numbers. Walk does each direction (SequentialWalk; the GPU's window-based variant walks
// 32 cells at a time with the same result).

// The left half from the second hit (q, s): it starts one past the best-scoring prefix of the
// second word, at (q0, s0), and reaches back `length` cells for `best`.
struct LeftExtension {
  int32_t q0 = 0, s0 = 0, best = 0, length = 0;
};

// The right half from (q0, s0), started from the left half's best: `best` over `length`
// cells; s_last is where the walk stopped.
struct RightExtension {
  int32_t best = 0, length = 0, s_last = 0;
};

#if defined(__CUDACC__)
#pragma nv_exec_check_disable  // a device-only Walk is only instantiated in device code
#endif
template <class Score, class Walk = SequentialWalk>
GPUSEQ_HOST_DEVICE LeftExtension extend_left(const uint8_t* subject, int32_t q, int32_t s,
                                             int32_t x_drop, const Score& score,
                                             const Walk& walk = Walk{}) {
  int32_t prefix_best = 0, prefix_len = 0, acc = 0;
  for (int32_t i = 0; i < kTwoHitWord; ++i) {
    acc += score(q + i, subject[s + i]);
    if (acc > prefix_best) {
      prefix_best = acc;
      prefix_len = i + 1;
    }
  }
  LeftExtension left;
  left.q0 = q + prefix_len;
  left.s0 = s + prefix_len;
  const int32_t q0 = left.q0, s0 = left.s0;
  // Positions (q0-1-t, s0-1-t) for t = 0..min(q0, s0)-1.
  int32_t sum = 0;
  walk.template walk<false>(
      q0 < s0 ? q0 : s0, x_drop, [&](int32_t t) { return score(q0 - 1 - t, subject[s0 - 1 - t]); },
      sum, left.best, left.length);
  return left;
}

#if defined(__CUDACC__)
#pragma nv_exec_check_disable
#endif
template <class Score, class Walk = SequentialWalk>
GPUSEQ_HOST_DEVICE RightExtension extend_right(const LeftExtension& left, int32_t query_length,
                                               const uint8_t* subject, int32_t subject_length,
                                               int32_t x_drop, const Score& score,
                                               const Walk& walk = Walk{}) {
  const int32_t q0 = left.q0, s0 = left.s0;
  const int32_t n =
      subject_length - s0 < query_length - q0 ? subject_length - s0 : query_length - q0;
  RightExtension right;
  right.best = left.best;
  int32_t sum = left.best;
  right.s_last = s0 + walk.template walk<true>(
                          n, x_drop, [&](int32_t t) { return score(q0 + t, subject[s0 + t]); }, sum,
                          right.best, right.length);
  return right;
}

// The right half counts only if the left one reached back to the first hit (first_end: one
// past the first hit's word).
GPUSEQ_HOST_DEVICE inline bool right_half_runs(const LeftExtension& left, int32_t first_end) {
  return left.length >= left.s0 - first_end;
}

// The extension from its halves (right: nullptr when it did not run).
GPUSEQ_HOST_DEVICE inline TwoHitExtension join_halves(const LeftExtension& left,
                                                      const RightExtension* right) {
  TwoHitExtension ext;
  ext.q_start = left.q0 - left.length;
  ext.s_start = left.s0 - left.length;
  ext.length = left.length + (right ? right->length : 0);
  ext.score = right && right->best > left.best ? right->best : left.best;
  ext.right_extended = right != nullptr;
  ext.s_last = right ? right->s_last : 0;
  return ext;
}

// s_BlastAaExtendTwoHit: (q, s) is the second hit, first_end one past the first hit's word;
// query_length covers all queries of the buffer, subject is the whole subject.
#if defined(__CUDACC__)
#pragma nv_exec_check_disable
#endif
template <class Score, class Walk = SequentialWalk>
GPUSEQ_HOST_DEVICE TwoHitExtension extend_two_hit(int32_t query_length, const uint8_t* subject,
                                                  int32_t subject_length, int32_t q, int32_t s,
                                                  int32_t first_end, int32_t x_drop,
                                                  const Score& score, const Walk& walk = Walk{}) {
  const LeftExtension left = extend_left(subject, q, s, x_drop, score, walk);
  if (!right_half_runs(left, first_end)) return join_halves(left, nullptr);
  const RightExtension right =
      extend_right(left, query_length, subject, subject_length, x_drop, score, walk);
  return join_halves(left, &right);
}

// One word hit (q, s) of a diagonal in TwoHitFinder's order: the two-hit test, the check that
// the pair lies in one query (context_of(q): the index of q's context), then
// extend(q, s, first_end, x_drop) and the state after it; emit(ext, c) for an extension that
// reaches context c's cutoff. True when an extension ran.
#if defined(__CUDACC__)
#pragma nv_exec_check_disable  // the GPU's callables are device lambdas
#endif
template <class ContextOf, class Extend, class Emit>
GPUSEQ_HOST_DEVICE bool two_hit_step(DiagonalState& d, int32_t q, int32_t s, int32_t window,
                                     const QueryContext* contexts, const ContextOf& context_of,
                                     const Extend& extend, const Emit& emit) {
  if (!two_hit_pair(d, s, window)) return false;
  const int32_t c = context_of(q);
  const QueryContext context = contexts[c];
  if (q - (s - d.last_hit) < context.start) {  // the first hit is in the previous query
    d.last_hit = s;
    return false;
  }
  const TwoHitExtension ext = extend(q, s, d.last_hit + kTwoHitWord, context.x_drop);
  if (ext.score >= context.cutoff) emit(ext, c);
  after_extension(d, s, ext);
  return true;
}

}  // namespace gpuseq::blast
