// gpuseq._core: the compiled core. Bindings only: convert arrays, release the GIL around the
// work, turn C++ errors into gpuseq.errors exceptions.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <stdexcept>

#include "bindings/numpy_util.hpp"
#include "common/alphabet.hpp"
#include "common/float_env.hpp"

#ifdef GPUSEQ_WITH_CUDA
#include "common/device.hpp"
#endif

namespace py = pybind11;

namespace gpuseq::bindings {

namespace {

// Record names are bytes in FASTA and may hold any byte: decode them (and messages that may
// quote them) losslessly, as Python's os functions do for file names, never failing.
py::str decode_bytes(const std::string& s) {
  PyObject* text = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()),
                                        "surrogateescape");
  if (text == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(text);
}

}  // namespace

void raise_gpuseq_error(const char* name, const std::string& path, long long line,
                        const std::string& message, const std::string& record) {
  py::object cls = py::module_::import("gpuseq.errors").attr(name);
  py::object record_arg = record.empty() ? py::object(py::none()) : decode_bytes(record);
  py::object line_arg = line > 0 ? py::object(py::int_(line)) : py::object(py::none());
  py::object exc = cls(decode_bytes(path), line_arg, decode_bytes(message), record_arg);
  PyErr_SetObject(cls.ptr(), exc.ptr());
  throw py::error_already_set();
}

// Python's `with` target for FlushDenormalsScope (entered and left on one thread).
struct FlushDenormalsContext {
  std::optional<FlushDenormalsScope> scope;
};

void bind_sequences(py::module_& m);
void bind_hmm(py::module_& m);
void bind_distance(py::module_& m);
void bind_blast(py::module_& m);
void bind_mrf(py::module_& m);

}  // namespace gpuseq::bindings

PYBIND11_MODULE(_core, m) {
  using namespace gpuseq;
  m.doc() = "gpuseq compiled core (C++ CPU filters, optional CUDA backend)";
  m.attr("alphabet_symbols") = std::string(kAminoSymbols);
  m.attr("background_frequencies") =
      std::vector<float>(kBackgroundFrequencies.begin(), kBackgroundFrequencies.end());

#ifdef GPUSEQ_WITH_CUDA
  m.attr("built_with_cuda") = true;
  m.def("cuda_devices", [] {
    std::vector<py::dict> out;
    for (const auto& d : cuda::list_devices()) {
      py::dict info;
      info["index"] = d.index;
      info["name"] = d.name;
      info["compute_capability"] = py::make_tuple(d.major, d.minor);
      info["total_memory"] = d.total_memory;
      info["multiprocessors"] = d.multiprocessors;
      out.push_back(info);
    }
    return out;
  }, "CUDA devices this process can use (empty without a driver or GPU).");
  // The first CUDA call loads and starts the driver (~0.1 s): other threads (the models'
  // reader) go on meanwhile.
  m.def("cuda_runtime_status", &cuda::runtime_status, py::call_guard<py::gil_scoped_release>(),
        "Why no CUDA device is usable ('' when one is).");
  m.def("cuda_initialize", &cuda::initialize_context, py::arg("host_wait") = "auto",
        py::call_guard<py::gil_scoped_release>(),
        "Create the CUDA context now (run on a thread during start-up): '' or the reason it "
        "failed. host_wait: how host threads wait for the GPU (auto, spin, yield or block).");
#else
  m.attr("built_with_cuda") = false;
  m.def("cuda_devices", [] { return std::vector<py::dict>{}; });
  m.def("cuda_runtime_status", [] { return std::string("gpuseq was built without CUDA"); });
  m.def("cuda_initialize", [](const std::string&) { return std::string("gpuseq was built without CUDA"); },
        py::arg("host_wait") = "auto");
#endif

  m.def("set_flush_denormals", &set_flush_denormals, py::arg("on"),
        "Flush-to-zero and denormals-are-zero for the calling thread (as hmmsearch runs).");
  m.def("flush_denormals_on", &flush_denormals_on,
        "Whether the calling thread flushes denormals to zero.");
  // A context manager: `with _core.flush_denormals():` runs its body as hmmsearch's threads
  // run (FTZ + DAZ) and gives the thread its previous mode back, also on an exception.
  py::class_<bindings::FlushDenormalsContext>(m, "flush_denormals",
      "Context manager: flush-to-zero and denormals-are-zero on the calling thread inside "
      "the block, its previous mode restored after it.")
      .def(py::init<>())
      .def("__enter__", [](bindings::FlushDenormalsContext& self) -> py::object {
        if (self.scope.has_value()) throw std::runtime_error("flush_denormals is not re-entrant");
        self.scope.emplace();
        return py::none();
      })
      .def("__exit__", [](bindings::FlushDenormalsContext& self, py::args) {
        self.scope.reset();
        return false;
      });

  bindings::bind_sequences(m);
  bindings::bind_hmm(m);
  bindings::bind_distance(m);
  bindings::bind_blast(m);
  bindings::bind_mrf(m);
}
