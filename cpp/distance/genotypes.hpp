// All-pairs distances between instances described by small-integer attributes (e.g. SNP
// genotypes 0/1/2), the problem of Payne et al. 2010: the CPU twin of cuda/distance/.
//
// Data: instance-major int8 matrices (row = instance), values 0..alphabet_size-1, or
// kMissingValue where an attribute is unknown. For a pair, attributes missing in either
// instance are skipped: distances count over attributes present in both ("compared").
//   hamming:   number of compared attributes where the values differ
//   manhattan: sum over compared attributes of |a - b| (ordinal values)
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "common/uninitialized.hpp"

namespace gpuseq::distance {

inline constexpr int8_t kMissingValue = -1;
inline constexpr int kMaxAlphabetSize = 16;

enum class Metric { kHamming, kManhattan };

// Borrowed instance-major matrix.
struct GenotypeMatrix {
  const int8_t* values = nullptr;
  int64_t instances = 0;
  int64_t attributes = 0;
  const int8_t* row(int64_t i) const { return values + i * attributes; }
};

// A block of the output: rows [row_begin, row_end) of X against columns [col_begin, col_end)
// of Y, written at out[(i - row_begin) * stride + (j - col_begin)]. compared (optional, same
// layout) receives the number of attributes present in both instances.
struct OutputTile {
  int64_t row_begin = 0, row_end = 0, col_begin = 0, col_end = 0;
  int32_t* out = nullptr;
  int32_t* compared = nullptr;
  int64_t stride = 0;
};

// True if any value equals kMissingValue (the bit-plane kernels then add a validity plane).
bool has_missing(const GenotypeMatrix& x);

// The paper's CPU implementation: a plain loop over pairs and attributes.
void distances_cpu_loop(const GenotypeMatrix& x, const GenotypeMatrix& y, Metric metric,
                        const OutputTile& tile, int threads);

// The encoding writes every word from its threads, which are then the pages' first touch (not
// one thread zeroing them).
using PlaneWords = std::vector<uint64_t, UninitializedAllocator<uint64_t>>;

// Bit planes: each instance as rows of bits, 1024-bit aligned per plane (GPU mma tiles use the
// same layout). For hamming, one plane per value (v == a); for manhattan, thermometer planes
// (v >= t, t = 1..alphabet_size-1). Matches (hamming) or AND-counts (manhattan) of two
// instances are then popcounts of ANDed planes, i.e. a binary matrix product.
struct BitPlanes {
  int64_t instances = 0;
  int64_t attributes = 0;
  int planes = 0;              // value planes per instance
  int64_t plane_words = 0;     // 64-bit words per plane (a multiple of 16: 1024 bits)
  PlaneWords bits;             // instances x planes x plane_words
  PlaneWords valid;            // instances x plane_words, only when values are missing
  std::vector<int32_t> weight;  // per instance: set bits over all planes (manhattan)

  int64_t row_words() const { return planes * plane_words; }
  const uint64_t* row(int64_t i) const { return bits.data() + i * row_words(); }
  const uint64_t* valid_row(int64_t i) const { return valid.data() + i * plane_words; }
  bool with_missing() const { return !valid.empty(); }
};

BitPlanes encode_bit_planes(const GenotypeMatrix& x, int alphabet_size, Metric metric,
                            bool with_missing);

// Default CPU kernel: distances from bit planes (popcount, multi-threaded). x and y must have
// been encoded with the same metric, alphabet and missing flag.
void distances_bit_planes(const BitPlanes& x, const BitPlanes& y, Metric metric,
                          const OutputTile& tile, int threads);

// The CPU kernel's compute bound, for the benchmark: popcount(a AND b) words per second of its
// 4 x 4 register block on operands that stay in L1 (each of `threads` threads on its own rows,
// `words` 64-bit words per row), measured over about `seconds`.
double and_popcount_words_per_second(int64_t words, int threads, double seconds);

}  // namespace gpuseq::distance
