// CUDA error handling: every runtime call is checked; a failed allocation becomes
// distance::DeviceOutOfMemory (callers shrink their work), anything else distance::CudaError.
#pragma once

#include <cuda_runtime.h>

#include <atomic>
#include <cstdint>
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

// Device memory owned by a unique_ptr: from cudaMalloc (freed by cudaFree, which waits for
// the whole device), or stream-ordered from device_alloc_on (freed by cudaFreeAsync on its
// stream, which waits for nothing: work of other threads' streams goes on).
struct DeviceFree {
  cudaStream_t stream = nullptr;
  bool stream_ordered = false;
  void operator()(void* p) const {
    if (stream_ordered)
      cudaFreeAsync(p, stream);
    else
      cudaFree(p);
  }
};
template <class T>
using DeviceArray = std::unique_ptr<T, DeviceFree>;

// Testing hook: device allocations larger than this many bytes fail as a full device would
// (0: no limit), so that the paths that shrink their work can be tested on any GPU.
inline std::atomic<size_t>& allocation_limit_for_tests() {
  static std::atomic<size_t> limit{0};
  return limit;
}

// Testing hook: the n-th device allocation from now fails (0: none), so that every point
// where an allocation can fail is reached in turn.
inline std::atomic<int64_t>& allocations_before_failure_for_tests() {
  static std::atomic<int64_t> n{0};
  return n;
}

inline void check_allocation_limit(size_t bytes) {
  const size_t limit = allocation_limit_for_tests().load();
  if (limit != 0 && bytes > limit)
    throw distance::DeviceOutOfMemory("cudaMalloc of " + std::to_string(bytes) +
                                      " bytes refused by the test allocation limit of " +
                                      std::to_string(limit));
  std::atomic<int64_t>& countdown = allocations_before_failure_for_tests();
  int64_t left = countdown.load();
  while (left > 0 && !countdown.compare_exchange_weak(left, left - 1)) {
  }
  if (left == 1)
    throw distance::DeviceOutOfMemory("cudaMalloc of " + std::to_string(bytes) +
                                      " bytes refused by the test allocation countdown");
}

template <class T>
DeviceArray<T> device_alloc(size_t count) {
  void* p = nullptr;
  const size_t bytes = count * sizeof(T) + (count == 0);
  check_allocation_limit(bytes);
  GPUSEQ_CUDA_CHECK(cudaMalloc(&p, bytes));
  return DeviceArray<T>(static_cast<T*>(p));
}

// The device's stream-ordered pool keeps up to this many freed bytes for later allocations
// (its default, 0, hands memory back at every synchronisation, and each allocation after it
// maps memory again). Set once per process by device_alloc_on.
inline constexpr uint64_t kStreamPoolKeptBytes = uint64_t{256} << 20;
void keep_stream_pool_memory();  // cuda/common/device.cu

// Stream-ordered device memory: usable by work on `stream` at once, freed in its order when
// the array goes (the calling thread's stream, cudaStreamPerThread, for the hmmsearch
// cascades, so that the launches of several threads overlap).
template <class T>
DeviceArray<T> device_alloc_on(size_t count, cudaStream_t stream) {
  void* p = nullptr;
  const size_t bytes = count * sizeof(T) + (count == 0);
  check_allocation_limit(bytes);
  keep_stream_pool_memory();
  GPUSEQ_CUDA_CHECK(cudaMallocAsync(&p, bytes, stream));
  return DeviceArray<T>(static_cast<T*>(p), DeviceFree{stream, true});
}

// host[0, count) into new stream-ordered memory, copied in the stream's order (host memory
// pageable: the call returns when the host bytes are no longer needed).
template <class T>
DeviceArray<T> device_copy_on(const T* host, size_t count, cudaStream_t stream) {
  DeviceArray<T> d = device_alloc_on<T>(count, stream);
  if (count)
    GPUSEQ_CUDA_CHECK(
        cudaMemcpyAsync(d.get(), host, count * sizeof(T), cudaMemcpyHostToDevice, stream));
  return d;
}

// device[0, count) to host, waiting for the stream's work before it.
template <class T>
void copy_to_host_on(T* host, const T* device, size_t count, cudaStream_t stream) {
  if (count == 0) return;
  GPUSEQ_CUDA_CHECK(
      cudaMemcpyAsync(host, device, count * sizeof(T), cudaMemcpyDeviceToHost, stream));
  GPUSEQ_CUDA_CHECK(cudaStreamSynchronize(stream));
}

// Host to device through pinned staging, as copy_to_host_2d below: the threads' host copies
// into their buffers overlap the DMAs from the others', so pageable memory (an mmapped
// database) moves at the link's speed, not one thread's. Synchronous for the caller; copies
// from several threads take turns. Small copies, or no pinned memory to be had, go by plain
// cudaMemcpy.
void copy_to_device(void* device, const void* host, size_t bytes);

// Device to host, `rows` rows of `row_bytes` (pitches in bytes), through pinned staging:
// `threads` threads each move pieces through a pinned buffer and a stream of their own, so
// DMAs overlap the host copies and the destination's pages are first touched by all threads
// (a pageable cudaMemcpy2D of a 10 GB result ran at the page-fault rate of a single thread).
void copy_to_host_2d(void* host, size_t host_pitch, const void* device, size_t device_pitch,
                     size_t row_bytes, size_t rows, int threads);

template <class T>
DeviceArray<T> device_copy(const T* host, size_t count) {
  DeviceArray<T> d = device_alloc<T>(count);
  if (count) copy_to_device(d.get(), host, count * sizeof(T));
  return d;
}

// Times kernels on a stream (the default stream unless told) with events.
class DeviceTimer {
 public:
  explicit DeviceTimer(cudaStream_t stream = nullptr) : stream_(stream) {
    GPUSEQ_CUDA_CHECK(cudaEventCreate(&start_));
    GPUSEQ_CUDA_CHECK(cudaEventCreate(&stop_));
  }
  ~DeviceTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  void start() { GPUSEQ_CUDA_CHECK(cudaEventRecord(start_, stream_)); }
  void stop() { GPUSEQ_CUDA_CHECK(cudaEventRecord(stop_, stream_)); }
  // Waits for the stop event; the time between the events.
  double seconds() {
    GPUSEQ_CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0;
    GPUSEQ_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms / 1000.0;
  }
  // Whether the work before the stop event is done (without waiting).
  bool stopped() {
    const cudaError_t status = cudaEventQuery(stop_);
    if (status == cudaErrorNotReady) return false;
    GPUSEQ_CUDA_CHECK(status);
    return true;
  }
  double stop_seconds() {
    stop();
    return seconds();
  }

 private:
  cudaStream_t stream_;
  cudaEvent_t start_{}, stop_{};
};

}  // namespace gpuseq::cuda
