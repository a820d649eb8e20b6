// The X-drop DP of blastp's gapped extension and the preliminary stage's extension of one
// ungapped HSP, one source for the CPU (gapped.cpp: score-only and with a traceback) and the
// GPU stage, which extends every ungapped HSP ahead of the CPU's containment test
// (cuda/blast/gpu_ungapped.cu). Spec: blastp.md 11.4, 11.3, 11.8, 12.3; NCBI blast_gapalign.c
// Blast_SemiGappedAlign, ALIGN_EX, BlastGetStartForGappedAlignment, BLAST_GetGappedScore.
#pragma once

#include <cstdint>

#include "blast/alphabet.hpp"
#include "blast/two_hit.hpp"  // GPUSEQ_HOST_DEVICE

namespace gpuseq::blast {

inline constexpr int32_t kDpMinInt = INT32_MIN / 2;  // MININT of blast_gapalign.c
inline constexpr int kSeedWindow = 11;               // HSP_MAX_WINDOW

// A DP cell's traceback byte: its own origin and whether the gap values it passes on extend.
enum : uint8_t {
  kDpSub = 0,
  kDpGapInB = 1,
  kDpGapInA = 2,
  kDpOpMask = 3,
  kDpExtendB = 4,
  kDpExtendA = 8
};

// One direction of a semi-gapped X-drop alignment of a (rows) against b (columns).
struct DpEnd {
  int32_t score = 0;
  int32_t a_len = 0;  // letters of a and b consumed at the best cell
  int32_t b_len = 0;
};

// The letters of one extension direction, the direction known at compile time: letter k
// (1..count) is base[Step * (k - 1)]; letter count + 1 is the sentinel code 0 next to the
// sequence end, which blastp reads.
template <int Step>
struct DirectedLetters {
  const uint8_t* base;
  int32_t count;
  GPUSEQ_HOST_DEVICE uint8_t operator[](int32_t k) const {
#if defined(__CUDA_ARCH__)
    return k <= count ? __ldg(base + Step * (k - 1)) : 0;  // read-only on the GPU
#else
    return k <= count ? base[Step * (k - 1)] : 0;
#endif
  }
};

// The DP's H and E rows over absolute columns (the CPU: arrays of the subject's length).
struct ColumnRows {
  int32_t* H;
  int32_t* E;
  GPUSEQ_HOST_DEVICE int32_t& h(int32_t j) const { return H[j]; }
  GPUSEQ_HOST_DEVICE int32_t& e(int32_t j) const { return E[j]; }
  GPUSEQ_HOST_DEVICE bool room(int32_t, int32_t) const { return true; }
  GPUSEQ_HOST_DEVICE bool row_allowed(int32_t) const { return true; }
};

// The rows in a ring of mask + 1 columns (the GPU's, a warp's in shared memory, emulated here):
// column j at j & mask. room() is false where the live columns would not fit, row_allowed(i)
// past max_rows rows: the DP then stops, not done.
struct DpColumn {
  int32_t h, e;
};
struct RingRows {
  DpColumn* columns;
  int32_t mask, max_rows;
  GPUSEQ_HOST_DEVICE int32_t& h(int32_t j) const { return columns[j & mask].h; }
  GPUSEQ_HOST_DEVICE int32_t& e(int32_t j) const { return columns[j & mask].e; }
  GPUSEQ_HOST_DEVICE bool room(int32_t first, int32_t size) const { return size - first <= mask; }
  GPUSEQ_HOST_DEVICE bool row_allowed(int32_t i) const { return i <= max_rows; }
};

// No traceback: the score-only DP.
struct NoTrace {
  GPUSEQ_HOST_DEVICE void start(int32_t) {}
  GPUSEQ_HOST_DEVICE void begin_row(int32_t) {}
  GPUSEQ_HOST_DEVICE void cell(uint8_t) {}
  GPUSEQ_HOST_DEVICE void end_row() {}
};

// The recurrence of Blast_SemiGappedAlign / ALIGN_EX (spec 11.8, 12.3). Rows i = 1..m are
// letters of a; column j means j letters of b consumed. matrix: [a letter][b letter], 28 x 28;
// a gap of k letters costs gap_open + k gap_extend. Rows: h(j), e(j), room(first, size),
// false where column `size` cannot be written while columns first.. are live (the GPU's ring
// of columns is full), and row_allowed(i): where either says no, the DP stops, false. Trace:
// start(size) after row 0, begin_row(first), cell(op) per cell and appended column, end_row().
#if defined(__CUDACC__)
#pragma nv_exec_check_disable  // the CPU's traceback is host code, instantiated there only
#endif
template <int Step, class Rows, class Trace>
GPUSEQ_HOST_DEVICE bool semi_gapped_dp(const DirectedLetters<Step>& a,
                                       const DirectedLetters<Step>& b, const int* matrix,
                                       int32_t gap_open, int32_t gap_extend, int32_t x_drop,
                                       const Rows& rows, Trace& trace, DpEnd& end) {
  end = DpEnd{};
  const int32_t m = a.count, n = b.count;
  if (m <= 0 || n <= 0) return true;
  const int32_t oe = gap_open + gap_extend, e = gap_extend;
  const int32_t x = x_drop > oe ? x_drop : oe;

  // Row 0: a horizontal gap from the start while it stays within the X-drop.
  rows.h(0) = 0;
  rows.e(0) = -oe;
  int32_t v = -oe, j = 1;
  while (j <= n && v >= -x) {
    if (!rows.room(0, j)) return false;
    rows.h(j) = v;
    rows.e(j) = v - oe;
    v -= e;
    ++j;
  }
  int32_t size = j;  // columns 0..size-1 are live
  trace.start(size);

  int32_t best = 0, best_i = 0, best_j = 0, first = 0;
  for (int32_t i = 1; i <= m; ++i) {
    if (!rows.row_allowed(i)) return false;
    const int* row = matrix + a[i] * kAlphabetSize;
    int32_t cur = kDpMinInt, F = kDpMinInt, last = first;
    trace.begin_row(first);
    for (j = first; j < size; ++j) {
      int32_t e_col = rows.e(j);
      const int32_t diag = rows.h(j) + row[b[j + 1]];  // candidate for cell (i, j + 1)
      uint8_t op = kDpSub;
      if (cur < e_col) {
        cur = e_col;
        op = kDpGapInB;
      }
      if (cur < F) {
        cur = F;
        op = kDpGapInA;
      }
      if (best - cur > x) {
        // Pruned: the first live column moves right; elsewhere H dies, E and F stay as they
        // are (blastp's quirk: no extension penalty applied to them).
        if (j == first)
          ++first;
        else
          rows.h(j) = kDpMinInt;
      } else {
        last = j;
        if (cur > best) {
          best = cur;
          best_i = i;
          best_j = j;
        }
        F -= e;
        e_col -= e;
        if (e_col < cur - oe) {
          rows.e(j) = cur - oe;
        } else {
          rows.e(j) = e_col;
          op |= kDpExtendB;
        }
        if (F < cur - oe)
          F = cur - oe;
        else
          op |= kDpExtendA;
        rows.h(j) = cur;
      }
      trace.cell(op);
      cur = diag;
    }
    if (first == size) {
      trace.end_row();
      break;
    }
    if (last < size - 1) {
      size = last + 1;
    } else {
      // The last column is alive: the horizontal gap may run on past it.
      while (F >= best - x && size <= n) {
        if (!rows.room(first, size)) return false;
        rows.h(size) = F;
        rows.e(size) = F - oe;
        F -= e;
        ++size;
        trace.cell(kDpGapInA);
      }
    }
    if (size <= n) {
      if (!rows.room(first, size)) return false;
      rows.h(size) = kDpMinInt;
      rows.e(size) = kDpMinInt;
      ++size;
      trace.cell(kDpGapInA);
    }
    trace.end_row();
  }
  end.score = best;
  end.a_len = best_i;
  end.b_len = best_j;
  return true;
}

// BlastGetStartForGappedAlignment (spec 11.4): the query offset to start the gapped extension
// of the ungapped HSP [q_start, q_start + length) x [s_start, ...) from.
GPUSEQ_HOST_DEVICE inline int32_t gapped_start(const uint8_t* query, const uint8_t* subject,
                                               int32_t q_start, int32_t s_start, int32_t length,
                                               const int* matrix) {
  if (length <= kSeedWindow) return q_start + length / 2;
  const uint8_t* q = query + q_start;
  const uint8_t* s = subject + s_start;
  int32_t score = 0;
  for (int k = 0; k < kSeedWindow; ++k) score += matrix[q[k] * kAlphabetSize + s[k]];
  int32_t best = score, best_end = kSeedWindow - 1;
  for (int32_t k = kSeedWindow; k < length; ++k) {
    score += matrix[q[k] * kAlphabetSize + s[k]] -
             matrix[q[k - kSeedWindow] * kAlphabetSize + s[k - kSeedWindow]];
    if (score > best) {
      best = score;
      best_end = k;
    }
  }
  return best > 0 ? q_start + best_end - kSeedWindow / 2 : q_start;
}

// The preliminary stage's extension of one ungapped HSP (spec 11.3): its gapped start, the
// DP to the left (the seed pair included) and to the right of it. It depends on the HSP
// alone, so it may be computed ahead of the containment test that decides whether blastp
// runs it. done = 0 where the DP could not run (the GPU's ring of columns was full).
struct SeedExtension {
  int32_t q_off = 0, q_end = 0, s_off = 0, s_end = 0, score = 0;
  int32_t seed_q = 0, seed_s = 0, done = 0;
};

// dp(a, b, end) for DirectedLetters<-1> and <+1>: true when it ran.
#if defined(__CUDACC__)
#pragma nv_exec_check_disable  // the CPU's restricted DP is host code
#endif
template <class Dp>
GPUSEQ_HOST_DEVICE SeedExtension extend_seed(const uint8_t* query, int32_t query_length,
                                             const uint8_t* subject, int32_t subject_length,
                                             int32_t q_start, int32_t s_start, int32_t length,
                                             const int* matrix, const Dp& dp) {
  SeedExtension x;
  const int32_t seed_q = gapped_start(query, subject, q_start, s_start, length, matrix);
  const int32_t seed_s = s_start + (seed_q - q_start);
  x.seed_q = seed_q;
  x.seed_s = seed_s;
  DpEnd left, right;
  // Left part, the seed pair included: letters from the seed towards the sequence start.
  if (!dp(DirectedLetters<-1>{query + seed_q, seed_q + 1},
          DirectedLetters<-1>{subject + seed_s, seed_s + 1}, left))
    return x;
  x.q_off = seed_q + 1 - left.a_len;
  x.s_off = seed_s + 1 - left.b_len;
  if (seed_q + 1 < query_length && seed_s + 1 < subject_length) {
    if (!dp(DirectedLetters<1>{query + seed_q + 1, query_length - seed_q - 1},
            DirectedLetters<1>{subject + seed_s + 1, subject_length - seed_s - 1}, right))
      return x;
    x.q_end = seed_q + 1 + right.a_len;
    x.s_end = seed_s + 1 + right.b_len;
  } else {
    // blastp's quirk: with nothing to the right the end excludes the seed pair.
    x.q_end = seed_q;
    x.s_end = seed_s;
  }
  x.score = left.score + right.score;
  x.done = 1;
  return x;
}

}  // namespace gpuseq::blast
