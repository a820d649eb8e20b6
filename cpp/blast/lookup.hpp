// Hit detection: blastp's neighbourhood-word lookup table and subject scanning
// (spec: blastp.md sections 6 and 7; NCBI blast_aalookup.c, blast_aascan.c).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "blast/alphabet.hpp"

namespace gpuseq::blast {

inline constexpr int kWordSize = 3;
inline constexpr int kDefaultThreshold = 11;

// Index of the word (c0, c1, c2): 5 bits per NCBIstdaa code.
inline int word_index(const uint8_t* w) { return (w[0] << 10) | (w[1] << 5) | w[2]; }
inline constexpr int kWordCells = 1 << 15;

// For every subject word, the query offsets it hits: the offsets i whose query word scores
// at least `threshold` against it under the matrix (BLOSUM62 by default), plus each query
// word under itself. The search's later stages score with the same matrix (matrix()).
class WordLookup {
 public:
  WordLookup(const uint8_t* query, int32_t query_length, int threshold = kDefaultThreshold,
             const ScoreMatrix& matrix = blosum62());
  // Several queries in one buffer: only words inside one [begin, end) segment are listed.
  WordLookup(const uint8_t* codes, const std::vector<std::pair<int32_t, int32_t>>& segments,
             int threshold = kDefaultThreshold, const ScoreMatrix& matrix = blosum62());

  const ScoreMatrix& matrix() const { return *matrix_; }

  // Query offsets listed under the subject word at `word` (3 codes).
  const int32_t* begin(int cell) const { return offsets_.data() + cell_start_[cell]; }
  const int32_t* end(int cell) const { return offsets_.data() + cell_start_[cell + 1]; }
  int64_t entries() const { return static_cast<int64_t>(offsets_.size()); }
  // The CSR arrays themselves (the GPU copies them): kWordCells + 1 starts, entries() offsets.
  const int32_t* cell_starts() const { return cell_start_.data(); }
  const int32_t* offsets() const { return offsets_.data(); }

 private:
  const ScoreMatrix* matrix_;
  std::vector<int32_t> cell_start_;  // kWordCells + 1 entries (CSR)
  std::vector<int32_t> offsets_;
};

// Calls hit(query_offset, subject_offset) for every word hit of the subject, in blastp's scan
// order: subject offsets increasing, then the cell's order.
template <class OnHit>
void scan_subject(const WordLookup& lookup, const uint8_t* subject, int32_t subject_length,
                  OnHit&& hit) {
  for (int32_t s = 0; s + kWordSize <= subject_length; ++s) {
    int cell = word_index(subject + s);
    for (const int32_t* q = lookup.begin(cell); q != lookup.end(cell); ++q) hit(*q, s);
  }
}

}  // namespace gpuseq::blast
