// One interface for every all-pairs distance kernel, CPU or GPU: an engine is built once for
// an (X, Y) problem (data encoded, copied to the device, ...) and then fills output tiles.
#pragma once

#include <climits>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "distance/genotypes.hpp"

namespace gpuseq::distance {

struct DistanceProblem {
  GenotypeMatrix x, y;  // borrowed; y may alias x
  Metric metric = Metric::kHamming;
  int alphabet_size = 3;
  bool missing = false;  // some value is kMissingValue
  int threads = 1;       // CPU threads

  // Y is X itself (all pairs of one set: its planes are encoded once). The same start is not
  // enough: X may be the first rows of Y (a subset of samples against the whole panel).
  bool y_is_x() const { return y.values == x.values && y.instances == x.instances; }
};

// The k nearest columns of each row of a tile: index/distance are rows x k, each row ascending
// by distance, ties by column. With skip_self, column j of row i is left out when j == i (the
// pairs of X with itself). A row with fewer than k columns to give ends with kNoNeighbour
// slots (index -1, distance INT32_MAX). Columns are computed column_block at a time (0: the
// engine's choice) and the k best kept between blocks: no rows x columns matrix is held.
struct NearestTile {
  int64_t row_begin = 0, row_end = 0, col_begin = 0, col_end = 0;
  int64_t column_block = 0;
  int k = 1;
  bool skip_self = false;
  int threads = 1;  // CPU threads of a selection on the host
  int64_t* index = nullptr;
  int32_t* distance = nullptr;
};
inline constexpr int32_t kNoNeighbourDistance = INT32_MAX;

class DistanceEngine {
 public:
  virtual ~DistanceEngine() = default;
  // Fills tile.out (and tile.compared when not null) for the tile's rows and columns.
  virtual void compute(const OutputTile& tile) = 0;
  // The tile's k nearest per row (NearestTile). This one computes column blocks into host
  // memory and selects there (engine.cpp); a GPU engine selects on the device and copies k
  // per row.
  virtual void nearest(const NearestTile& tile);
  // Device time of the last compute() call's kernels in seconds (GPU engines), or -1.
  virtual double last_device_seconds() const { return -1.0; }
};

// A failed device allocation: the caller retries with a smaller tile. Python:
// gpuseq.errors.GpuOutOfMemoryError (a MemoryError and a BackendError).
class DeviceOutOfMemory : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Any other failed CUDA call (its name, the CUDA error, the source line). Python:
// gpuseq.errors.GpuError (a BackendError).
class CudaError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// "cpu" (the paper's loop) or "bitplane" (popcount over bit planes).
std::unique_ptr<DistanceEngine> make_cpu_engine(const std::string& kernel,
                                                const DistanceProblem& problem);

}  // namespace gpuseq::distance
