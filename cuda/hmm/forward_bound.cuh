// The Forward filter score in double on the GPU, a warp per target: the twin of forward_score
// (cpp/hmm/forward_bound.hpp), whose block steps it runs from the same source, lane l on the
// nodes l * B + 1 .. (l + 1) * B, so that both give the same bits (no fused multiply-adds on
// either side, powers of two for the scaling, the same order of every addition). A warp's
// row (M, I, D) lives in global scratch with node j of lane l at slot j * 32 + l, and the
// model's tables are laid out the same way (forward_block_tables), so that every load and
// store of a warp is one contiguous 256-byte run.
#pragma once

#include <cstdint>

#include "hmm/forward_bound.hpp"
#include "hmm/msv.cuh"

namespace gpuseq::cuda::hmm {

// The double tables on the device, slot-indexed (width = 32 x B slots per array; padding
// zero): match odds of each residue (kAminoKp arrays), then the arrays named in
// kForwardArrays' order.
struct DeviceForwardTables {
  enum Array { kMmInto, kImInto, kDmInto, kBegin, kMi, kIi, kMdInto, kDdInto, kForwardArrays };
  const double* match_odds;
  const double* transitions;
  int64_t width;
  __device__ double at(int array, int64_t s) const {
    return __ldg(transitions + array * width + s);
  }
  __device__ double match(int x, int64_t s) const { return __ldg(match_odds + x * width + s); }
  __device__ double begin(int64_t s) const { return at(kBegin, s); }
  __device__ double mi(int64_t s) const { return at(kMi, s); }
  __device__ double ii(int64_t s) const { return at(kIi, s); }
  __device__ double mm_into(int64_t s) const { return at(kMmInto, s); }
  __device__ double im_into(int64_t s) const { return at(kImInto, s); }
  __device__ double dm_into(int64_t s) const { return at(kDmInto, s); }
  __device__ double md_into(int64_t s) const { return at(kMdInto, s); }
  __device__ double dd_into(int64_t s) const { return at(kDdInto, s); }
};

// A warp's row: three arrays of `width` slots.
struct DeviceForwardRow {
  double* base;
  int64_t width;
  __device__ double& m(int64_t s) const { return base[s]; }
  __device__ double& i(int64_t s) const { return base[width + s]; }
  __device__ double& d(int64_t s) const { return base[2 * width + s]; }
};

// Target j of the launch is list.ids[j] (list.param and list.out unused); its result is
// c_move[j] and exponent[j] (forward_score_from turns them into nats on the host). rows:
// 3 x width doubles per warp of the launch. Blocks of whole warps.
__global__ void forward_bound_kernel(DeviceForwardTables tables, TargetList list, int B,
                                     double* c_move, long long* exponent, double* rows) {
  using ::gpuseq::hmm::ForwardBlockEnd;
  using ::gpuseq::hmm::ForwardNode;
  using ::gpuseq::hmm::ForwardSpecials;
  namespace fb = ::gpuseq::hmm;
  constexpr unsigned kAll = 0xffffffffu;
  const int lane = threadIdx.x & 31;
  const int64_t warps = static_cast<int64_t>(gridDim.x) * (blockDim.x / 32);
  const int64_t warp = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int64_t width = tables.width;
  const DeviceForwardRow r{rows + warp * 3 * width, width};
  const int64_t last = static_cast<int64_t>(B - 1) * 32 + lane;  // this lane's last node
  // The transitions into the next lane's first node (slot lane + 1): this lane's carry's.
  const double md_next = lane < 31 ? tables.md_into(lane + 1) : 0.0;
  const double dd_next = lane < 31 ? tables.dd_into(lane + 1) : 0.0;
  for (int64_t j = warp; j < list.n; j += warps) {
    const int32_t id = list.ids[j];
    const uint8_t* dsq = list.residues + list.offsets[id];
    const int64_t L = list.offsets[id + 1] - list.offsets[id];
    for (int64_t s = lane; s < 3 * width; s += 32) r.base[s] = 0.0;
    // forward_length_model, in float as p7_ReconfigLength.
    const float pmove = (2.0f + 1.0f) / ((static_cast<float>(L) + 2.0f) + 1.0f);
    const double move = static_cast<double>(pmove), loop = static_cast<double>(1.0f - pmove);
    ForwardSpecials sp;
    sp.B = fb::forward_detail::mul(sp.N, move);
    for (int64_t i = 0; i < L; ++i) {
      // The left node (the left lane's last, previous row) before any lane writes.
      const ForwardNode mine{r.m(last), r.i(last), r.d(last)};
      ForwardNode left{__shfl_up_sync(kAll, mine.m, 1), __shfl_up_sync(kAll, mine.i, 1),
                       __shfl_up_sync(kAll, mine.d, 1)};
      if (lane == 0) left = ForwardNode{};
      __syncwarp();
      const ForwardBlockEnd end =
          fb::forward_block_pass(tables, r, dsq[i], sp.B, lane, 32, B, left);
      // D at each lane's first node: the carries composed in a scan across the warp.
      fb::ForwardCarry carry = fb::forward_carry(end, md_next, dd_next);
      for (int step = 0; step < fb::kForwardScanSteps; ++step) {
        const int offset = 1 << step;
        const fb::ForwardCarry before{__shfl_up_sync(kAll, carry.a, offset),
                                      __shfl_up_sync(kAll, carry.b, offset)};
        if (lane >= offset) carry = fb::forward_carry_after(carry, before);
      }
      double d_first = __shfl_up_sync(kAll, carry.b, 1);
      if (lane == 0) d_first = 0;
      double sum = fb::forward_block_finish(tables, r, d_first, lane, 32, B);
      for (int offset = 16; offset > 0; offset /= 2)
        sum = fb::forward_detail::add(sum, __shfl_xor_sync(kAll, sum, offset));
      fb::forward_specials(sum, loop, move, sp);
      fb::forward_rescale(sp, [&](double f) {
        for (int64_t s = lane; s < 3 * width; s += 32)
          r.base[s] = fb::forward_detail::mul(r.base[s], f);
      });
      __syncwarp();
    }
    if (lane == 0) {
      c_move[j] = fb::forward_detail::mul(sp.C, move);
      exponent[j] = sp.exponent;
    }
    __syncwarp();
  }
}

}  // namespace gpuseq::cuda::hmm
