// The binary tensor-core product behind the bit-plane engine: launchers for both kernels
// (wgmma on sm_90a, mma.sync elsewhere), the table of tiling variants with the measurements that
// chose the defaults, and the entry points bench_distance.py and the tests call (b1_gemm_*,
// b1_*_peak_tops).
#include "distance/b1_gemm.cuh"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/check.cuh"
#include "distance/bitplane_mma.cuh"
#include "distance/bitplane_wgmma.cuh"
#include "distance/genotypes.cuh"
#include "distance/gpu_distance.hpp"

namespace gpuseq::cuda {

namespace {

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

}  // namespace

void b1_product(const uint32_t* A, int64_t a_rows, const uint32_t* B, int64_t b_rows,
                int64_t k_words, const bitplane::Epilogue& ep) {
  default_gemm().launch(A, a_rows, B, b_rows, k_words, ep);
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
