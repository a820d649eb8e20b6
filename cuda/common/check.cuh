// CUDA error handling: every runtime call is checked; a failed allocation becomes
// distance::DeviceOutOfMemory (callers shrink their work), anything else distance::CudaError.
#pragma once

#include <cuda_runtime.h>

#include <atomic>
#include <memory>
#include <stdexcept>
#include <string>

#include "distance/engine.hpp"

namespace gpuseq::cuda {

inline void check(cudaError_t err, const char* what, const char* file, int line) {
  if (err == cudaSuccess) return;
  cudaGetLastError();  // clear a non-sticky error
  const std::string msg = std::string(what) + " failed: " + cudaGetErrorString(err) + " (" +
                          file + ":" + std::to_string(line) + ")";
  if (err == cudaErrorMemoryAllocation) throw distance::DeviceOutOfMemory(msg);
  throw distance::CudaError(msg);
}

#define GPUSEQ_CUDA_CHECK(call) ::gpuseq::cuda::check((call), #call, __FILE__, __LINE__)
#define GPUSEQ_CUDA_CHECK_LAUNCH(name) \
  ::gpuseq::cuda::check(cudaGetLastError(), name " launch", __FILE__, __LINE__)

// Device memory owned by a unique_ptr.
struct DeviceFree {
  void operator()(void* p) const { cudaFree(p); }
};
template <class T>
using DeviceArray = std::unique_ptr<T, DeviceFree>;

// Testing hook: device allocations larger than this many bytes fail as a full device would
// (0: no limit), so that the paths that shrink their work can be tested on any GPU.
inline std::atomic<size_t>& allocation_limit_for_tests() {
  static std::atomic<size_t> limit{0};
  return limit;
}

template <class T>
DeviceArray<T> device_alloc(size_t count) {
  void* p = nullptr;
  const size_t bytes = count * sizeof(T) + (count == 0);
  const size_t limit = allocation_limit_for_tests().load();
  if (limit != 0 && bytes > limit)
    throw distance::DeviceOutOfMemory("cudaMalloc of " + std::to_string(bytes) +
                                      " bytes refused by the test allocation limit of " +
                                      std::to_string(limit));
  GPUSEQ_CUDA_CHECK(cudaMalloc(&p, bytes));
  return DeviceArray<T>(static_cast<T*>(p));
}

// Host to device through two pinned staging buffers on a stream of its own (cuda/common/
// device.cu): host copies into one buffer overlap the DMA from the other, and pageable memory
// (an mmapped database) moves at pinned speed. Synchronous for the caller; copies from several
// threads take turns. Small copies, or no pinned memory to be had, go by plain cudaMemcpy.
void copy_to_device(void* device, const void* host, size_t bytes);

// Device to host, `rows` rows of `row_bytes` (pitches in bytes), through the same pinned
// buffers: the DMA of one buffer overlaps the host threads' copies out of the other, and the
// destination's pages are first touched by `threads` threads, not one (a pageable
// cudaMemcpy2D of a 10 GB result ran at the page-fault rate of a single thread).
void copy_to_host_2d(void* host, size_t host_pitch, const void* device, size_t device_pitch,
                     size_t row_bytes, size_t rows, int threads);

template <class T>
DeviceArray<T> device_copy(const T* host, size_t count) {
  DeviceArray<T> d = device_alloc<T>(count);
  if (count) copy_to_device(d.get(), host, count * sizeof(T));
  return d;
}

// Times kernels on the default stream with events.
class DeviceTimer {
 public:
  DeviceTimer() {
    GPUSEQ_CUDA_CHECK(cudaEventCreate(&start_));
    GPUSEQ_CUDA_CHECK(cudaEventCreate(&stop_));
  }
  ~DeviceTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  void start() { GPUSEQ_CUDA_CHECK(cudaEventRecord(start_)); }
  double stop_seconds() {
    GPUSEQ_CUDA_CHECK(cudaEventRecord(stop_));
    GPUSEQ_CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0;
    GPUSEQ_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms / 1000.0;
  }

 private:
  cudaEvent_t start_{}, stop_{};
};

}  // namespace gpuseq::cuda
