// C++ exceptions that the bindings turn into gpuseq.errors.* Python exceptions.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace gpuseq {

// Malformed input text. line is 1-based (0 if unknown); record is the sequence or model name
// being read when the problem was found (empty if none yet).
class FormatError : public std::runtime_error {
 public:
  FormatError(int64_t line, std::string record, const std::string& message)
      : std::runtime_error(message), line_(line), record_(std::move(record)) {}
  int64_t line() const { return line_; }
  const std::string& record() const { return record_; }

 private:
  int64_t line_;
  std::string record_;
};

// A sequence holds a character that is not an amino-acid symbol.
class AlphabetError : public FormatError {
 public:
  using FormatError::FormatError;
};

}  // namespace gpuseq
