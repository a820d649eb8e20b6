#include "mrf/segment.hpp"

#include <chrono>
#include <cmath>
#include <deque>
#include <stdexcept>
#include <string>

#include "common/parallel.hpp"
#include "mrf/philox.hpp"

namespace gpuseq::mrf {

namespace {

struct Offset {
  int dz, dy, dx;
};

// Neighbour offsets in (dz, dy, dx) lexicographic order: 6 faces, 18 with the edges, 26 with
// the corners.
std::vector<Offset> neighbour_offsets(int neighbourhood) {
  if (neighbourhood != 6 && neighbourhood != 18 && neighbourhood != 26)
    throw std::invalid_argument("neighbourhood must be 6, 18 or 26, not " +
                                std::to_string(neighbourhood));
  std::vector<Offset> offsets;
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx)
        if (is_neighbour(neighbourhood, dz, dy, dx)) offsets.push_back({dz, dy, dx});
  return offsets;
}

// The offsets after (0, 0, 0) in index order: each unordered neighbour pair counted once.
std::vector<Offset> forward_offsets(int neighbourhood) {
  std::vector<Offset> forward;
  for (const Offset& o : neighbour_offsets(neighbourhood))
    if (is_forward(o.dz, o.dy, o.dx)) forward.push_back(o);
  return forward;
}

int resolve_threads(int threads) { return threads > 0 ? threads : default_thread_count(); }

bool inside(VolumeShape s, int64_t z, int64_t y, int64_t x) {
  return z >= 0 && z < s.nz && y >= 0 && y < s.ny && x >= 0 && x < s.nx;
}

ClassModel with_constants(ClassModel model) {
  const size_t k = model.mean.size();
  model.log_norm.resize(k);
  model.inverse_two_variance.resize(k);
  constexpr double kTwoPi = 6.283185307179586476925286766559;
  for (size_t l = 0; l < k; ++l) {
    model.log_norm[l] = 0.5 * std::log(kTwoPi * model.variance[l]);
    model.inverse_two_variance[l] = 1.0 / (2.0 * model.variance[l]);
  }
  return model;
}

// First x of `colour` in row (z, y) and the x step between its voxels (always 2).
int64_t first_x(int neighbourhood, int colour, int64_t z, int64_t y) {
  if (neighbourhood == 6) return (colour + z + y) & 1;
  return colour & 1;
}

bool row_has_colour(int neighbourhood, int colour, int64_t z, int64_t y) {
  if (neighbourhood == 6) return true;
  return (y & 1) == ((colour >> 1) & 1) && (z & 1) == ((colour >> 2) & 1);
}

}  // namespace

ClassModel estimate_classes(const float* intensity, const uint8_t* labels, VolumeShape shape,
                            int classes, double variance_floor, const ClassModel* previous,
                            int threads) {
  const int64_t k = classes, nz = shape.nz, ny = shape.ny, nx = shape.nx;
  // Two passes (mean, then squared deviations from it) for an accurate variance.
  std::vector<int64_t> slice_count(nz * k, 0);
  std::vector<double> slice_sum(nz * k, 0.0), slice_squares(nz * k, 0.0);
  auto pass = [&](const std::vector<double>* mean) {
    parallel_for_blocks(nz, 1, resolve_threads(threads), [&](int64_t z0, int64_t z1, int) {
      std::vector<double> row(k);
      for (int64_t z = z0; z < z1; ++z) {
        double* slice = (mean ? slice_squares.data() : slice_sum.data()) + z * k;
        for (int64_t y = 0; y < ny; ++y) {
          std::fill(row.begin(), row.end(), 0.0);
          const int64_t base = (z * ny + y) * nx;
          for (int64_t x = 0; x < nx; ++x) {
            const int l = labels[base + x];
            const double v = intensity[base + x];
            if (mean) {
              const double d = v - (*mean)[l];
              row[l] += d * d;
            } else {
              row[l] += v;
              ++slice_count[z * k + l];
            }
          }
          for (int64_t l = 0; l < k; ++l) slice[l] += row[l];
        }
      }
    });
  };
  pass(nullptr);
  std::vector<int64_t> count;
  std::vector<double> mean;
  class_means(slice_count, slice_sum, nz, classes, count, mean);
  pass(&mean);
  return class_model(count, mean, slice_squares, nz, classes, variance_floor, previous);
}

void class_means(const std::vector<int64_t>& slice_count, const std::vector<double>& slice_sum,
                 int64_t nz, int classes, std::vector<int64_t>& count, std::vector<double>& mean) {
  const int64_t k = classes;
  count.assign(k, 0);
  mean.assign(k, 0.0);
  for (int64_t z = 0; z < nz; ++z)
    for (int64_t l = 0; l < k; ++l) {
      count[l] += slice_count[z * k + l];
      mean[l] += slice_sum[z * k + l];
    }
  for (int64_t l = 0; l < k; ++l)
    if (count[l] > 0) mean[l] /= static_cast<double>(count[l]);
}

ClassModel class_model(const std::vector<int64_t>& count, const std::vector<double>& mean,
                       const std::vector<double>& slice_squares, int64_t nz, int classes,
                       double variance_floor, const ClassModel* previous) {
  const int64_t k = classes;
  std::vector<double> squares(k, 0.0);
  for (int64_t z = 0; z < nz; ++z)
    for (int64_t l = 0; l < k; ++l) squares[l] += slice_squares[z * k + l];

  ClassModel model;
  model.mean.resize(k);
  model.variance.resize(k);
  for (int64_t l = 0; l < k; ++l) {
    if (count[l] == 0) {
      if (previous == nullptr) throw std::logic_error("estimate_classes: empty class, no prior");
      model.mean[l] = previous->mean[l];
      model.variance[l] = previous->variance[l];
      continue;
    }
    model.mean[l] = mean[l];
    model.variance[l] = std::max(variance_floor, squares[l] / static_cast<double>(count[l]));
  }
  return with_constants(std::move(model));
}

double total_energy(const float* intensity, const uint8_t* labels, VolumeShape shape,
                    const ClassModel& model, double beta, int neighbourhood, int threads) {
  const std::vector<Offset> forward = forward_offsets(neighbourhood);
  const int64_t nz = shape.nz, ny = shape.ny, nx = shape.nx;
  std::vector<int64_t> forward_index;
  for (const Offset& o : forward) forward_index.push_back((o.dz * ny + o.dy) * nx + o.dx);
  const ClassTerms terms = model.terms();
  std::vector<double> slice_energy(nz, 0.0);
  parallel_for_blocks(nz, 1, resolve_threads(threads), [&](int64_t z0, int64_t z1, int) {
    for (int64_t z = z0; z < z1; ++z) {
      for (int64_t y = 0; y < ny; ++y) {
        double row = 0.0;
        const int64_t base = (z * ny + y) * nx;
        for (int64_t x = 0; x < nx; ++x) {
          const int l = labels[base + x];
          const bool interior = z < nz - 1 && y > 0 && y < ny - 1 && x > 0 && x < nx - 1;
          int different = 0;
          for (size_t n = 0; n < forward.size(); ++n) {
            const Offset& o = forward[n];
            if (!interior && !inside(shape, z + o.dz, y + o.dy, x + o.dx)) continue;
            different += labels[base + x + forward_index[n]] != l;
          }
          row = add_rn(row, local_energy(terms, l, intensity[base + x], beta, different));
        }
        slice_energy[z] += row;
      }
    }
  });
  return sum_slices(slice_energy);
}

double sum_slices(const std::vector<double>& slice_energy) {
  double total = 0.0;
  for (double e : slice_energy) total += e;
  return total;
}

UpdateRule update_rule(const SegmentOptions& options) {
  UpdateRule rule;
  rule.classes = options.classes;
  rule.mode = options.mode;
  rule.beta = options.beta;
  rule.threshold = options.threshold;
  rule.key0 = static_cast<uint32_t>(options.seed);
  rule.key1 = static_cast<uint32_t>(options.seed >> 32);
  return rule;
}

int64_t sweep_once(const float* intensity, uint8_t* labels, VolumeShape shape,
                   const ClassModel& model, const SegmentOptions& options, int64_t sweep) {
  const std::vector<Offset> offsets = neighbour_offsets(options.neighbourhood);
  const int k = options.classes;
  const int64_t nz = shape.nz, ny = shape.ny, nx = shape.nx;
  std::vector<int64_t> offset_index;
  for (const Offset& o : offsets) offset_index.push_back((o.dz * ny + o.dy) * nx + o.dx);
  const UpdateRule rule = update_rule(options);
  const ClassTerms terms = model.terms();
  std::vector<int64_t> slice_changed(nz, 0);

  // No voxel has a neighbour of its own colour, so within one colour every update reads only
  // labels that no worker writes: the result is that of any serial order.
  for (int colour = 0; colour < colour_count(options.neighbourhood); ++colour) {
    parallel_for_blocks(nz, 1, resolve_threads(options.threads),
                        [&](int64_t z0, int64_t z1, int) {
      std::vector<int> same(k);  // neighbours holding each label
      for (int64_t z = z0; z < z1; ++z) {
        if (options.neighbourhood != 6 && (z & 1) != ((colour >> 2) & 1)) continue;
        for (int64_t y = 0; y < ny; ++y) {
          if (!row_has_colour(options.neighbourhood, colour, z, y)) continue;
          for (int64_t x = first_x(options.neighbourhood, colour, z, y); x < nx; x += 2) {
            const int64_t i = (z * ny + y) * nx + x;
            const bool interior = z > 0 && z < nz - 1 && y > 0 && y < ny - 1 && x > 0 &&
                                  x < nx - 1;
            std::fill(same.begin(), same.end(), 0);
            int neighbours = 0;
            for (size_t n = 0; n < offsets.size(); ++n) {
              if (!interior &&
                  !inside(shape, z + offsets[n].dz, y + offsets[n].dy, x + offsets[n].dx))
                continue;
              ++same[labels[i + offset_index[n]]];
              ++neighbours;
            }
            const int current = labels[i];
            const int chosen = updated_label(rule, terms, intensity[i], current, neighbours,
                                             [&](int l) { return same[l]; }, i, sweep);
            if (chosen != current) {
              labels[i] = static_cast<uint8_t>(chosen);
              ++slice_changed[z];
            }
          }
        }
      }
    });
  }
  int64_t changed = 0;
  for (int64_t c : slice_changed) changed += c;
  return changed;
}

void check_segment_inputs(const uint8_t* labels, VolumeShape shape,
                          const SegmentOptions& options) {
  if (options.classes < 2 || options.classes > 255)
    throw std::invalid_argument("classes must be in 2..255");
  if (options.max_sweeps < 0) throw std::invalid_argument("max_sweeps must be >= 0");
  neighbour_offsets(options.neighbourhood);  // validates it
  const int64_t voxels = shape.voxels();
  if (voxels < options.classes)
    throw std::invalid_argument("the volume has fewer voxels than classes");
  for (int64_t i = 0; i < voxels; ++i)
    if (labels[i] >= options.classes)
      throw std::invalid_argument("initial label " + std::to_string(labels[i]) +
                                  " at voxel " + std::to_string(i) + " is not below classes");
}

SegmentResult segment_with(const SegmentSteps& steps, int64_t voxels,
                           const SegmentOptions& options) {
  // The whole volume as one class: the Gaussian of classes that start empty, and the scale of
  // the variance floor (a class of constant intensity would otherwise have zero variance).
  const ClassModel whole = steps.estimate(1, 0.0, nullptr, true);
  const double floor = whole.variance[0] > 0.0 ? 1e-6 * whole.variance[0] : 1e-12;
  ClassModel prior;
  prior.mean.assign(options.classes, whole.mean[0]);
  prior.variance.assign(options.classes, std::max(floor, whole.variance[0]));

  SegmentResult result;
  ClassModel model = steps.estimate(options.classes, floor, &prior, false);
  auto record = [&](int64_t changed) {
    result.energy.push_back(steps.energy(model));
    result.means.insert(result.means.end(), model.mean.begin(), model.mean.end());
    result.variances.insert(result.variances.end(), model.variance.begin(),
                            model.variance.end());
    if (changed >= 0) result.changed.push_back(changed);
  };
  record(-1);
  for (int64_t sweep = 0; sweep < options.max_sweeps; ++sweep) {
    const auto started = std::chrono::steady_clock::now();
    const int64_t changed = steps.sweep(model, sweep);
    result.sweep_seconds.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    model = steps.estimate(options.classes, floor, &model, false);
    record(changed);
    if (static_cast<double>(changed) <= options.tolerance * static_cast<double>(voxels)) break;
  }
  return result;
}

SegmentResult segment(const float* intensity, uint8_t* labels, VolumeShape shape,
                      const SegmentOptions& options) {
  check_segment_inputs(labels, shape, options);
  std::vector<uint8_t> one_class;  // all zero: the whole volume as one class
  SegmentSteps steps;
  steps.estimate = [&](int classes, double variance_floor, const ClassModel* previous,
                       bool whole_volume) {
    if (whole_volume && one_class.empty()) one_class.assign(shape.voxels(), 0);
    const ClassModel model =
        estimate_classes(intensity, whole_volume ? one_class.data() : labels, shape, classes,
                         variance_floor, previous, options.threads);
    if (whole_volume) std::vector<uint8_t>().swap(one_class);
    return model;
  };
  steps.energy = [&](const ClassModel& model) {
    return total_energy(intensity, labels, shape, model, options.beta, options.neighbourhood,
                        options.threads);
  };
  steps.sweep = [&](const ClassModel& model, int64_t sweep) {
    return sweep_once(intensity, labels, shape, model, options, sweep);
  };
  return segment_with(steps, shape.voxels(), options);
}

std::vector<uint8_t> connected_component(const uint8_t* labels, VolumeShape shape, int64_t z,
                                         int64_t y, int64_t x) {
  if (!inside(shape, z, y, x)) throw std::out_of_range("seed voxel outside the volume");
  const int64_t ny = shape.ny, nx = shape.nx;
  std::vector<uint8_t> mask(shape.voxels(), 0);
  const int64_t seed = (z * ny + y) * nx + x;
  const uint8_t label = labels[seed];
  const Offset faces[6] = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}};
  std::deque<int64_t> queue{seed};
  mask[seed] = 1;
  while (!queue.empty()) {
    const int64_t i = queue.front();
    queue.pop_front();
    const int64_t cz = i / (ny * nx), cy = (i / nx) % ny, cx = i % nx;
    for (const Offset& o : faces) {
      if (!inside(shape, cz + o.dz, cy + o.dy, cx + o.dx)) continue;
      const int64_t j = ((cz + o.dz) * ny + (cy + o.dy)) * nx + (cx + o.dx);
      if (mask[j] == 0 && labels[j] == label) {
        mask[j] = 1;
        queue.push_back(j);
      }
    }
  }
  return mask;
}

}  // namespace gpuseq::mrf
