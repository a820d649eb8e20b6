// Run-time specialisation of the filter kernels (CUDAMPF compiled its kernels at run time with
// the stripe count Q as a constant): the kernel headers, embedded in the module at build time,
// compiled by NVRTC for the exact Q a model needs, with a disk cache of the results.
//
// Plain C++ with no CUDA headers, and libnvrtc is opened with dlopen at first use, never
// linked: the module imports on machines without NVRTC, and every build (CPU-only included)
// can compile the kernels, which is how tests check the embedded headers without a GPU.
// Loading the compiled code onto a device is gpu_filters.cu's job.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpuseq::cuda::hmm::rtc {

// Raised when NVRTC is missing or a compilation fails; the message says why (with the log).
class CompileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Where libnvrtc is looked for, in order (the first that loads and has every function wins):
//  1. $GPUSEQ_NVRTC_LIBRARY, a path or soname; when set, nothing else is tried (set it to a
//     file that does not exist to turn run-time compilation off);
//  2. the soname of the CUDA toolkit the module was built with (libnvrtc.so.13 for 13.x), then
//     libnvrtc.so, through the dynamic linker's search (LD_LIBRARY_PATH, ld.so.cache, ...);
//  3. the pip wheels' directories under each of `python_paths` (sys.path):
//     nvidia/cu13/lib (nvidia-cuda-nvrtc 13) and nvidia/cuda_nvrtc/lib (nvidia-cuda-nvrtc-cu12).
// The first call decides; later calls return its answer. True when NVRTC can be used.
bool load_nvrtc(const std::vector<std::string>& python_paths = {});

struct NvrtcInfo {
  bool available = false;
  std::string library;  // what was loaded
  int major = 0, minor = 0;
  std::string reason;  // why not, when not available
};
NvrtcInfo nvrtc_info();  // loads NVRTC if no call has yet

// The NVRTC name expression of a kernel template instance, e.g.
// "gpuseq::cuda::hmm::ssv_warp_kernel_s16<7>".
std::string kernel_name(const char* template_name, int stripes);
// The same for several template arguments, e.g. ssv_multi_kernel<16, 8, 25>.
std::string kernel_name(const char* template_name, const std::vector<int>& arguments);

struct CompiledKernels {
  std::string image;                 // CUBIN (arch sm_XY) or PTX (arch compute_XY)
  std::vector<std::string> lowered;  // the mangled name of each name expression, in order
};

// Compiles the embedded kernel headers for `arch` ("sm_90a", "sm_80", "compute_80") and
// instantiates every name expression; `options` are NVRTC options added to the usual ones
// (e.g. "--ptxas-options=--register-usage-level=0"). Throws CompileError.
CompiledKernels compile(const std::vector<std::string>& name_expressions, const std::string& arch,
                        const std::vector<std::string>& options = {});

// compile() through the disk cache: an entry per (device, arch, NVRTC version, source hash,
// options, name expressions) in cache_directory(); a missing, unreadable or corrupt entry is
// compiled again and rewritten (temp file + rename), and a cache that cannot be written is
// skipped.
CompiledKernels cached_compile(const std::vector<std::string>& name_expressions,
                               const std::string& arch, const std::string& device,
                               const std::vector<std::string>& options = {});

// $GPUSEQ_CACHE_DIR, else $XDG_CACHE_HOME/gpuseq/kernels, else ~/.cache/gpuseq/kernels ("" if
// none of them is set: no disk cache).
std::string cache_directory();

struct CacheStats {
  int64_t compiled = 0;     // NVRTC compilations
  int64_t disk_loads = 0;   // entries read back from the disk cache
  int64_t disk_rejected = 0;  // entries found unreadable or corrupt (then compiled again)
  int64_t disk_writes = 0;  // entries written
};
CacheStats cache_stats();

// FNV-1a hash of the embedded kernel sources (part of every cache key).
uint64_t source_hash();

}  // namespace gpuseq::cuda::hmm::rtc
