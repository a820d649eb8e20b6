// 3-D MRF segmentation (cpp/mrf): numpy volumes in, labels and per-sweep records out.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "bindings/numpy_util.hpp"
#include "mrf/philox.hpp"
#include "mrf/segment.hpp"

namespace gpuseq::bindings {

namespace {

mrf::VolumeShape shape_of(const py::array& a, const char* name) {
  if (a.ndim() != 3) throw std::invalid_argument(std::string(name) + " must be 3-D");
  return {a.shape(0), a.shape(1), a.shape(2)};
}

}  // namespace

void bind_mrf(py::module_& m) {
  m.def(
      "mrf_segment",
      [](CArray<float> volume, CArray<uint8_t> initial_labels, int classes, double beta,
         int neighbourhood, const std::string& mode, int max_sweeps, double tolerance,
         double threshold, uint64_t seed, int threads) {
        const mrf::VolumeShape shape = shape_of(volume, "volume");
        const mrf::VolumeShape label_shape = shape_of(initial_labels, "initial labels");
        if (label_shape.nz != shape.nz || label_shape.ny != shape.ny ||
            label_shape.nx != shape.nx)
          throw std::invalid_argument("initial labels and volume differ in shape");
        mrf::SegmentOptions options;
        options.classes = classes;
        options.beta = beta;
        options.neighbourhood = neighbourhood;
        if (mode == "icm")
          options.mode = mrf::UpdateMode::kIcm;
        else if (mode == "metropolis")
          options.mode = mrf::UpdateMode::kMetropolis;
        else
          throw std::invalid_argument("mode must be 'icm' or 'metropolis'");
        options.max_sweeps = max_sweeps;
        options.tolerance = tolerance;
        options.threshold = threshold;
        options.seed = seed;
        options.threads = threads;
        py::array_t<uint8_t> labels({shape.nz, shape.ny, shape.nx});
        std::memcpy(labels.mutable_data(), initial_labels.data(), shape.voxels());
        mrf::SegmentResult result;
        {
          py::gil_scoped_release release;
          result = mrf::segment(volume.data(), labels.mutable_data(), shape, options);
        }
        py::dict out;
        out["labels"] = labels;
        out["energy"] = to_numpy(std::move(result.energy));
        out["changed"] = to_numpy(std::move(result.changed));
        out["means"] = to_numpy(std::move(result.means));
        out["variances"] = to_numpy(std::move(result.variances));
        return out;
      },
      py::arg("volume"), py::arg("initial_labels"), py::arg("classes"), py::arg("beta"),
      py::arg("neighbourhood"), py::arg("mode"), py::arg("max_sweeps"), py::arg("tolerance"),
      py::arg("threshold"), py::arg("seed"), py::arg("threads"),
      "Sweeps the MRF from initial_labels (float32 volume, uint8 labels, both z, y, x). A dict: "
      "labels, energy and means/variances (flat, classes per row) before the first sweep and "
      "after each, changed (labels changed by each sweep).");

  m.def(
      "mrf_connected_component",
      [](CArray<uint8_t> labels, int64_t z, int64_t y, int64_t x) {
        const mrf::VolumeShape shape = shape_of(labels, "labels");
        std::vector<uint8_t> mask;
        {
          py::gil_scoped_release release;
          mask = mrf::connected_component(labels.data(), shape, z, y, x);
        }
        return to_numpy(std::move(mask)).reshape({shape.nz, shape.ny, shape.nx});
      },
      py::arg("labels"), py::arg("z"), py::arg("y"), py::arg("x"),
      "uint8 mask of the voxels 6-connected to (z, y, x) through voxels of its label.");

  m.def(
      "philox4x32_10",
      [](std::array<uint32_t, 4> counter, uint32_t key0, uint32_t key1) {
        return mrf::philox4x32_10(counter, key0, key1);
      },
      py::arg("counter"), py::arg("key0"), py::arg("key1"),
      "Philox-4x32-10 of four counter words and two key words (the MRF's proposals).");
}

}  // namespace gpuseq::bindings
