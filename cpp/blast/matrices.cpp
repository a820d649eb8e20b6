#include "blast/matrices.hpp"

#include <memory>
#include <stdexcept>

namespace gpuseq::blast {

namespace {

constexpr std::string_view kPackedLetters = "ARNDCQEGHILKMFPSTWYVBJZX*";

// BlastScoreBlkProteinMatrixLoad: every pair of the packed letters, then U's row and column
// copied from C's and O's from X's, in one pass over the codes (as blastp's loop runs).
ScoreMatrix unpacked(const MatrixTables& t) {
  ScoreMatrix m;
  for (auto& row : m) row.fill(kScoreMin);
  const auto code = [](char letter) { return static_cast<int>(kNcbiLetters.find(letter)); };
  for (size_t a = 0; a < kPackedLetters.size(); ++a)
    for (size_t b = 0; b < kPackedLetters.size(); ++b)
      m[code(kPackedLetters[a])][code(kPackedLetters[b])] = t.packed[a * kPackedLetters.size() + b];
  const int c = code('C'), x = code('X');
  for (int i = 0; i < kAlphabetSize; ++i) {
    m[kCodeU][i] = m[c][i];
    m[i][kCodeU] = m[i][c];
    m[kCodeO][i] = m[x][i];
    m[i][kCodeO] = m[i][x];
  }
  return m;
}

// BLAST_GetSuggestedThreshold and BLAST_GetSuggestedWindowSize (blast_options.c): blastp's
// -threshold and -window_size by matrix, BLOSUM62's (11, 40) for the others.
struct SuggestedSettings {
  std::string_view name;
  int threshold, window_size;
};
constexpr SuggestedSettings kSuggested[] = {
    {"BLOSUM45", 14, 60}, {"BLOSUM80", 12, 25}, {"PAM30", 16, 15}, {"PAM70", 14, 20}};

std::vector<std::unique_ptr<ProteinMatrix>> build_matrices() {
  std::vector<std::unique_ptr<ProteinMatrix>> all;
  for (const MatrixTables& t : ncbi_matrix_tables()) {
    auto p = std::make_unique<ProteinMatrix>();
    p->tables = &t;
    p->scores = unpacked(t);
    p->default_threshold = 11;
    p->default_window_size = 40;
    for (const SuggestedSettings& suggested : kSuggested)
      if (suggested.name == t.name) {
        p->default_threshold = suggested.threshold;
        p->default_window_size = suggested.window_size;
      }
    p->low_score = kScoreMin + 1;  // BlastScoreBlkMaxScoreSet: the gap's kScoreMin aside
    p->high_score = kScoreMin;
    bool first = true;
    for (const auto& row : p->scores)
      for (int s : row) {
        if (s <= kScoreMin) continue;
        if (first || s < p->low_score) p->low_score = s;
        if (first || s > p->high_score) p->high_score = s;
        first = false;
      }
    all.push_back(std::move(p));
  }
  return all;
}

const std::vector<std::unique_ptr<ProteinMatrix>>& matrices() {
  static const std::vector<std::unique_ptr<ProteinMatrix>> all = build_matrices();
  return all;
}

}  // namespace

const GapCostRow& ProteinMatrix::gap_costs(int32_t gap_open, int32_t gap_extend) const {
  for (const GapCostRow& row : tables->rows)
    if (row.gap_open == gap_open && row.gap_extend == gap_extend) return row;
  throw std::invalid_argument("gap costs " + std::to_string(gap_open) + "/" +
                              std::to_string(gap_extend) + " are not tabulated for " +
                              std::string(name()));
}

const ProteinMatrix& protein_matrix(std::string_view name) {
  for (const auto& m : matrices())
    if (m->name() == name) return *m;
  throw std::invalid_argument("blastp has no matrix " + std::string(name));
}

const ProteinMatrix& blosum62_matrix() {
  static const ProteinMatrix& m = protein_matrix("BLOSUM62");
  return m;
}

}  // namespace gpuseq::blast
