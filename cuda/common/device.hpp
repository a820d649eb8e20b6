// CUDA device discovery for backend selection. Plain C++ interface (no CUDA headers) so that the
// bindings compile without nvcc.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gpuseq::cuda {

struct DeviceInfo {
  int index = 0;
  std::string name;
  int major = 0, minor = 0;  // compute capability
  int64_t total_memory = 0;  // bytes
  int multiprocessors = 0;
};

// Devices this process can use; empty when there is no driver, no GPU, or CUDA_VISIBLE_DEVICES
// hides them all.
std::vector<DeviceInfo> list_devices();

// '' when at least one device is usable, otherwise the CUDA runtime's reason.
std::string runtime_status();

// Creates the current device's context now (the first CUDA call of a process otherwise pays
// for it, ~0.1-0.3 s): '' when done, else the runtime's reason. Callers run it on a thread
// while they do other start-up work. host_wait: how host threads wait for the GPU
// (cudaStreamSynchronize, cudaMemcpy), set before the context exists: "auto" (the runtime's
// choice: spin while there are fewer contexts than cores), "spin", "yield" or "block" (sleep
// until the GPU signals).
std::string initialize_context(const std::string& host_wait = "auto");

}  // namespace gpuseq::cuda
