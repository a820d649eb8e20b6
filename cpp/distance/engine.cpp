#include "distance/engine.hpp"

#include <algorithm>
#include <vector>

#include "common/parallel.hpp"

// ---- CPU engines --------------------------------------------------------------------------------

namespace gpuseq::distance {

namespace {

void select_nearest(const int32_t* distances, int64_t rows, int64_t cols, const NearestTile& tile,
                    int threads) {
  parallel_for_blocks(rows, 16, threads, [&](int64_t begin, int64_t end, int) {
    std::vector<uint64_t> keys;
    for (int64_t r = begin; r < end; ++r) {
      const int64_t i = tile.row_begin + r;
      keys.clear();
      for (int64_t c = 0; c < cols; ++c) {
        const int64_t j = tile.col_begin + c;
        if (tile.skip_self && j == i) continue;
        // (distance, column) in one sortable key: distances are not negative.
        keys.push_back(static_cast<uint64_t>(distances[r * cols + c]) << 32 |
                       static_cast<uint64_t>(j));
      }
      const size_t k = std::min<size_t>(static_cast<size_t>(tile.k), keys.size());
      std::partial_sort(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(k), keys.end());
      for (int s = 0; s < tile.k; ++s) {
        const bool found = static_cast<size_t>(s) < k;
        tile.index[r * tile.k + s] = found ? static_cast<int64_t>(keys[s] & 0xffffffffu) : -1;
        tile.distance[r * tile.k + s] =
            found ? static_cast<int32_t>(keys[s] >> 32) : kNoNeighbourDistance;
      }
    }
  });
}

}  // namespace

void DistanceEngine::nearest(const NearestTile& tile) {
  const int64_t rows = tile.row_end - tile.row_begin, cols = tile.col_end - tile.col_begin;
  if (rows <= 0) return;
  std::vector<int32_t> distances(static_cast<size_t>(rows * std::max<int64_t>(cols, 0)));
  if (cols > 0) {
    OutputTile out;
    out.row_begin = tile.row_begin;
    out.row_end = tile.row_end;
    out.col_begin = tile.col_begin;
    out.col_end = tile.col_end;
    out.out = distances.data();
    out.stride = cols;
    compute(out);
  }
  select_nearest(distances.data(), rows, std::max<int64_t>(cols, 0), tile, tile.threads);
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
        y_(p.y.values == p.x.values ? BitPlanes() :
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
