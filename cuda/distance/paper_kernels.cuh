// The five GPU kernels of Payne, Sinnott-Armstrong & Moore (2010), "Exploiting graphics
// processing units for computational biology and bioinformatics" (Interdiscip Sci 2:213),
// kept as their ladder of optimizations for teaching and benchmarking. All use one block of
// 128 threads per pair of instances (the block's threads split the attributes):
//   naive      int32 data stored attribute-major: a warp's reads are n ints apart
//              (uncoalesced); every difference is an atomic add in global memory
//   coalesced  int32 data stored instance-major: a warp reads consecutive attributes
//   char4      int8 data, four attributes per load (char4); an atomic add per difference
//   register   char4 loads, differences counted in a register: one atomic per load
//   shared     char4 loads, per-thread sums in shared memory, reduced by thread 0 and
//              stored without atomics
// The CPU twin is distances_cpu_loop (cpp/distance/genotypes.cpp).
#pragma once

#include <cstdint>

#include "distance/genotypes.hpp"

namespace gpuseq::cuda::paper {

inline constexpr int kThreads = 128;  // threads per block, as in the paper

template <distance::Metric M>
__device__ __forceinline__ int attribute_distance(int a, int b) {
  if constexpr (M == distance::Metric::kHamming) {
    return a != b;
  } else {
    return a > b ? a - b : b - a;
  }
}

template <distance::Metric M>
__device__ __forceinline__ int char4_distance(char4 a, char4 b) {
  return attribute_distance<M>(a.x, b.x) + attribute_distance<M>(a.y, b.y) +
         attribute_distance<M>(a.z, b.z) + attribute_distance<M>(a.w, b.w);
}

// Pair (i, j) = (row0 + blockIdx.x, col0 + blockIdx.y); its result goes to
// out[blockIdx.x * stride + blockIdx.y] (zeroed beforehand for the atomic kernels).

template <distance::Metric M>
__global__ void naive_kernel(const int* x, int64_t nx, const int* y, int64_t ny, int attributes,
                             int* out, int64_t stride, int64_t row0, int64_t col0) {
  const int64_t i = row0 + blockIdx.x, j = col0 + blockIdx.y;
  int* result = out + blockIdx.x * stride + blockIdx.y;
  for (int k = threadIdx.x; k < attributes; k += blockDim.x) {
    const int d = attribute_distance<M>(x[k * nx + i], y[k * ny + j]);
    if (d) atomicAdd(result, d);
  }
}

template <distance::Metric M>
__global__ void coalesced_kernel(const int* x, const int* y, int attributes, int* out,
                                 int64_t stride, int64_t row0, int64_t col0) {
  const int* xi = x + (row0 + blockIdx.x) * attributes;
  const int* yj = y + (col0 + blockIdx.y) * attributes;
  int* result = out + blockIdx.x * stride + blockIdx.y;
  for (int k = threadIdx.x; k < attributes; k += blockDim.x) {
    const int d = attribute_distance<M>(xi[k], yj[k]);
    if (d) atomicAdd(result, d);
  }
}

// The char4 kernels read rows of `quads` char4 (attributes padded with 0s to a multiple of 4;
// equal padding adds nothing to either metric).
template <distance::Metric M>
__global__ void char4_kernel(const char4* x, const char4* y, int quads, int* out, int64_t stride,
                             int64_t row0, int64_t col0) {
  const char4* xi = x + (row0 + blockIdx.x) * quads;
  const char4* yj = y + (col0 + blockIdx.y) * quads;
  int* result = out + blockIdx.x * stride + blockIdx.y;
  for (int q = threadIdx.x; q < quads; q += blockDim.x) {
    const char4 a = xi[q], b = yj[q];
    int d;
    if ((d = attribute_distance<M>(a.x, b.x))) atomicAdd(result, d);
    if ((d = attribute_distance<M>(a.y, b.y))) atomicAdd(result, d);
    if ((d = attribute_distance<M>(a.z, b.z))) atomicAdd(result, d);
    if ((d = attribute_distance<M>(a.w, b.w))) atomicAdd(result, d);
  }
}

template <distance::Metric M>
__global__ void register_kernel(const char4* x, const char4* y, int quads, int* out,
                                int64_t stride, int64_t row0, int64_t col0) {
  const char4* xi = x + (row0 + blockIdx.x) * quads;
  const char4* yj = y + (col0 + blockIdx.y) * quads;
  int* result = out + blockIdx.x * stride + blockIdx.y;
  for (int q = threadIdx.x; q < quads; q += blockDim.x) {
    const int count = char4_distance<M>(xi[q], yj[q]);  // held in a register
    if (count) atomicAdd(result, count);                 // one atomic per char4
  }
}

template <distance::Metric M>
__global__ void shared_kernel(const char4* x, const char4* y, int quads, int* out,
                              int64_t stride, int64_t row0, int64_t col0) {
  __shared__ int sums[kThreads];
  const char4* xi = x + (row0 + blockIdx.x) * quads;
  const char4* yj = y + (col0 + blockIdx.y) * quads;
  sums[threadIdx.x] = 0;
  __syncthreads();
  for (int q = threadIdx.x; q < quads; q += blockDim.x) sums[threadIdx.x] += char4_distance<M>(xi[q], yj[q]);
  __syncthreads();
  if (threadIdx.x == 0) {  // the paper's reduction: thread 0 adds the others' sums
    int total = 0;
    for (int t = 0; t < kThreads; ++t) total += sums[t];
    out[blockIdx.x * stride + blockIdx.y] = total;
  }
}

}  // namespace gpuseq::cuda::paper
