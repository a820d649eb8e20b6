// 3-D Markov random field segmentation (Walters et al. 2009, made deterministic): K Gaussian
// intensity classes and a Potts prior over 6, 18 or 26 neighbours, swept by a colouring of the
// grid so that voxels of one colour are independent. The CPU twin of cuda/mrf/segment.cu: every
// result is a pure function of the inputs, not of the thread count, the order of the threads or
// the backend (the per-voxel arithmetic is shared: voxel_update.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "mrf/voxel_update.hpp"

namespace gpuseq::mrf {

// Labels and intensities are C-ordered volumes: index = (z * ny + y) * nx + x.
struct VolumeShape {
  int64_t nz = 0, ny = 0, nx = 0;
  int64_t voxels() const { return nz * ny * nx; }
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
  ClassTerms terms() const { return {mean.data(), log_norm.data(), inverse_two_variance.data()}; }
};

struct SegmentResult {
  std::vector<double> energy;      // before the first sweep, then after each sweep
  std::vector<int64_t> changed;    // labels changed by each sweep
  std::vector<double> means;       // (sweeps + 1) x classes, as energy
  std::vector<double> variances;   // (sweeps + 1) x classes
  std::vector<double> sweep_seconds;  // wall time of each sweep's label updates (no estimates)
};

// What a backend provides to segment_with(), which runs the steps in the one order every
// backend shares. estimate: the class model of the current labels (whole_volume: of the
// volume as one class, `classes` = 1); energy: total_energy of the current labels; sweep:
// sweep_once on the current labels.
struct SegmentSteps {
  std::function<ClassModel(int classes, double variance_floor, const ClassModel* previous,
                           bool whole_volume)>
      estimate;
  std::function<double(const ClassModel&)> energy;
  std::function<int64_t(const ClassModel&, int64_t sweep)> sweep;
};

// Throws std::invalid_argument for options out of range, fewer voxels than classes or an
// initial label >= classes.
void check_segment_inputs(const uint8_t* labels, VolumeShape shape,
                          const SegmentOptions& options);

// The sweeps of segment() on any backend (inputs already checked).
SegmentResult segment_with(const SegmentSteps& steps, int64_t voxels,
                           const SegmentOptions& options);

// The update rule of the options (mode, beta, threshold, the seed's words).
UpdateRule update_rule(const SegmentOptions& options);

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

// The parts of estimate_classes after the per-slice sums (nz x classes, slice-major), shared
// with the GPU: totals in z order, then means; then the model from the per-slice squared
// deviations from those means.
void class_means(const std::vector<int64_t>& slice_count, const std::vector<double>& slice_sum,
                 int64_t nz, int classes, std::vector<int64_t>& count, std::vector<double>& mean);
ClassModel class_model(const std::vector<int64_t>& count, const std::vector<double>& mean,
                       const std::vector<double>& slice_squares, int64_t nz, int classes,
                       double variance_floor, const ClassModel* previous);

// Sum over voxels of the data term plus beta times the number of neighbour pairs (each
// unordered pair once) with different labels; summed in the order of estimate_classes.
double total_energy(const float* intensity, const uint8_t* labels, VolumeShape shape,
                    const ClassModel& model, double beta, int neighbourhood, int threads);

// The slices' energies summed in z order (total_energy's last step, shared with the GPU).
double sum_slices(const std::vector<double>& slice_energy);

// One sweep: every colour in order, each voxel of a colour updated from its neighbours' labels
// (which belong to other colours). `sweep` keys the random proposals. Returns labels changed.
int64_t sweep_once(const float* intensity, uint8_t* labels, VolumeShape shape,
                   const ClassModel& model, const SegmentOptions& options, int64_t sweep);

// 1 for the voxels 6-connected to (z, y, x) through voxels of its label, else 0.
std::vector<uint8_t> connected_component(const uint8_t* labels, VolumeShape shape, int64_t z,
                                         int64_t y, int64_t x);

}  // namespace gpuseq::mrf
