// The CUDA twin of cpp/mrf/segment.cpp: the same sweeps, class estimates and energies, bit for
// bit. Per-voxel decisions come from the shared source cpp/mrf/voxel_update.hpp; the reductions
// keep the CPU's order (a thread per x row sums in x order, a thread per slice and class sums
// the rows in y order, the host sums the slices in z order with the CPU's own code), so the
// doubles are the same; the control flow is the CPU's segment_with().
#include <cuda_runtime.h>

#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/check.cuh"
#include "mrf/gpu_segment.hpp"
#include "mrf/voxel_update.hpp"

namespace gpuseq::cuda {

namespace {

using mrf::ClassModel;
using mrf::ClassTerms;
using mrf::kNoLabel;
using mrf::UpdateRule;
using mrf::VolumeShape;

struct DeviceVolume {
  const float* intensity;
  uint8_t* labels;
  int64_t nz, ny, nx;

  __device__ bool inside(int64_t z, int64_t y, int64_t x) const {
    return z >= 0 && z < nz && y >= 0 && y < ny && x >= 0 && x < nx;
  }
  __device__ int64_t index(int64_t z, int64_t y, int64_t x) const { return (z * ny + y) * nx + x; }
};

// The tiled kernel: a block per kTileX x kTileY x kTileZ voxels (x fastest), their labels and a
// one-voxel halo in shared memory as bytes.
constexpr int kTileX = 64, kTileY = 8, kTileZ = 8, kTileThreads = 256;
constexpr int kHaloX = kTileX + 2, kHaloY = kTileY + 2, kHaloZ = kTileZ + 2;
constexpr int kPaperThreads = 64;  // the paper's kernel: threads per block, one per x column
constexpr int kRowThreads = 128;   // reductions: threads per block, one per x row
constexpr int kClassChunk = 8;     // classes whose row sums one pass keeps in registers

// Adds every thread's count to *total: a sum per warp, one atomic per warp. Every thread of the
// block calls it (1-D blocks of whole warps).
__device__ void add_count(unsigned long long count, unsigned long long* total) {
  for (int offset = 16; offset > 0; offset /= 2)
    count += __shfl_down_sync(0xffffffffu, count, offset);
  if ((threadIdx.x & 31) == 0 && count != 0) atomicAdd(total, count);
}

// The label a voxel takes from the labels of its N neighbours (kNoLabel: outside the volume).
template <int N>
__device__ int decide(const UpdateRule& rule, const ClassTerms& c, const uint8_t (&around)[N],
                      float intensity, int current, int64_t index, int64_t sweep) {
  int neighbours = 0;
#pragma unroll
  for (int n = 0; n < N; ++n) neighbours += around[n] != kNoLabel;
  auto same = [&](int label) {
    int count = 0;
#pragma unroll
    for (int n = 0; n < N; ++n) count += around[n] == label;
    return count;
  };
  return mrf::updated_label(rule, c, intensity, current, neighbours, same, index, sweep);
}

template <int N>
__global__ void __launch_bounds__(kTileThreads)
    sweep_tiled(DeviceVolume v, const double* terms, UpdateRule rule, int colour, int64_t sweep,
                unsigned long long* changed) {
  __shared__ uint8_t tile[kHaloZ][kHaloY][kHaloX];
  extern __shared__ double class_terms[];  // mean, log_norm, inverse_two_variance
  const int k = rule.classes;
  for (int i = threadIdx.x; i < 3 * k; i += blockDim.x) class_terms[i] = terms[i];
  const int64_t x0 = int64_t{blockIdx.x} * kTileX, y0 = int64_t{blockIdx.y} * kTileY,
                z0 = int64_t{blockIdx.z} * kTileZ;
  for (int i = threadIdx.x; i < kHaloX * kHaloY * kHaloZ; i += blockDim.x) {
    const int hx = i % kHaloX, hy = i / kHaloX % kHaloY, hz = i / (kHaloX * kHaloY);
    const int64_t x = x0 + hx - 1, y = y0 + hy - 1, z = z0 + hz - 1;
    // Voxels of this colour (other blocks write them now) are never a neighbour of one.
    uint8_t label = kNoLabel;
    if (v.inside(z, y, x) && mrf::colour_of(N, z, y, x) != colour)
      label = v.labels[v.index(z, y, x)];
    tile[hz][hy][hx] = label;
  }
  __syncthreads();
  const ClassTerms c{class_terms, class_terms + k, class_terms + 2 * k};

  // The tile's voxels of this colour: every other x; for 8 colours also every other y and z.
  constexpr int kHalfX = kTileX / 2;
  constexpr int kColourVoxels =
      N == 6 ? kHalfX * kTileY * kTileZ : kHalfX * (kTileY / 2) * (kTileZ / 2);
  unsigned long long changed_here = 0;
  for (int s = threadIdx.x; s < kColourVoxels; s += blockDim.x) {
    const int rest = s / kHalfX;
    int lx, ly, lz;
    if (N == 6) {
      ly = rest % kTileY;
      lz = rest / kTileY;
      lx = 2 * (s % kHalfX) + static_cast<int>((colour + y0 + ly + z0 + lz) & 1);
    } else {
      ly = 2 * (rest % (kTileY / 2)) + (colour >> 1 & 1);
      lz = 2 * (rest / (kTileY / 2)) + (colour >> 2 & 1);
      lx = 2 * (s % kHalfX) + (colour & 1);
    }
    const int64_t x = x0 + lx, y = y0 + ly, z = z0 + lz;
    if (!v.inside(z, y, x)) continue;
    uint8_t around[N];
    int n = 0;
#pragma unroll
    for (int dz = -1; dz <= 1; ++dz)
#pragma unroll
      for (int dy = -1; dy <= 1; ++dy)
#pragma unroll
        for (int dx = -1; dx <= 1; ++dx)
          if (mrf::is_neighbour(N, dz, dy, dx))
            around[n++] = tile[lz + 1 + dz][ly + 1 + dy][lx + 1 + dx];
    const int64_t i = v.index(z, y, x);
    const int current = v.labels[i];
    const int chosen = decide<N>(rule, c, around, v.intensity[i], current, i, sweep);
    if (chosen != current) {
      v.labels[i] = static_cast<uint8_t>(chosen);
      ++changed_here;
    }
  }
  add_count(changed_here, changed);
}

// Walters et al. 2009's layout: thread x walks every (z, y) of its column, reading the
// neighbours from global memory (consecutive threads read consecutive bytes).
template <int N>
__global__ void sweep_paper(DeviceVolume v, const double* terms, UpdateRule rule, int colour,
                            int64_t sweep, unsigned long long* changed) {
  const int64_t x = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  const int k = rule.classes;
  const ClassTerms c{terms, terms + k, terms + 2 * k};
  unsigned long long changed_here = 0;
  if (x < v.nx) {
    for (int64_t z = 0; z < v.nz; ++z)
      for (int64_t y = 0; y < v.ny; ++y) {
        if (mrf::colour_of(N, z, y, x) != colour) continue;
        uint8_t around[N];
        int n = 0;
#pragma unroll
        for (int dz = -1; dz <= 1; ++dz)
#pragma unroll
          for (int dy = -1; dy <= 1; ++dy)
#pragma unroll
            for (int dx = -1; dx <= 1; ++dx)
              if (mrf::is_neighbour(N, dz, dy, dx))
                around[n++] = v.inside(z + dz, y + dy, x + dx)
                                  ? v.labels[v.index(z + dz, y + dy, x + dx)]
                                  : kNoLabel;
        const int64_t i = v.index(z, y, x);
        const int current = v.labels[i];
        const int chosen = decide<N>(rule, c, around, v.intensity[i], current, i, sweep);
        if (chosen != current) {
          v.labels[i] = static_cast<uint8_t>(chosen);
          ++changed_here;
        }
      }
  }
  add_count(changed_here, changed);
}

// The row reductions below keep the CPU's summation order (a running sum per x row, voxel by
// voxel in x order, from 0.0), because double addition is not associative and the results must
// equal the CPU's bit for bit. A thread per row walking its row reads addresses a row apart
// from its neighbour threads (uncoalesced), so each warp owns 32 consecutive rows and goes
// through them in chunks of 32 x: the lanes first compute the terms of the chunk's voxels
// along x (coalesced loads, a row at a time) into shared memory, then each lane adds its own
// row's terms of the chunk to its running sums in x order.
constexpr int kWarpRows = 32;                // rows per warp: lane r sums row first_row + r
constexpr int kChunkX = 32;                  // voxels of a row staged per step: one per lane
constexpr int kRowWarps = kRowThreads / 32;  // warps per block

// A thread per x row (z, y), in x order as estimate_classes: pass 1 (mean == nullptr) each
// class's voxel count and intensity sum, pass 2 its sum of squared deviations from `mean`.
// whole_volume: every voxel in class 0. kClassChunk classes per pass keep the sums in registers.
__global__ void __launch_bounds__(kRowThreads)
    class_row_sums(DeviceVolume v, int classes, bool whole_volume, const double* mean,
                   double* row_sum, int64_t* row_count) {
  // +1: lane r reads [r][c] while lane r + 1 reads [r + 1][c]; the padding puts them in
  // different banks.
  __shared__ double staged_term[kRowWarps][kWarpRows][kChunkX + 1];
  __shared__ uint8_t staged_label[kRowWarps][kWarpRows][kChunkX + 1];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  double(*term)[kChunkX + 1] = staged_term[warp];
  uint8_t(*label)[kChunkX + 1] = staged_label[warp];
  const int64_t rows = v.nz * v.ny;
  const int64_t first_row = int64_t{blockIdx.x} * kRowThreads + warp * kWarpRows;
  const int64_t row = first_row + lane;  // this lane's row
  for (int first = 0; first < classes; first += kClassChunk) {
    double sum[kClassChunk];
    int64_t count[kClassChunk];
#pragma unroll
    for (int j = 0; j < kClassChunk; ++j) {
      sum[j] = 0.0;
      count[j] = 0;
    }
    for (int64_t x0 = 0; x0 < v.nx; x0 += kChunkX) {
      const int64_t x = x0 + lane;
      for (int r = 0; r < kWarpRows; ++r) {
        if (first_row + r >= rows || x >= v.nx) continue;
        const int64_t i = (first_row + r) * v.nx + x;
        const int l = whole_volume ? 0 : v.labels[i];
        const double value = v.intensity[i];
        double t = value;  // pass 1: the intensity
        if (mean != nullptr) {
          const double d = mrf::add_rn(value, -mean[l]);
          t = mrf::mul_rn(d, d);  // pass 2: its squared deviation from its class's mean
        }
        term[r][lane] = t;
        label[r][lane] = static_cast<uint8_t>(l);
      }
      __syncwarp();
      const int width = static_cast<int>(v.nx - x0 < kChunkX ? v.nx - x0 : kChunkX);
      if (row < rows) {
        for (int c = 0; c < width; ++c) {
          const int slot = label[lane][c] - first;
          const double t = term[lane][c];
#pragma unroll
          for (int j = 0; j < kClassChunk; ++j) {
            if (j != slot) continue;
            sum[j] = mrf::add_rn(sum[j], t);
            ++count[j];
          }
        }
      }
      __syncwarp();  // the chunk is read before the next one overwrites it
    }
    if (row < rows) {
#pragma unroll
      for (int j = 0; j < kClassChunk; ++j) {
        if (first + j >= classes) break;
        row_sum[row * classes + first + j] = sum[j];
        if (mean == nullptr) row_count[row * classes + first + j] = count[j];
      }
    }
  }
}

// A thread per x row, in x order as total_energy: the data term of each voxel plus beta for
// each forward neighbour (each pair once) with another label. The voxels' energies are staged
// along x as in class_row_sums, so the neighbour reads are coalesced too.
template <int N>
__global__ void __launch_bounds__(kRowThreads)
    energy_rows(DeviceVolume v, const double* terms, int classes, double beta, double* row_energy) {
  __shared__ double staged_energy[kRowWarps][kWarpRows][kChunkX + 1];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  double(*energy_of)[kChunkX + 1] = staged_energy[warp];
  const int64_t rows = v.nz * v.ny;
  const int64_t first_row = int64_t{blockIdx.x} * kRowThreads + warp * kWarpRows;
  const int64_t row = first_row + lane;                  // this lane's row
  const int64_t row_z = row / v.ny, row_y = row % v.ny;  // lane r's, shuffled to the others
  const ClassTerms c{terms, terms + classes, terms + 2 * classes};
  double energy = 0.0;
  for (int64_t x0 = 0; x0 < v.nx; x0 += kChunkX) {
    const int64_t x = x0 + lane;
    for (int r = 0; r < kWarpRows; ++r) {
      const int64_t z = __shfl_sync(0xffffffffu, row_z, r);
      const int64_t y = __shfl_sync(0xffffffffu, row_y, r);
      if (first_row + r >= rows || x >= v.nx) continue;
      const int64_t i = v.index(z, y, x);
      const int label = v.labels[i];
      int different = 0;
#pragma unroll
      for (int dz = -1; dz <= 1; ++dz)
#pragma unroll
        for (int dy = -1; dy <= 1; ++dy)
#pragma unroll
          for (int dx = -1; dx <= 1; ++dx)
            if (mrf::is_neighbour(N, dz, dy, dx) && mrf::is_forward(dz, dy, dx) &&
                v.inside(z + dz, y + dy, x + dx))
              different += v.labels[v.index(z + dz, y + dy, x + dx)] != label;
      energy_of[r][lane] = mrf::local_energy(c, label, v.intensity[i], beta, different);
    }
    __syncwarp();
    const int width = static_cast<int>(v.nx - x0 < kChunkX ? v.nx - x0 : kChunkX);
    if (row < rows)
      for (int k = 0; k < width; ++k) energy = mrf::add_rn(energy, energy_of[lane][k]);
    __syncwarp();  // the chunk is read before the next one overwrites it
  }
  if (row < rows) row_energy[row] = energy;
}

// A thread per (z, l): slice_sum[z * width + l] = the rows' row_sum[(z * ny + y) * width + l]
// summed in y order from 0.0 (the counts too when row_count is given).
__global__ void slice_sums(int64_t nz, int64_t ny, int width, const double* row_sum,
                           const int64_t* row_count, double* slice_sum, int64_t* slice_count) {
  const int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i >= nz * width) return;
  const int64_t z = i / width, l = i % width;
  double sum = 0.0;
  int64_t count = 0;
  for (int64_t y = 0; y < ny; ++y) {
    const int64_t r = (z * ny + y) * width + l;
    sum = mrf::add_rn(sum, row_sum[r]);
    if (row_count != nullptr) count += row_count[r];
  }
  slice_sum[i] = sum;
  if (slice_count != nullptr) slice_count[i] = count;
}

unsigned blocks_for(int64_t threads, int per_block) {
  const int64_t blocks = (threads + per_block - 1) / per_block;
  if (blocks > 0x7fffffff) throw std::invalid_argument("segment_mrf: volume too large to launch");
  return static_cast<unsigned>(blocks);
}

double gib(double bytes) { return bytes / (1024.0 * 1024.0 * 1024.0); }

std::string gib_text(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f GiB", gib(bytes));
  return text;
}

// The device side of one segment_mrf call: the volume, the labels and the reduction buffers.
class GpuSegmenter {
 public:
  GpuSegmenter(const float* intensity, const uint8_t* labels, VolumeShape shape,
               const mrf::SegmentOptions& options, MrfKernel kernel)
      : shape_(shape), options_(options), kernel_(kernel), rule_(mrf::update_rule(options)) {
    const int64_t voxels = shape.voxels(), rows = shape.nz * shape.ny;
    const int64_t k = options.classes;
    const double need = static_cast<double>(voxels) * (sizeof(float) + 1) +
                        static_cast<double>(rows) * k * (sizeof(double) + sizeof(int64_t)) +
                        static_cast<double>(shape.nz) * k * (sizeof(double) + sizeof(int64_t)) +
                        4.0 * k * sizeof(double);
    const std::string what = "segment_mrf: a " + std::to_string(shape.nz) + " x " +
                             std::to_string(shape.ny) + " x " + std::to_string(shape.nx) +
                             " volume with " + std::to_string(k) + " classes needs " +
                             gib_text(need) + " of GPU memory";
    size_t free_bytes = 0, total_bytes = 0;
    GPUSEQ_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    if (need > static_cast<double>(free_bytes))
      throw distance::DeviceOutOfMemory(what + " and " + gib_text(free_bytes) +
                                        " is free: the volume is too large for GPU memory "
                                        "(use backend='cpu')");
    try {
      intensity_ = device_copy(intensity, voxels);
      labels_ = device_copy(labels, voxels);
      row_sum_ = device_alloc<double>(rows * k);
      row_count_ = device_alloc<int64_t>(rows * k);
      slice_sum_ = device_alloc<double>(shape.nz * k);
      slice_count_ = device_alloc<int64_t>(shape.nz * k);
      terms_ = device_alloc<double>(3 * k);
      mean_ = device_alloc<double>(k);
      changed_ = device_alloc<unsigned long long>(1);
    } catch (const distance::DeviceOutOfMemory& e) {
      throw distance::DeviceOutOfMemory(what + ": the volume is too large for GPU memory (" +
                                        e.what() + "; use backend='cpu')");
    }
    if (kernel == MrfKernel::kTiled &&
        ((shape.ny + kTileY - 1) / kTileY > 65535 || (shape.nz + kTileZ - 1) / kTileZ > 65535))
      throw std::invalid_argument("segment_mrf: the tiled kernel takes at most " +
                                  std::to_string(65535 * kTileY) + " rows and slices");
  }

  DeviceVolume volume() const {
    return {intensity_.get(), labels_.get(), shape_.nz, shape_.ny, shape_.nx};
  }

  ClassModel estimate(int classes, double variance_floor, const ClassModel* previous,
                      bool whole_volume) {
    const int64_t rows = shape_.nz * shape_.ny, nz = shape_.nz;
    const size_t slices = static_cast<size_t>(nz * classes);
    std::vector<int64_t> slice_count(slices), count;
    std::vector<double> slice_sum(slices), slice_squares(slices), mean;
    class_row_sums<<<blocks_for(rows, kRowThreads), kRowThreads>>>(
        volume(), classes, whole_volume, nullptr, row_sum_.get(), row_count_.get());
    GPUSEQ_CUDA_CHECK_LAUNCH("class_row_sums");
    reduce_slices(classes, true);
    GPUSEQ_CUDA_CHECK(cudaMemcpy(slice_sum.data(), slice_sum_.get(), slices * sizeof(double),
                                 cudaMemcpyDeviceToHost));
    GPUSEQ_CUDA_CHECK(cudaMemcpy(slice_count.data(), slice_count_.get(),
                                 slices * sizeof(int64_t), cudaMemcpyDeviceToHost));
    mrf::class_means(slice_count, slice_sum, nz, classes, count, mean);
    GPUSEQ_CUDA_CHECK(cudaMemcpy(mean_.get(), mean.data(), classes * sizeof(double),
                                 cudaMemcpyHostToDevice));
    class_row_sums<<<blocks_for(rows, kRowThreads), kRowThreads>>>(
        volume(), classes, whole_volume, mean_.get(), row_sum_.get(), nullptr);
    GPUSEQ_CUDA_CHECK_LAUNCH("class_row_sums");
    reduce_slices(classes, false);
    GPUSEQ_CUDA_CHECK(cudaMemcpy(slice_squares.data(), slice_sum_.get(),
                                 slices * sizeof(double), cudaMemcpyDeviceToHost));
    return mrf::class_model(count, mean, slice_squares, nz, classes, variance_floor, previous);
  }

  double energy(const ClassModel& model) {
    upload_terms(model);
    const int64_t rows = shape_.nz * shape_.ny;
    const unsigned blocks = blocks_for(rows, kRowThreads);
    switch (options_.neighbourhood) {
      case 6:
        energy_rows<6><<<blocks, kRowThreads>>>(volume(), terms_.get(), options_.classes,
                                                options_.beta, row_sum_.get());
        break;
      case 18:
        energy_rows<18><<<blocks, kRowThreads>>>(volume(), terms_.get(), options_.classes,
                                                 options_.beta, row_sum_.get());
        break;
      default:
        energy_rows<26><<<blocks, kRowThreads>>>(volume(), terms_.get(), options_.classes,
                                                 options_.beta, row_sum_.get());
    }
    GPUSEQ_CUDA_CHECK_LAUNCH("energy_rows");
    reduce_slices(1, false);
    std::vector<double> slice_energy(shape_.nz);
    GPUSEQ_CUDA_CHECK(cudaMemcpy(slice_energy.data(), slice_sum_.get(),
                                 shape_.nz * sizeof(double), cudaMemcpyDeviceToHost));
    return mrf::sum_slices(slice_energy);
  }

  int64_t sweep(const ClassModel& model, int64_t sweep) {
    upload_terms(model);
    GPUSEQ_CUDA_CHECK(cudaMemset(changed_.get(), 0, sizeof(unsigned long long)));
    for (int colour = 0; colour < mrf::colour_count(options_.neighbourhood); ++colour) {
      switch (options_.neighbourhood) {
        case 6:
          launch_sweep<6>(colour, sweep);
          break;
        case 18:
          launch_sweep<18>(colour, sweep);
          break;
        default:
          launch_sweep<26>(colour, sweep);
      }
    }
    unsigned long long changed = 0;
    GPUSEQ_CUDA_CHECK(cudaMemcpy(&changed, changed_.get(), sizeof changed,
                                 cudaMemcpyDeviceToHost));
    return static_cast<int64_t>(changed);
  }

  void copy_labels_to(uint8_t* labels) const {
    GPUSEQ_CUDA_CHECK(cudaMemcpy(labels, labels_.get(), shape_.voxels(),
                                 cudaMemcpyDeviceToHost));
  }

 private:
  template <int N>
  void launch_sweep(int colour, int64_t sweep) {
    if (kernel_ == MrfKernel::kPaper) {
      sweep_paper<N><<<blocks_for(shape_.nx, kPaperThreads), kPaperThreads>>>(
          volume(), terms_.get(), rule_, colour, sweep, changed_.get());
      GPUSEQ_CUDA_CHECK_LAUNCH("sweep_paper");
      return;
    }
    const dim3 grid(blocks_for(shape_.nx, kTileX), blocks_for(shape_.ny, kTileY),
                    blocks_for(shape_.nz, kTileZ));
    const size_t shared = 3 * options_.classes * sizeof(double);
    sweep_tiled<N><<<grid, kTileThreads, shared>>>(volume(), terms_.get(), rule_, colour, sweep,
                                                   changed_.get());
    GPUSEQ_CUDA_CHECK_LAUNCH("sweep_tiled");
  }

  // slice_sum_ (and slice_count_ with counts) from row_sum_ (row_count_), `width` per row.
  void reduce_slices(int width, bool counts) {
    slice_sums<<<blocks_for(shape_.nz * width, kRowThreads), kRowThreads>>>(
        shape_.nz, shape_.ny, width, row_sum_.get(), counts ? row_count_.get() : nullptr,
        slice_sum_.get(), counts ? slice_count_.get() : nullptr);
    GPUSEQ_CUDA_CHECK_LAUNCH("slice_sums");
  }

  void upload_terms(const ClassModel& model) {
    std::vector<double> terms(model.mean);
    terms.insert(terms.end(), model.log_norm.begin(), model.log_norm.end());
    terms.insert(terms.end(), model.inverse_two_variance.begin(),
                 model.inverse_two_variance.end());
    GPUSEQ_CUDA_CHECK(cudaMemcpy(terms_.get(), terms.data(), terms.size() * sizeof(double),
                                 cudaMemcpyHostToDevice));
  }

  VolumeShape shape_;
  mrf::SegmentOptions options_;
  MrfKernel kernel_;
  UpdateRule rule_;
  DeviceArray<float> intensity_;
  DeviceArray<uint8_t> labels_;
  DeviceArray<double> row_sum_, slice_sum_, terms_, mean_;
  DeviceArray<int64_t> row_count_, slice_count_;
  DeviceArray<unsigned long long> changed_;
};

}  // namespace

mrf::SegmentResult segment_mrf(const float* intensity, uint8_t* labels, mrf::VolumeShape shape,
                               const mrf::SegmentOptions& options, MrfKernel kernel) {
  mrf::check_segment_inputs(labels, shape, options);
  GpuSegmenter gpu(intensity, labels, shape, options, kernel);
  mrf::SegmentSteps steps;
  steps.estimate = [&](int classes, double variance_floor, const ClassModel* previous,
                       bool whole_volume) {
    return gpu.estimate(classes, variance_floor, previous, whole_volume);
  };
  steps.energy = [&](const ClassModel& model) { return gpu.energy(model); };
  steps.sweep = [&](const ClassModel& model, int64_t sweep) { return gpu.sweep(model, sweep); };
  mrf::SegmentResult result = mrf::segment_with(steps, shape.voxels(), options);
  gpu.copy_labels_to(labels);
  return result;
}

}  // namespace gpuseq::cuda
