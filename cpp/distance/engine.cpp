#include "distance/engine.hpp"

#include <algorithm>
#include <vector>

#include "common/parallel.hpp"

// ---- CPU engines --------------------------------------------------------------------------------

namespace gpuseq::distance {

namespace {

constexpr uint64_t kEmptyKey = ~uint64_t{0};  // sorts after every (distance, column) key

// Merges a block of columns (distances rows x cols, its first column col_begin) into each
// row's k best keys (best, rows x k, ascending). A key is (distance << 32 | column):
// distances are not negative and columns below 2^32, so keys are unique and order by
// distance, then column, whatever the blocks were.
void merge_nearest(const int32_t* distances, int64_t rows, int64_t cols, int64_t col_begin,
                   const NearestTile& tile, uint64_t* best, int threads) {
  const auto k = static_cast<std::ptrdiff_t>(tile.k);
  parallel_for_blocks(rows, 16, threads, [&](int64_t begin, int64_t end, int) {
    std::vector<uint64_t> keys;
    for (int64_t r = begin; r < end; ++r) {
      const int64_t i = tile.row_begin + r;
      uint64_t* row_best = best + r * k;
      keys.assign(row_best, row_best + k);
      for (int64_t c = 0; c < cols; ++c) {
        const int64_t j = col_begin + c;
        if (tile.skip_self && j == i) continue;
        keys.push_back(static_cast<uint64_t>(distances[r * cols + c]) << 32 |
                       static_cast<uint64_t>(j));
      }
      std::partial_sort(keys.begin(), keys.begin() + k, keys.end());
      std::copy(keys.begin(), keys.begin() + k, row_best);
    }
  });
}

}  // namespace

void DistanceEngine::nearest(const NearestTile& tile) {
  constexpr int64_t kDefaultColumnBlock = 8192;
  const int64_t rows = tile.row_end - tile.row_begin, cols = tile.col_end - tile.col_begin;
  if (rows <= 0) return;
  std::vector<uint64_t> best(static_cast<size_t>(rows * tile.k), kEmptyKey);
  const int64_t width =
      std::min(cols, tile.column_block > 0 ? tile.column_block : kDefaultColumnBlock);
  std::vector<int32_t> distances(static_cast<size_t>(rows * std::max<int64_t>(width, 0)));
  for (int64_t c0 = tile.col_begin; c0 < tile.col_end; c0 += width) {
    OutputTile out;
    out.row_begin = tile.row_begin;
    out.row_end = tile.row_end;
    out.col_begin = c0;
    out.col_end = std::min(tile.col_end, c0 + width);
    out.out = distances.data();
    out.stride = out.col_end - c0;
    compute(out);
    merge_nearest(distances.data(), rows, out.stride, c0, tile, best.data(), tile.threads);
  }
  for (size_t s = 0; s < best.size(); ++s) {
    const bool found = best[s] != kEmptyKey;
    tile.index[s] = found ? static_cast<int64_t>(best[s] & 0xffffffffu) : -1;
    tile.distance[s] = found ? static_cast<int32_t>(best[s] >> 32) : kNoNeighbourDistance;
  }
}

namespace {

class CpuLoopEngine : public DistanceEngine {
 public:
  explicit CpuLoopEngine(const DistanceProblem& p) : p_(p) {}
  void compute(const OutputTile& tile) override {
    distances_cpu_loop(p_.x, p_.y, p_.metric, tile, p_.threads);
  }

 private:
  DistanceProblem p_;
};

class CpuBitPlaneEngine : public DistanceEngine {
 public:
  explicit CpuBitPlaneEngine(const DistanceProblem& p)
      : p_(p),
        x_(encode_bit_planes(p.x, p.alphabet_size, p.metric, p.missing)),
        y_(p.y_is_x() ? BitPlanes() :
               encode_bit_planes(p.y, p.alphabet_size, p.metric, p.missing)) {}
  void compute(const OutputTile& tile) override {
    distances_bit_planes(x_, y_.instances > 0 ? y_ : x_, p_.metric, tile, p_.threads);
  }

 private:
  DistanceProblem p_;
  BitPlanes x_, y_;
};

}  // namespace

std::unique_ptr<DistanceEngine> make_cpu_engine(const std::string& kernel,
                                                const DistanceProblem& problem) {
  if (kernel == "cpu") return std::make_unique<CpuLoopEngine>(problem);
  if (kernel == "bitplane") return std::make_unique<CpuBitPlaneEngine>(problem);
  throw std::invalid_argument("unknown CPU distance kernel '" + kernel + "'");
}

}  // namespace gpuseq::distance
