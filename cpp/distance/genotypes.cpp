#include "distance/genotypes.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>

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

namespace {

// SWAR on 8 values a time (little-endian bytes): one bit per byte, gathered into 8 bits.
constexpr uint64_t kLow7 = 0x7f7f7f7f7f7f7f7fULL, kOnes = 0x0101010101010101ULL;

// Bit i set where byte i is zero (exact: no borrow from one byte into the next).
inline uint64_t zero_bytes(uint64_t x) {
  const uint64_t high = ~(((x & kLow7) + kLow7) | x | kLow7);  // 0x80 where a byte is zero
  return ((high >> 7) * 0x0102040810204080ULL) >> 56;          // byte i's bit -> bit i
}

// Bit i set where byte i, a value in 0..127, is >= t (1 <= t <= 127): v + 128 - t carries
// into the byte's high bit and never past it.
inline uint64_t bytes_at_least(uint64_t v, int t) {
  const uint64_t high = ((v & kLow7) + (0x80 - t) * kOnes) & ~kLow7;
  return ((high >> 7) * 0x0102040810204080ULL) >> 56;
}

// One instance's planes (and validity words): 64 values to a word, each word built from 8
// chunks of 8 values held in registers.
template <Metric M>
int32_t encode_row(const int8_t* v, int64_t attributes, const BitPlanes& p, uint64_t* planes,
                   uint64_t* valid) {
  int32_t weight = 0;
  for (int64_t word = 0; word < p.plane_words; ++word) {
    const int64_t k0 = word * 64, n = std::clamp<int64_t>(attributes - k0, 0, 64);
    uint64_t chunk[8];
    for (int c = 0; c < 8; ++c) chunk[c] = ~uint64_t{0};  // past the last attribute: missing
    if (n == 64)
      std::memcpy(chunk, v + k0, 64);
    else if (n > 0)
      std::memcpy(chunk, v + k0, static_cast<size_t>(n));
    uint64_t present = 0;  // not kMissingValue (0xff)
    for (int c = 0; c < 8; ++c) present |= (zero_bytes(~chunk[c]) ^ 0xff) << (8 * c);
    if (valid != nullptr) valid[word] = present;
    for (int a = 0; a < p.planes; ++a) {
      uint64_t set = 0;
      for (int c = 0; c < 8; ++c)
        set |= (M == Metric::kHamming ? zero_bytes(chunk[c] ^ (static_cast<uint64_t>(a) * kOnes))
                                      : bytes_at_least(chunk[c], a + 1))
               << (8 * c);
      if (M == Metric::kManhattan) {
        set &= present;
        weight += __builtin_popcountll(set);
      }
      planes[a * p.plane_words + word] = set;
    }
  }
  return weight;
}

}  // namespace

BitPlanes encode_bit_planes(const GenotypeMatrix& x, int alphabet_size, Metric metric,
                            bool with_missing) {
  BitPlanes p;
  p.instances = x.instances;
  p.attributes = x.attributes;
  p.planes = metric == Metric::kHamming ? alphabet_size : alphabet_size - 1;
  // Planes are padded to 1024 bits: whole K stages of the GPU tensor-core kernel.
  p.plane_words = (x.attributes + 1023) / 1024 * 16;
  p.bits.resize(static_cast<size_t>(x.instances * p.row_words()));
  if (with_missing) p.valid.resize(static_cast<size_t>(x.instances * p.plane_words));
  p.weight.resize(static_cast<size_t>(x.instances));
  parallel_for_blocks(x.instances, 64, default_thread_count(), [&](int64_t b, int64_t e, int) {
    for (int64_t i = b; i < e; ++i) {
      uint64_t* planes = p.bits.data() + i * p.row_words();
      uint64_t* valid = with_missing ? p.valid.data() + i * p.plane_words : nullptr;
      p.weight[static_cast<size_t>(i)] =
          metric == Metric::kHamming
              ? encode_row<Metric::kHamming>(x.row(i), x.attributes, p, planes, valid)
              : encode_row<Metric::kManhattan>(x.row(i), x.attributes, p, planes, valid);
    }
  });
  return p;
}

// Sums of popcount(a[r][w] & b[c][w]) over w for 4 rows a[0..3] against 4 columns b[0..3],
// into out[4 * r + c], in three builds chosen once by CPUID: AVX-512 VPOPCNTDQ (vpopcntq), the
// POPCNT instruction, and plain x86-64 / other CPUs. They have external linkage in namespace
// `isa` so that they keep their names in the built module: tests/test_isa.py allows AVX-512
// instructions only in functions named so. Every loaded word serves four products (a matrix
// product's register block), where a pair-by-pair loop loads two words per popcount and is
// bound by the loads.
namespace isa {

#define GPUSEQ_AND_POPCOUNT_4X4_BODY                                                       \
  int64_t s[16] = {0};                                                                     \
  for (int64_t w = 0; w < words; ++w) {                                                    \
    const uint64_t a0 = a[0][w], a1 = a[1][w], a2 = a[2][w], a3 = a[3][w];                 \
    for (int c = 0; c < 4; ++c) {                                                          \
      const uint64_t bw = b[c][w];                                                         \
      s[c] += __builtin_popcountll(a0 & bw);                                               \
      s[4 + c] += __builtin_popcountll(a1 & bw);                                           \
      s[8 + c] += __builtin_popcountll(a2 & bw);                                           \
      s[12 + c] += __builtin_popcountll(a3 & bw);                                          \
    }                                                                                      \
  }                                                                                        \
  for (int k = 0; k < 16; ++k) out[k] = s[k];

void and_popcount_plain(const uint64_t* const* a, const uint64_t* const* b, int64_t words,
                            int64_t* out) {
  GPUSEQ_AND_POPCOUNT_4X4_BODY
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target("popcnt"))) void and_popcount_popcnt(const uint64_t* const* a,
                                                               const uint64_t* const* b,
                                                               int64_t words, int64_t* out) {
  GPUSEQ_AND_POPCOUNT_4X4_BODY
}
__attribute__((target("avx512f,avx512vpopcntdq"))) void and_popcount_avx512_vpopcnt(
    const uint64_t* const* a, const uint64_t* const* b, int64_t words, int64_t* out) {
  GPUSEQ_AND_POPCOUNT_4X4_BODY
}
#endif

}  // namespace isa

namespace {

using AndPopcount4x4 = void (*)(const uint64_t* const*, const uint64_t* const*, int64_t,
                                int64_t*);

AndPopcount4x4 pick_and_popcount_4x4() {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512vpopcntdq")) return &isa::and_popcount_avx512_vpopcnt;
  if (__builtin_cpu_supports("popcnt")) return &isa::and_popcount_popcnt;
#endif
  return &isa::and_popcount_plain;
}

const AndPopcount4x4 and_popcount_4x4 = pick_and_popcount_4x4();

// sums[4 * r + c] = popcount(row_a(rows[r]) & row_b(cols[c])) over `words`, for up to 4 rows and
// columns (missing ones repeat the last: their sums are not read).
template <class RowA, class RowB>
void and_popcount_block(RowA row_a, RowB row_b, const int64_t* rows, int nr, const int64_t* cols,
                        int nc, int64_t words, int64_t* sums) {
  const uint64_t* a[4];
  const uint64_t* b[4];
  for (int k = 0; k < 4; ++k) {
    a[k] = row_a(rows[k < nr ? k : nr - 1]);
    b[k] = row_b(cols[k < nc ? k : nc - 1]);
  }
  and_popcount_4x4(a, b, words, sums);
}

}  // namespace

void distances_bit_planes(const BitPlanes& x, const BitPlanes& y, Metric metric,
                          const OutputTile& tile, int threads) {
  const int64_t W = x.row_words(), PW = x.plane_words;
  const bool missing = x.with_missing();
  // Cache blocking: a thread takes 4 rows at a time against the tile's columns in groups of
  // 4 (register blocks), the columns in panels that stay in L2 while its rows go by.
  const int64_t panel = std::max<int64_t>(4, (int64_t{256} << 10) / std::max<int64_t>(1, 8 * W));
  const int64_t nrows = tile.row_end - tile.row_begin;
  parallel_for_blocks(nrows, 16, threads, [&](int64_t b, int64_t e, int) {
    int64_t both[16], compared[16], cross[16], part[16];
    for (int64_t p0 = tile.col_begin; p0 < tile.col_end; p0 += panel) {
      const int64_t p1 = std::min(tile.col_end, p0 + panel);
      for (int64_t r0 = b; r0 < e; r0 += 4) {
        const int nr = static_cast<int>(std::min<int64_t>(4, e - r0));
        int64_t rows[4];
        for (int k = 0; k < 4; ++k) rows[k] = tile.row_begin + r0 + std::min(k, nr - 1);
        for (int64_t j0 = p0; j0 < p1; j0 += 4) {
          const int nc = static_cast<int>(std::min<int64_t>(4, p1 - j0));
          int64_t cols[4];
          for (int k = 0; k < 4; ++k) cols[k] = j0 + std::min(k, nc - 1);
          auto xrow = [&](int64_t i) { return x.row(i); };
          auto yrow = [&](int64_t j) { return y.row(j); };
          auto xvalid = [&](int64_t i) { return x.valid_row(i); };
          auto yvalid = [&](int64_t j) { return y.valid_row(j); };
          and_popcount_block(xrow, yrow, rows, nr, cols, nc, W, both);
          if (missing) and_popcount_block(xvalid, yvalid, rows, nr, cols, nc, PW, compared);
          if (metric == Metric::kManhattan && missing) {
            // Thermometer bits of one instance where the other one has a value.
            std::fill(cross, cross + 16, 0);
            for (int p = 0; p < x.planes; ++p) {
              auto xplane = [&](int64_t i) { return x.row(i) + p * PW; };
              auto yplane = [&](int64_t j) { return y.row(j) + p * PW; };
              and_popcount_block(xplane, yvalid, rows, nr, cols, nc, PW, part);
              for (int k = 0; k < 16; ++k) cross[k] += part[k];
              and_popcount_block(xvalid, yplane, rows, nr, cols, nc, PW, part);
              for (int k = 0; k < 16; ++k) cross[k] += part[k];
            }
          }
          for (int r = 0; r < nr; ++r) {
            const int64_t i = rows[r];
            for (int c = 0; c < nc; ++c) {
              const int64_t j = cols[c], k = 4 * r + c;
              const int64_t n_compared = missing ? compared[k] : x.attributes;
              int64_t dist;
              if (metric == Metric::kHamming)
                dist = n_compared - both[k];  // matches are the AND of equal-value planes
              else if (!missing)
                dist = x.weight[i] + y.weight[j] - 2 * both[k];  // sum of thermometer XORs
              else
                dist = cross[k] - 2 * both[k];
              const int64_t at = (i - tile.row_begin) * tile.stride + (j - tile.col_begin);
              tile.out[at] = static_cast<int32_t>(dist);
              if (tile.compared != nullptr) tile.compared[at] = static_cast<int32_t>(n_compared);
            }
          }
        }
      }
    }
  });
}

double and_popcount_words_per_second(int64_t words, int threads, double seconds) {
  using Clock = std::chrono::steady_clock;
  threads = std::max(1, threads);
  words = std::max<int64_t>(1, words);
  std::atomic<int64_t> done{0}, checksum{0};  // the checksum keeps the sums computed
  const auto start = Clock::now();
  parallel_for_blocks(threads, 1, threads, [&](int64_t, int64_t, int worker) {
    std::vector<uint64_t> rows(static_cast<size_t>(8 * words));
    uint64_t v = 0x9e3779b97f4a7c15ull * static_cast<uint64_t>(worker + 1);
    for (uint64_t& w : rows) w = v = v * 6364136223846793005ull + 1442695040888963407ull;
    const uint64_t* a[4];
    const uint64_t* b[4];
    for (int k = 0; k < 4; ++k) {
      a[k] = rows.data() + k * words;
      b[k] = rows.data() + (4 + k) * words;
    }
    int64_t sums[16], total = 0, blocks = 0;
    while (std::chrono::duration<double>(Clock::now() - start).count() < seconds) {
      for (int r = 0; r < 64; ++r, ++blocks) {
        and_popcount_4x4(a, b, words, sums);
        total += sums[r % 16];
      }
    }
    done += blocks;
    checksum += total;
  });
  if (checksum.load() < 0) return 0;  // never: popcounts are not negative
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  return static_cast<double>(done.load()) * 16.0 * static_cast<double>(words) / elapsed;
}

}  // namespace gpuseq::distance
