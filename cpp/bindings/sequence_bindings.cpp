// Sequence input: the FASTA reader and text digitization.
#include <pybind11/pybind11.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include "bindings/numpy_util.hpp"
#include "common/errors.hpp"
#include "common/fasta.hpp"

namespace gpuseq::bindings {

namespace {

py::dict chunk_to_dict(SequenceChunk&& c) {
  py::dict d;
  d["residues"] = to_numpy(std::move(c.residues));
  d["offsets"] = to_numpy(std::move(c.offsets));
  d["names"] = to_bytes(std::move(c.names));
  d["name_offsets"] = to_numpy(std::move(c.name_offsets));
  d["descriptions"] = to_bytes(std::move(c.descriptions));
  d["description_offsets"] = to_numpy(std::move(c.description_offsets));
  return d;
}

// Runs f with the GIL released, turning reader errors into gpuseq.errors exceptions.
template <class F>
auto with_errors(const std::string& path, F&& f) {
  try {
    py::gil_scoped_release release;
    return f();
  } catch (const AlphabetError& e) {
    raise_gpuseq_error("AlphabetError", path, e.line(), e.what(), e.record());
  } catch (const FormatError& e) {
    raise_gpuseq_error("FormatError", path, e.line(), e.what(), e.record());
  } catch (const std::runtime_error& e) {
    raise_gpuseq_error("InputError", path, 0, e.what(), "");
  }
}

// The reader keeps its position and buffers between calls and read_chunk runs without the GIL,
// so calls from several Python threads are serialized here: each gets whole, distinct chunks.
struct LockedFastaReader {
  std::unique_ptr<FastaReader> reader;
  std::mutex mutex;
};

}  // namespace

void bind_sequences(py::module_& m) {
  py::class_<LockedFastaReader>(m, "FastaReader",
                                "Streaming FASTA reader (plain or gzip) with Easel's rules; parses "
                                "blocks of records on several threads. Thread-safe: concurrent "
                                "read_chunk calls are serialized and each returns distinct "
                                "records.")
      .def(py::init([](const std::string& path, int threads, bool line_start_headers) {
             auto self = std::make_unique<LockedFastaReader>();
             self->reader = with_errors(path, [&] {
               return std::make_unique<FastaReader>(path, threads, line_start_headers);
             });
             return self;
           }),
           py::arg("path"), py::arg("threads") = 1, py::arg("line_start_headers") = false,
           "line_start_headers: blastp's rule, a '>' inside a line is an error (Easel's: it "
           "starts a record).")
      .def(
          "read_chunk",
          [](LockedFastaReader& r, const std::string& path, long long block_bytes) -> py::object {
            SequenceChunk chunk;
            const bool got = with_errors(path, [&] {
              std::lock_guard<std::mutex> lock(r.mutex);  // taken without the GIL: no deadlock
              return r.reader->read_chunk(chunk, block_bytes);
            });
            if (!got) return py::none();
            return chunk_to_dict(std::move(chunk));
          },
          py::arg("path"), py::arg("block_bytes") = 64LL << 20,
          "Next block of whole records as a dict of arrays, or None at the end. path is only "
          "used in error messages.")
      .def(
          "first_text_char",
          [](LockedFastaReader& r, const std::string& path) {
            return with_errors(path, [&] {
              std::lock_guard<std::mutex> lock(r.mutex);
              return r.reader->first_text_char();
            });
          },
          py::arg("path"),
          "The input's first character that is not white space (its code), or -1 if none. "
          "path is only used in error messages.")
      .def(
          "read_raw",
          [](LockedFastaReader& r, const std::string& path, long long n) {
            std::string text(static_cast<size_t>(std::max(0LL, n)), '\0');
            const int64_t got = with_errors(path, [&] {
              std::lock_guard<std::mutex> lock(r.mutex);
              return r.reader->read_raw(text.data(), static_cast<int64_t>(text.size()));
            });
            text.resize(static_cast<size_t>(got));
            return py::bytes(text);
          },
          py::arg("path"), py::arg("n"),
          "Up to n bytes of the input not yet parsed, as read (gzip decompressed); b'' at its "
          "end. Once called, read_chunk must not be.");

  m.def(
      "parse_fasta",
      [](py::bytes text, int threads, const std::string& source) {
        std::string_view view = text;
        SequenceChunk chunk = with_errors(source, [&] {
          return parse_fasta(view.data(), static_cast<int64_t>(view.size()), threads);
        });
        return chunk_to_dict(std::move(chunk));
      },
      py::arg("text"), py::arg("threads") = 1, py::arg("source") = "<text>",
      "Parse FASTA text held in memory.");

  m.def(
      "digitize",
      [](py::bytes text, const std::string& record, const std::string& source) {
        std::string_view view = text;
        std::vector<uint8_t> codes;
        try {
          digitize_fasta_text(view.data(), static_cast<int64_t>(view.size()), record, codes);
        } catch (const AlphabetError& e) {
          raise_gpuseq_error("AlphabetError", source, 0, e.what(), e.record());
        }
        return to_numpy(std::move(codes));
      },
      py::arg("text"), py::arg("record") = "", py::arg("source") = "<sequence>",
      "Digitize one amino-acid sequence (Easel FASTA rules) to alphabet codes.");
}

}  // namespace gpuseq::bindings
