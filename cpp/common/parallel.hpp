// Dynamic work sharing over [0, n) in blocks, on plain std::threads. The first exception thrown
// by any worker is rethrown on the calling thread.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace gpuseq {

// body(begin, end, worker) is called for consecutive blocks; worker is in [0, threads).
template <class Body>
void parallel_for_blocks(int64_t n, int64_t block, int threads, Body&& body) {
  if (n <= 0) return;
  block = std::max<int64_t>(1, block);
  threads = static_cast<int>(std::clamp<int64_t>(threads, 1, (n + block - 1) / block));
  if (threads == 1) {
    body(int64_t{0}, n, 0);
    return;
  }
  std::atomic<int64_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_lock;
  auto worker = [&](int id) {
    try {
      for (int64_t b = next.fetch_add(block); b < n; b = next.fetch_add(block))
        body(b, std::min(n, b + block), id);
    } catch (...) {
      std::lock_guard<std::mutex> guard(failure_lock);
      if (!failure) failure = std::current_exception();
      next.store(n);  // stop the others early
    }
  };
  std::vector<std::thread> pool;
  for (int id = 1; id < threads; ++id) pool.emplace_back(worker, id);
  worker(0);
  for (auto& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
}

inline int default_thread_count() {
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

}  // namespace gpuseq
