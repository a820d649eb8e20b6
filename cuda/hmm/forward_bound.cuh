// The Forward filter score in double on the GPU, a thread block of 1, 2 or 4 warps per target
// (forward_lanes(M) lanes): the twin of forward_score (cpp/hmm/forward_bound.hpp), whose block
// steps it runs from the same source, lane l on the nodes l * B + 1 .. (l + 1) * B, so that
// both give the same bits (no fused multiply-adds on either side, powers of two for the
// scaling, the same order of every addition). The model's tables put node j of lane l at slot
// j * lanes + l, so that every load of a warp is one contiguous 256-byte run. The row (M, I, D)
// is in each lane's registers (RegisterRow, up to kForwardRegisterNodes nodes a lane: 1.8x
// faster than scratch at M = 149 on the H100, 1.58 against 2.82 ms for a cascade's 1,616
// survivors) or in global scratch laid out as the tables (ScratchRow, longer models).
#pragma once

#include <cstdint>

#include "hmm/forward_bound.hpp"
#include "hmm/msv.cuh"

namespace gpuseq::cuda::hmm {

using ::gpuseq::hmm::ForwardBlockEnd;
using ::gpuseq::hmm::ForwardNode;

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

// Where a block keeps its row. Both give the same bits: the arithmetic is forward_bound.hpp's,
// in the same order; only the storage differs.
//
// ScratchRow: the row in global scratch (3 x width doubles per block), any B.
struct ScratchRow {
  DeviceForwardRow r;
  int B, lanes, lane;
  __device__ ScratchRow(double* rows, int64_t width, int B_, ForwardNode* /*shared*/)
      : r{rows + blockIdx.x * 3 * width, width}, B(B_), lanes(blockDim.x), lane(threadIdx.x) {}
  __device__ void clear() const {
    for (int64_t s = lane; s < 3 * r.width; s += lanes) r.base[s] = 0.0;
    __syncthreads();
  }
  // The left lane's last node in the previous row (read before any lane writes).
  __device__ ForwardNode left() const {
    ForwardNode left;
    const int64_t slot = static_cast<int64_t>(B - 1) * lanes + lane - 1;
    if (lane > 0) left = {r.m(slot), r.i(slot), r.d(slot)};
    __syncthreads();
    return left;
  }
  __device__ ForwardBlockEnd pass(const DeviceForwardTables& t, int x, double b,
                                  ForwardNode left) const {
    return ::gpuseq::hmm::forward_block_pass(t, r, x, b, lane, lanes, B, left);
  }
  __device__ double finish(const DeviceForwardTables& t, double d_first) const {
    return ::gpuseq::hmm::forward_block_finish(t, r, d_first, lane, lanes, B);
  }
  __device__ void scale(double f) const {
    for (int64_t s = lane; s < 3 * r.width; s += lanes)
      r.base[s] = ::gpuseq::hmm::forward_detail::mul(r.base[s], f);
  }
  __device__ void end_row() const { __syncthreads(); }  // whole before the next reads its left
};

// The tables as a lane sees them: its node j at slot j * lanes + lane.
struct LaneForwardTables {
  const DeviceForwardTables& t;
  int lanes, lane;
  __device__ int64_t slot(int64_t j) const { return j * lanes + lane; }
  __device__ double match(int x, int64_t j) const { return t.match(x, slot(j)); }
  __device__ double begin(int64_t j) const { return t.begin(slot(j)); }
  __device__ double mi(int64_t j) const { return t.mi(slot(j)); }
  __device__ double ii(int64_t j) const { return t.ii(slot(j)); }
  __device__ double mm_into(int64_t j) const { return t.mm_into(slot(j)); }
  __device__ double im_into(int64_t j) const { return t.im_into(slot(j)); }
  __device__ double dm_into(int64_t j) const { return t.dm_into(slot(j)); }
  __device__ double md_into(int64_t j) const { return t.md_into(slot(j)); }
  __device__ double dd_into(int64_t j) const { return t.dd_into(slot(j)); }
};

// RegisterRow<B>: each lane's B nodes in registers (the loops over them unroll), the left
// node by a shuffle, across warps through shared memory. No global round trip a row: the
// kernel is bound by a row's latency (a block per target, as long as its longest target).
template <int B>
struct RegisterRow {
  mutable double m_[B], i_[B], d_[B];
  int lanes, lane;
  ForwardNode* warp_last;  // shared: each warp's last node in the previous row
  __device__ RegisterRow(double* /*rows*/, int64_t /*width*/, int /*B*/, ForwardNode* shared)
      : lanes(blockDim.x), lane(threadIdx.x), warp_last(shared) {}
  __device__ double& m(int64_t j) const { return m_[j]; }
  __device__ double& i(int64_t j) const { return i_[j]; }
  __device__ double& d(int64_t j) const { return d_[j]; }
  __device__ void clear() const {
#pragma unroll
    for (int j = 0; j < B; ++j) m_[j] = i_[j] = d_[j] = 0.0;
  }
  __device__ ForwardNode left() const {
    constexpr unsigned kAll = 0xffffffffu;
    ForwardNode left{__shfl_up_sync(kAll, m_[B - 1], 1), __shfl_up_sync(kAll, i_[B - 1], 1),
                     __shfl_up_sync(kAll, d_[B - 1], 1)};
    if (lanes > 32) {  // (blockDim is uniform: every thread takes the barrier)
      const int warp = lane / 32;
      if ((lane & 31) == 31) warp_last[warp] = {m_[B - 1], i_[B - 1], d_[B - 1]};
      __syncthreads();
      if ((lane & 31) == 0 && warp > 0) left = warp_last[warp - 1];
    }
    if (lane == 0) left = ForwardNode{};
    return left;
  }
  __device__ ForwardBlockEnd pass(const DeviceForwardTables& t, int x, double b,
                                  ForwardNode left) const {
    return ::gpuseq::hmm::forward_block_pass(LaneForwardTables{t, lanes, lane}, *this, x, b, 0, 1,
                                             B, left);
  }
  __device__ double finish(const DeviceForwardTables& t, double d_first) const {
    return ::gpuseq::hmm::forward_block_finish(LaneForwardTables{t, lanes, lane}, *this, d_first, 0,
                                               1, B);
  }
  __device__ void scale(double f) const {
#pragma unroll
    for (int j = 0; j < B; ++j) {
      m_[j] = ::gpuseq::hmm::forward_detail::mul(m_[j], f);
      i_[j] = ::gpuseq::hmm::forward_detail::mul(i_[j], f);
      d_[j] = ::gpuseq::hmm::forward_detail::mul(d_[j], f);
    }
  }
  __device__ void end_row() const {}
};

// Nodes per lane held in registers: RegisterRow<1 .. kForwardRegisterNodes> (M up to 1,280);
// longer models keep the row in scratch.
inline constexpr int kForwardRegisterNodes = 10;

// Target j of the launch is list.ids[j] (list.param and list.out unused); its result is
// c_move[j] and exponent[j] (forward_score_from turns them into nats on the host). A block of
// forward_lanes(M) threads (1, 2 or 4 warps) per target; rows: 3 x width doubles per block
// (ScratchRow only).
template <class Row>
__global__ void forward_bound_kernel(DeviceForwardTables tables, TargetList list, int B,
                                     double* c_move, long long* exponent, double* rows) {
  using ::gpuseq::hmm::ForwardCarry;
  using ::gpuseq::hmm::ForwardSpecials;
  namespace fb = ::gpuseq::hmm;
  constexpr unsigned kAll = 0xffffffffu;
  __shared__ ForwardCarry warp_total[fb::kForwardMaxWarps];
  __shared__ double warp_sum[fb::kForwardMaxWarps];
  __shared__ ForwardNode warp_last[fb::kForwardMaxWarps];
  const int lanes = blockDim.x, lane = threadIdx.x;
  const int warps = lanes / 32, warp = lane / 32, warp_lane = lane & 31;
  const Row row(rows, tables.width, B, warp_last);
  // The transitions into the next lane's first node (slot lane + 1): this lane's carry's.
  const double md_next = lane + 1 < lanes ? tables.md_into(lane + 1) : 0.0;
  const double dd_next = lane + 1 < lanes ? tables.dd_into(lane + 1) : 0.0;
  for (int64_t j = blockIdx.x; j < list.n; j += gridDim.x) {
    const int32_t id = list.ids[j];
    const uint8_t* dsq = list.residues + list.offsets[id];
    const int64_t L = list.offsets[id + 1] - list.offsets[id];
    row.clear();
    // forward_length_model, in float as p7_ReconfigLength.
    const float pmove = (2.0f + 1.0f) / ((static_cast<float>(L) + 2.0f) + 1.0f);
    const double move = static_cast<double>(pmove), loop = static_cast<double>(1.0f - pmove);
    ForwardSpecials sp;
    sp.B = fb::forward_detail::mul(sp.N, move);
    for (int64_t i = 0; i < L; ++i) {
      const ForwardBlockEnd end = row.pass(tables, dsq[i], sp.B, row.left());
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
      double sum = row.finish(tables, d_first);
      for (int offset = 16; offset > 0; offset /= 2)
        sum = fb::forward_detail::add(sum, __shfl_xor_sync(kAll, sum, offset));
      if (warps > 1) {
        if (warp_lane == 0) warp_sum[warp] = sum;
        __syncthreads();
        sum = warp_sum[0];
        for (int w = 1; w < warps; ++w) sum = fb::forward_detail::add(sum, warp_sum[w]);
      }
      fb::forward_specials(sum, loop, move, sp);
      fb::forward_rescale(sp, [&](double f) { row.scale(f); });
      row.end_row();
    }
    if (lane == 0) {
      c_move[j] = fb::forward_detail::mul(sp.C, move);
      exponent[j] = sp.exponent;
    }
  }
}

}  // namespace gpuseq::cuda::hmm
