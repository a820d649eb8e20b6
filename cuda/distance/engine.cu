// GPU distance engines, the twins of cpp/distance/engine.cpp: the paper's five kernels
// (paper_kernels.cuh) and bit planes on tensor cores (b1_gemm.cu), behind DistanceEngine.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "common/check.cuh"
#include "distance/b1_gemm.cuh"
#include "distance/genotypes.cuh"
#include "distance/gpu_distance.hpp"
#include "distance/paper_kernels.cuh"

namespace gpuseq::cuda {

using distance::BitPlanes;
using distance::DistanceProblem;
using distance::Metric;
using distance::NearestTile;
using distance::OutputTile;

namespace {

// ---- Payne et al. 2010 ----------------------------------------------------------------------

class PaperEngine : public distance::DistanceEngine {
 public:
  PaperEngine(std::string kernel, const DistanceProblem& p) : kernel_(std::move(kernel)), p_(p) {
    if (p.missing)
      throw std::invalid_argument("the paper's kernels have no missing values; use 'bitplane'");
    const int64_t A = p.x.attributes;
    if (kernel_ == "naive") {  // int32, attribute-major
      x_int_ = upload_int(p.x, true);
      y_int_ = upload_int(p.y, true);
    } else if (kernel_ == "coalesced") {  // int32, instance-major
      x_int_ = upload_int(p.x, false);
      y_int_ = upload_int(p.y, false);
    } else if (kernel_ == "char4" || kernel_ == "register" || kernel_ == "shared") {
      quads_ = static_cast<int>((A + 3) / 4);
      x_char4_ = upload_char4(p.x, quads_);
      y_char4_ = upload_char4(p.y, quads_);
    } else {
      throw std::invalid_argument("unknown GPU distance kernel '" + kernel_ + "'");
    }
  }

  void compute(const OutputTile& tile) override {
    const int64_t rows = tile.row_end - tile.row_begin, cols = tile.col_end - tile.col_begin;
    if (rows <= 0 || cols <= 0) return;
    if (cols > 65535) throw std::invalid_argument("tile wider than 65535 columns (grid limit)");
    int32_t* out = buffer_.get(static_cast<size_t>(rows * cols));
    timer_.start();
    if (kernel_ != "shared") GPUSEQ_CUDA_CHECK(cudaMemset(out, 0, rows * cols * sizeof(int32_t)));
    if (p_.metric == Metric::kHamming)
      launch<Metric::kHamming>(tile, out, cols);
    else
      launch<Metric::kManhattan>(tile, out, cols);
    seconds_ = timer_.stop_seconds();
    copy_tile_to_host(out, tile, tile.out, p_.threads);
    if (tile.compared != nullptr)
      fill_host_tile(tile, tile.compared, static_cast<int32_t>(p_.x.attributes));
  }
  double last_device_seconds() const override { return seconds_; }

 private:
  template <Metric M>
  void launch(const OutputTile& tile, int32_t* out, int64_t cols) {
    const dim3 grid(static_cast<unsigned>(tile.row_end - tile.row_begin),
                    static_cast<unsigned>(cols));
    const int A = static_cast<int>(p_.x.attributes);
    if (kernel_ == "naive")
      paper::naive_kernel<M><<<grid, paper::kThreads>>>(x_int_.get(), p_.x.instances, y_int_.get(),
                                                        p_.y.instances, A, out, cols,
                                                        tile.row_begin, tile.col_begin);
    else if (kernel_ == "coalesced")
      paper::coalesced_kernel<M><<<grid, paper::kThreads>>>(x_int_.get(), y_int_.get(), A, out,
                                                            cols, tile.row_begin, tile.col_begin);
    else if (kernel_ == "char4")
      paper::char4_kernel<M><<<grid, paper::kThreads>>>(x_char4_.get(), y_char4_.get(), quads_,
                                                        out, cols, tile.row_begin, tile.col_begin);
    else if (kernel_ == "register")
      paper::register_kernel<M><<<grid, paper::kThreads>>>(
          x_char4_.get(), y_char4_.get(), quads_, out, cols, tile.row_begin, tile.col_begin);
    else
      paper::shared_kernel<M><<<grid, paper::kThreads>>>(
          x_char4_.get(), y_char4_.get(), quads_, out, cols, tile.row_begin, tile.col_begin);
    GPUSEQ_CUDA_CHECK_LAUNCH("paper distance kernel");
  }

  std::string kernel_;
  DistanceProblem p_;
  DeviceArray<int> x_int_, y_int_;
  DeviceArray<char4> x_char4_, y_char4_;
  int quads_ = 0;
  TileBuffer buffer_;
  DeviceTimer timer_;
  double seconds_ = -1;
};

// ---- bit planes on tensor cores -------------------------------------------------------------

class BitPlaneEngine : public distance::DistanceEngine {
 public:
  // The planes stay on the device for every tile when they fit; otherwise they are kept on the
  // host and each tile uploads the rows it reads (inputs larger than GPU memory). Y the same
  // array as X (all pairs of one set): encoded once, and uploaded once when resident.
  explicit BitPlaneEngine(const DistanceProblem& p) : p_(p) {
    x_host_ = encode_bit_planes(p.x, p.alphabet_size, p.metric, p.missing);
    if (!p.y_is_x()) {
      y_host_ = encode_bit_planes(p.y, p.alphabet_size, p.metric, p.missing);
      y_planes_ = &y_host_;
    }
    try {
      x_.rows(*this, x_host_, 0, x_host_.instances);
      if (y_planes_ != &x_host_) y_.rows(*this, y_host_, 0, y_host_.instances);
      resident_ = true;
      x_host_ = BitPlanes();  // on the device now
      y_host_ = BitPlanes();
    } catch (const distance::DeviceOutOfMemory&) {
      x_ = DeviceSlice();  // streamed: uploaded tile by tile from the host planes
      y_ = DeviceSlice();
    }
  }

  void compute(const OutputTile& tile) override {
    const int64_t rows = tile.row_end - tile.row_begin, cols = tile.col_end - tile.col_begin;
    if (rows <= 0 || cols <= 0) return;
    const int32_t* out = distances_on_device(tile);
    copy_tile_to_host(out, tile, tile.out, p_.threads);
    if (tile.compared != nullptr) {
      if (p_.missing)
        copy_tile_to_host(compared_.get(static_cast<size_t>(rows * cols)), tile, tile.compared,
                          p_.threads);
      else
        fill_host_tile(tile, tile.compared, static_cast<int32_t>(p_.x.attributes));
    }
  }

  // Selected on the device, block by block of columns; k columns per row come back
  // (DistanceEngine::nearest, on the host, past kMaxDeviceNearest). A block that does not fit
  // is narrowed; one of 256 columns that does not fit fails (the caller then takes fewer rows).
  void nearest(const NearestTile& tile) override {
    const int64_t rows = tile.row_end - tile.row_begin, cols = tile.col_end - tile.col_begin;
    if (tile.k > kMaxDeviceNearest || cols <= 0 || rows <= 0) {
      DistanceEngine::nearest(tile);
      return;
    }
    // Blocks of about 2^28 distances (1 GiB): launches long enough to fill the GPU.
    constexpr int64_t kBlockDistances = int64_t{1} << 28, kNarrowest = 256;
    int64_t width =
        std::min(cols, tile.column_block > 0 ? tile.column_block
                                             : std::max<int64_t>(1024, kBlockDistances / rows));
    const size_t slots = static_cast<size_t>(rows) * static_cast<size_t>(tile.k);
    DeviceArray<int64_t> index = device_alloc<int64_t>(slots);
    DeviceArray<int32_t> distance = device_alloc<int32_t>(slots);
    GPUSEQ_CUDA_CHECK(cudaMemset(index.get(), 0xff, slots * sizeof(int64_t)));  // -1: empty
    for (int64_t c0 = tile.col_begin; c0 < tile.col_end;) {
      NearestTile part = tile;
      part.col_begin = c0;
      part.col_end = std::min(tile.col_end, c0 + width);
      OutputTile block;
      block.row_begin = tile.row_begin;
      block.row_end = tile.row_end;
      block.col_begin = part.col_begin;
      block.col_end = part.col_end;
      try {
        select_nearest_on_device(distances_on_device(block), part, index.get(), distance.get());
      } catch (const distance::DeviceOutOfMemory&) {
        if (width <= kNarrowest) throw;
        width = std::max(kNarrowest, width / 2);
        continue;  // the same columns, narrower
      }
      c0 = part.col_end;
    }
    GPUSEQ_CUDA_CHECK(cudaMemcpy(tile.index, index.get(), slots * sizeof(int64_t),
                                 cudaMemcpyDeviceToHost));
    GPUSEQ_CUDA_CHECK(cudaMemcpy(tile.distance, distance.get(), slots * sizeof(int32_t),
                                 cudaMemcpyDeviceToHost));
  }

  double last_device_seconds() const override { return seconds_; }

 private:
  // One matrix's planes on the device, rows [begin, end): validity planes with missing
  // values, weights for manhattan without.
  struct DeviceSlice {
    DeviceBits bits, valid, valid_rep;
    DeviceArray<int32_t> weight;
    int64_t begin = 0, end = 0;

    // Holds rows [r0, r1) of `host` afterwards, uploading them unless it already does.
    void rows(const BitPlaneEngine& e, const BitPlanes& host, int64_t r0, int64_t r1) {
      if (r0 >= begin && r1 <= end && end > begin) return;
      *this = DeviceSlice();  // free first: the new slice may need that memory
      const int64_t n = r1 - r0, words = host.row_words(), plane = host.plane_words;
      bits = upload_bits(host.bits.data() + r0 * words, n, words);
      if (e.p_.missing) {
        valid = upload_bits(host.valid.data() + r0 * plane, n, plane);
        if (e.p_.metric == Metric::kManhattan)
          valid_rep = upload_bits(repeat_valid(host, r0, r1).data(), n, words);
      } else if (e.p_.metric == Metric::kManhattan) {
        weight = device_copy(host.weight.data() + r0, static_cast<size_t>(n));
      }
      begin = r0;
      end = r1;
    }
    const uint32_t* row(const DeviceBits& b, int64_t r) const { return b.row(r - begin); }
  };

  // The tile's distances (and compared counts, with missing values) in the device buffers,
  // rows x cols; seconds_ is the products' time.
  const int32_t* distances_on_device(const OutputTile& tile) {
    const int64_t rows = tile.row_end - tile.row_begin, cols = tile.col_end - tile.col_begin;
    if (!resident_) {
      x_.rows(*this, x_host_, tile.row_begin, tile.row_end);
      if (y_planes_ != &x_host_) y_.rows(*this, y_host_, tile.col_begin, tile.col_end);
    }
    // Y is X: its columns are rows of X's slice when that holds them, else Y's own slice.
    const DeviceSlice* y = &y_;
    if (y_planes_ == &x_host_) {
      if (!resident_ && !(tile.col_begin >= x_.begin && tile.col_end <= x_.end))
        y_.rows(*this, x_host_, tile.col_begin, tile.col_end);
      else
        y = &x_;
    }
    int32_t* out = out_.get(static_cast<size_t>(rows * cols));
    int32_t* compared = p_.missing ? compared_.get(static_cast<size_t>(rows * cols)) : nullptr;
    const int64_t r0 = tile.row_begin, c0 = tile.col_begin;
    auto product = [&](const DeviceBits& a, const DeviceBits& b, bitplane::Epilogue ep) {
      ep.out_stride = cols;
      b1_product(x_.row(a, r0), rows, y->row(b, c0), cols, a.k_words, ep);
    };
    timer_.start();
    bitplane::Epilogue ep;
    ep.out = out;
    if (p_.metric == Metric::kHamming) {
      if (!p_.missing) {  // attributes - matches
        ep.constant = static_cast<int32_t>(p_.x.attributes);
        ep.scale = -1;
        product(x_.bits, y->bits, ep);
      } else {            // compared - matches
        bitplane::Epilogue cmp;
        cmp.out = compared;
        product(x_.valid, y->valid, cmp);
        ep.base = compared;
        ep.scale = -1;
        product(x_.bits, y->bits, ep);
      }
    } else if (!p_.missing) {  // |x| + |y| - 2 (x AND y) over thermometer planes
      ep.row_add = x_.weight.get() + (r0 - x_.begin);
      ep.col_add = y->weight.get() + (c0 - y->begin);
      ep.scale = -2;
      product(x_.bits, y->bits, ep);
    } else {  // (x AND valid_y) + (valid_x AND y) - 2 (x AND y)
      bitplane::Epilogue cmp;
      cmp.out = compared;
      product(x_.valid, y->valid, cmp);
      product(x_.bits, y->valid_rep, ep);
      ep.accumulate = true;
      product(x_.valid_rep, y->bits, ep);
      ep.scale = -2;
      product(x_.bits, y->bits, ep);
    }
    seconds_ = timer_.stop_seconds();
    return out;
  }

  DistanceProblem p_;
  BitPlanes x_host_, y_host_;             // kept only when streamed
  const BitPlanes* y_planes_ = &x_host_;  // &y_host_, or &x_host_ when Y is X
  DeviceSlice x_, y_;                     // y_ unused when Y is X and resident
  bool resident_ = false;
  TileBuffer out_, compared_;
  DeviceTimer timer_;
  double seconds_ = -1;
};

}  // namespace

std::unique_ptr<distance::DistanceEngine> make_distance_engine(const std::string& kernel,
                                                               const DistanceProblem& problem) {
  if (kernel == "bitplane") return std::make_unique<BitPlaneEngine>(problem);
  return std::make_unique<PaperEngine>(kernel, problem);
}

}  // namespace gpuseq::cuda
