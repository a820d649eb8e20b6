// GPU all-pairs distance engines (the CUDA twins of cpp/distance). Plain C++ interface.
#pragma once

#include <memory>
#include <string>

#include "distance/engine.hpp"

namespace gpuseq::cuda {

// kernel: "naive", "coalesced", "char4", "register", "shared" (Payne et al. 2010; no missing
// values) or "bitplane" (binary tensor cores, the default).
std::unique_ptr<distance::DistanceEngine> make_distance_engine(
    const std::string& kernel, const distance::DistanceProblem& problem);

// Sustained tera bit-operations per second (2 per AND+POPC bit pair) of the b1 mma.sync
// instruction on the current device, from a register-only loop.
double b1_mma_peak_tops(int iterations);

}  // namespace gpuseq::cuda
