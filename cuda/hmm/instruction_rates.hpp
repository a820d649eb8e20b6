// Measured issue rates of the instructions the filter kernels are made of (DPX 16x2 max/add,
// the 8-bit lane operations, lane shuffles, L1 loads): the H100's own figures beside the
// kernels' GCUPS in benchmarks/bench_hmm_filters.py, and what a kernel design is bounded by.
#pragma once

#include <string>
#include <vector>

namespace gpuseq::cuda::hmm {

struct InstructionRate {
  std::string name;        // e.g. "viaddmax_s16x2"
  double per_sm_clock;     // thread operations per SM per clock (32 = one warp instruction)
  double per_second;       // thread operations per second, the whole GPU
};

// Every measured operation, each timed over enough work to fill the GPU for ~10 ms.
std::vector<InstructionRate> measure_instruction_rates();

}  // namespace gpuseq::cuda::hmm
