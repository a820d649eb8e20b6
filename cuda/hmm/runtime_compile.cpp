#include "hmm/runtime_compile.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>

namespace gpuseq::cuda::hmm::rtc {

// The kernel headers, embedded at build time (CMakeLists.txt writes this table from
// cuda/hmm/*.cuh into embedded_kernel_sources.cpp).
struct EmbeddedSource {
  const char* name;  // as included: "hmm/msv.cuh"
  const char* text;
};
extern const EmbeddedSource kEmbeddedKernelSources[];
extern const int kEmbeddedKernelSourceCount;

namespace {

namespace fs = std::filesystem;

// NVRTC's C interface, declared here so that no NVRTC header is needed at build time
// (nvrtcResult is an enum, nvrtcProgram a pointer to an opaque struct).
using Program = struct NvrtcProgram*;
struct NvrtcApi {
  int (*version)(int*, int*);
  int (*create_program)(Program*, const char*, const char*, int, const char* const*,
                        const char* const*);
  int (*destroy_program)(Program*);
  int (*compile_program)(Program, int, const char* const*);
  int (*add_name_expression)(Program, const char*);
  int (*get_lowered_name)(Program, const char*, const char**);
  int (*get_log_size)(Program, size_t*);
  int (*get_log)(Program, char*);
  int (*get_cubin_size)(Program, size_t*);
  int (*get_cubin)(Program, char*);
  int (*get_ptx_size)(Program, size_t*);
  int (*get_ptx)(Program, char*);
  const char* (*error_string)(int);
};

std::mutex g_mutex;  // guards the loader state
bool g_tried = false;
NvrtcApi g_api{};
NvrtcInfo g_info;
std::atomic<int64_t> g_compiled{0}, g_disk_loads{0}, g_disk_rejected{0}, g_disk_writes{0};

template <class F>
bool find_symbol(void* handle, const char* name, F& out) {
  out = reinterpret_cast<F>(dlsym(handle, name));
  return out != nullptr;
}

// Every libnvrtc-builtins next to an explicitly placed libnvrtc, loaded first: libnvrtc opens
// it by soname, which the dynamic linker finds only on its search path otherwise (the pip
// wheels' directories are not on it).
void preload_builtins_beside(const std::string& path) {
  std::error_code ec;
  const fs::path dir = fs::path(path).parent_path();
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("libnvrtc-builtins.so.", 0) == 0)
      dlopen(entry.path().c_str(), RTLD_NOW | RTLD_GLOBAL);
  }
}

// Opens one candidate and finds every function; false (and `why`) if it cannot be used.
bool try_library(const std::string& candidate, std::string& why) {
  if (candidate.find('/') != std::string::npos) {
    std::error_code ec;
    if (!fs::exists(candidate, ec)) {
      why += candidate + ": no such file; ";
      return false;
    }
    preload_builtins_beside(candidate);
  }
  void* handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* err = dlerror();
    why += candidate + ": " + (err ? err : "cannot be opened") + "; ";
    return false;
  }
  NvrtcApi api{};
  const bool complete =
      find_symbol(handle, "nvrtcVersion", api.version) &&
      find_symbol(handle, "nvrtcCreateProgram", api.create_program) &&
      find_symbol(handle, "nvrtcDestroyProgram", api.destroy_program) &&
      find_symbol(handle, "nvrtcCompileProgram", api.compile_program) &&
      find_symbol(handle, "nvrtcAddNameExpression", api.add_name_expression) &&
      find_symbol(handle, "nvrtcGetLoweredName", api.get_lowered_name) &&
      find_symbol(handle, "nvrtcGetProgramLogSize", api.get_log_size) &&
      find_symbol(handle, "nvrtcGetProgramLog", api.get_log) &&
      find_symbol(handle, "nvrtcGetCUBINSize", api.get_cubin_size) &&
      find_symbol(handle, "nvrtcGetCUBIN", api.get_cubin) &&
      find_symbol(handle, "nvrtcGetPTXSize", api.get_ptx_size) &&
      find_symbol(handle, "nvrtcGetPTX", api.get_ptx) &&
      find_symbol(handle, "nvrtcGetErrorString", api.error_string);
  int major = 0, minor = 0;
  if (!complete || api.version(&major, &minor) != 0) {
    why += candidate + ": not a usable libnvrtc (CUDA 11.1 or later); ";
    dlclose(handle);
    return false;
  }
  g_api = api;  // the handle stays open for the life of the process
  g_info.available = true;
  g_info.library = candidate;
  g_info.major = major;
  g_info.minor = minor;
  g_info.reason.clear();
  return true;
}

std::vector<std::string> candidates(const std::vector<std::string>& python_paths) {
  if (const char* forced = std::getenv("GPUSEQ_NVRTC_LIBRARY"); forced && *forced)
    return {forced};
  std::vector<std::string> out;
#ifdef GPUSEQ_NVRTC_SONAME
  out.push_back(GPUSEQ_NVRTC_SONAME);  // the build's toolkit, e.g. libnvrtc.so.13
#endif
  for (const char* name : {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"}) out.push_back(name);
  for (const std::string& base : python_paths) {
    if (base.empty()) continue;
    out.push_back(base + "/nvidia/cu13/lib/libnvrtc.so.13");
    out.push_back(base + "/nvidia/cuda_nvrtc/lib/libnvrtc.so.12");
  }
  std::vector<std::string> unique;
  for (const std::string& c : out)
    if (std::find(unique.begin(), unique.end(), c) == unique.end()) unique.push_back(c);
  return unique;
}

bool load_locked(const std::vector<std::string>& python_paths) {
  if (g_tried) return g_info.available;
  g_tried = true;
  std::string why;
  for (const std::string& c : candidates(python_paths))
    if (try_library(c, why)) return true;
  g_info.reason = "no usable libnvrtc (" + why.substr(0, why.size() - 2) + ")";
  return false;
}

uint64_t fnv1a(const void* data, size_t size, uint64_t h = 1469598103934665603ull) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < size; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}
uint64_t fnv1a_string(const std::string& s, uint64_t h = 1469598103934665603ull) {
  return fnv1a(s.data(), s.size(), h);
}

std::string hex(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

std::vector<std::string> compile_options(const std::string& arch,
                                         const std::vector<std::string>& extra) {
  std::vector<std::string> options = {"--gpu-architecture=" + arch, "-std=c++17"};
  options.insert(options.end(), extra.begin(), extra.end());
  return options;
}

std::string program_log(Program prog) {
  size_t size = 0;
  if (g_api.get_log_size(prog, &size) != 0 || size <= 1) return "";
  std::string log(size, '\0');
  g_api.get_log(prog, log.data());
  log.resize(size - 1);
  return log;
}

// ---- disk cache entries: magic, then strings (key, image, lowered names) each as a 64-bit
// length and its bytes, then an FNV-1a checksum of everything before it. ----

constexpr char kMagic[8] = {'G', 'P', 'S', 'Q', 'K', 'R', 'N', '1'};

void put_u64(std::string& out, uint64_t v) { out.append(reinterpret_cast<const char*>(&v), 8); }

std::string encode_entry(const std::string& key, const CompiledKernels& k) {
  std::string out(kMagic, sizeof kMagic);
  put_u64(out, 2 + k.lowered.size());
  for (const std::string* s : {&key, &k.image}) {
    put_u64(out, s->size());
    out += *s;
  }
  for (const std::string& s : k.lowered) {
    put_u64(out, s.size());
    out += s;
  }
  put_u64(out, fnv1a_string(out));
  return out;
}

// False when the bytes are not a whole, intact entry for `key` with `names` kernels.
bool decode_entry(const std::string& bytes, const std::string& key, size_t names,
                  CompiledKernels& out) {
  if (bytes.size() < sizeof kMagic + 16 || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    return false;
  const size_t body = bytes.size() - 8;
  uint64_t checksum = 0;
  std::memcpy(&checksum, bytes.data() + body, 8);
  if (checksum != fnv1a(bytes.data(), body)) return false;
  size_t at = sizeof kMagic;
  auto get_u64 = [&](uint64_t& v) {
    if (body - at < 8) return false;
    std::memcpy(&v, bytes.data() + at, 8);
    at += 8;
    return true;
  };
  uint64_t count = 0;
  if (!get_u64(count) || count != 2 + names) return false;
  std::vector<std::string> strings;
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t size = 0;
    if (!get_u64(size) || body - at < size) return false;
    strings.emplace_back(bytes.data() + at, size);
    at += size;
  }
  if (at != body || strings[0] != key || strings[1].empty()) return false;
  out.image = std::move(strings[1]);
  out.lowered.assign(strings.begin() + 2, strings.end());
  return true;
}

bool read_file(const fs::path& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream buf;
  buf << in.rdbuf();
  if (in.bad()) return false;
  out = buf.str();
  return true;
}

// Written to a temp file in the same directory, then renamed over the entry: a reader sees the
// old entry, the new one or none, never a part (other processes may share the cache).
bool write_atomically(const fs::path& path, const std::string& bytes) {
  static std::atomic<int> serial{0};
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  const fs::path tmp = path.string() + ".tmp." + std::to_string(getpid()) + "." +
                       std::to_string(serial.fetch_add(1));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) {
      fs::remove(tmp, ec);
      return false;
    }
  }
  fs::rename(tmp, path, ec);
  if (ec) fs::remove(tmp, ec);
  return !ec;
}

// "gpuseq::cuda::hmm::ssv_warp_kernel_s16<7>" -> "ssv_warp_kernel_s16-7": a readable file name.
std::string short_name(const std::string& expression) {
  std::string base = expression.substr(expression.rfind("::") == std::string::npos
                                           ? 0
                                           : expression.rfind("::") + 2);
  std::string out;
  for (char c : base)
    out += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : (c == '<' ? '-' : '_');
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

}  // namespace

bool load_nvrtc(const std::vector<std::string>& python_paths) {
  std::lock_guard<std::mutex> lock(g_mutex);
  return load_locked(python_paths);
}

NvrtcInfo nvrtc_info() {
  std::lock_guard<std::mutex> lock(g_mutex);
  load_locked({});
  return g_info;
}

std::string kernel_name(const char* template_name, int stripes) {
  return kernel_name(template_name, std::vector<int>{stripes});
}

std::string kernel_name(const char* template_name, const std::vector<int>& arguments) {
  std::string out = std::string("gpuseq::cuda::hmm::") + template_name + "<";
  for (size_t i = 0; i < arguments.size(); ++i)
    out += (i ? ", " : "") + std::to_string(arguments[i]);
  return out + ">";
}

uint64_t source_hash() {
  uint64_t h = fnv1a_string("gpuseq kernel sources");
  for (int i = 0; i < kEmbeddedKernelSourceCount; ++i) {
    h = fnv1a_string(kEmbeddedKernelSources[i].name, h);
    h = fnv1a_string(kEmbeddedKernelSources[i].text, h);
  }
  return h;
}

CompiledKernels compile(const std::vector<std::string>& name_expressions, const std::string& arch,
                        const std::vector<std::string>& extra_options) {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (!load_locked({})) throw CompileError(g_info.reason);
  }
  // Not under the lock: NVRTC compiles several programs at once, one a thread (g_api is fixed
  // once loaded). The program includes every embedded header; the name expressions
  // instantiate the kernels.
  std::string source;
  std::vector<const char*> texts, names;
  for (int i = 0; i < kEmbeddedKernelSourceCount; ++i) {
    source += std::string("#include \"") + kEmbeddedKernelSources[i].name + "\"\n";
    texts.push_back(kEmbeddedKernelSources[i].text);
    names.push_back(kEmbeddedKernelSources[i].name);
  }
  Program prog = nullptr;
  int rc = g_api.create_program(&prog, source.c_str(), "gpuseq_filter_kernels.cu",
                                kEmbeddedKernelSourceCount, texts.data(), names.data());
  if (rc != 0)
    throw CompileError(std::string("nvrtcCreateProgram failed: ") + g_api.error_string(rc));
  struct Destroy {
    Program* p;
    ~Destroy() { g_api.destroy_program(p); }
  } destroy{&prog};
  for (const std::string& e : name_expressions) g_api.add_name_expression(prog, e.c_str());
  const std::vector<std::string> options = compile_options(arch, extra_options);
  std::vector<const char*> opts;
  for (const std::string& o : options) opts.push_back(o.c_str());
  rc = g_api.compile_program(prog, static_cast<int>(opts.size()), opts.data());
  if (rc != 0)
    throw CompileError("NVRTC could not compile the filter kernels for " + arch + " (" +
                       g_api.error_string(rc) + "):\n" + program_log(prog));
  ++g_compiled;
  CompiledKernels out;
  const bool cubin = arch.rfind("sm_", 0) == 0;
  size_t size = 0;
  rc = cubin ? g_api.get_cubin_size(prog, &size) : g_api.get_ptx_size(prog, &size);
  if (rc == 0 && size > 0) {
    out.image.resize(size);
    rc = cubin ? g_api.get_cubin(prog, out.image.data()) : g_api.get_ptx(prog, out.image.data());
  }
  if (rc != 0 || size == 0)
    throw CompileError(std::string("NVRTC returned no code for ") + arch);
  for (const std::string& e : name_expressions) {
    const char* lowered = nullptr;
    if (g_api.get_lowered_name(prog, e.c_str(), &lowered) != 0 || lowered == nullptr)
      throw CompileError("NVRTC did not instantiate " + e);
    out.lowered.emplace_back(lowered);
  }
  return out;
}

std::string cache_directory() {
  if (const char* dir = std::getenv("GPUSEQ_CACHE_DIR"); dir && *dir) return dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return std::string(xdg) + "/gpuseq/kernels";
  if (const char* home = std::getenv("HOME"); home && *home)
    return std::string(home) + "/.cache/gpuseq/kernels";
  return "";
}

CompiledKernels cached_compile(const std::vector<std::string>& name_expressions,
                               const std::string& arch, const std::string& device,
                               const std::vector<std::string>& extra_options) {
  const NvrtcInfo info = nvrtc_info();
  if (!info.available) throw CompileError(info.reason);
  std::string key = "device=" + device + "\narch=" + arch + "\nnvrtc=" +
                    std::to_string(info.major) + "." + std::to_string(info.minor) +
                    "\nsources=" + hex(source_hash()) + "\noptions=";
  for (const std::string& o : compile_options(arch, extra_options)) key += o + " ";
  key += "\nkernels=";
  for (const std::string& e : name_expressions) key += e + ";";

  const std::string dir = cache_directory();
  fs::path path;
  if (!dir.empty()) {
    path = fs::path(dir) / (short_name(name_expressions.empty() ? "" : name_expressions[0]) +
                            "-" + arch + "-" + hex(fnv1a_string(key)) + ".kernel");
    std::string bytes;
    std::error_code ec;
    if (fs::exists(path, ec)) {
      CompiledKernels cached;
      if (read_file(path, bytes) && decode_entry(bytes, key, name_expressions.size(), cached)) {
        ++g_disk_loads;
        return cached;
      }
      ++g_disk_rejected;  // unreadable or corrupt: compiled again and rewritten below
    }
  }
  CompiledKernels compiled = compile(name_expressions, arch, extra_options);
  if (!path.empty() && write_atomically(path, encode_entry(key, compiled))) ++g_disk_writes;
  return compiled;
}

CacheStats cache_stats() {
  return {g_compiled.load(), g_disk_loads.load(), g_disk_rejected.load(), g_disk_writes.load()};
}

}  // namespace gpuseq::cuda::hmm::rtc
