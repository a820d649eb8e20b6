#include "blast/alphabet.hpp"

#include "blast/matrices.hpp"
#include "common/alphabet.hpp"

namespace gpuseq::blast {

namespace {

std::array<uint8_t, 256> build_easel_map() {
  std::array<uint8_t, 256> map{};
  map.fill(kDropped);
  for (size_t code = 0; code < kAminoSymbols.size(); ++code) {
    char letter = kAminoSymbols[code];
    size_t ncbi = kNcbiLetters.find(letter);
    // Easel's gap ('.', '_' in FASTA) and missing-data '~' have no residue: blastp drops them.
    if (letter == '-' || letter == '~' || ncbi == std::string_view::npos) continue;
    map[code] = static_cast<uint8_t>(ncbi);
  }
  return map;
}

}  // namespace

const ScoreMatrix& blosum62() { return blosum62_matrix().scores; }

bool formatter_positive(uint8_t query_code, uint8_t subject_code, const ScoreMatrix& matrix) {
  auto in_formatter_matrix = [](uint8_t code) {
    return code != kGapCode && code <= kCodeU;  // ('*', O, J come after U in NCBIstdaa)
  };
  return in_formatter_matrix(query_code) && in_formatter_matrix(subject_code) &&
         matrix[query_code][subject_code] > 0;
}

const std::array<uint8_t, 256>& easel_to_ncbi() {
  static const std::array<uint8_t, 256> map = build_easel_map();
  return map;
}

}  // namespace gpuseq::blast
