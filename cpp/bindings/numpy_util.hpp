// Glue between std::vector and numpy without copies.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

namespace gpuseq::bindings {

namespace py = pybind11;

// Moves a vector (any allocator) into a 1-D numpy array that owns it.
template <class T, class A>
py::array_t<T> to_numpy(std::vector<T, A>&& v) {
  auto* owner = new std::vector<T, A>(std::move(v));
  py::capsule free_owner(owner, [](void* p) { delete static_cast<std::vector<T, A>*>(p); });
  return py::array_t<T>({static_cast<py::ssize_t>(owner->size())}, {sizeof(T)}, owner->data(),
                        free_owner);
}

inline py::bytes to_bytes(std::string&& s) { return py::bytes(s); }

// A C-contiguous view of a numpy argument of the given dtype (no copy when it already is one).
template <class T>
using CArray = py::array_t<T, py::array::c_style | py::array::forcecast>;

// Raises gpuseq.errors.<name>(path, line, message, record) in Python.
[[noreturn]] void raise_gpuseq_error(const char* name, const std::string& path, long long line,
                                     const std::string& message, const std::string& record);

}  // namespace gpuseq::bindings
