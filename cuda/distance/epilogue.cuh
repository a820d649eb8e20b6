// What the binary-product kernels (bitplane_mma.cuh, bitplane_wgmma.cuh) write: distances
// made from AND counts. Its own header because the engines (engine.cu) set it up on the host
// without including the kernels.
#pragma once

#include <cstdint>

namespace gpuseq::cuda::bitplane {

// out[i][j] = (accumulate ? out[i][j] : 0) + (base ? base[i][j] : 0) + constant
//             + row_add[i] + col_add[j] + scale * C[i][j]        (optional terms may be null)
struct Epilogue {
  int32_t* out = nullptr;
  int64_t out_stride = 0;
  bool accumulate = false;
  const int32_t* base = nullptr;
  int32_t constant = 0;
  const int32_t* row_add = nullptr;
  const int32_t* col_add = nullptr;
  int32_t scale = 1;

  __device__ __forceinline__ int32_t value(int64_t i, int64_t j, int64_t at, int32_t count) const {
    int32_t v = constant + scale * count;
    if (accumulate) v += out[at];
    if (base != nullptr) v += base[at];
    if (row_add != nullptr) v += row_add[i];
    if (col_add != nullptr) v += col_add[j];
    return v;
  }
  // Outputs (i, j) and (i, j + 1) from their AND counts, as one 8-byte store where aligned;
  // rows and columns past the product are skipped.
  __device__ __forceinline__ void store_pair(int64_t i, int64_t j, int32_t count0, int32_t count1,
                                             int64_t rows, int64_t cols) const {
    if (i >= rows || j >= cols) return;
    const int64_t at = i * out_stride + j;
    const int32_t v0 = value(i, j, at, count0);
    if (j + 1 >= cols) {
      out[at] = v0;
      return;
    }
    const int32_t v1 = value(i, j + 1, at + 1, count1);
    if (reinterpret_cast<uintptr_t>(out + at) % 8 == 0) {
      *reinterpret_cast<int2*>(out + at) = make_int2(v0, v1);
    } else {
      out[at] = v0;
      out[at + 1] = v1;
    }
  }
};

}  // namespace gpuseq::cuda::bitplane
