// Binary matrix product on tensor cores: C[r][c] = sum_k popcount(A[r][k] & B[c][k]) with
// mma.sync.m16n8k256 .b1 AND+POPC (native on sm_80 and sm_90; XOR+POPC is not native on
// sm_90, so distances are built from AND counts). A and B are bit-plane rows (see
// cpp/distance/genotypes.hpp), K a multiple of 512 bits. The CPU twin is and_popcount in
// cpp/distance/genotypes.cpp.
//
// Tiling (GemmTiling below): a block of warps computes a tile of outputs, each warp WM x WN
// mma tiles of 16 x 8. Fragments come from shared memory through ldmatrix (rows
// padded by 16 bytes so that the 8 rows of each 8x16-byte matrix fall in distinct banks). K
// advances `chunks` x 256 bits per stage through a multi-stage cp.async pipeline in dynamic
// shared memory (zero-filled past the last row). Blocks run in groups of 8 row tiles sweeping
// the columns, so B tiles are reused from L2. ldmatrix gives each thread word t of a 16-byte
// row half: the same k range for A (a0..a3: row g / g+8, first / second half) and for B (b0,
// b1), as the mma pairs them. The variants and the measurements that chose the default are in
// b1_gemm.cu.
#pragma once

#include <cstdint>

#include "distance/epilogue.cuh"

namespace gpuseq::cuda::bitplane {

inline constexpr int kGroupRows = 8;    // row tiles per rasterization group

// A block of 2 x 4 warps, each WM x WN mma tiles of 16 x 8; Stages x Chunks x 256 bits of K
// in flight; MinBlocks resident blocks per SM (caps the registers).
template <int WM, int WN, int Stages, int Chunks, int MinBlocks>
struct GemmTiling {
  static constexpr int kWarpTilesM = WM, kWarpTilesN = WN, kStages = Stages, kChunks = Chunks;
  static constexpr int kMinBlocks = MinBlocks;
  static constexpr int kWarpsN = 4, kThreads = 256;
  static constexpr int kTileM = 2 * 16 * WM, kTileN = 4 * 8 * WN;
  static constexpr int kStageWords = 8 * Chunks;            // 32-bit words of K per stage
  static constexpr int kRowBytes = kStageWords * 4 + 16;    // padded shared-memory row
  static constexpr int kSharedBytes = Stages * (kTileM + kTileN) * kRowBytes;
  static_assert(WN % 2 == 0, "B fragments are loaded two n tiles at a time");
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

__device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], const void* smem) {
  const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}

// First output row and column of this block's tile. Grouped rasterization: consecutive blocks
// walk down kGroupRows row tiles, then across, so that B tiles are reused from L2.
template <class T>
__device__ __forceinline__ void block_tile_origin(int tiles_m, int tiles_n, int64_t& row0,
                                                  int64_t& col0) {
  const int per_group = kGroupRows * tiles_n;
  const int first_m = (blockIdx.x / per_group) * kGroupRows;
  const int group_m = min(tiles_m - first_m, kGroupRows);
  const int in_group = blockIdx.x % per_group;
  row0 = static_cast<int64_t>(first_m + in_group % group_m) * T::kTileM;
  col0 = static_cast<int64_t>(in_group / group_m) * T::kTileN;
}

// The 16-byte pieces one thread copies into every stage of one operand: fixed for the whole
// K loop, so their addresses are computed once (rows past the end are zero-filled).
template <int Rows, int Words, int RowBytes, int Threads>
struct StageCopies {
  static constexpr int kParts = Words / 4;  // 16-byte pieces per row and stage
  static constexpr int kPieces = Rows * kParts / Threads;
  static_assert(Rows * kParts % Threads == 0, "pieces must divide evenly among threads");
  const uint32_t* src[kPieces];
  int dst[kPieces];
  int bytes[kPieces];

  __device__ __forceinline__ StageCopies(const uint32_t* m, int64_t rows, int64_t first,
                                         int64_t k_words) {
#pragma unroll
    for (int p = 0; p < kPieces; ++p) {
      const int c = threadIdx.x + p * Threads, r = c / kParts, part = c % kParts;
      const bool inside = first + r < rows;
      src[p] = m + (inside ? first + r : 0) * k_words + part * 4;
      dst[p] = r * RowBytes + part * 16;
      bytes[p] = inside ? 16 : 0;
    }
  }
  __device__ __forceinline__ void copy(unsigned char* stage, int64_t word_offset) const {
#pragma unroll
    for (int p = 0; p < kPieces; ++p)
      cp_async16(reinterpret_cast<uint32_t*>(stage + dst[p]), src[p] + word_offset, bytes[p]);
  }
};

// Launch with T::kSharedBytes of dynamic shared memory and tiles_m * tiles_n blocks.
template <class T>
__global__ void __launch_bounds__(T::kThreads, T::kMinBlocks)
    and_popc_gemm_kernel(const uint32_t* A, int64_t a_rows, const uint32_t* B, int64_t b_rows,
                         int64_t k_words, Epilogue ep, int tiles_m, int tiles_n) {
  constexpr int WM = T::kWarpTilesM, WN = T::kWarpTilesN, RB = T::kRowBytes;
  extern __shared__ __align__(16) unsigned char smem[];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int g = lane >> 2, t = lane & 3;                  // mma group and thread in group
  const int warp_row = (warp / T::kWarpsN) * 16 * WM, warp_col = (warp % T::kWarpsN) * 8 * WN;

  int64_t row0, col0;
  block_tile_origin<T>(tiles_m, tiles_n, row0, col0);

  int acc[WM][WN][4];
#pragma unroll
  for (int i = 0; i < WM; ++i)
#pragma unroll
    for (int j = 0; j < WN; ++j)
#pragma unroll
      for (int r = 0; r < 4; ++r) acc[i][j][r] = 0;

  auto stage_a = [&](int s) { return smem + s * (T::kTileM + T::kTileN) * RB; };
  auto stage_b = [&](int s) { return stage_a(s) + T::kTileM * RB; };
  const StageCopies<T::kTileM, T::kStageWords, RB, T::kThreads> copies_a(A, a_rows, row0, k_words);
  const StageCopies<T::kTileN, T::kStageWords, RB, T::kThreads> copies_b(B, b_rows, col0, k_words);
  auto load_stage = [&](int s, int64_t step) {
    copies_a.copy(stage_a(s), step * T::kStageWords);
    copies_b.copy(stage_b(s), step * T::kStageWords);
  };

  const int64_t steps = k_words / T::kStageWords;
  for (int s = 0; s < T::kStages - 1; ++s) {
    if (s < steps) load_stage(s, s);
    cp_async_commit();
  }
  // Per-lane ldmatrix row and byte offsets (see the header comment).
  const int a_row = warp_row + (lane & 7) + ((lane >> 3) & 1) * 8, a_half = (lane >> 4) * 16;
  const int b_row = warp_col + (lane & 7) + (lane >> 4) * 8, b_half = ((lane >> 3) & 1) * 16;
  for (int64_t step = 0; step < steps; ++step) {
    if (step + T::kStages - 1 < steps)
      load_stage((step + T::kStages - 1) % T::kStages, step + T::kStages - 1);
    cp_async_commit();                  // (possibly empty: keeps the group count regular)
    cp_async_wait<T::kStages - 1>();    // this step's stage has arrived
    __syncthreads();
    const unsigned char* sa = stage_a(step % T::kStages);
    const unsigned char* sb = stage_b(step % T::kStages);
#pragma unroll
    for (int chunk = 0; chunk < T::kChunks; ++chunk) {  // 256-bit mma steps of this stage
      // Fragments: A through one ldmatrix per m tile, B two n tiles per ldmatrix. (The
      // compiler already overlaps the next chunk's loads with these mma: explicit prefetching
      // measured no faster.)
      uint32_t af[WM][4], bf[WN][2];
#pragma unroll
      for (int mt = 0; mt < WM; ++mt)
        ldmatrix_x4(af[mt], sa + (a_row + mt * 16) * RB + chunk * 32 + a_half);
#pragma unroll
      for (int np = 0; np < WN / 2; ++np) {
        uint32_t r[4];
        ldmatrix_x4(r, sb + (b_row + np * 16) * RB + chunk * 32 + b_half);
        bf[2 * np][0] = r[0];
        bf[2 * np][1] = r[1];
        bf[2 * np + 1][0] = r[2];
        bf[2 * np + 1][1] = r[3];
      }
#pragma unroll
      for (int mt = 0; mt < WM; ++mt)
#pragma unroll
        for (int nt = 0; nt < WN; ++nt) mma_and_popc(acc[mt][nt], af[mt], bf[nt]);
    }
    __syncthreads();  // the stage is refilled by a later step
  }

  // Accumulator r of tile (mt, nt): row g (r < 2) or g + 8, column 2t + (r & 1).
#pragma unroll
  for (int mt = 0; mt < WM; ++mt) {
#pragma unroll
    for (int nt = 0; nt < WN; ++nt) {
#pragma unroll
      for (int r = 0; r < 4; r += 2)  // r, r + 1: columns 2t, 2t + 1 of one row
        ep.store_pair(row0 + warp_row + mt * 16 + g + (r >> 1) * 8,
                      col0 + warp_col + nt * 8 + 2 * t, acc[mt][nt][r], acc[mt][nt][r + 1],
                      a_rows, b_rows);
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
