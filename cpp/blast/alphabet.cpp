#include "blast/alphabet.hpp"

#include "common/alphabet.hpp"

namespace gpuseq::blast {

namespace {

// BLOSUM62 over NCBIstdaa codes 1..27 (letters ABCDEFGHIKLMNPQRSTVWXYZU*OJ), rows = query.
// These are the values blastp 2.12 scores with (spec blastp.md section 3): the standard
// BLOSUM62 with its B, J, Z, X and '*' rows, U copied from C and O from X.
// clang-format off
constexpr int kBlosum62[27][27] = {
    // A  B  C  D  E  F  G  H  I  K  L  M  N  P  Q  R  S  T  V  W  X  Y  Z  U  *  O  J
    { 4,-2, 0,-2,-1,-2, 0,-2,-1,-1,-1,-1,-2,-1,-1,-1, 1, 0, 0,-3,-1,-2,-1, 0,-4,-1,-1},  // A
    {-2, 4,-3, 4, 1,-3,-1, 0,-3, 0,-4,-3, 4,-2, 0,-1, 0,-1,-3,-4,-1,-3, 0,-3,-4,-1,-3},  // B
    { 0,-3, 9,-3,-4,-2,-3,-3,-1,-3,-1,-1,-3,-3,-3,-3,-1,-1,-1,-2,-1,-2,-3, 9,-4,-1,-1},  // C
    {-2, 4,-3, 6, 2,-3,-1,-1,-3,-1,-4,-3, 1,-1, 0,-2, 0,-1,-3,-4,-1,-3, 1,-3,-4,-1,-3},  // D
    {-1, 1,-4, 2, 5,-3,-2, 0,-3, 1,-3,-2, 0,-1, 2, 0, 0,-1,-2,-3,-1,-2, 4,-4,-4,-1,-3},  // E
    {-2,-3,-2,-3,-3, 6,-3,-1, 0,-3, 0, 0,-3,-4,-3,-3,-2,-2,-1, 1,-1, 3,-3,-2,-4,-1, 0},  // F
    { 0,-1,-3,-1,-2,-3, 6,-2,-4,-2,-4,-3, 0,-2,-2,-2, 0,-2,-3,-2,-1,-3,-2,-3,-4,-1,-4},  // G
    {-2, 0,-3,-1, 0,-1,-2, 8,-3,-1,-3,-2, 1,-2, 0, 0,-1,-2,-3,-2,-1, 2, 0,-3,-4,-1,-3},  // H
    {-1,-3,-1,-3,-3, 0,-4,-3, 4,-3, 2, 1,-3,-3,-3,-3,-2,-1, 3,-3,-1,-1,-3,-1,-4,-1, 3},  // I
    {-1, 0,-3,-1, 1,-3,-2,-1,-3, 5,-2,-1, 0,-1, 1, 2, 0,-1,-2,-3,-1,-2, 1,-3,-4,-1,-3},  // K
    {-1,-4,-1,-4,-3, 0,-4,-3, 2,-2, 4, 2,-3,-3,-2,-2,-2,-1, 1,-2,-1,-1,-3,-1,-4,-1, 3},  // L
    {-1,-3,-1,-3,-2, 0,-3,-2, 1,-1, 2, 5,-2,-2, 0,-1,-1,-1, 1,-1,-1,-1,-1,-1,-4,-1, 2},  // M
    {-2, 4,-3, 1, 0,-3, 0, 1,-3, 0,-3,-2, 6,-2, 0, 0, 1, 0,-3,-4,-1,-2, 0,-3,-4,-1,-3},  // N
    {-1,-2,-3,-1,-1,-4,-2,-2,-3,-1,-3,-2,-2, 7,-1,-2,-1,-1,-2,-4,-1,-3,-1,-3,-4,-1,-3},  // P
    {-1, 0,-3, 0, 2,-3,-2, 0,-3, 1,-2, 0, 0,-1, 5, 1, 0,-1,-2,-2,-1,-1, 4,-3,-4,-1,-2},  // Q
    {-1,-1,-3,-2, 0,-3,-2, 0,-3, 2,-2,-1, 0,-2, 1, 5,-1,-1,-3,-3,-1,-2, 0,-3,-4,-1,-2},  // R
    { 1, 0,-1, 0, 0,-2, 0,-1,-2, 0,-2,-1, 1,-1, 0,-1, 4, 1,-2,-3,-1,-2, 0,-1,-4,-1,-2},  // S
    { 0,-1,-1,-1,-1,-2,-2,-2,-1,-1,-1,-1, 0,-1,-1,-1, 1, 5, 0,-2,-1,-2,-1,-1,-4,-1,-1},  // T
    { 0,-3,-1,-3,-2,-1,-3,-3, 3,-2, 1, 1,-3,-2,-2,-3,-2, 0, 4,-3,-1,-1,-2,-1,-4,-1, 2},  // V
    {-3,-4,-2,-4,-3, 1,-2,-2,-3,-3,-2,-1,-4,-4,-2,-3,-3,-2,-3,11,-1, 2,-2,-2,-4,-1,-2},  // W
    {-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-4,-1,-1},  // X
    {-2,-3,-2,-3,-2, 3,-3, 2,-1,-2,-1,-1,-2,-3,-1,-2,-2,-2,-1, 2,-1, 7,-2,-2,-4,-1,-1},  // Y
    {-1, 0,-3, 1, 4,-3,-2, 0,-3, 1,-3,-1, 0,-1, 4, 0, 0,-1,-2,-2,-1,-2, 4,-3,-4,-1,-3},  // Z
    { 0,-3, 9,-3,-4,-2,-3,-3,-1,-3,-1,-1,-3,-3,-3,-3,-1,-1,-1,-2,-1,-2,-3, 9,-4,-1,-1},  // U
    {-4,-4,-4,-4,-4,-4,-4,-4,-4,-4,-4,-4,-4,-4,-4,-4,-4,-4,-4,-4,-4,-4,-4,-4, 1,-4,-4},  // *
    {-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-4,-1,-1},  // O
    {-1,-3,-1,-3,-3, 0,-4,-3, 3,-3, 3, 2,-3,-3,-2,-2,-2,-1, 2,-2,-1,-1,-3,-1,-4,-1, 3},  // J
};
// clang-format on

ScoreMatrix build_blosum62() {
  ScoreMatrix m{};
  for (int i = 0; i < kAlphabetSize; ++i)
    for (int j = 0; j < kAlphabetSize; ++j)
      m[i][j] = (i == kGapCode || j == kGapCode) ? kScoreMin : kBlosum62[i - 1][j - 1];
  return m;
}

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

const ScoreMatrix& blosum62() {
  static const ScoreMatrix matrix = build_blosum62();
  return matrix;
}

bool formatter_positive(uint8_t query_code, uint8_t subject_code) {
  auto in_formatter_matrix = [](uint8_t code) {
    return code != kGapCode && code <= kCodeU;  // ('*', O, J come after U in NCBIstdaa)
  };
  return in_formatter_matrix(query_code) && in_formatter_matrix(subject_code) &&
         blosum62()[query_code][subject_code] > 0;
}

const std::array<uint8_t, 256>& easel_to_ncbi() {
  static const std::array<uint8_t, 256> map = build_easel_map();
  return map;
}

}  // namespace gpuseq::blast
