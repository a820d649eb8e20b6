// GPU all-pairs distances (the CUDA twins of cpp/distance), as the bindings see them: plain C++,
// no CUDA headers. Its name differs from the twins' because cpp/ and cuda/ are both on the
// include path (distance/engine.hpp is the CPU header). Defined in engine.cu (engines) and
// b1_gemm.cu (the tensor-core product and its measurements).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "distance/engine.hpp"

namespace gpuseq::cuda {

// engine.cu. kernel: "naive", "coalesced", "char4", "register", "shared" (Payne et al. 2010;
// no missing values) or "bitplane" (binary tensor cores, the default).
std::unique_ptr<distance::DistanceEngine> make_distance_engine(
    const std::string& kernel, const distance::DistanceProblem& problem);

// b1_gemm.cu. Sustained tera bit-operations per second (2 per AND+POPC bit pair) of the b1 mma.sync
// instruction on the current device, from a register-only loop.
double b1_mma_peak_tops(int iterations);

// The same from shared memory with wgmma (sm_90a builds on sm_90 devices; std::invalid_argument
// elsewhere).
double b1_wgmma_peak_tops(int iterations);

// Tiling variants of the tensor-core product, and the device seconds of one rows x cols x
// k_bits product with a variant ('' for the default), for choosing the default by measurement.
std::vector<std::string> b1_gemm_variants();
double b1_gemm_seconds(const std::string& variant, int64_t rows, int64_t cols, int64_t k_bits,
                       int repeats);

// C[i][j] = popcount(a_i AND b_j) of two bit matrices (rows of words64 64-bit words, a
// multiple of 16) with a variant ('' for the default): each variant checked bit for bit.
std::vector<int32_t> b1_gemm_product(const std::string& variant, const uint64_t* a,
                                     int64_t a_rows, const uint64_t* b, int64_t b_rows,
                                     int64_t words64);

}  // namespace gpuseq::cuda
