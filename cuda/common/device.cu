#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <vector>

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

namespace {

// The staging of copy_to_host_2d: a pinned buffer and a stream per copying thread, made on
// first use and kept. Each thread moves its own pieces (DMA into its buffer, then its rows
// out), so the DMAs of the others queue on the copy engine while it copies: the link stays
// busy and the host copies (and the destination's first-touch page faults) run on all threads.
// 4 MB pieces: 16 threads hold 64 MB pinned.
struct HostStaging {
  static constexpr size_t kPieceBytes = size_t{4} << 20;
  struct Slot {
    void* buffer = nullptr;
    cudaStream_t stream = nullptr;
  };
  std::mutex mutex;
  std::vector<Slot> slots;
  bool refused = false;

  // Slots for `threads` threads (under the mutex); fewer where pinned memory runs out.
  int prepare(int threads) {
    while (!refused && static_cast<int>(slots.size()) < threads) {
      Slot slot;
      if (cudaHostAlloc(&slot.buffer, kPieceBytes, cudaHostAllocDefault) != cudaSuccess ||
          cudaStreamCreateWithFlags(&slot.stream, cudaStreamNonBlocking) != cudaSuccess) {
        cudaGetLastError();
        if (slot.buffer != nullptr) cudaFreeHost(slot.buffer);
        refused = true;  // pinned memory refused: what we have, or plain copies
        break;
      }
      slots.push_back(slot);
    }
    return std::min(threads, static_cast<int>(slots.size()));
  }
};

HostStaging& host_staging() {
  static HostStaging* s = new HostStaging;  // never destroyed, as staging()
  return *s;
}

}  // namespace

void copy_to_host_2d(void* host, size_t host_pitch, const void* device, size_t device_pitch,
                     size_t row_bytes, size_t rows, int threads) {
  HostStaging& s = host_staging();
  std::unique_lock<std::mutex> lock(s.mutex);
  const size_t rows_per_piece = row_bytes ? HostStaging::kPieceBytes / row_bytes : 0;
  const int workers = rows * row_bytes < Staging::kDirectBelow || rows_per_piece == 0
                          ? 0
                          : s.prepare(std::max(1, threads));
  if (workers == 0) {
    lock.unlock();
    GPUSEQ_CUDA_CHECK(cudaMemcpy2D(host, host_pitch, device, device_pitch, row_bytes, rows,
                                   cudaMemcpyDeviceToHost));
    return;
  }
  auto* to = static_cast<char*>(host);
  const auto* from = static_cast<const char*>(device);
  const auto pieces = static_cast<int64_t>((rows + rows_per_piece - 1) / rows_per_piece);
  parallel_for_blocks(pieces, 1, workers, [&](int64_t piece, int64_t, int worker) {
    const HostStaging::Slot& slot = s.slots[static_cast<size_t>(worker)];
    const size_t r0 = static_cast<size_t>(piece) * rows_per_piece;
    const size_t n = std::min(rows_per_piece, rows - r0);
    GPUSEQ_CUDA_CHECK(cudaMemcpy2DAsync(slot.buffer, row_bytes, from + r0 * device_pitch,
                                        device_pitch, row_bytes, n, cudaMemcpyDeviceToHost,
                                        slot.stream));
    GPUSEQ_CUDA_CHECK(cudaStreamSynchronize(slot.stream));
    const auto* staged = static_cast<const char*>(slot.buffer);
    if (host_pitch == row_bytes) {
      std::memcpy(to + r0 * host_pitch, staged, n * row_bytes);
    } else {
      for (size_t r = 0; r < n; ++r)
        std::memcpy(to + (r0 + r) * host_pitch, staged + r * row_bytes, row_bytes);
    }
  });
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
