#include "distance/genotypes.hpp"

#include <algorithm>
#include <cstdlib>

#include "common/parallel.hpp"

namespace gpuseq::distance {

bool has_missing(const GenotypeMatrix& x) {
  const int8_t* end = x.values + x.instances * x.attributes;
  return std::find(x.values, end, kMissingValue) != end;
}

// ---- the paper's CPU loop -------------------------------------------------------------------

void distances_cpu_loop(const GenotypeMatrix& x, const GenotypeMatrix& y, Metric metric,
                        const OutputTile& tile, int threads) {
  const int64_t A = x.attributes;
  parallel_for_blocks(tile.row_end - tile.row_begin, 1, threads, [&](int64_t b, int64_t e, int) {
    for (int64_t r = b; r < e; ++r) {
      const int8_t* xi = x.row(tile.row_begin + r);
      for (int64_t j = tile.col_begin; j < tile.col_end; ++j) {
        const int8_t* yj = y.row(j);
        int32_t dist = 0, compared = 0;
        for (int64_t k = 0; k < A; ++k) {
          if (xi[k] == kMissingValue || yj[k] == kMissingValue) continue;
          ++compared;
          dist += metric == Metric::kHamming ? (xi[k] != yj[k]) : std::abs(xi[k] - yj[k]);
        }
        const int64_t at = r * tile.stride + (j - tile.col_begin);
        tile.out[at] = dist;
        if (tile.compared != nullptr) tile.compared[at] = compared;
      }
    }
  });
}

// ---- bit planes -----------------------------------------------------------------------------

BitPlanes encode_bit_planes(const GenotypeMatrix& x, int alphabet_size, Metric metric,
                            bool with_missing) {
  BitPlanes p;
  p.instances = x.instances;
  p.attributes = x.attributes;
  p.planes = metric == Metric::kHamming ? alphabet_size : alphabet_size - 1;
  // Planes are padded to 1024 bits: whole K stages of the GPU tensor-core kernel.
  p.plane_words = (x.attributes + 1023) / 1024 * 16;
  p.bits.assign(static_cast<size_t>(x.instances * p.row_words()), 0);
  if (with_missing) p.valid.assign(static_cast<size_t>(x.instances * p.plane_words), 0);
  p.weight.assign(static_cast<size_t>(x.instances), 0);
  parallel_for_blocks(x.instances, 64, default_thread_count(), [&](int64_t b, int64_t e, int) {
    for (int64_t i = b; i < e; ++i) {
      const int8_t* v = x.row(i);
      uint64_t* planes = p.bits.data() + i * p.row_words();
      uint64_t* valid = with_missing ? p.valid.data() + i * p.plane_words : nullptr;
      int32_t weight = 0;
      for (int64_t k = 0; k < x.attributes; ++k) {
        if (v[k] == kMissingValue) continue;
        const uint64_t bit = uint64_t{1} << (k & 63);
        const int64_t word = k >> 6;
        if (valid != nullptr) valid[word] |= bit;
        if (metric == Metric::kHamming) {
          planes[v[k] * p.plane_words + word] |= bit;
        } else {
          for (int t = 1; t <= v[k]; ++t) planes[(t - 1) * p.plane_words + word] |= bit;
          weight += v[k];
        }
      }
      p.weight[static_cast<size_t>(i)] = weight;
    }
  });
  return p;
}

// Sum of popcount(a[w] & b[w]), in three builds chosen once by CPUID: AVX-512 VPOPCNTDQ
// (the loop vectorizes to vpopcntq), the POPCNT instruction, and plain x86-64 / other CPUs.
// They have external linkage in namespace `isa` so that they keep their names in the built
// module: tests/test_isa.py allows AVX-512 instructions only in functions named so.
namespace isa {

#define GPUSEQ_AND_POPCOUNT_BODY                                                   \
  int64_t sum = 0;                                                                 \
  for (int64_t w = 0; w < words; ++w) sum += __builtin_popcountll(a[w] & b[w]);    \
  return sum;

int64_t and_popcount_plain(const uint64_t* a, const uint64_t* b, int64_t words) {
  GPUSEQ_AND_POPCOUNT_BODY
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target("popcnt"))) int64_t and_popcount_popcnt(const uint64_t* a,
                                                              const uint64_t* b, int64_t words) {
  GPUSEQ_AND_POPCOUNT_BODY
}
__attribute__((target("avx512f,avx512vpopcntdq"))) int64_t and_popcount_avx512_vpopcnt(
    const uint64_t* a, const uint64_t* b, int64_t words) {
  GPUSEQ_AND_POPCOUNT_BODY
}
#endif

}  // namespace isa

namespace {

using AndPopcount = int64_t (*)(const uint64_t*, const uint64_t*, int64_t);

AndPopcount pick_and_popcount() {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512vpopcntdq")) return &isa::and_popcount_avx512_vpopcnt;
  if (__builtin_cpu_supports("popcnt")) return &isa::and_popcount_popcnt;
#endif
  return &isa::and_popcount_plain;
}

const AndPopcount and_popcount = pick_and_popcount();

}  // namespace

void distances_bit_planes(const BitPlanes& x, const BitPlanes& y, Metric metric,
                          const OutputTile& tile, int threads) {
  const int64_t W = x.row_words(), PW = x.plane_words;
  const bool missing = x.with_missing();
  parallel_for_blocks(tile.row_end - tile.row_begin, 4, threads, [&](int64_t b, int64_t e, int) {
    for (int64_t r = b; r < e; ++r) {
      const int64_t i = tile.row_begin + r;
      const uint64_t* xi = x.row(i);
      for (int64_t j = tile.col_begin; j < tile.col_end; ++j) {
        const uint64_t* yj = y.row(j);
        const int64_t both = and_popcount(xi, yj, W);
        int64_t compared = x.attributes;
        if (missing) compared = and_popcount(x.valid_row(i), y.valid_row(j), PW);
        int64_t dist;
        if (metric == Metric::kHamming) {
          dist = compared - both;  // matches are the AND of equal-value planes
        } else if (!missing) {
          dist = x.weight[i] + y.weight[j] - 2 * both;  // sum of thermometer XORs
        } else {
          // Thermometer bits of one instance where the other one has a value.
          int64_t cross = 0;
          for (int p = 0; p < x.planes; ++p) {
            cross += and_popcount(xi + p * PW, y.valid_row(j), PW);
            cross += and_popcount(x.valid_row(i), yj + p * PW, PW);
          }
          dist = cross - 2 * both;
        }
        const int64_t at = r * tile.stride + (j - tile.col_begin);
        tile.out[at] = static_cast<int32_t>(dist);
        if (tile.compared != nullptr) tile.compared[at] = static_cast<int32_t>(compared);
      }
    }
  });
}

}  // namespace gpuseq::distance

