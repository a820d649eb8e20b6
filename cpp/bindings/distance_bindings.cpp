// All-pairs distances: engines for every kernel (CPU and GPU) behind one Python class.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "bindings/numpy_util.hpp"
#include "distance/engine.hpp"

#ifdef GPUSEQ_WITH_CUDA
#include "distance/gpu_distance.hpp"
#endif

namespace gpuseq::bindings {

namespace {

using distance::DistanceEngine;

distance::GenotypeMatrix matrix_view(const CArray<int8_t>& a) {
  if (a.ndim() != 2) throw std::invalid_argument("genotype matrix must be 2-D");
  return {a.data(), a.shape(0), a.shape(1)};
}

// Keeps the input arrays alive as long as the engine that borrows them. An engine owns scratch
// and device buffers reused by every compute() and runs without the GIL, so calls from several
// Python threads are serialized by `mutex` (one engine computes one block at a time anyway).
struct PyDistanceEngine {
  CArray<int8_t> x, y;
  std::unique_ptr<DistanceEngine> engine;
  std::mutex mutex;
  std::atomic<double> last_device_seconds{-1.0};  // of the last compute_into
  int threads = 1;

  // Fills out (2-D int32 with contiguous rows, e.g. a slice of a memory-mapped .npy) with the
  // distances of X rows [row, row + out.shape[0]) to Y columns [col, col + out.shape[1]).
  void compute_into(py::array_t<int32_t> out, py::object compared, int64_t row, int64_t col) {
    distance::OutputTile tile = tile_for(out, row, col);
    if (!compared.is_none()) {
      auto c = compared.cast<py::array_t<int32_t>>();
      if (c.ndim() != 2 || c.shape(0) != out.shape(0) || c.shape(1) != out.shape(1) ||
          c.strides(0) != out.strides(0) || c.strides(1) != 4)
        throw std::invalid_argument("compared must have out's shape and strides");
      tile.compared = c.mutable_data();
    }
    py::gil_scoped_release release;
    std::lock_guard<std::mutex> lock(mutex);  // taken without the GIL: no deadlock
    engine->compute(tile);
    last_device_seconds = engine->last_device_seconds();
  }

  // The k nearest of Y columns [col_begin, col_end) for X rows [row, row + index.shape[0]):
  // index (int64) and distance (int32), both C-contiguous rows x k (NearestTile).
  void nearest_into(py::array_t<int64_t> index, py::array_t<int32_t> distance, int64_t row,
                    int64_t col_begin, int64_t col_end, bool skip_self, int64_t column_block) {
    if (index.ndim() != 2 || distance.ndim() != 2 || index.shape(0) != distance.shape(0) ||
        index.shape(1) != distance.shape(1) || index.shape(1) < 1 ||
        !(index.flags() & py::array::c_style) || !(distance.flags() & py::array::c_style))
      throw std::invalid_argument("index and distance must be C-contiguous rows x k arrays");
    if (row < 0 || row + index.shape(0) > x.shape(0) || col_begin < 0 || col_end < col_begin ||
        col_end > y.shape(0))
      throw std::invalid_argument("tile outside the distance matrix");
    if (index.shape(1) > INT32_MAX) throw std::invalid_argument("k is too large");
    distance::NearestTile tile;
    tile.row_begin = row;
    tile.row_end = row + index.shape(0);
    tile.col_begin = col_begin;
    tile.col_end = col_end;
    tile.k = static_cast<int>(index.shape(1));
    tile.skip_self = skip_self;
    tile.column_block = column_block;
    tile.threads = threads;
    tile.index = index.mutable_data();
    tile.distance = distance.mutable_data();
    py::gil_scoped_release release;
    std::lock_guard<std::mutex> lock(mutex);
    engine->nearest(tile);
    last_device_seconds = engine->last_device_seconds();
  }

  distance::OutputTile tile_for(py::array_t<int32_t>& out, int64_t row, int64_t col) const {
    if (out.ndim() != 2 || out.strides(1) != 4 || out.strides(0) % 4 != 0)
      throw std::invalid_argument("out must be a 2-D int32 array with contiguous rows");
    if (row < 0 || col < 0 || row + out.shape(0) > x.shape(0) || col + out.shape(1) > y.shape(0))
      throw std::invalid_argument("tile outside the distance matrix");
    distance::OutputTile tile;
    tile.row_begin = row;
    tile.row_end = row + out.shape(0);
    tile.col_begin = col;
    tile.col_end = col + out.shape(1);
    tile.out = out.mutable_data();
    tile.stride = out.strides(0) / 4;
    return tile;
  }
};

}  // namespace

void bind_distance(py::module_& m) {
  py::class_<PyDistanceEngine>(m, "DistanceEngine",
                               "All-pairs distance kernel for one (X, Y) problem. Thread-safe: "
                               "concurrent compute_into calls are serialized.")
      .def(py::init([](CArray<int8_t> x, CArray<int8_t> y, const std::string& metric,
                       int alphabet_size, bool missing, const std::string& kernel,
                       const std::string& backend, int threads) {
             auto self = std::make_unique<PyDistanceEngine>();
             self->x = x;
             self->y = y;
             distance::DistanceProblem p;
             p.x = matrix_view(self->x);
             p.y = matrix_view(self->y);
             if (p.x.attributes != p.y.attributes)
               throw std::invalid_argument("X and Y have different numbers of attributes");
             if (metric == "hamming")
               p.metric = distance::Metric::kHamming;
             else if (metric == "manhattan")
               p.metric = distance::Metric::kManhattan;
             else
               throw std::invalid_argument("metric must be 'hamming' or 'manhattan'");
             if (alphabet_size < 2 || alphabet_size > distance::kMaxAlphabetSize)
               throw std::invalid_argument("alphabet_size must be in 2..16");
             p.alphabet_size = alphabet_size;
             p.missing = missing;
             p.threads = threads;
             self->threads = threads;
             py::gil_scoped_release release;
             if (backend == "cpu") {
               self->engine = distance::make_cpu_engine(kernel, p);
             } else if (backend == "cuda") {
#ifdef GPUSEQ_WITH_CUDA
               self->engine = cuda::make_distance_engine(kernel, p);
#else
               throw std::invalid_argument("this gpuseq build has no CUDA code");
#endif
             } else {
               throw std::invalid_argument("backend must be 'cpu' or 'cuda'");
             }
             return self;
           }),
           py::arg("x"), py::arg("y"), py::arg("metric"), py::arg("alphabet_size"),
           py::arg("missing"), py::arg("kernel"), py::arg("backend"), py::arg("threads"))
      .def("compute_into", &PyDistanceEngine::compute_into, py::arg("out"), py::arg("compared"),
           py::arg("row"), py::arg("col"))
      .def("nearest_into", &PyDistanceEngine::nearest_into, py::arg("index"), py::arg("distance"),
           py::arg("row"), py::arg("col_begin"), py::arg("col_end"), py::arg("skip_self"),
           py::arg("column_block") = 0,
           "The k nearest of columns [col_begin, col_end) for the rows of the k-wide outputs "
           "(ascending by distance, then column; -1 / INT32_MAX where a row has fewer), "
           "computed column_block columns at a time (0: the engine's choice).")
      .def_property_readonly(
          "last_device_seconds",
          [](const PyDistanceEngine& e) { return e.last_device_seconds.load(); },
          "GPU seconds of the last compute_into (CUDA events); -1 on the CPU.");

  // CUDA failures reach Python as gpuseq.errors' BackendError subclasses.
  const py::module_ errors = py::module_::import("gpuseq.errors");
  py::register_exception<distance::DeviceOutOfMemory>(m, "DeviceOutOfMemory",
                                                      errors.attr("GpuOutOfMemoryError"));
  py::register_exception<distance::CudaError>(m, "CudaError", errors.attr("GpuError"));

  m.def("cpu_and_popcount_rate", &distance::and_popcount_words_per_second,
        py::arg("words") = 256, py::arg("threads") = 1, py::arg("seconds") = 0.5,
        py::call_guard<py::gil_scoped_release>(),
        "The CPU distance kernel's compute bound: popcount(a AND b) 64-bit words per second of "
        "its 4 x 4 register block on L1-resident rows, over `threads` threads.");

#ifdef GPUSEQ_WITH_CUDA
  m.def("b1_mma_peak_tops", &cuda::b1_mma_peak_tops, py::arg("iterations") = 20000,
        "Sustained b1 AND+POPC mma.sync rate of this GPU (tera bit-ops/s).");
  m.def("b1_wgmma_peak_tops", &cuda::b1_wgmma_peak_tops, py::arg("iterations") = 20000,
        "Sustained b1 AND+POPC wgmma rate from shared memory (sm_90a builds on sm_90 GPUs).");
  m.def("b1_gemm_variants", &cuda::b1_gemm_variants);
  m.def(
      "b1_gemm_product",
      [](const std::string& variant, const CArray<uint64_t>& a, const CArray<uint64_t>& b) {
        if (a.ndim() != 2 || b.ndim() != 2 || a.shape(1) != b.shape(1))
          throw std::invalid_argument("a and b must be 2-D uint64 with the same row length");
        std::vector<int32_t> c = cuda::b1_gemm_product(variant, a.data(), a.shape(0), b.data(),
                                                       b.shape(0), a.shape(1));
        py::array_t<int32_t> out({a.shape(0), b.shape(0)});
        std::copy(c.begin(), c.end(), out.mutable_data());
        return out;
      },
      py::arg("variant"), py::arg("a"), py::arg("b"),
      "popcount(a_i AND b_j) for all row pairs with a tiling variant ('' = the default).");
  m.def("b1_gemm_seconds", &cuda::b1_gemm_seconds, py::arg("variant"), py::arg("rows"),
        py::arg("cols"), py::arg("k_bits"), py::arg("repeats") = 5,
        "Device seconds of one binary product with a tiling variant ('' = the default).");
#endif
}

}  // namespace gpuseq::bindings
