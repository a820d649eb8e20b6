// The Forward filter score in double on the GPU, a thread per target: the twin of
// forward_score (cpp/hmm/forward_bound.hpp), whose row update and rescaling it runs from the
// same source, so that both give the same bits (no fused multiply-adds on either side, powers
// of two for the scaling). Rows as in Walters et al. 2009 (viterbi_walters.cuh): previous and
// current M, I and D rows per thread in global scratch, interleaved by thread (node k of
// thread t at k * nthreads + t), so that a warp's loads of one node are contiguous; the
// model's tables are read warp-uniformly (broadcast) except the emission, which depends on
// each thread's residue.
#pragma once

#include <cstdint>

#include "hmm/forward_bound.hpp"
#include "hmm/msv.cuh"

namespace gpuseq::cuda::hmm {

// The double tables on the device: match (kAminoKp rows of M + 1), then the transition
// arrays mm, mi, md, im, ii, dm, dd and begin, each M + 1 (ForwardProfile's layout).
struct DeviceForwardTables {
  const double* match;
  const double* transitions;  // 8 arrays of M + 1, in the order above
  int M;
  __device__ double at(int array, int k) const {
    return __ldg(transitions + static_cast<size_t>(array) * (M + 1) + k);
  }
  __device__ double match_odds(int x, int k) const {
    return __ldg(match + static_cast<size_t>(x) * (M + 1) + k);
  }
  // forward_row's table access.
  struct View {
    const DeviceForwardTables& t;
    __device__ double match(int x, int k) const { return t.match_odds(x, k); }
    __device__ double mm(int k) const { return t.at(0, k); }
    __device__ double mi(int k) const { return t.at(1, k); }
    __device__ double md(int k) const { return t.at(2, k); }
    __device__ double im(int k) const { return t.at(3, k); }
    __device__ double ii(int k) const { return t.at(4, k); }
    __device__ double dm(int k) const { return t.at(5, k); }
    __device__ double dd(int k) const { return t.at(6, k); }
    __device__ double begin(int k) const { return t.at(7, k); }
  };
};

// Target j of the launch is list.ids[j] (list.param and list.out unused); its result is c_move[j] and
// exponent[j] (forward_score_from turns them into nats on the host). rows: 6 x (M + 1) x
// (gridDim.x * blockDim.x) doubles.
__global__ void forward_bound_kernel(DeviceForwardTables tables, TargetList list,
                                     double* c_move, long long* exponent, double* rows) {
  using ::gpuseq::hmm::ForwardSpecials;
  const int64_t nthreads = static_cast<int64_t>(gridDim.x) * blockDim.x;
  const int64_t t = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int M = tables.M;
  const int64_t width = static_cast<int64_t>(M + 1) * nthreads;
  double* base[6];
  for (int r = 0; r < 6; ++r) base[r] = rows + r * width;
  auto node = [&](int r) {
    return [&, r](int k) -> double& { return base[r][static_cast<int64_t>(k) * nthreads + t]; };
  };
  const DeviceForwardTables::View view{tables};
  for (int64_t j = t; j < list.n; j += nthreads) {
    const int32_t id = list.ids[j];
    const uint8_t* dsq = list.residues + list.offsets[id];
    const int64_t L = list.offsets[id + 1] - list.offsets[id];
    int prev = 0, cur = 3;  // rows prev..prev+2 and cur..cur+2: M, I, D
    for (int r = 0; r < 6; ++r)
      for (int k = 0; k <= M; ++k) node(r)(k) = 0.0;
    // forward_length_model, in float as p7_ReconfigLength.
    const float pmove = (2.0f + 1.0f) / ((static_cast<float>(L) + 2.0f) + 1.0f);
    const double move = static_cast<double>(pmove), loop = static_cast<double>(1.0f - pmove);
    ForwardSpecials s;
    s.B = ::gpuseq::hmm::forward_detail::mul(s.N, move);
    for (int64_t i = 0; i < L; ++i) {
      ::gpuseq::hmm::forward_row(view, M, dsq[i], loop, move, node(prev), node(prev + 1),
                                 node(prev + 2), node(cur), node(cur + 1), node(cur + 2), s);
      ::gpuseq::hmm::forward_rescale(s, [&](double f) {
        for (int k = 1; k <= M; ++k)
          for (int r = cur; r < cur + 3; ++r)
            node(r)(k) = ::gpuseq::hmm::forward_detail::mul(node(r)(k), f);
      });
      const int swap = prev;
      prev = cur;
      cur = swap;
    }
    c_move[j] = ::gpuseq::hmm::forward_detail::mul(s.C, move);
    exponent[j] = s.exponent;
  }
}

}  // namespace gpuseq::cuda::hmm
