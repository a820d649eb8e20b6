// Binary matrix product on tensor cores: C[r][c] = sum_k popcount(A[r][k] & B[c][k]) with
// mma.sync.m16n8k256 .b1 AND+POPC (native on sm_80 and sm_90; XOR+POPC is not native on
// sm_90, so distances are built from AND counts). A and B are bit-plane rows (see
// cpp/distance/genotypes.hpp), K a multiple of 512 bits. The CPU twin is and_popcount in
// cpp/distance/genotypes.cpp.
//
// Tiling: a block of 256 threads computes 128 x 128 outputs; each of its 8 warps a 64 x 32
// sub-tile (4 x 4 mma tiles, 64 accumulators per thread). K advances 512 bits per stage, two
// stages double-buffered in shared memory through cp.async (zero-filled past the last row).
// Within each 256-bit chunk, the mma's k order is free as long as A and B agree, so a thread
// loads its two fragment words as one 64-bit pair (words 2t, 2t+1) from both operands; rows
// are padded to 24 words so the warp's 64-bit loads hit distinct banks.
#pragma once

#include <cstdint>

namespace gpuseq::cuda::bitplane {

inline constexpr int kTileM = 128, kTileN = 128;
inline constexpr int kStageWords = 16;  // 512 bits of K per stage, as 32-bit words
inline constexpr int kRowWords = 24;    // shared-memory row: 16 words + 8 of padding
inline constexpr int kThreads = 256;

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
};

__device__ __forceinline__ void cp_async16(uint32_t* smem, const uint32_t* gmem, int bytes) {
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(gmem), "r"(bytes));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

__device__ __forceinline__ void mma_and_popc(int (&c)[4], const uint32_t (&a)[4],
                                             const uint32_t (&b)[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc "
      "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
      : "+r"(c[0]), "+r"(c[1]), "+r"(c[2]), "+r"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// Loads rows [first, first + 128) x words [kw, kw + 16) of a bit matrix into a stage.
__device__ __forceinline__ void load_tile(uint32_t* stage, const uint32_t* m, int64_t rows,
                                          int64_t first, int64_t k_words, int64_t kw) {
  for (int c = threadIdx.x; c < kTileM * 4; c += kThreads) {
    const int r = c >> 2, part = c & 3;
    const int64_t row = first + r;
    const bool inside = row < rows;
    cp_async16(stage + r * kRowWords + part * 4, m + (inside ? row : 0) * k_words + kw + part * 4,
               inside ? 16 : 0);
  }
}

__global__ void __launch_bounds__(kThreads)
    and_popc_gemm_kernel(const uint32_t* A, int64_t a_rows, const uint32_t* B, int64_t b_rows,
                         int64_t k_words, Epilogue ep) {
  __shared__ __align__(16) uint32_t smem_a[2][kTileM * kRowWords];
  __shared__ __align__(16) uint32_t smem_b[2][kTileN * kRowWords];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int g = lane >> 2, t = lane & 3;                  // mma group and thread in group
  const int warp_row = (warp >> 2) * 64, warp_col = (warp & 3) * 32;
  const int64_t row0 = static_cast<int64_t>(blockIdx.y) * kTileM;
  const int64_t col0 = static_cast<int64_t>(blockIdx.x) * kTileN;

  int acc[4][4][4];
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j)
#pragma unroll
      for (int r = 0; r < 4; ++r) acc[i][j][r] = 0;

  const int64_t stages = k_words / kStageWords;
  load_tile(smem_a[0], A, a_rows, row0, k_words, 0);
  load_tile(smem_b[0], B, b_rows, col0, k_words, 0);
  cp_async_commit();
  for (int64_t s = 0; s < stages; ++s) {
    if (s + 1 < stages) {
      load_tile(smem_a[(s + 1) & 1], A, a_rows, row0, k_words, (s + 1) * kStageWords);
      load_tile(smem_b[(s + 1) & 1], B, b_rows, col0, k_words, (s + 1) * kStageWords);
      cp_async_commit();
      cp_async_wait<1>();
    } else {
      cp_async_wait<0>();
    }
    __syncthreads();
    const uint32_t* sa = smem_a[s & 1];
    const uint32_t* sb = smem_b[s & 1];
#pragma unroll
    for (int chunk = 0; chunk < 2; ++chunk) {  // two 256-bit mma steps per stage
      uint32_t af[4][4], bf[4][2];
#pragma unroll
      for (int mt = 0; mt < 4; ++mt) {
        const int r = warp_row + mt * 16 + g;
        const uint2 lo = *reinterpret_cast<const uint2*>(sa + r * kRowWords + chunk * 8 + 2 * t);
        const uint2 hi =
            *reinterpret_cast<const uint2*>(sa + (r + 8) * kRowWords + chunk * 8 + 2 * t);
        af[mt][0] = lo.x;  // row g,     first k half
        af[mt][1] = hi.x;  // row g + 8, first k half
        af[mt][2] = lo.y;  // row g,     second k half
        af[mt][3] = hi.y;  // row g + 8, second k half
      }
#pragma unroll
      for (int nt = 0; nt < 4; ++nt) {
        const int c = warp_col + nt * 8 + g;
        const uint2 v = *reinterpret_cast<const uint2*>(sb + c * kRowWords + chunk * 8 + 2 * t);
        bf[nt][0] = v.x;
        bf[nt][1] = v.y;
      }
#pragma unroll
      for (int mt = 0; mt < 4; ++mt)
#pragma unroll
        for (int nt = 0; nt < 4; ++nt) mma_and_popc(acc[mt][nt], af[mt], bf[nt]);
    }
    __syncthreads();  // the stage is overwritten by the next iteration's loads
  }

  // Accumulator r of tile (mt, nt): row g (r < 2) or g + 8, column 2t + (r & 1).
#pragma unroll
  for (int mt = 0; mt < 4; ++mt) {
#pragma unroll
    for (int nt = 0; nt < 4; ++nt) {
#pragma unroll
      for (int r = 0; r < 4; ++r) {
        const int64_t i = row0 + warp_row + mt * 16 + g + (r >> 1) * 8;
        const int64_t j = col0 + warp_col + nt * 8 + 2 * t + (r & 1);
        if (i >= a_rows || j >= b_rows) continue;
        const int64_t at = i * ep.out_stride + j;
        int32_t v = ep.constant + ep.scale * acc[mt][nt][r];
        if (ep.accumulate) v += ep.out[at];
        if (ep.base != nullptr) v += ep.base[at];
        if (ep.row_add != nullptr) v += ep.row_add[i];
        if (ep.col_add != nullptr) v += ep.col_add[j];
        ep.out[at] = v;
      }
    }
  }
}

// Sustained rate of the instruction itself: warps issuing independent mma.sync b1 from
// registers (the tensor-core bound the distance kernel is measured against).
__global__ void mma_b1_peak_kernel(int iterations, int* sink) {
  uint32_t a[4] = {threadIdx.x, ~threadIdx.x, threadIdx.x * 2654435761u, blockIdx.x};
  uint32_t b[2] = {~blockIdx.x, threadIdx.x ^ 0x5bd1e995u};
  int acc[8][4] = {};
  for (int it = 0; it < iterations; ++it) {
#pragma unroll
    for (int q = 0; q < 8; ++q) mma_and_popc(acc[q], a, b);
  }
  int total = 0;
#pragma unroll
  for (int q = 0; q < 8; ++q) total += acc[q][0] + acc[q][1] + acc[q][2] + acc[q][3];
  if (total == 0x7fffffff) sink[0] = total;  // keeps the work alive
}

}  // namespace gpuseq::cuda::bitplane
