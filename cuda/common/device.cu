#include <cuda_runtime.h>

#include "common/device.hpp"

namespace gpuseq::cuda {

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
