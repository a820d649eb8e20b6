#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <future>
#include <mutex>
#include <vector>

#include "common/check.cuh"
#include "common/device.hpp"
#include "common/kept_threads.hpp"
#include "common/parallel.hpp"  // default_thread_count

namespace gpuseq::cuda {

namespace {

// pieces [0, n) shared out among `workers`: the caller and workers - 1 kept threads
// (common/kept_threads.hpp: threads that call CUDA never end before the process). Each calls
// piece(index, worker) for the pieces it takes; after an exception the others take no more,
// and the first is rethrown once all are done.
void for_each_piece(int64_t n, int workers, const std::function<void(int64_t, int)>& piece) {
  std::atomic<int64_t> next{0};
  auto work = [&](int worker) {
    try {
      for (int64_t i = next++; i < n; i = next++) piece(i, worker);
    } catch (...) {
      next.store(n);
      throw;
    }
  };
  std::vector<std::future<void>> others;
  std::exception_ptr failure;
  try {
    for (int worker = 1; worker < workers; ++worker)
      others.push_back(run_on_kept_thread([&work, worker] { work(worker); }));
    work(0);
  } catch (...) {
    failure = std::current_exception();
    next.store(n);
  }
  for (auto& other : others) {
    try {
      other.get();
    } catch (...) {
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
}

// The staging of copy_to_device and copy_to_host_2d: a pinned buffer and a stream per copying
// thread, made on first use and kept. Each thread moves its own pieces (host copy into its
// buffer and DMA, in the order of the direction), so the DMAs of the others queue on the copy
// engine while it copies: the link stays busy and the host copies (page faults of an mmapped
// source, first touches of a fresh destination) run on all threads. 4 MB pieces: 16 threads
// hold 64 MB pinned.
struct HostStaging {
  static constexpr size_t kPieceBytes = size_t{4} << 20;
  static constexpr size_t kDirectBelow = size_t{1} << 20;  // small copies: plain cudaMemcpy
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

// Workers run on threads of their own: they copy on the caller's device.
int current_device() {
  int device = 0;
  GPUSEQ_CUDA_CHECK(cudaGetDevice(&device));
  return device;
}

HostStaging& host_staging() {
  static HostStaging* s = new HostStaging;  // never destroyed: CUDA may be torn down first
  return *s;
}

}  // namespace

void copy_to_device(void* device, const void* host, size_t bytes) {
  HostStaging& s = host_staging();
  std::unique_lock<std::mutex> lock(s.mutex);
  const int workers = bytes < HostStaging::kDirectBelow ? 0 : s.prepare(default_thread_count());
  if (workers == 0) {
    lock.unlock();
    GPUSEQ_CUDA_CHECK(cudaMemcpy(device, host, bytes, cudaMemcpyHostToDevice));
    return;
  }
  auto* to = static_cast<char*>(device);
  const auto* from = static_cast<const char*>(host);
  const auto pieces =
      static_cast<int64_t>((bytes + HostStaging::kPieceBytes - 1) / HostStaging::kPieceBytes);
  const int device_id = current_device();
  for_each_piece(pieces, workers, [&](int64_t piece, int worker) {
    GPUSEQ_CUDA_CHECK(cudaSetDevice(device_id));
    const HostStaging::Slot& slot = s.slots[static_cast<size_t>(worker)];
    const size_t at = static_cast<size_t>(piece) * HostStaging::kPieceBytes;
    const size_t n = std::min(HostStaging::kPieceBytes, bytes - at);
    std::memcpy(slot.buffer, from + at, n);
    GPUSEQ_CUDA_CHECK(
        cudaMemcpyAsync(to + at, slot.buffer, n, cudaMemcpyHostToDevice, slot.stream));
    GPUSEQ_CUDA_CHECK(cudaStreamSynchronize(slot.stream));  // its buffer is free again
  });
}

void copy_to_host_2d(void* host, size_t host_pitch, const void* device, size_t device_pitch,
                     size_t row_bytes, size_t rows, int threads) {
  HostStaging& s = host_staging();
  std::unique_lock<std::mutex> lock(s.mutex);
  const size_t rows_per_piece = row_bytes ? HostStaging::kPieceBytes / row_bytes : 0;
  const int workers = rows * row_bytes < HostStaging::kDirectBelow || rows_per_piece == 0
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
  const int device_id = current_device();
  for_each_piece(pieces, workers, [&](int64_t piece, int worker) {
    GPUSEQ_CUDA_CHECK(cudaSetDevice(device_id));
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

std::string initialize_context(const std::string& host_wait) {
  unsigned flags = cudaDeviceScheduleAuto;
  if (host_wait == "spin") {
    flags = cudaDeviceScheduleSpin;
  } else if (host_wait == "yield") {
    flags = cudaDeviceScheduleYield;
  } else if (host_wait == "block") {
    flags = cudaDeviceScheduleBlockingSync;
  } else if (host_wait != "auto") {
    return "unknown host wait '" + host_wait + "' (auto, spin, yield or block)";
  }
  // Made with these flags, or given them if it exists (the runtime overwrites the flags);
  // an error leaves the runtime's own choice.
  if (flags != cudaDeviceScheduleAuto && cudaSetDeviceFlags(flags) != cudaSuccess)
    cudaGetLastError();
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
