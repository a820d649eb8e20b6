// Wall-clock seconds between laps, for the stage times the searches report.
#pragma once

#include <chrono>

namespace gpuseq {

class Stopwatch {
 public:
  // Seconds since the last lap (or since construction).
  double lap() {
    const auto now = std::chrono::steady_clock::now();
    const double seconds = std::chrono::duration<double>(now - last_).count();
    last_ = now;
    return seconds;
  }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

}  // namespace gpuseq
