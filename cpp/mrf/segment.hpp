// 3-D Markov random field segmentation (Walters et al. 2009, made deterministic): K Gaussian
// intensity classes and a Potts prior over 6, 18 or 26 neighbours, swept by a colouring of the
// grid so that voxels of one colour are independent. The CPU twin of a future cuda/mrf: every
// result is a pure function of the inputs, not of the thread count or the order of the threads.
#pragma once

#include <cstdint>
#include <vector>

namespace gpuseq::mrf {

// Labels and intensities are C-ordered volumes: index = (z * ny + y) * nx + x.
struct VolumeShape {
  int64_t nz = 0, ny = 0, nx = 0;
  int64_t voxels() const { return nz * ny * nx; }
};

enum class UpdateMode {
  kIcm,         // each voxel takes its best label (ties to the lowest); the energy never rises
  kMetropolis,  // the paper's: one uniformly random proposal per voxel (Philox), accepted when
                // the energy drops by more than `threshold`
};

struct SegmentOptions {
  int classes = 3;
  double beta = 1.0;       // Potts cost of one neighbour pair with different labels
  int neighbourhood = 26;  // 6, 18 or 26
  UpdateMode mode = UpdateMode::kIcm;
  int max_sweeps = 20;
  double tolerance = 0.0;  // stop after a sweep that changed <= tolerance * voxels labels
  double threshold = 0.0;  // metropolis: accept when energy(current) - energy(proposal) > this
  uint64_t seed = 0;
  int threads = 0;  // 0: all cores
};

// The Gaussian of each class, with the per-class constants the data term uses, so that every
// backend evaluates -log N(I; mean, variance) = log_norm + (I - mean)^2 * inverse_two_variance
// with the same two roundings (log is evaluated once per class, on the host).
struct ClassModel {
  std::vector<double> mean, variance, log_norm, inverse_two_variance;
};

struct SegmentResult {
  std::vector<double> energy;      // before the first sweep, then after each sweep
  std::vector<int64_t> changed;    // labels changed by each sweep
  std::vector<double> means;       // (sweeps + 1) x classes, as energy
  std::vector<double> variances;   // (sweeps + 1) x classes
};

// Runs the sweeps on `labels` (in place; every label must be < options.classes). The class
// model is re-estimated from the labels before the first sweep and after every sweep.
SegmentResult segment(const float* intensity, uint8_t* labels, VolumeShape shape,
                      const SegmentOptions& options);

// Maximum-likelihood mean and variance of each class. The sums are taken per x row in x order,
// row sums per slice in y order, slice sums in z order (any thread count, same bits). An empty
// class keeps `previous`'s Gaussian (the whole volume's when there is none); variances are
// floored at `variance_floor`.
ClassModel estimate_classes(const float* intensity, const uint8_t* labels, VolumeShape shape,
                            int classes, double variance_floor, const ClassModel* previous,
                            int threads);

// Sum over voxels of the data term plus beta times the number of neighbour pairs (each
// unordered pair once) with different labels; summed in the order of estimate_classes.
double total_energy(const float* intensity, const uint8_t* labels, VolumeShape shape,
                    const ClassModel& model, double beta, int neighbourhood, int threads);

// One sweep: every colour in order, each voxel of a colour updated from its neighbours' labels
// (which belong to other colours). `sweep` keys the random proposals. Returns labels changed.
int64_t sweep_once(const float* intensity, uint8_t* labels, VolumeShape shape,
                   const ClassModel& model, const SegmentOptions& options, int64_t sweep);

// 1 for the voxels 6-connected to (z, y, x) through voxels of its label, else 0.
std::vector<uint8_t> connected_component(const uint8_t* labels, VolumeShape shape, int64_t z,
                                         int64_t y, int64_t x);

}  // namespace gpuseq::mrf
