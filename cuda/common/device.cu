#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <mutex>

#include "common/check.cuh"
#include "common/device.hpp"
#include "common/parallel.hpp"

namespace gpuseq::cuda {

namespace {

// The staging of copy_to_device, made on first use and kept for the process (two pinned
// buffers, a non-blocking stream, an event per buffer). Bytes per buffer: 16 MB halves the
// time of a 490 MB upload from an mmapped file against pageable cudaMemcpy on the H100
// machine; more buys nothing once the host copy is the bound.
struct Staging {
  static constexpr size_t kBufferBytes = size_t{16} << 20;
  static constexpr size_t kDirectBelow = size_t{1} << 20;  // small copies: plain cudaMemcpy
  std::mutex mutex;
  bool tried = false, ready = false;
  void* buffer[2] = {nullptr, nullptr};
  cudaEvent_t done[2] = {};
  cudaStream_t stream = nullptr;

  bool prepare() {  // under the mutex
    if (tried) return ready;
    tried = true;
    ready = cudaHostAlloc(&buffer[0], kBufferBytes, cudaHostAllocDefault) == cudaSuccess &&
            cudaHostAlloc(&buffer[1], kBufferBytes, cudaHostAllocDefault) == cudaSuccess &&
            cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess &&
            cudaEventCreateWithFlags(&done[0], cudaEventDisableTiming) == cudaSuccess &&
            cudaEventCreateWithFlags(&done[1], cudaEventDisableTiming) == cudaSuccess;
    if (!ready) cudaGetLastError();  // pinned memory refused: plain copies from now on
    return ready;
  }
};

Staging& staging() {
  static Staging* s = new Staging;  // never destroyed: CUDA may be torn down before statics
  return *s;
}

}  // namespace

void copy_to_device(void* device, const void* host, size_t bytes) {
  Staging& s = staging();
  std::unique_lock<std::mutex> lock(s.mutex);
  if (bytes < Staging::kDirectBelow || !s.prepare()) {
    lock.unlock();
    GPUSEQ_CUDA_CHECK(cudaMemcpy(device, host, bytes, cudaMemcpyHostToDevice));
    return;
  }
  auto* to = static_cast<char*>(device);
  const auto* from = static_cast<const char*>(host);
  for (size_t at = 0, piece = 0; at < bytes; at += Staging::kBufferBytes, ++piece) {
    const int b = static_cast<int>(piece % 2);
    const size_t n = std::min(Staging::kBufferBytes, bytes - at);
    GPUSEQ_CUDA_CHECK(cudaEventSynchronize(s.done[b]));  // its previous copy is out
    std::memcpy(s.buffer[b], from + at, n);
    GPUSEQ_CUDA_CHECK(cudaMemcpyAsync(to + at, s.buffer[b], n, cudaMemcpyHostToDevice, s.stream));
    GPUSEQ_CUDA_CHECK(cudaEventRecord(s.done[b], s.stream));
  }
  GPUSEQ_CUDA_CHECK(cudaStreamSynchronize(s.stream));
}

void copy_to_host_2d(void* host, size_t host_pitch, const void* device, size_t device_pitch,
                     size_t row_bytes, size_t rows, int threads) {
  Staging& s = staging();
  std::unique_lock<std::mutex> lock(s.mutex);
  const size_t rows_per_buffer = row_bytes ? Staging::kBufferBytes / row_bytes : 0;
  if (rows * row_bytes < Staging::kDirectBelow || rows_per_buffer == 0 || !s.prepare()) {
    lock.unlock();
    GPUSEQ_CUDA_CHECK(cudaMemcpy2D(host, host_pitch, device, device_pitch, row_bytes, rows,
                                   cudaMemcpyDeviceToHost));
    return;
  }
  auto* to = static_cast<char*>(host);
  const auto* from = static_cast<const char*>(device);
  const size_t pieces = (rows + rows_per_buffer - 1) / rows_per_buffer;
  auto rows_of = [&](size_t piece) {
    return std::min(rows_per_buffer, rows - piece * rows_per_buffer);
  };
  auto start = [&](size_t piece) {  // DMA of a piece into its buffer
    const int b = static_cast<int>(piece % 2);
    const size_t r0 = piece * rows_per_buffer;
    GPUSEQ_CUDA_CHECK(cudaMemcpy2DAsync(s.buffer[b], row_bytes, from + r0 * device_pitch,
                                        device_pitch, row_bytes, rows_of(piece),
                                        cudaMemcpyDeviceToHost, s.stream));
    GPUSEQ_CUDA_CHECK(cudaEventRecord(s.done[b], s.stream));
  };
  start(0);
  for (size_t piece = 0; piece < pieces; ++piece) {
    const int b = static_cast<int>(piece % 2);
    GPUSEQ_CUDA_CHECK(cudaEventSynchronize(s.done[b]));
    if (piece + 1 < pieces) start(piece + 1);  // into the other buffer, while we copy out
    const size_t r0 = piece * rows_per_buffer;
    const auto* staged = static_cast<const char*>(s.buffer[b]);
    parallel_for_blocks(static_cast<int64_t>(rows_of(piece)), 64, threads,
                        [&](int64_t begin, int64_t end, int) {
                          for (int64_t r = begin; r < end; ++r)
                            std::memcpy(to + (r0 + r) * host_pitch, staged + r * row_bytes,
                                        row_bytes);
                        });
  }
}

std::vector<DeviceInfo> list_devices() {
  std::vector<DeviceInfo> out;
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky error of a missing driver
    return out;
  }
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, i) != cudaSuccess) continue;
    DeviceInfo d;
    d.index = i;
    d.name = prop.name;
    d.major = prop.major;
    d.minor = prop.minor;
    d.total_memory = static_cast<int64_t>(prop.totalGlobalMem);
    d.multiprocessors = prop.multiProcessorCount;
    out.push_back(d);
  }
  return out;
}

void keep_stream_pool_memory() {
  constexpr int kDevices = 64;
  static std::once_flag once[kDevices];
  int device = 0;
  GPUSEQ_CUDA_CHECK(cudaGetDevice(&device));
  if (device < 0 || device >= kDevices) return;
  std::call_once(once[device], [device] {
    cudaMemPool_t pool = nullptr;
    GPUSEQ_CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, device));
    uint64_t kept = kStreamPoolKeptBytes;
    GPUSEQ_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &kept));
  });
}

std::string initialize_context() {
  const cudaError_t err = cudaFree(nullptr);
  if (err == cudaSuccess) return "";
  cudaGetLastError();
  return cudaGetErrorString(err);
}

std::string runtime_status() {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    cudaGetLastError();
    if (err == cudaErrorNoDevice) return "no CUDA device found";
    if (err == cudaErrorInsufficientDriver)
      return "no NVIDIA driver, or one too old for this CUDA runtime";
    return cudaGetErrorString(err);
  }
  return count > 0 ? "" : "no CUDA device found";
}

}  // namespace gpuseq::cuda
