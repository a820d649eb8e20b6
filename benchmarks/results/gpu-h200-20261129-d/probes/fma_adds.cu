// Session 54 probe (build machine, no GPU): how ptxas (CUDA 13.0, sm_90a) places a Viterbi
// candidate's add and max. cand_dpx: the fused kernel's form, 4 VIADDMNMX (ALU pipe) for
// 4 candidates. cand_ob: offset-binary values, the adds as 32-bit integer adds of packed
// constants, then VIMNMX3.U16x2: ptxas splits the adds between IADD3 (ALU) and IMAD.IADD
// (FMA). cand_ob2: the adds as mad.lo.u32 by an opaque 1 (a kernel parameter): 4 IMAD on the
// FMA pipe and 2 VIMNMX3 on the ALU pipe. SASS: probes/fma_adds.sass.
// nvcc -arch=sm_90a -cubin -O3 -o k.cubin fma_adds.cu && nvdisasm -c k.cubin
#include <cstdint>
// offset-binary candidates: 32-bit adds of packed wide constants, then unsigned 16x2 3-way maxes
__global__ void cand_ob(const uint32_t* __restrict__ in, const int* __restrict__ t, uint32_t* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t a = in[i], b = in[i + n], c = in[i + 2 * n], d = in[i + 3 * n], fl = in[i + 4*n];
  int t1 = t[0], t2 = t[1], t3 = t[2], t4 = t[3];
  uint32_t acc = fl;
#pragma unroll 1
  for (int r = 0; r < 1000; ++r) {
    uint32_t c1 = a + t1, c2 = b + t2, c3 = c + t3, c4 = d + t4;
    uint32_t m = __vimax3_u16x2(c1, c2, c3);
    m = __vimax3_u16x2(m, c4, acc);
    acc = m; a ^= m; b += m; c -= m; d ^= r;
  }
  out[i] = acc;
}
// the current form: VIADDMNMX chain
__global__ void cand_dpx(const uint32_t* __restrict__ in, const uint32_t* __restrict__ t, uint32_t* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t a = in[i], b = in[i + n], c = in[i + 2 * n], d = in[i + 3 * n], fl = in[i + 4*n];
  uint32_t t1 = t[0], t2 = t[1], t3 = t[2], t4 = t[3];
  uint32_t acc = fl;
#pragma unroll 1
  for (int r = 0; r < 1000; ++r) {
    uint32_t m = __viaddmax_s16x2(a, t1, acc);
    m = __viaddmax_s16x2(b, t2, m);
    m = __viaddmax_s16x2(c, t3, m);
    m = __viaddmax_s16x2(d, t4, m);
    acc = m; a ^= m; b += m; c -= m; d ^= r;
  }
  out[i] = acc;
}
__device__ __forceinline__ uint32_t fma_add(uint32_t a, uint32_t one, uint32_t t) {
  uint32_t d; asm("mad.lo.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(one), "r"(t)); return d;
}
__global__ void cand_ob2(const uint32_t* __restrict__ in, const int* __restrict__ t, uint32_t* out, int n, uint32_t one_arg) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t one = one_arg; asm volatile("" : "+r"(one));
  uint32_t a = in[i], b = in[i + n], c = in[i + 2 * n], d = in[i + 3 * n], fl = in[i + 4*n];
  uint32_t t1 = t[0], t2 = t[1], t3 = t[2], t4 = t[3];
  uint32_t acc = fl;
#pragma unroll 1
  for (int r = 0; r < 1000; ++r) {
    uint32_t c1 = fma_add(a, one, t1), c2 = fma_add(b, one, t2), c3 = fma_add(c, one, t3), c4 = fma_add(d, one, t4);
    uint32_t m = __vimax3_u16x2(c1, c2, c3);
    m = __vimax3_u16x2(m, c4, acc);
    acc = m; a ^= m; b += m; c -= m; d ^= r;
  }
  out[i] = acc;
}
