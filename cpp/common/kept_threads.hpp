// Tasks run on threads kept for the process's life: made when none is idle, then waiting for
// the next task, never ended. Work that calls CUDA runs on them. A thread that has used CUDA
// runs the driver's thread-local destructor when it ends, and one ending while another thread
// of the process called cudaMalloc deadlocked inside the driver now and then on an H200
// (driver 580.159.04; benchmarks/results/gpu-h200-20261130-c). Plain C++ (no CUDA headers).
#pragma once

#include <functional>
#include <future>

namespace gpuseq {

// task() on a kept thread, from now; the future is ready when it has run (get() rethrows its
// exception). A task never waits for a later one: each gets a thread of its own at once.
std::future<void> run_on_kept_thread(std::function<void()> task);

}  // namespace gpuseq
