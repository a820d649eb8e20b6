#include "common/alphabet.hpp"

#include <cctype>

namespace gpuseq {

const std::array<float, kAminoK> kBackgroundFrequencies = {
    0.0787945f, 0.0151600f, 0.0535222f, 0.0668298f, 0.0397062f, 0.0695071f, 0.0229198f,
    0.0590092f, 0.0594422f, 0.0963728f, 0.0237718f, 0.0414386f, 0.0482904f, 0.0395639f,
    0.0540978f, 0.0683364f, 0.0540687f, 0.0673417f, 0.0114135f, 0.0304133f};

bool degenerate_includes(int x, int y) {
  // Members as residue letters; X (26) means all 20 canonical residues.
  static constexpr std::string_view kMembers[] = {"ND", "IL", "QE", "K", "C"};
  if (y < 0 || y >= kAminoK) return false;
  if (x == kAnyCode) return true;
  if (x < 21 || x > 25) return false;
  return kMembers[x - 21].find(kAminoSymbols[y]) != std::string_view::npos;
}

static std::array<uint8_t, 256> make_fasta_input_map() {
  std::array<uint8_t, 256> map{};
  for (int c = 0; c < 256; ++c) map[c] = c >= 128 ? kFastaNonAscii : kFastaIllegal;
  for (int code = 0; code < kAminoKp; ++code) {
    const unsigned char sym = static_cast<unsigned char>(kAminoSymbols[code]);
    map[sym] = static_cast<uint8_t>(code);
    map[std::tolower(sym)] = static_cast<uint8_t>(code);
  }
  map['-'] = kFastaIllegal;  // FASTA is unaligned: Easel rejects '-' but keeps '.' and '_'
  map['.'] = kGapCode;
  map['_'] = kGapCode;
  for (unsigned char c : {' ', '\t', '\r', '\n'}) map[c] = kFastaIgnored;
  return map;
}

const std::array<uint8_t, 256> kFastaInputMap = make_fasta_input_map();

}  // namespace gpuseq
