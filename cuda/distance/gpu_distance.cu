#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/check.cuh"
#include "distance/bitplane_mma.cuh"
#include "distance/bitplane_wgmma.cuh"
#include "distance/gpu_distance.hpp"
#include "distance/paper_kernels.cuh"

namespace gpuseq::cuda {

using distance::BitPlanes;
using distance::DistanceProblem;
using distance::Metric;
using distance::OutputTile;

namespace {

// Device buffer for one output tile, grown on demand.
struct TileBuffer {
  DeviceArray<int32_t> data;
  size_t capacity = 0;
  int32_t* get(size_t count) {
    if (count > capacity) {
      data.reset();
      data = device_alloc<int32_t>(count);
      capacity = count;
    }
    return data.get();
  }
};

void copy_tile_to_host(const int32_t* device, const OutputTile& tile, int32_t* host) {
  const int64_t rows = tile.row_end - tile.row_begin, cols = tile.col_end - tile.col_begin;
  GPUSEQ_CUDA_CHECK(cudaMemcpy2D(host, tile.stride * sizeof(int32_t), device,
                                 cols * sizeof(int32_t), cols * sizeof(int32_t), rows,
                                 cudaMemcpyDeviceToHost));
}

void fill_host_tile(const OutputTile& tile, int32_t* host, int32_t value) {
  for (int64_t r = 0; r < tile.row_end - tile.row_begin; ++r)
    std::fill(host + r * tile.stride, host + r * tile.stride + (tile.col_end - tile.col_begin),
              value);
}

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
      x_char4_ = upload_char4(p.x);
      y_char4_ = upload_char4(p.y);
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
    copy_tile_to_host(out, tile, tile.out);
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

  static DeviceArray<int> upload_int(const distance::GenotypeMatrix& m, bool attribute_major) {
    std::vector<int> host(static_cast<size_t>(m.instances * m.attributes));
    for (int64_t i = 0; i < m.instances; ++i)
      for (int64_t k = 0; k < m.attributes; ++k)
        host[attribute_major ? k * m.instances + i : i * m.attributes + k] = m.row(i)[k];
    return device_copy(host.data(), host.size());
  }

  DeviceArray<char4> upload_char4(const distance::GenotypeMatrix& m) const {
    std::vector<char> host(static_cast<size_t>(m.instances) * quads_ * 4, 0);
    for (int64_t i = 0; i < m.instances; ++i)
      std::copy(m.row(i), m.row(i) + m.attributes, host.begin() + i * quads_ * 4);
    return device_copy(reinterpret_cast<const char4*>(host.data()), host.size() / 4);
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

// A bit matrix on the device: rows of k_words 32-bit words.
struct DeviceBits {
  DeviceArray<uint32_t> words;
  int64_t rows = 0, k_words = 0;
  const uint32_t* row(int64_t i) const { return words.get() + i * k_words; }
};

DeviceBits upload_bits(const uint64_t* host, int64_t rows, int64_t words64) {
  DeviceBits d;
  d.rows = rows;
  d.k_words = words64 * 2;  // little-endian: a 64-bit word is two 32-bit words, same bits
  d.words = device_copy(reinterpret_cast<const uint32_t*>(host), static_cast<size_t>(rows * d.k_words));
  return d;
}

// Valid-attribute mask repeated once per value plane, so that its product with a plane row
// counts set bits where the other instance has a value.
std::vector<uint64_t> repeat_valid(const BitPlanes& p) {
  std::vector<uint64_t> out(static_cast<size_t>(p.instances * p.row_words()));
  for (int64_t i = 0; i < p.instances; ++i)
    for (int plane = 0; plane < p.planes; ++plane)
      std::copy(p.valid_row(i), p.valid_row(i) + p.plane_words,
                out.begin() + i * p.row_words() + plane * p.plane_words);
  return out;
}

// ---- tensor-core GEMM variants --------------------------------------------------------------

using GemmLaunch = void (*)(const uint32_t* A, int64_t a_rows, const uint32_t* B, int64_t b_rows,
                            int64_t k_words, bitplane::Epilogue ep);

// Launches one of the product kernels (and_popc_gemm_kernel<T>, and_popc_wgmma_kernel<T>) with
// its tiling T.
template <class T, auto Kernel>
void launch_product(const uint32_t* A, int64_t a_rows, const uint32_t* B, int64_t b_rows,
                    int64_t k_words, bitplane::Epilogue ep) {
  static const bool configured = [] {  // above 48 KB of shared memory needs an opt-in
    GPUSEQ_CUDA_CHECK(cudaFuncSetAttribute(Kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           T::kSharedBytes));
    return true;
  }();
  (void)configured;
  if (k_words % T::kStageWords != 0) throw std::logic_error("K is not a whole number of stages");
  const int tiles_m = static_cast<int>((a_rows + T::kTileM - 1) / T::kTileM);
  const int tiles_n = static_cast<int>((b_rows + T::kTileN - 1) / T::kTileN);
  Kernel<<<tiles_m * tiles_n, T::kThreads, T::kSharedBytes>>>(A, a_rows, B, b_rows, k_words, ep,
                                                             tiles_m, tiles_n);
  GPUSEQ_CUDA_CHECK_LAUNCH("binary product kernel");
}
template <class T>
constexpr GemmLaunch launch_gemm = &launch_product<T, bitplane::and_popc_gemm_kernel<T>>;
template <class T>
constexpr GemmLaunch launch_wgmma = &launch_product<T, bitplane::and_popc_wgmma_kernel<T>>;

// Whether the current device runs the sm_90a wgmma code (H100, H200 with a build for 90a).
bool wgmma_available() {
  static const bool available = [] {
    int device = 0, major = 0;
    GPUSEQ_CUDA_CHECK(cudaGetDevice(&device));
    GPUSEQ_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    if (major != 9) return false;
    DeviceArray<int> flag = device_alloc<int>(1);
    bitplane::wgmma_compiled_kernel<<<1, 1>>>(flag.get());
    GPUSEQ_CUDA_CHECK_LAUNCH("wgmma_compiled_kernel");
    int host = 0;
    GPUSEQ_CUDA_CHECK(cudaMemcpy(&host, flag.get(), sizeof(int), cudaMemcpyDeviceToHost));
    return host == 1;
  }();
  return available;
}

struct GemmVariant {
  const char* name;  // block tile, warp tile, pipeline stages x K bits per stage, blocks per SM
  GemmLaunch launch;
  bool needs_wgmma;
};

// Measured on the H100 host (benchmarks/bench_distance.py --variants: 16384 x 16384 x 30720
// bits, median of 5; % of the binary tensor-core bound, the measured wgmma b1 rate of about
// 15,700 TOPS; mma.sync peaks at about 10,400). K per stage must divide the bit planes'
// 1024-bit padding. Commits c7651f1, d414a16, 50da433 (results/distance-gemm-variants-*.json):
//   wgmma, 3 warpgroups, block 192x256, 6 slots x 512 bits, 4 ahead     60.1-60.9%  <- sm_90
//   same, 7 slots 5 ahead / 8 slots 6 ahead / 5 slots 3 ahead          59.0-59.7% / 57.5-58.0%
//                                                                       / 58.3%
//   same, 4 slots x 1024 bits, 2 ahead                                  52.4-52.9%
//   wgmma, 2 warpgroups, block 128x256, 4 slots x 1024 bits, 2 ahead   51.5-53.5%
//   same, 8 slots x 512 bits, 6 ahead (181 registers)                  43.7-44.2%
//   wgmma with 1 stage ahead (3 slots x 1024 bits): 28-35%: L2 latency is exposed
//   mma.sync: block 128x128, warp 64x32, 2 x 1024-bit stages, 2/SM     30.2-30.9%  <- sm_80
//   (45% of mma.sync's own 10,400 TOPS)
//   same with 3 stages (8 bytes of register spill)                     30.5-30.9%
//   block 128x256, warp 64x64, 1 block/SM (232 registers)              28.1-28.6%
//   block 64x128, warp 32x32, 3 blocks/SM                              22.0-22.4%
//   (earlier, dropped: 16-warp mma.sync blocks, 40-41% of mma.sync's rate; 16-bit output and
//   explicit fragment prefetching, no change.)
// mma.sync's limit (Nsight Compute): ldmatrix reads (192 B per mma) and cp.async writes (64 B
// per mma) keep the shared-memory pipe ~70% busy; wgmma reads its operands from shared memory
// without ldmatrix, and a 192x256 block needs 22% fewer L2 bytes per bit-op than 128x256.
const GemmVariant kGemmVariants[] = {
    {"wgmma block 192x256 3 warpgroups slots 6x512 ahead 4",
     launch_wgmma<bitplane::WgmmaTiling<3, 512, 6, 4>>, true},
    {"wgmma block 192x256 3 warpgroups slots 7x512 ahead 5",
     launch_wgmma<bitplane::WgmmaTiling<3, 512, 7, 5>>, true},
    {"wgmma block 192x256 3 warpgroups slots 8x512 ahead 6",
     launch_wgmma<bitplane::WgmmaTiling<3, 512, 8, 6>>, true},
    {"wgmma block 192x256 3 warpgroups slots 5x512 ahead 3",
     launch_wgmma<bitplane::WgmmaTiling<3, 512, 5, 3>>, true},
    {"wgmma block 192x256 3 warpgroups slots 4x1024 ahead 2",
     launch_wgmma<bitplane::WgmmaTiling<3, 1024, 4, 2>>, true},
    {"wgmma block 128x256 2 warpgroups slots 4x1024 ahead 2",
     launch_wgmma<bitplane::WgmmaTiling<2, 1024, 4, 2>>, true},
    {"wgmma block 128x256 2 warpgroups slots 8x512 ahead 6",
     launch_wgmma<bitplane::WgmmaTiling<2, 512, 8, 6>>, true},
    {"block 128x128 warp 64x32 stages 2x1024 2/SM",
     launch_gemm<bitplane::GemmTiling<4, 4, 2, 4, 2>>, false},
    {"block 128x128 warp 64x32 stages 3x1024 2/SM",
     launch_gemm<bitplane::GemmTiling<4, 4, 3, 4, 2>>, false},
    {"block 128x256 warp 64x64 stages 3x1024 1/SM",
     launch_gemm<bitplane::GemmTiling<4, 8, 3, 4, 1>>, false},
    {"block 64x128 warp 32x32 stages 3x1024 3/SM",
     launch_gemm<bitplane::GemmTiling<2, 4, 3, 4, 3>>, false},
};

// The variant the engines use: the first wgmma variant where the device runs wgmma, else the
// first mma.sync one (the defaults chosen by the measurements above come first).
const GemmVariant& default_gemm() {
  const bool wgmma = wgmma_available();
  for (const auto& v : kGemmVariants)
    if (v.needs_wgmma == wgmma) return v;
  throw std::logic_error("no GEMM variant for this device");
}

const GemmVariant& gemm_by_name(const std::string& name) {
  for (const auto& v : kGemmVariants) {
    if (name != v.name) continue;
    if (v.needs_wgmma && !wgmma_available())
      throw std::invalid_argument("GEMM variant '" + name +
                                  "' needs an sm_90 GPU and a build for sm_90a");
    return v;
  }
  throw std::invalid_argument("unknown GEMM variant '" + name + "'");
}

class BitPlaneEngine : public distance::DistanceEngine {
 public:
  explicit BitPlaneEngine(const DistanceProblem& p) : p_(p) {
    const BitPlanes x = distance::encode_bit_planes(p.x, p.alphabet_size, p.metric, p.missing);
    const BitPlanes y = distance::encode_bit_planes(p.y, p.alphabet_size, p.metric, p.missing);
    x_ = upload_bits(x.bits.data(), x.instances, x.row_words());
    y_ = upload_bits(y.bits.data(), y.instances, y.row_words());
    if (p.missing) {
      x_valid_ = upload_bits(x.valid.data(), x.instances, x.plane_words);
      y_valid_ = upload_bits(y.valid.data(), y.instances, y.plane_words);
      if (p.metric == Metric::kManhattan) {
        x_valid_rep_ = upload_bits(repeat_valid(x).data(), x.instances, x.row_words());
        y_valid_rep_ = upload_bits(repeat_valid(y).data(), y.instances, y.row_words());
      }
    } else if (p.metric == Metric::kManhattan) {
      x_weight_ = device_copy(x.weight.data(), x.weight.size());
      y_weight_ = device_copy(y.weight.data(), y.weight.size());
    }
  }

  void compute(const OutputTile& tile) override {
    const int64_t rows = tile.row_end - tile.row_begin, cols = tile.col_end - tile.col_begin;
    if (rows <= 0 || cols <= 0) return;
    int32_t* out = out_.get(static_cast<size_t>(rows * cols));
    int32_t* compared = p_.missing ? compared_.get(static_cast<size_t>(rows * cols)) : nullptr;
    const int64_t r0 = tile.row_begin, c0 = tile.col_begin;
    auto product = [&](const DeviceBits& a, const DeviceBits& b, bitplane::Epilogue ep) {
      ep.out_stride = cols;
      default_gemm().launch(a.row(r0), rows, b.row(c0), cols, a.k_words, ep);
    };
    timer_.start();
    bitplane::Epilogue ep;
    ep.out = out;
    if (p_.metric == Metric::kHamming) {
      if (!p_.missing) {  // attributes - matches
        ep.constant = static_cast<int32_t>(p_.x.attributes);
        ep.scale = -1;
        product(x_, y_, ep);
      } else {            // compared - matches
        bitplane::Epilogue cmp;
        cmp.out = compared;
        product(x_valid_, y_valid_, cmp);
        ep.base = compared;
        ep.scale = -1;
        product(x_, y_, ep);
      }
    } else if (!p_.missing) {  // |x| + |y| - 2 (x AND y) over thermometer planes
      ep.row_add = x_weight_.get() + r0;
      ep.col_add = y_weight_.get() + c0;
      ep.scale = -2;
      product(x_, y_, ep);
    } else {  // (x AND valid_y) + (valid_x AND y) - 2 (x AND y)
      bitplane::Epilogue cmp;
      cmp.out = compared;
      product(x_valid_, y_valid_, cmp);
      product(x_, y_valid_rep_, ep);
      ep.accumulate = true;
      product(x_valid_rep_, y_, ep);
      ep.scale = -2;
      product(x_, y_, ep);
    }
    seconds_ = timer_.stop_seconds();
    copy_tile_to_host(out, tile, tile.out);
    if (tile.compared != nullptr) {
      if (p_.missing)
        copy_tile_to_host(compared, tile, tile.compared);
      else
        fill_host_tile(tile, tile.compared, static_cast<int32_t>(p_.x.attributes));
    }
  }
  double last_device_seconds() const override { return seconds_; }

 private:
  DistanceProblem p_;
  DeviceBits x_, y_, x_valid_, y_valid_, x_valid_rep_, y_valid_rep_;
  DeviceArray<int32_t> x_weight_, y_weight_;
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

std::vector<std::string> b1_gemm_variants() {
  std::vector<std::string> names;
  for (const auto& v : kGemmVariants)
    if (!v.needs_wgmma || wgmma_available()) names.emplace_back(v.name);
  return names;
}

double b1_gemm_seconds(const std::string& variant, int64_t rows, int64_t cols, int64_t k_bits,
                       int repeats) {
  const GemmVariant& v = variant.empty() ? default_gemm() : gemm_by_name(variant);
  const int64_t k_words = (k_bits + 1023) / 1024 * 32;
  std::vector<uint32_t> host(static_cast<size_t>((rows + cols) * k_words));
  uint32_t state = 2463534242u;  // xorshift32: random bits, no host library needed
  for (auto& w : host) {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    w = state;
  }
  DeviceArray<uint32_t> bits = device_copy(host.data(), host.size());
  DeviceArray<int32_t> out = device_alloc<int32_t>(static_cast<size_t>(rows * cols));
  bitplane::Epilogue ep;
  ep.out = out.get();
  ep.out_stride = cols;
  v.launch(bits.get(), rows, bits.get() + rows * k_words, cols, k_words, ep);  // warm-up
  DeviceTimer timer;
  timer.start();
  for (int r = 0; r < repeats; ++r)
    v.launch(bits.get(), rows, bits.get() + rows * k_words, cols, k_words, ep);
  return timer.stop_seconds() / repeats;
}

std::vector<int32_t> b1_gemm_product(const std::string& variant, const uint64_t* a,
                                     int64_t a_rows, const uint64_t* b, int64_t b_rows,
                                     int64_t words64) {
  if (a_rows <= 0 || b_rows <= 0) throw std::invalid_argument("empty bit matrix");
  if (words64 % 16 != 0)
    throw std::invalid_argument("bit rows must be whole 1024-bit blocks (16 64-bit words)");
  const GemmVariant& v = variant.empty() ? default_gemm() : gemm_by_name(variant);
  const DeviceBits da = upload_bits(a, a_rows, words64), db = upload_bits(b, b_rows, words64);
  DeviceArray<int32_t> out = device_alloc<int32_t>(static_cast<size_t>(a_rows * b_rows));
  bitplane::Epilogue ep;
  ep.out = out.get();
  ep.out_stride = b_rows;
  v.launch(da.row(0), a_rows, db.row(0), b_rows, da.k_words, ep);
  std::vector<int32_t> host(static_cast<size_t>(a_rows * b_rows));
  GPUSEQ_CUDA_CHECK(cudaMemcpy(host.data(), out.get(), host.size() * sizeof(int32_t),
                               cudaMemcpyDeviceToHost));
  return host;
}

template <int WarpGroups>
double wgmma_peak_tops(int iterations, int sms) {
  using T = bitplane::WgmmaTiling<WarpGroups, 1024, 3, 1>;  // the peak kernel's tiles: one slot
  const int shared = T::kSlotBytes + 1024;
  const auto kernel = bitplane::wgmma_b1_peak_kernel<WarpGroups>;
  GPUSEQ_CUDA_CHECK(
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared));
  DeviceArray<int> sink = device_alloc<int>(1);
  kernel<<<sms, T::kThreads, shared>>>(8, sink.get());  // warm-up
  GPUSEQ_CUDA_CHECK_LAUNCH("wgmma_b1_peak_kernel");
  DeviceTimer timer;
  timer.start();
  kernel<<<sms, T::kThreads, shared>>>(iterations, sink.get());
  GPUSEQ_CUDA_CHECK_LAUNCH("wgmma_b1_peak_kernel");
  const double seconds = timer.stop_seconds();
  const double products = static_cast<double>(sms) * WarpGroups * iterations * 4;
  return products * 64 * 256 * 256 * 2 / seconds / 1e12;  // m64n256k256 each
}

double b1_wgmma_peak_tops(int iterations) {
  if (!wgmma_available())
    throw std::invalid_argument("wgmma needs an sm_90 GPU and a build for sm_90a");
  int device = 0, sms = 0;
  GPUSEQ_CUDA_CHECK(cudaGetDevice(&device));
  GPUSEQ_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  // The faster of 2 and 3 warpgroups per SM (the GEMM kernels use both).
  return std::max(wgmma_peak_tops<2>(iterations, sms), wgmma_peak_tops<3>(iterations, sms));
}

double b1_mma_peak_tops(int iterations) {
  int device = 0, sms = 0;
  GPUSEQ_CUDA_CHECK(cudaGetDevice(&device));
  GPUSEQ_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  DeviceArray<int> sink = device_alloc<int>(1);
  const int blocks = sms * 8, threads = 256;
  bitplane::mma_b1_peak_kernel<<<blocks, threads>>>(8, sink.get());  // warm-up
  GPUSEQ_CUDA_CHECK_LAUNCH("mma_b1_peak_kernel");
  DeviceTimer timer;
  timer.start();
  bitplane::mma_b1_peak_kernel<<<blocks, threads>>>(iterations, sink.get());
  GPUSEQ_CUDA_CHECK_LAUNCH("mma_b1_peak_kernel");
  const double seconds = timer.stop_seconds();
  const double mmas = static_cast<double>(blocks) * (threads / 32) * iterations * 8;
  return mmas * 16 * 8 * 256 * 2 / seconds / 1e12;
}

}  // namespace gpuseq::cuda
