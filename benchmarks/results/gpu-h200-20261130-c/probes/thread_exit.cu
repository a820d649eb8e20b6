// Session 66: does a thread that used CUDA, ending while another thread allocates, hang the
// driver (the hang of gpu-h200-20261130-b call 6: a cascade thread spinning in cudaMalloc, a
// driver thread spinning, an ending thread in the driver's thread-local destructor)?
//
// Each round a new thread runs `work` and ends (the next round starts as `work` returns); meanwhile this thread allocates and frees
// with cudaMalloc / cudaFree without pause. A watchdog ends the process (exit 3) when no round
// has finished for 20 s. Modes of `work`:
//   ptds   cudaMallocAsync, a kernel, cudaFreeAsync on cudaStreamPerThread, then a sync
//          (what a hmmsearch cascade thread does)
//   stream the same on a stream the thread makes and destroys before it ends
//   plain  cudaMalloc, a kernel on the legacy stream, cudaFree
// Usage: thread_exit MODE SECONDS; prints the rounds done.
#include <cuda_runtime.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

__global__ void touch(int* p, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = i;
}

static void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(2);
  }
}

static void work(const char* mode) {
  const int n = 1 << 16;
  int* p = nullptr;
  if (!std::strcmp(mode, "ptds")) {
    cudaStream_t s = cudaStreamPerThread;
    check(cudaMallocAsync(&p, n * sizeof(int), s), "cudaMallocAsync");
    touch<<<n / 256, 256, 0, s>>>(p, n);
    check(cudaFreeAsync(p, s), "cudaFreeAsync");
    check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
  } else if (!std::strcmp(mode, "stream")) {
    cudaStream_t s;
    check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
    check(cudaMallocAsync(&p, n * sizeof(int), s), "cudaMallocAsync");
    touch<<<n / 256, 256, 0, s>>>(p, n);
    check(cudaFreeAsync(p, s), "cudaFreeAsync");
    check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
    check(cudaStreamDestroy(s), "cudaStreamDestroy");
  } else {
    check(cudaMalloc(&p, n * sizeof(int)), "cudaMalloc");
    touch<<<n / 256, 256>>>(p, n);
    check(cudaFree(p), "cudaFree");
  }
}

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  const char* mode = argv[1];
  const double seconds = std::atof(argv[2]);
  cudaMemPool_t pool;
  check(cudaDeviceGetDefaultMemPool(&pool, 0), "pool");
  uint64_t kept = uint64_t{256} << 20;  // as gpuseq's keep_stream_pool_memory
  check(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &kept), "threshold");
  std::atomic<long> rounds{0};
  std::atomic<bool> done{false};
  std::thread watchdog([&] {
    long last = -1;
    auto since = std::chrono::steady_clock::now();
    while (!done) {
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
      const long now = rounds.load();
      if (now != last) {
        last = now;
        since = std::chrono::steady_clock::now();
      } else if (std::chrono::steady_clock::now() - since > std::chrono::seconds(20)) {
        std::printf("%s: HANG after %ld rounds\n", mode, now);
        std::fflush(stdout);
        std::_Exit(3);
      }
    }
  });
  std::atomic<bool> stop{false};
  std::thread allocator([&] {
    while (!stop) {
      int* q = nullptr;
      check(cudaMalloc(&q, 4096 * sizeof(int)), "cudaMalloc (allocator)");
      check(cudaFree(q), "cudaFree (allocator)");
    }
  });
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
    // As a Python thread joined: the next round starts once `work` returns, while the
    // thread's own ending (the driver's thread-local destructor) may still be under way.
    std::atomic<bool> worked{false};
    std::thread([&] {
      work(mode);
      worked = true;
    }).detach();
    while (!worked) std::this_thread::yield();
    rounds++;
  }
  stop = true;
  allocator.join();
  done = true;
  watchdog.join();
  std::printf("%s: %ld rounds, no hang\n", mode, rounds.load());
  return 0;
}
