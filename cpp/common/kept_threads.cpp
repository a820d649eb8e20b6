#include "common/kept_threads.hpp"

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace gpuseq {

namespace {

class KeptThreads {
 public:
  std::future<void> run(std::function<void()> task) {
    std::packaged_task<void()> packaged(std::move(task));
    std::future<void> done = packaged.get_future();
    std::lock_guard<std::mutex> lock(mutex_);
    if (tasks_.size() + 1 > idle_)                 // every waiting task has a thread of its own
      threads_.emplace_back([this] { serve(); });  // (first: if it throws, nothing is queued)
    else
      wake_.notify_one();
    tasks_.push_back(std::move(packaged));
    return done;
  }

 private:
  void serve() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      ++idle_;
      wake_.wait(lock, [&] { return !tasks_.empty(); });
      --idle_;
      std::packaged_task<void()> task = std::move(tasks_.front());
      tasks_.pop_front();
      lock.unlock();
      task();  // (its exception goes to the future)
      lock.lock();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::packaged_task<void()>> tasks_;
  size_t idle_ = 0;
  std::vector<std::thread> threads_;  // never joined: the object is never destroyed
};

}  // namespace

std::future<void> run_on_kept_thread(std::function<void()> task) {
  static KeptThreads* threads = new KeptThreads;  // never destroyed: its threads never end
  return threads->run(std::move(task));
}

}  // namespace gpuseq
