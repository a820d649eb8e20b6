// The binary product C = popcount(A AND B^T) on tensor cores, as the engines call it: the
// table of tiling variants of the two kernels (bitplane_wgmma.cuh on sm_90a, bitplane_mma.cuh
// elsewhere), the default chosen for the device, and the measurements behind it (b1_gemm.cu).
#pragma once

#include <cstdint>

#include "distance/epilogue.cuh"

namespace gpuseq::cuda {

// A (a_rows x k_words) and B (b_rows x k_words) are rows of 32-bit words, k_words a multiple of
// 32 (1024 bits); ep says where and how the counts are written. Runs the default variant.
void b1_product(const uint32_t* A, int64_t a_rows, const uint32_t* B, int64_t b_rows,
                int64_t k_words, const bitplane::Epilogue& ep);

}  // namespace gpuseq::cuda
