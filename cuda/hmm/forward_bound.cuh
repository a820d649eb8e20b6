// The Forward filter score in double on the GPU, a thread block of 1, 2 or 4 warps per target
// (forward_lanes(M) lanes): the twin of forward_score (cpp/hmm/forward_bound.hpp), whose block
// steps it runs from the same source, lane l on the nodes l * B + 1 .. (l + 1) * B, so that
// both give the same bits (no fused multiply-adds on either side, powers of two for the
// scaling, the same order of every addition). A block's row (M, I, D) lives in global scratch
// with node j of lane l at slot j * lanes + l, and the model's tables are laid out the same
// way, so that every load and store of a warp is one contiguous 256-byte run.
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
// c_move[j] and exponent[j] (forward_score_from turns them into nats on the host). A block of
// forward_lanes(M) threads (1, 2 or 4 warps) per target; rows: 3 x width doubles per block.
__global__ void forward_bound_kernel(DeviceForwardTables tables, TargetList list, int B,
                                     double* c_move, long long* exponent, double* rows) {
  using ::gpuseq::hmm::ForwardBlockEnd;
  using ::gpuseq::hmm::ForwardCarry;
  using ::gpuseq::hmm::ForwardNode;
  using ::gpuseq::hmm::ForwardSpecials;
  namespace fb = ::gpuseq::hmm;
  constexpr unsigned kAll = 0xffffffffu;
  __shared__ ForwardCarry warp_total[fb::kForwardMaxWarps];
  __shared__ double warp_sum[fb::kForwardMaxWarps];
  const int lanes = blockDim.x, lane = threadIdx.x;
  const int warps = lanes / 32, warp = lane / 32, warp_lane = lane & 31;
  const int64_t width = tables.width;
  const DeviceForwardRow r{rows + blockIdx.x * 3 * width, width};
  // The left lane's last node (read before any lane writes), and the transitions into the next
  // lane's first node (slot lane + 1): this lane's carry's.
  const int64_t left_slot = static_cast<int64_t>(B - 1) * lanes + lane - 1;
  const double md_next = lane + 1 < lanes ? tables.md_into(lane + 1) : 0.0;
  const double dd_next = lane + 1 < lanes ? tables.dd_into(lane + 1) : 0.0;
  for (int64_t j = blockIdx.x; j < list.n; j += gridDim.x) {
    const int32_t id = list.ids[j];
    const uint8_t* dsq = list.residues + list.offsets[id];
    const int64_t L = list.offsets[id + 1] - list.offsets[id];
    for (int64_t s = lane; s < 3 * width; s += lanes) r.base[s] = 0.0;
    // forward_length_model, in float as p7_ReconfigLength.
    const float pmove = (2.0f + 1.0f) / ((static_cast<float>(L) + 2.0f) + 1.0f);
    const double move = static_cast<double>(pmove), loop = static_cast<double>(1.0f - pmove);
    ForwardSpecials sp;
    sp.B = fb::forward_detail::mul(sp.N, move);
    __syncthreads();
    for (int64_t i = 0; i < L; ++i) {
      ForwardNode left;
      if (lane > 0) left = ForwardNode{r.m(left_slot), r.i(left_slot), r.d(left_slot)};
      __syncthreads();
      const ForwardBlockEnd end =
          fb::forward_block_pass(tables, r, dsq[i], sp.B, lane, lanes, B, left);
      // D at each lane's first node: the carries composed in a scan within the warp, then
      // after the composition of the warps to the left.
      ForwardCarry carry = fb::forward_carry(end, md_next, dd_next);
      for (int step = 0; step < fb::kForwardScanSteps; ++step) {
        const int offset = 1 << step;
        const ForwardCarry before{__shfl_up_sync(kAll, carry.a, offset),
                                  __shfl_up_sync(kAll, carry.b, offset)};
        if (warp_lane >= offset) carry = fb::forward_carry_after(carry, before);
      }
      double d_first = __shfl_up_sync(kAll, carry.b, 1);
      if (warps > 1) {
        if (warp_lane == 31) warp_total[warp] = carry;
        __syncthreads();
        ForwardCarry prefix;  // warps 0 .. warp - 1, composed in warp order
        for (int w = 1; w <= warp; ++w)
          prefix = w == 1 ? warp_total[0] : fb::forward_carry_after(warp_total[w - 1], prefix);
        if (warp > 0) {
          carry = fb::forward_carry_after(carry, prefix);
          d_first = __shfl_up_sync(kAll, carry.b, 1);
          if (warp_lane == 0) d_first = prefix.b;
        }
      }
      if (lane == 0) d_first = 0;
      double sum = fb::forward_block_finish(tables, r, d_first, lane, lanes, B);
      for (int offset = 16; offset > 0; offset /= 2)
        sum = fb::forward_detail::add(sum, __shfl_xor_sync(kAll, sum, offset));
      if (warps > 1) {
        if (warp_lane == 0) warp_sum[warp] = sum;
        __syncthreads();
        sum = warp_sum[0];
        for (int w = 1; w < warps; ++w) sum = fb::forward_detail::add(sum, warp_sum[w]);
      }
      fb::forward_specials(sum, loop, move, sp);
      fb::forward_rescale(sp, [&](double f) {
        for (int64_t s = lane; s < 3 * width; s += lanes)
          r.base[s] = fb::forward_detail::mul(r.base[s], f);
      });
      __syncthreads();  // the row is whole before the next reads its left nodes
    }
    if (lane == 0) {
      c_move[j] = fb::forward_detail::mul(sp.C, move);
      exponent[j] = sp.exponent;
    }
  }
}

}  // namespace gpuseq::cuda::hmm
