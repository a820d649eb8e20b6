#include "blast/lookup.hpp"

#include <algorithm>
#include <map>

#include "blast/alphabet.hpp"

namespace gpuseq::blast {

WordLookup::WordLookup(const uint8_t* query, int32_t query_length, int threshold,
                       const ScoreMatrix& matrix)
    : WordLookup(query, {{0, query_length}}, threshold, matrix) {}

WordLookup::WordLookup(const uint8_t* query,
                       const std::vector<std::pair<int32_t, int32_t>>& segments, int threshold,
                       const ScoreMatrix& matrix)
    : matrix_(&matrix) {
  const ScoreMatrix& m = matrix;
  // Offsets of each distinct query word, words in increasing index (as blastp adds them).
  std::map<int, std::vector<int32_t>> words;
  for (const auto& [begin, end] : segments)
    for (int32_t i = begin; i + kWordSize <= end; ++i) words[word_index(query + i)].push_back(i);

  std::array<int, kAlphabetSize> row_max{};
  for (int a = 0; a < kAlphabetSize; ++a) row_max[a] = *std::max_element(m[a].begin(), m[a].end());

  std::vector<std::vector<int32_t>> cells(kWordCells);
  auto add = [&](int cell, const std::vector<int32_t>& offsets) {
    cells[cell].insert(cells[cell].end(), offsets.begin(), offsets.end());
  };
  for (const auto& [index, offsets] : words) {
    const int w0 = index >> 10, w1 = (index >> 5) & 31, w2 = index & 31;
    // The query word always hits itself, also when its self-score is below the threshold.
    if (m[w0][w0] + m[w1][w1] + m[w2][w2] < threshold) add(index, offsets);
    for (int c0 = 0; c0 < kAlphabetSize; ++c0) {
      const int s0 = m[w0][c0];
      if (s0 + row_max[w1] + row_max[w2] < threshold) continue;
      for (int c1 = 0; c1 < kAlphabetSize; ++c1) {
        const int s01 = s0 + m[w1][c1];
        if (s01 + row_max[w2] < threshold) continue;
        for (int c2 = 0; c2 < kAlphabetSize; ++c2)
          if (s01 + m[w2][c2] >= threshold) add((c0 << 10) | (c1 << 5) | c2, offsets);
      }
    }
  }

  cell_start_.assign(kWordCells + 1, 0);
  for (int c = 0; c < kWordCells; ++c)
    cell_start_[c + 1] = cell_start_[c] + static_cast<int32_t>(cells[c].size());
  offsets_.reserve(cell_start_[kWordCells]);
  for (const auto& cell : cells) offsets_.insert(offsets_.end(), cell.begin(), cell.end());
}

}  // namespace gpuseq::blast
