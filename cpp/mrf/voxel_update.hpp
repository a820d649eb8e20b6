// The per-voxel arithmetic of the MRF, one source for the CPU twin (segment.cpp) and the CUDA
// kernels (cuda/mrf/segment.cu): the data term, a label's local energy, the update rule and the
// grid colouring. Every double operation is one explicitly rounded add or multiply (the GPU
// never fuses them into an FMA, the CPU core is built with -ffp-contract=off), so both backends
// round the same operations in the same order and give the same bits.
#pragma once

#include <cstdint>

#include "mrf/philox.hpp"

namespace gpuseq::mrf {

enum class UpdateMode {
  kIcm,         // each voxel takes its best label (ties to the lowest); the energy never rises
  kMetropolis,  // the paper's: one uniformly random proposal per voxel (Philox), accepted when
                // the energy drops by more than `threshold`
};

// A label no voxel holds (classes <= 255 leaves 255 free): marks an absent neighbour.
constexpr uint8_t kNoLabel = 255;

GPUSEQ_HOST_DEVICE inline double add_rn(double a, double b) {
#ifdef __CUDA_ARCH__
  return __dadd_rn(a, b);
#else
  return a + b;
#endif
}

GPUSEQ_HOST_DEVICE inline double mul_rn(double a, double b) {
#ifdef __CUDA_ARCH__
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}

// Each class's Gaussian as the data term uses it (ClassModel's arrays, or a GPU copy of them).
struct ClassTerms {
  const double* mean;
  const double* log_norm;
  const double* inverse_two_variance;
};

// -log N(I; mean, variance) = log_norm + (I - mean)^2 * inverse_two_variance.
GPUSEQ_HOST_DEVICE inline double data_term(const ClassTerms& c, int label, float intensity) {
  const double d = add_rn(static_cast<double>(intensity), -c.mean[label]);
  return add_rn(c.log_norm[label], mul_rn(mul_rn(d, d), c.inverse_two_variance[label]));
}

// Data term plus beta for each of `different` neighbours holding another label.
GPUSEQ_HOST_DEVICE inline double local_energy(const ClassTerms& c, int label, float intensity,
                                              double beta, int different) {
  return add_rn(data_term(c, label, intensity), mul_rn(beta, static_cast<double>(different)));
}

struct UpdateRule {
  int classes = 3;
  UpdateMode mode = UpdateMode::kIcm;
  double beta = 1.0;
  double threshold = 0.0;  // metropolis
  uint32_t key0 = 0, key1 = 0;  // the seed's low and high words
};

// Metropolis proposal of voxel `index` in `sweep`: floor(r0 * K / 2^32), r0 the first word of
// Philox-4x32-10 at counter (index low word, high word, sweep, 0) and key (seed low, high).
GPUSEQ_HOST_DEVICE inline int metropolis_proposal(const UpdateRule& rule, int64_t index,
                                                  int64_t sweep) {
  uint32_t c0 = static_cast<uint32_t>(index);
  uint32_t c1 = static_cast<uint32_t>(static_cast<uint64_t>(index) >> 32);
  uint32_t c2 = static_cast<uint32_t>(sweep), c3 = 0u;
  philox4x32_10_rounds(c0, c1, c2, c3, rule.key0, rule.key1);
  return static_cast<int>((uint64_t{c0} * static_cast<uint64_t>(rule.classes)) >> 32);
}

// The label voxel `index` takes in `sweep`, from its label, its intensity, its number of
// neighbours inside the volume, and same(l): how many of them hold label l.
#ifdef __CUDACC__
#pragma nv_exec_check_disable  // SameCount is a device lambda in the kernels, a host one here
#endif
template <class SameCount>
GPUSEQ_HOST_DEVICE inline int updated_label(const UpdateRule& rule, const ClassTerms& c,
                                            float intensity, int current, int neighbours,
                                            const SameCount& same, int64_t index,
                                            int64_t sweep) {
  if (rule.mode == UpdateMode::kIcm) {
    int chosen = 0;
    double best = local_energy(c, 0, intensity, rule.beta, neighbours - same(0));
    for (int l = 1; l < rule.classes; ++l) {
      const double e = local_energy(c, l, intensity, rule.beta, neighbours - same(l));
      if (e < best) {
        best = e;
        chosen = l;
      }
    }
    return chosen;
  }
  const int proposal = metropolis_proposal(rule, index, sweep);
  if (proposal == current) return current;
  const double drop =
      add_rn(local_energy(c, current, intensity, rule.beta, neighbours - same(current)),
             -local_energy(c, proposal, intensity, rule.beta, neighbours - same(proposal)));
  return drop > rule.threshold ? proposal : current;
}

// The colours: red-black (parity of x + y + z) when only faces touch, else the 8 parity
// classes of (x, y, z), colour = (x & 1) | (y & 1) << 1 | (z & 1) << 2; swept in colour order.
// No voxel has a neighbour of its own colour.
GPUSEQ_HOST_DEVICE inline int colour_count(int neighbourhood) {
  return neighbourhood == 6 ? 2 : 8;
}

GPUSEQ_HOST_DEVICE inline int colour_of(int neighbourhood, int64_t z, int64_t y, int64_t x) {
  if (neighbourhood == 6) return static_cast<int>((x + y + z) & 1);
  return static_cast<int>((x & 1) | (y & 1) << 1 | (z & 1) << 2);
}

// Whether (dz, dy, dx) is a neighbour offset: 6 faces, 18 with the edges, 26 with the corners.
GPUSEQ_HOST_DEVICE constexpr bool is_neighbour(int neighbourhood, int dz, int dy, int dx) {
  const int manhattan = (dz < 0 ? -dz : dz) + (dy < 0 ? -dy : dy) + (dx < 0 ? -dx : dx);
  const int reach = neighbourhood == 6 ? 1 : neighbourhood == 18 ? 2 : 3;
  return manhattan > 0 && manhattan <= reach;
}

// Offsets after (0, 0, 0) in index order: each unordered neighbour pair counted once.
GPUSEQ_HOST_DEVICE constexpr bool is_forward(int dz, int dy, int dx) {
  return dz > 0 || (dz == 0 && (dy > 0 || (dy == 0 && dx > 0)));
}

}  // namespace gpuseq::mrf
