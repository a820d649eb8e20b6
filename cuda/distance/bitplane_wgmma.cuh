// Binary matrix product on Hopper tensor cores with wgmma (sm_90a): the same product as
// bitplane_mma.cuh, C[r][c] = sum_k popcount(A[r][k] & B[c][k]), with both operands read by the
// tensor cores straight from shared memory. The mma.sync kernel spends most of the
// shared-memory pipe on ldmatrix (192 bytes per 16x8x256 mma); here a warpgroup's
// wgmma.m64n256k256 reads 10 KB per 64x256x256 product, 42% of those bytes per bit-op, and
// nothing passes through registers.
//
// Block: 64 x 256 outputs per warpgroup, the warpgroups sharing the B tile; K advances 512 or
// 1024 bits per stage through shared-memory slots filled by cp.async ahead, and a slot is refilled
// only after every warpgroup's wgmma on it has completed (wgmma.wait_group 1 before the
// barrier of the next step). Shared-memory layout per slot: rows of 128 or 64 bytes (1024 or 512
// bits of K per stage) in the 128- or 64-byte swizzle that wgmma's K-major descriptors expect:
// 16-byte chunk c of row r at chunk c ^ (r % 8) (128 B) or c ^ (r / 2 % 4) (64 B), in 8-row
// atoms, 1024-byte aligned. A k256 step is the slot's descriptor advanced by 32 bytes (the
// hardware applies the swizzle to the address).
#pragma once

#include <cstdint>

#include "distance/bitplane_mma.cuh"

namespace gpuseq::cuda::bitplane {

// Compiled only into sm_90a code (wgmma has no sm_80 or plain sm_90 form).
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define GPUSEQ_WGMMA_DEVICE 1
#endif

// WarpGroups x 64 rows by 256 columns per block, warpgroups sharing the B tile; Slots
// shared-memory slots of StageBits (512 or 1024) bits of K, filled Ahead stages ahead (Ahead <=
// Slots - 2: a slot is refilled two steps after its products were issued, see the kernel).
template <int WarpGroups, int StageBits, int Slots, int Ahead>
struct WgmmaTiling {
  static constexpr int kWarpGroups = WarpGroups, kSlots = Slots, kAhead = Ahead;
  static constexpr int kTileM = 64 * WarpGroups, kTileN = 256, kThreads = 128 * WarpGroups;
  static constexpr int kRowBytes = StageBits / 8, kStageWords = StageBits / 32;
  static constexpr int kChunks = kRowBytes / 16, kSteps = StageBits / 256;  // per row, per stage
  static_assert(StageBits == 512 || StageBits == 1024, "64- or 128-byte swizzle rows");
  // Where 16-byte chunk c of row r goes (the swizzle: XOR of address bits 4-6 with 7-9).
  static __device__ __forceinline__ int swizzled_chunk(int r, int c) {
    return c ^ (r * kRowBytes / 128 % kChunks);
  }
  static constexpr int kSlotBytes = (kTileM + kTileN) * kRowBytes;
  static constexpr int kSharedBytes = kSlots * kSlotBytes + 1024;  // + alignment to 1024
  static_assert(Ahead >= 1 && Ahead <= Slots - 2, "a slot is reused two steps after its use");
};

// K-major operand descriptor for rows of RowBytes (128 or 64) in the swizzle of that width:
// start address, leading offset 16 bytes (unused with these swizzles), 8 rows between atoms,
// swizzle mode 1 (128 B) or 2 (64 B).
template <int RowBytes>
__device__ __forceinline__ uint64_t swizzled_descriptor(const void* smem) {
  const uint64_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  return ((addr & 0x3FFFF) >> 4) | (uint64_t{1} << 16) | (uint64_t{8 * RowBytes >> 4} << 32) |
         (uint64_t{RowBytes == 128 ? 1 : 2} << 62);
}

__device__ __forceinline__ void wgmma_fence() {
#ifdef GPUSEQ_WGMMA_DEVICE
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
}
__device__ __forceinline__ void wgmma_commit() {
#ifdef GPUSEQ_WGMMA_DEVICE
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#endif
}
template <int N>
__device__ __forceinline__ void wgmma_wait() {
#ifdef GPUSEQ_WGMMA_DEVICE
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
#endif
}
// cp.async writes are generic-proxy writes; wgmma reads through the async proxy.
__device__ __forceinline__ void fence_proxy_async_shared() {
#ifdef GPUSEQ_WGMMA_DEVICE
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}

// d (64 x 256 per warpgroup, 128 registers per thread) += A (64 x 256 bits) AND.POPC B (256 x
// 256 bits). Register i of a thread: n tile i / 4, row g or g + 8 (i % 4 >= 2) of its warp's 16
// rows, column 2t + (i % 2), as in mma.sync's m16n8 accumulator.
__device__ __forceinline__ void wgmma_m64n256k256_and_popc(int (&d)[128], uint64_t a_desc,
                                                           uint64_t b_desc) {
#ifdef GPUSEQ_WGMMA_DEVICE
  asm volatile(
      "wgmma.mma_async.sync.aligned.m64n256k256.s32.b1.b1.and.popc {"
      "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
      "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,"
      "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,"
      "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63,"
      "%64,%65,%66,%67,%68,%69,%70,%71,%72,%73,%74,%75,%76,%77,%78,%79,"
      "%80,%81,%82,%83,%84,%85,%86,%87,%88,%89,%90,%91,%92,%93,%94,%95,"
      "%96,%97,%98,%99,%100,%101,%102,%103,%104,%105,%106,%107,%108,%109,%110,%111,"
      "%112,%113,%114,%115,%116,%117,%118,%119,%120,%121,%122,%123,%124,%125,%126,%127"
      "}, %128, %129, 1;\n"
      : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]),
        "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]),
        "+r"(d[16]), "+r"(d[17]), "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]),
        "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]), "+r"(d[30]), "+r"(d[31]),
        "+r"(d[32]), "+r"(d[33]), "+r"(d[34]), "+r"(d[35]), "+r"(d[36]), "+r"(d[37]), "+r"(d[38]), "+r"(d[39]),
        "+r"(d[40]), "+r"(d[41]), "+r"(d[42]), "+r"(d[43]), "+r"(d[44]), "+r"(d[45]), "+r"(d[46]), "+r"(d[47]),
        "+r"(d[48]), "+r"(d[49]), "+r"(d[50]), "+r"(d[51]), "+r"(d[52]), "+r"(d[53]), "+r"(d[54]), "+r"(d[55]),
        "+r"(d[56]), "+r"(d[57]), "+r"(d[58]), "+r"(d[59]), "+r"(d[60]), "+r"(d[61]), "+r"(d[62]), "+r"(d[63]),
        "+r"(d[64]), "+r"(d[65]), "+r"(d[66]), "+r"(d[67]), "+r"(d[68]), "+r"(d[69]), "+r"(d[70]), "+r"(d[71]),
        "+r"(d[72]), "+r"(d[73]), "+r"(d[74]), "+r"(d[75]), "+r"(d[76]), "+r"(d[77]), "+r"(d[78]), "+r"(d[79]),
        "+r"(d[80]), "+r"(d[81]), "+r"(d[82]), "+r"(d[83]), "+r"(d[84]), "+r"(d[85]), "+r"(d[86]), "+r"(d[87]),
        "+r"(d[88]), "+r"(d[89]), "+r"(d[90]), "+r"(d[91]), "+r"(d[92]), "+r"(d[93]), "+r"(d[94]), "+r"(d[95]),
        "+r"(d[96]), "+r"(d[97]), "+r"(d[98]), "+r"(d[99]), "+r"(d[100]), "+r"(d[101]), "+r"(d[102]), "+r"(d[103]),
        "+r"(d[104]), "+r"(d[105]), "+r"(d[106]), "+r"(d[107]), "+r"(d[108]), "+r"(d[109]), "+r"(d[110]), "+r"(d[111]),
        "+r"(d[112]), "+r"(d[113]), "+r"(d[114]), "+r"(d[115]), "+r"(d[116]), "+r"(d[117]), "+r"(d[118]), "+r"(d[119]),
        "+r"(d[120]), "+r"(d[121]), "+r"(d[122]), "+r"(d[123]), "+r"(d[124]), "+r"(d[125]), "+r"(d[126]), "+r"(d[127])
      : "l"(a_desc), "l"(b_desc));
#endif
}

// The 16-byte pieces one thread copies into every slot. The slot's rows are the A tile's then
// the B tile's; thread x copies chunk x % kChunks of rows x / kChunks + p * kRowsPerPass (a
// multiple of 8), so the chunk's swizzled place is the same in every pass. Rows past the end
// are zero-filled.
template <class T>
struct SwizzledStageCopies {
  static constexpr int kRowsPerPass = T::kThreads / T::kChunks;
  static constexpr int kPasses = (T::kTileM + T::kTileN + kRowsPerPass - 1) / kRowsPerPass;
  static_assert(T::kTileM % kRowsPerPass == 0, "a pass copies rows of one operand only");
  const uint32_t* a;  // this thread's first A row and chunk (row 0's when past the end)
  const uint32_t* b;
  int64_t a_rows_left, b_rows_left, pass_words;  // rows from its first one to the end
  int first_row, dst;

  __device__ __forceinline__ SwizzledStageCopies(const uint32_t* A, int64_t a_rows, int64_t row0,
                                                 const uint32_t* B, int64_t b_rows, int64_t col0,
                                                 int64_t k_words) {
    const int chunk = threadIdx.x % T::kChunks;
    first_row = threadIdx.x / T::kChunks;
    a_rows_left = a_rows - (row0 + first_row);
    b_rows_left = b_rows - (col0 + first_row);
    a = A + (a_rows_left > 0 ? row0 + first_row : 0) * k_words + chunk * 4;
    b = B + (b_rows_left > 0 ? col0 + first_row : 0) * k_words + chunk * 4;
    pass_words = kRowsPerPass * k_words;
    dst = first_row * T::kRowBytes + T::swizzled_chunk(first_row, chunk) * 16;
  }
  __device__ __forceinline__ void copy(unsigned char* slot, int64_t word_offset) const {
#pragma unroll
    for (int p = 0; p < kPasses; ++p) {
      const int r = p * kRowsPerPass;  // this pass's first row in the slot
      if (r + first_row >= T::kTileM + T::kTileN) continue;  // (only in a short last pass)
      const bool in_a = r < T::kTileM;
      const int k = in_a ? p : p - T::kTileM / kRowsPerPass;  // pass within the operand
      const bool inside = k * kRowsPerPass < (in_a ? a_rows_left : b_rows_left);
      const uint32_t* src = (in_a ? a : b) + (inside ? k * pass_words + word_offset : 0);
      cp_async16(reinterpret_cast<uint32_t*>(slot + dst + r * T::kRowBytes), src, inside ? 16 : 0);
    }
  }
};

// Launch with T::kSharedBytes of dynamic shared memory and tiles_m * tiles_n blocks; k_words
// a multiple of T::kStageWords.
template <class T>
__global__ void __launch_bounds__(T::kThreads, 1)
    and_popc_wgmma_kernel(const uint32_t* A, int64_t a_rows, const uint32_t* B, int64_t b_rows,
                          int64_t k_words, Epilogue ep, int tiles_m, int tiles_n) {
#ifdef GPUSEQ_WGMMA_DEVICE
  extern __shared__ unsigned char smem_raw[];
  unsigned char* smem = smem_raw + ((1024 - (__cvta_generic_to_shared(smem_raw) & 1023)) & 1023);
  const int warpgroup = threadIdx.x / 128, warp = (threadIdx.x / 32) % 4, lane = threadIdx.x % 32;

  int64_t row0, col0;
  block_tile_origin<T>(tiles_m, tiles_n, row0, col0);

  int acc[128];
#pragma unroll
  for (int i = 0; i < 128; ++i) acc[i] = 0;

  const SwizzledStageCopies<T> copies(A, a_rows, row0, B, b_rows, col0, k_words);
  auto slot = [&](int64_t step) { return smem + (step % T::kSlots) * T::kSlotBytes; };
  const int64_t steps = k_words / T::kStageWords;
  for (int s = 0; s < T::kAhead; ++s) {
    if (s < steps) copies.copy(slot(s), s * T::kStageWords);
    cp_async_commit();
  }
  for (int64_t step = 0; step < steps; ++step) {
    cp_async_wait<T::kAhead - 1>();  // this thread's pieces of stage `step` have arrived
    fence_proxy_async_shared();
    __syncthreads();  // everyone's pieces; and every warpgroup's products of step - 2 are done
    const unsigned char* a_tile = slot(step) + warpgroup * 64 * T::kRowBytes;
    const unsigned char* b_tile = slot(step) + T::kTileM * T::kRowBytes;
    const uint64_t a_desc = swizzled_descriptor<T::kRowBytes>(a_tile);
    const uint64_t b_desc = swizzled_descriptor<T::kRowBytes>(b_tile);
    wgmma_fence();
#pragma unroll
    for (int k = 0; k < T::kSteps; ++k)  // 256 bits = 32 bytes = 2 descriptor address units
      wgmma_m64n256k256_and_popc(acc, a_desc + 2 * k, b_desc + 2 * k);
    wgmma_commit();
    wgmma_wait<1>();  // this warpgroup's products of step - 1 are done
    // The slot of step + Ahead was last read at step + Ahead - Slots <= step - 2.
    if (step + T::kAhead < steps)
      copies.copy(slot(step + T::kAhead), (step + T::kAhead) * T::kStageWords);
    cp_async_commit();
  }
  wgmma_wait<0>();

  const int g = lane / 4, t = lane % 4;
  const int64_t warp_row = row0 + warpgroup * 64 + warp * 16;
#pragma unroll
  for (int i = 0; i < 128; i += 2)  // registers i, i + 1: columns 2t, 2t + 1 of one row
    ep.store_pair(warp_row + g + ((i % 4) / 2) * 8, col0 + (i / 4) * 8 + 2 * t, acc[i],
                  acc[i + 1], a_rows, b_rows);
#endif
}

// Whether this binary holds the sm_90a code above for the current device.
__global__ void wgmma_compiled_kernel(int* flag) {
#ifdef GPUSEQ_WGMMA_DEVICE
  *flag = 1;
#else
  *flag = 0;
#endif
}

// Sustained wgmma b1 rate from shared memory: each warpgroup of the block issues back-to-back
// m64n256k256 products on fixed tiles (the data do not change the rate).
template <int WarpGroups>
__global__ void __launch_bounds__(128 * WarpGroups, 1) wgmma_b1_peak_kernel(int iterations,
                                                                          int* sink) {
#ifdef GPUSEQ_WGMMA_DEVICE
  extern __shared__ unsigned char smem_raw[];
  unsigned char* smem = smem_raw + ((1024 - (__cvta_generic_to_shared(smem_raw) & 1023)) & 1023);
  using T = WgmmaTiling<WarpGroups, 1024, 3, 1>;
  for (int i = threadIdx.x; i < T::kSlotBytes / 4; i += blockDim.x)
    reinterpret_cast<uint32_t*>(smem)[i] = i * 2654435761u;
  fence_proxy_async_shared();
  __syncthreads();
  const int warpgroup = threadIdx.x / 128;
  const uint64_t a_desc = swizzled_descriptor<T::kRowBytes>(smem + warpgroup * 64 * T::kRowBytes);
  const uint64_t b_desc = swizzled_descriptor<T::kRowBytes>(smem + T::kTileM * T::kRowBytes);
  int acc[128];
#pragma unroll
  for (int i = 0; i < 128; ++i) acc[i] = 0;
  for (int it = 0; it < iterations; ++it) {
    wgmma_fence();
#pragma unroll
    for (int k = 0; k < 4; ++k) wgmma_m64n256k256_and_popc(acc, a_desc + 2 * k, b_desc + 2 * k);
    wgmma_commit();
    wgmma_wait<1>();
  }
  wgmma_wait<0>();
  int total = 0;
#pragma unroll
  for (int i = 0; i < 128; ++i) total += acc[i];
  if (total == 0x7fffffff) sink[0] = total;  // keeps the work alive
#endif
}

}  // namespace gpuseq::cuda::bitplane
