// The amino-acid alphabet exactly as Easel digitizes it (HMMER3's eslAMINO), and the
// background residue frequencies of HMMER's p7_AminoFrequencies(). One place for these facts;
// Python reads them through gpuseq._core.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace gpuseq {

// Code = index in this string. 0..19 canonical, 20 gap, 21..26 degenerate, 27 '*', 28 '~'.
inline constexpr std::string_view kAminoSymbols = "ACDEFGHIKLMNPQRSTVWY-BJZOUX*~";
inline constexpr int kAminoK = 20;   // canonical residues
inline constexpr int kAminoKp = 29;  // all codes
inline constexpr uint8_t kGapCode = 20;
inline constexpr uint8_t kAnyCode = 26;  // X
inline constexpr uint8_t kNonresidueCode = 27;  // '*'
inline constexpr uint8_t kMissingCode = 28;     // '~'

// Decimal literals of p7_AminoFrequencies(), each rounded once to float and not renormalized.
extern const std::array<float, kAminoK> kBackgroundFrequencies;

// True if canonical residue y (0..19) is one of the residues degenerate code x (21..26) stands for.
bool degenerate_includes(int x, int y);

// How a byte of FASTA sequence text is read (Easel's FASTA input map).
enum : uint8_t {
  kFastaIgnored = 253,  // space, tab, CR, LF
  kFastaIllegal = 254,  // not an alphabet symbol ('-' is illegal in FASTA)
  kFastaNonAscii = 255,
};
// Code for each byte value, or one of the kFasta* markers. '.' and '_' map to the gap code.
extern const std::array<uint8_t, 256> kFastaInputMap;

}  // namespace gpuseq
