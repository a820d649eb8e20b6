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

#ifdef GPUSEQ_WITH_CUDA
#include "mrf/gpu_segment.hpp"
#endif

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
         double threshold, uint64_t seed, int threads, const std::string& backend,
         const std::string& kernel) {
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
        if (backend != "cpu" && backend != "cuda")
          throw std::invalid_argument("backend must be 'cpu' or 'cuda'");
        if (kernel != "tiled" && kernel != "paper")
          throw std::invalid_argument("kernel must be 'tiled' or 'paper'");
#ifndef GPUSEQ_WITH_CUDA
        if (backend == "cuda") throw std::invalid_argument("this build has no CUDA backend");
#endif
        py::array_t<uint8_t> labels({shape.nz, shape.ny, shape.nx});
        std::memcpy(labels.mutable_data(), initial_labels.data(), shape.voxels());
        mrf::SegmentResult result;
        {
          py::gil_scoped_release release;
#ifdef GPUSEQ_WITH_CUDA
          if (backend == "cuda")
            result = cuda::segment_mrf(
                volume.data(), labels.mutable_data(), shape, options,
                kernel == "paper" ? cuda::MrfKernel::kPaper : cuda::MrfKernel::kTiled);
          else
#endif
            result = mrf::segment(volume.data(), labels.mutable_data(), shape, options);
        }
        py::dict out;
        out["labels"] = labels;
        out["energy"] = to_numpy(std::move(result.energy));
        out["changed"] = to_numpy(std::move(result.changed));
        out["means"] = to_numpy(std::move(result.means));
        out["variances"] = to_numpy(std::move(result.variances));
        out["sweep_seconds"] = to_numpy(std::move(result.sweep_seconds));
        return out;
      },
      py::arg("volume"), py::arg("initial_labels"), py::arg("classes"), py::arg("beta"),
      py::arg("neighbourhood"), py::arg("mode"), py::arg("max_sweeps"), py::arg("tolerance"),
      py::arg("threshold"), py::arg("seed"), py::arg("threads"), py::arg("backend") = "cpu",
      py::arg("kernel") = "tiled",
      "Sweeps the MRF from initial_labels (float32 volume, uint8 labels, both z, y, x) on the "
      "CPU or the GPU (kernel 'tiled' or 'paper'; the same results). A dict: labels, energy "
      "and means/variances (flat, classes per row) before the first sweep and after each, "
      "changed (labels changed by each sweep), sweep_seconds (wall time of each sweep's label "
      "updates).");

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
