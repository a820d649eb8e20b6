// NCBIstdaa letters and BLOSUM62 exactly as NCBI blastp 2.12 uses them (spec: blastp.md 2, 3).
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace gpuseq::blast {

// NCBIstdaa: code = index in this string. Code 0 is the gap and also the sentinel byte that
// blastp keeps around every sequence; it scores kScoreMin against everything.
inline constexpr std::string_view kNcbiLetters = "-ABCDEFGHIKLMNPQRSTVWXYZU*OJ";
inline constexpr int kAlphabetSize = 28;
inline constexpr uint8_t kGapCode = 0;
inline constexpr uint8_t kCodeC = 3;
inline constexpr uint8_t kCodeX = 21;
inline constexpr uint8_t kCodeU = 24;
inline constexpr uint8_t kCodeO = 26;
inline constexpr int kScoreMin = -32768;    // BLAST_SCORE_MIN: pairs with the gap code

using ScoreMatrix = std::array<std::array<int, kAlphabetSize>, kAlphabetSize>;

// BLOSUM62 indexed [query code][subject code] as BlastScoreBlkProteinMatrixLoad builds it:
// U scores as C, O as X, the gap row and column kScoreMin (matrices.hpp: blastp's others).
const ScoreMatrix& blosum62();

// A positive pair as blastp's tabular formatter counts them (the fields positive, ppos:
// CBlastTabularInfo::SetFields): a score above 0 in the search's matrix between two of the
// letters ARNDCQEGHILKMFPSTWYVBZX and U (as C). O, J, '*' and the gap make no positive pair
// except as identities, which are counted apart. Measured on blastp 2.12 for every pair of
// letters (test_blastp_api.py: J-L and B-Z are not positive, U-C is).
bool formatter_positive(uint8_t query_code, uint8_t subject_code,
                        const ScoreMatrix& matrix = blosum62());

// Code of each Easel amino code (gpuseq's digitized alphabet "ACDEFGHIKLMNPQRSTVWY-BJZOUX*~"),
// or kDropped for the codes blastp removes from a sequence ('.', '~').
inline constexpr uint8_t kDropped = 255;
const std::array<uint8_t, 256>& easel_to_ncbi();

}  // namespace gpuseq::blast
