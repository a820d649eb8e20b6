// Profile HMM search: profiles, per-sequence filter scores, and the filter cascade.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <stdexcept>
#include <string>

#include "bindings/numpy_util.hpp"
#include "common/parallel.hpp"
#include "hmm/bias_filter.hpp"
#include "hmm/cascade.hpp"
#include "hmm/filters.hpp"
#include "hmm/forward_bound.hpp"
#include "hmm/profile.hpp"
#include "hmm/runtime_compile.hpp"
#include "hmm/sequence_blocks.hpp"

#ifdef GPUSEQ_WITH_CUDA
#include "hmm/gpu_filters.hpp"
#include "hmm/instruction_rates.hpp"
#endif

namespace gpuseq::bindings {

using hmm::SearchProfile;

namespace {

// Borrowed batch view of (residues, offsets) numpy arrays; checks bounds once.
struct BatchArgs {
  CArray<uint8_t> residues;
  CArray<int64_t> offsets;
  SequenceBatch batch() const {
    if (offsets.ndim() != 1 || offsets.shape(0) < 1)
      throw std::invalid_argument("offsets must be a 1-D array of count + 1 entries");
    const int64_t* off = offsets.data();
    const int64_t count = offsets.shape(0) - 1;
    for (int64_t i = 0; i < count; ++i)
      if (off[i] < 0 || off[i + 1] < off[i] || off[i + 1] > residues.size())
        throw std::invalid_argument("offsets are not increasing within the residue array");
    // Codes index the score tables: check them all, by vectorized max reductions on all
    // threads (500 million residues of an mmapped database took 0.06-0.1 s on one thread,
    // its pages' first touch included).
    const uint8_t* res = residues.data();
    std::atomic<bool> out_of_range{false};
    parallel_for_blocks(residues.size(), int64_t{1} << 22, default_thread_count(),
                        [&](int64_t begin, int64_t end, int) {
                          if (*std::max_element(res + begin, res + end) >= kAminoKp)
                            out_of_range = true;
                        });
    if (out_of_range) throw std::invalid_argument("residue code out of range (0..28)");
    return {res, off, count};
  }
};

const hmm::FilterKernels& kernels_by_name(const std::string& isa) {
  if (isa == "auto") return hmm::cpu_filter_kernels();
  if (isa == "baseline") return hmm::baseline_filter_kernels();
  if (isa == "portable") return hmm::portable_filter_kernels();
#ifdef GPUSEQ_HAVE_AVX2_KERNELS
  if (isa == "avx2") {
    if (!__builtin_cpu_supports("avx2")) throw std::invalid_argument("this CPU has no AVX2");
    return hmm::avx2_filter_kernels();
  }
#endif
  throw std::invalid_argument("unknown or unavailable kernel set '" + isa + "'");
}

// Computes one float score per target in parallel; f(dsq, L, workspace) -> float. Empty
// targets get NaN.
template <class F>
py::array_t<float> per_target_scores(const BatchArgs& args, int threads, F&& f) {
  const SequenceBatch b = args.batch();
  std::vector<float> out(static_cast<size_t>(b.count), std::nanf(""));
  {
    py::gil_scoped_release release;
    const int nthreads = threads > 0 ? threads : default_thread_count();
    std::vector<hmm::FilterWorkspace> ws(static_cast<size_t>(nthreads));
    parallel_for_blocks(b.count, 16, nthreads, [&](int64_t begin, int64_t end, int worker) {
      for (int64_t i = begin; i < end; ++i)
        if (b.length(i) > 0) out[i] = f(b.sequence(i), b.length(i), ws[worker]);
    });
  }
  return to_numpy(std::move(out));
}

template <class T>
py::array_t<T> rows_by_node(const std::vector<T>& table, int rows, int stride, int M) {
  py::array_t<T> out({rows, M});
  auto o = out.template mutable_unchecked<2>();
  for (int x = 0; x < rows; ++x)
    for (int k = 1; k <= M; ++k) o(x, k - 1) = table[static_cast<size_t>(x) * stride + k - 1];
  return out;
}

py::dict cascade_dict(hmm::CascadeResult&& r) {
  py::dict d;
  d["stage"] = to_numpy(std::move(r.stage));
  d["msv_score"] = to_numpy(std::move(r.msv_score));
  d["bias_score"] = to_numpy(std::move(r.bias_score));
  d["viterbi_score"] = to_numpy(std::move(r.viterbi_score));
  d["n_past_msv"] = r.n_past_msv;
  d["n_past_bias"] = r.n_past_bias;
  d["n_past_vit"] = r.n_past_viterbi;
  if (!r.downstream.empty()) d["downstream"] = to_numpy(std::move(r.downstream));
  return d;
}

hmm::CascadeOptions cascade_options(double F1, double F2, bool bias_filter, int threads) {
  hmm::CascadeOptions o;
  o.F1 = F1;
  o.F2 = F2;
  o.bias_filter = bias_filter;
  o.threads = threads > 0 ? threads : default_thread_count();
  return o;
}

// libnvrtc is looked for on sys.path too (the pip wheels): the first load decides.
bool load_nvrtc() {
  std::vector<std::string> paths;
  for (const py::handle& p : py::module_::import("sys").attr("path"))
    if (py::isinstance<py::str>(p)) paths.push_back(p.cast<std::string>());
  return cuda::hmm::rtc::load_nvrtc(paths);
}

void bind_runtime_compile(py::module_& m) {
  namespace rtc = cuda::hmm::rtc;
  m.def(
      "nvrtc_info",
      [] {
        load_nvrtc();
        const rtc::NvrtcInfo info = rtc::nvrtc_info();
        py::dict d;
        d["available"] = info.available;
        d["library"] = info.library;
        d["version"] = info.available ? py::object(py::make_tuple(info.major, info.minor))
                                      : py::object(py::none());
        d["reason"] = info.reason;
        d["cache_dir"] = rtc::cache_directory();
        d["source_hash"] = rtc::source_hash();
        return d;
      },
      "The NVRTC the GPU filter kernels are compiled with at run time (loaded on first use).");
  m.def(
      "nvrtc_compile",
      [](const std::vector<std::string>& name_expressions, const std::string& arch, bool cache,
         const std::string& device, const std::vector<std::string>& options) {
        load_nvrtc();
        rtc::CompiledKernels k;
        {
          py::gil_scoped_release release;
          k = cache ? rtc::cached_compile(name_expressions, arch, device, options)
                    : rtc::compile(name_expressions, arch, options);
        }
        return py::make_tuple(py::bytes(k.image), k.lowered);
      },
      py::arg("name_expressions"), py::arg("arch"), py::arg("cache") = true,
      py::arg("device") = "", py::arg("options") = std::vector<std::string>{},
      "Compiles the embedded filter kernel sources with NVRTC (no GPU needed): (image, lowered "
      "names). arch 'sm_XY' gives a CUBIN, 'compute_XY' PTX; with cache, through the disk "
      "cache under the key `device`; `options`: NVRTC options added to the usual ones.");
  m.def(
      "nvrtc_cache_stats",
      [] {
        const rtc::CacheStats s = rtc::cache_stats();
        py::dict d;
        d["compiled"] = s.compiled;
        d["disk_loads"] = s.disk_loads;
        d["disk_rejected"] = s.disk_rejected;
        d["disk_writes"] = s.disk_writes;
        return d;
      },
      "Counts of this process's NVRTC compilations and kernel disk cache reads and writes.");
}

#ifdef GPUSEQ_WITH_CUDA
cuda::hmm::Filter gpu_filter(const std::string& which) {
  if (which == "ssv") return cuda::hmm::Filter::kSsv;
  if (which == "msv") return cuda::hmm::Filter::kMsv;
  if (which == "viterbi") return cuda::hmm::Filter::kViterbi;
  throw std::invalid_argument("unknown GPU filter '" + which + "' (ssv, msv, viterbi)");
}

// GPU targets with the arrays their host view points into (kept alive here, checked once).
struct GpuTargets {
  CArray<uint8_t> residues;
  CArray<int64_t> offsets;
  std::unique_ptr<cuda::hmm::DeviceTargets> device;
};

// The targets' device data; residues/offsets, when a caller passes them again, must be the
// arrays the targets were made from.
const cuda::hmm::DeviceTargets& device_targets(const GpuTargets& t, const py::object& residues,
                                               const py::object& offsets) {
  for (const auto& [given, own] : {std::pair<const py::object&, const py::array&>{residues, t.residues},
                                   {offsets, t.offsets}})
    if (!given.is_none() && !given.is(own) &&
        py::array::ensure(given).data() != own.data())
      throw std::invalid_argument("residues/offsets are not the arrays these GpuTargets hold");
  return *t.device;
}

void bind_gpu_hmm(py::module_& m) {
  namespace gh = cuda::hmm;
  py::class_<GpuTargets>(m, "GpuTargets",
                         "Digitized targets uploaded to the GPU once, for every model (the "
                         "arrays are kept and checked once).")
      .def(py::init([](CArray<uint8_t> residues, CArray<int64_t> offsets) {
             auto t = std::make_unique<GpuTargets>();
             t->residues = residues;
             t->offsets = offsets;
             const SequenceBatch b = BatchArgs{t->residues, t->offsets}.batch();
             py::gil_scoped_release release;
             t->device = std::make_unique<gh::DeviceTargets>(b);
             return t;
           }),
           py::arg("residues"), py::arg("offsets"))
      .def_property_readonly("count", [](const GpuTargets& t) { return t.device->count(); })
      .def_property_readonly("residue_count",
                             [](const GpuTargets& t) { return t.device->residues(); })
      .def_property_readonly(
          "ssv_block_sets", [](const GpuTargets& t) { return t.device->ssv_block_sets(); },
          "Sets of the S-lane SSV's sequence blocks on the GPU (one per S and warp count), "
          "made by the first SSV that needed them and kept for every model's.");
  py::class_<gh::DeviceProfile>(m, "GpuProfile",
                                "A model's filter tables striped for the GPU kernels.")
      .def(py::init([](const SearchProfile& profile, int msv_bits, const std::string& viterbi,
                       int sequences_per_warp, bool runtime_compiled,
                       int viterbi_targets_per_warp, int viterbi_warps_per_target,
                       int viterbi_systolic, int viterbi_by_launch) {
             gh::KernelOptions o;
             o.viterbi_systolic = viterbi_systolic;
             o.viterbi_by_launch = viterbi_by_launch;
             o.msv_bits = msv_bits;
             o.sequences_per_warp = sequences_per_warp;
             o.viterbi_targets_per_warp = viterbi_targets_per_warp;
             o.viterbi_warps_per_target = viterbi_warps_per_target;
             using V = gh::KernelOptions::Viterbi;
             // auto: the DPX-fused kernel where DPX is native (sm_90: 1.6-2.0x the warp
             // kernel's GCUPS, M = 150..2400, bench_hmm_filters.py), the warp kernel elsewhere.
             if (viterbi == "auto")
               o.viterbi = gh::default_msv_bits() == 16 ? V::kWarpFused : V::kWarpPerTarget;
             else if (viterbi == "warp")
               o.viterbi = V::kWarpPerTarget;
             else if (viterbi == "thread")
               o.viterbi = V::kThreadPerTarget;
             else if (viterbi == "warp_fused")
               o.viterbi = V::kWarpFused;
             else
               throw std::invalid_argument(
                   "viterbi must be 'auto', 'warp', 'warp_fused' or 'thread', not '" + viterbi +
                   "'");
             o.runtime_compiled = runtime_compiled;
             std::unique_ptr<gh::DeviceProfile> dp;
             {
               py::gil_scoped_release release;  // NVRTC may compile for seconds
               dp = std::make_unique<gh::DeviceProfile>(profile, o);
             }
             // One notice per process when NVRTC is missing or failed (static kernels used).
             if (runtime_compiled) {
               const std::string notice = gh::take_runtime_compilation_notice();
               if (!notice.empty() && PyErr_WarnEx(PyExc_RuntimeWarning, notice.c_str(), 1) < 0)
                 throw py::error_already_set();
             }
             return dp;
           }),
           py::keep_alive<1, 2>(), py::arg("profile"), py::arg("msv_bits") = 0,
           py::arg("viterbi") = "auto", py::arg("sequences_per_warp") = 0,
           py::arg("runtime_compiled") = true, py::arg("viterbi_targets_per_warp") = 0,
           py::arg("viterbi_warps_per_target") = 0, py::arg("viterbi_systolic") = 0,
           py::arg("viterbi_by_launch") = 0,
           "msv_bits: SSV/MSV lanes of 8 bits (the paper's) or 16 (DPX); 0: this device's "
           "faster one. viterbi: 'warp' (a warp per target, CUDAMPF), 'thread' (a thread per "
           "target, Walters et al. 2009), 'warp_fused' (a warp per target, saturating adds "
           "fused into DPX instructions) or 'auto' (warp_fused where DPX is native). "
           "runtime_compiled: kernels compiled by NVRTC for the "
           "model's exact stripe count where the static set lacks it (else, or without NVRTC, "
           "the static kernels with the count rounded up). sequences_per_warp: SSV/MSV targets "
           "a warp aligns at once (CUDAMPF++; 2 to 64 with 16-bit lanes, to 128 with bytes), 1: "
           "a warp per target, 0: by model length. viterbi_targets_per_warp: targets of the fused "
           "Viterbi kernel a warp aligns at once (1, 2 or 4, each on 32 / T threads), 0: by "
           "model length. viterbi_warps_per_target: 2 to 4 splits the fused Viterbi's model "
           "over that many warps of a block (NVRTC only), 1: one warp, 0: by model length. "
           "viterbi_systolic: the fused Viterbi's targets through the systolic pipeline first "
           "(models of at most 384 nodes; the fused kernel scores those it hands back), 1: on, "
           "-1: off, 0: the measured default (not on every launch; viterbi_by_launch picks it for the "
           "largest). viterbi_by_launch: with the targets per "
           "warp chosen by model length, four a warp on each launch whose residues reach 5,000 "
           "times its longest target's (M up to 256 with NVRTC, 128 without, where two are "
           "chosen), and the systolic pipeline from 30,000 times (viterbi_systolic 0, M up to "
           "384); 1: on, -1: off, 0: where either applies. Every choice gives the same "
           "scores.")
      .def_property_readonly(
          "runtime_compiled",
          [](const gh::DeviceProfile& dp) { return dp.options().runtime_compiled; })
      .def_property_readonly("msv_bits", &gh::DeviceProfile::msv_bits)
      .def_property_readonly("msv_stripes", &gh::DeviceProfile::msv_stripes)
      .def_property_readonly("viterbi_stripes", &gh::DeviceProfile::viterbi_stripes)
      .def_property_readonly("sequences_per_warp", &gh::DeviceProfile::sequences_per_warp)
      .def_property_readonly("viterbi_targets_per_warp",
                             &gh::DeviceProfile::viterbi_targets_per_warp)
      .def_property_readonly("viterbi_warps_per_target",
                             &gh::DeviceProfile::viterbi_warps_per_target)
      .def_property_readonly("viterbi_systolic", &gh::DeviceProfile::viterbi_systolic)
      .def_property_readonly(
          "viterbi_by_launch",
          &gh::DeviceProfile::viterbi_by_launch,
          "Whether the fused Viterbi's kernel is chosen for each launch (four targets a warp, "
          "or the systolic pipeline, on the launches with rows enough for them).")
      .def_property_readonly("viterbi_systolic_shape",
                             [](const gh::DeviceProfile& dp) {
                               return py::make_tuple(dp.viterbi_systolic_lanes(),
                                                     dp.viterbi_systolic_nodes());
                             },
                             "(G, B): lanes a target pair and nodes a lane of the systolic "
                             "Viterbi pipeline ((0, 0): not used).")
      .def_property_readonly("viterbi_fast_min_move", &gh::DeviceProfile::viterbi_fast_min_move,
                             "The least N/C/J MOVE word of a target whose Viterbi rows the fused "
                             "kernel runs without floors (2**31 - 1: never).")
      .def_property_readonly("ssv_multi_stripes", &gh::DeviceProfile::ssv_multi_stripes,
                             "H of the S-lane SSV kernel (0 if sequences_per_warp is 1).")
      .def_property_readonly("msv_multi_stripes", &gh::DeviceProfile::msv_multi_stripes,
                             "H of the S-lane MSV kernel (0 if sequences_per_warp is 1).")
      .def_property("ssv_multi", &gh::DeviceProfile::ssv_multi, &gh::DeviceProfile::set_ssv_multi,
                    "The SSV too on the S-lane kernels (True when sequences_per_warp was "
                    "given); a search sets it for models that share S (the sequence blocks "
                    "are planned once per chunk and S).")
      .def_property("ssv_blocks_background", &gh::DeviceProfile::ssv_blocks_background,
                    &gh::DeviceProfile::set_ssv_blocks_background,
                    "With ssv_multi: where the targets' sequence blocks are not made yet, "
                    "plan them on a host thread and run this SSV a warp per target meanwhile "
                    "(same scores), instead of waiting for them (False, the default).");
  m.def("gpu_choose_viterbi_targets_per_warp", &gh::choose_viterbi_targets_per_warp, py::arg("M"),
        py::arg("runtime_compiled") = true,
        "Targets per warp of the fused Viterbi kernel for a model of M nodes (runtime_compiled: "
        "whether its profile may use kernels compiled by NVRTC, where NVRTC works).");
  m.def("gpu_viterbi_four_targets_by_launch", &gh::viterbi_four_targets_by_launch, py::arg("M"),
        py::arg("runtime_compiled") = true,
        "Whether a profile of two fused Viterbi targets a warp by model length runs four on the "
        "launches with rows enough for them.");
  m.def("gpu_last_viterbi_kernel", &gh::last_viterbi_kernel,
        "The Viterbi kernel of this thread's last launch: 'fused/T1', 'fused/T2', 'fused/T4', "
        "'split/W2' to 'split/W4', 'systolic', 'warp' or 'thread'.");
  m.def("gpu_viterbi_by_launch_rows", &gh::set_viterbi_by_launch_rows, py::arg("four"),
        py::arg("pipeline"),
        "For tests and measurements: viterbi_by_launch runs four targets a warp, and the "
        "systolic pipeline, from these many times a launch's longest target's residues; 0 "
        "restores the measured default (5,000 and 30,000).");
  m.def("gpu_choose_viterbi_warps_per_target", &gh::choose_viterbi_warps_per_target,
        py::arg("M"), py::arg("runtime_compiled") = true,
        "Warps per target of the fused Viterbi kernel for a model of M nodes (1: one warp).");
  m.def("gpu_choose_sequences_per_warp", &gh::choose_sequences_per_warp, py::arg("M"),
        py::arg("msv_bits") = 16,
        "Targets per warp of the S-lane SSV/MSV kernels for a model of M nodes (1: a warp per "
        "target).");
  load_nvrtc();  // decides the limit below: the NVRTC kernels' or the static ones'
  m.attr("gpu_max_model_length") = gh::max_model_length();
  m.attr("gpu_static_max_model_length") = gh::max_model_length(false);
  m.def("gpu_run_time_msv_stripes", &gh::run_time_msv_stripes, py::arg("msv_bits"),
        py::arg("exact"),
        "SSV/MSV stripes of an NVRTC-compiled model needing `exact`: the count, or the next one "
        "up where the SSV warp kernel is measured slow at it.");
  m.def("gpu_run_time_multi_stripes", &gh::run_time_multi_stripes, py::arg("msv_bits"),
        py::arg("S"), py::arg("exact"), py::arg("msv") = false,
        "S-lane stripes H of an NVRTC-compiled model needing `exact`, for the SSV or (msv) the "
        "MSV kernel: the count, or the next one up where that filter's kernel is measured slow "
        "at it.");
  m.def("gpu_clear_runtime_kernels", &gh::clear_runtime_kernels,
        "Forget the kernels loaded at run time (profiles keep theirs): the next profile reads "
        "them from the disk cache. For tests.");
  m.def(
      "gpu_instruction_rates",
      [] {
        std::vector<gh::InstructionRate> rates;
        {
          py::gil_scoped_release release;
          rates = gh::measure_instruction_rates();
        }
        py::list out;
        for (const auto& r : rates)
          out.append(py::dict(py::arg("name") = r.name, py::arg("per_sm_clock") = r.per_sm_clock,
                              py::arg("per_second") = r.per_second));
        return out;
      },
      "Measured issue rates of the filter kernels' instructions on this GPU (DPX 16x2 max/add, "
      "byte-lane operations, shuffles, L1 loads): thread operations per SM per clock (32: a "
      "warp instruction each clock) and per second.");
  m.def(
      "gpu_allocation_limit_for_tests",
      [](size_t bytes) { gh::set_allocation_limit_for_tests(bytes); },
      py::arg("bytes"),
      "Testing hook: device allocations larger than `bytes` fail as on a full device (0: off).");
  m.def(
      "gpu_fail_allocation_for_tests", [](int64_t n) { gh::fail_allocation_for_tests(n); },
      py::arg("n"),
      "Testing hook: the n-th device allocation from now fails as on a full device (0: none).");
  m.def("gpu_thread_stream_idle_for_tests", &gh::thread_stream_idle_for_tests,
        "Testing hook: whether the calling thread's CUDA stream has no work queued or running.");
  m.def(
      "gpu_warp_tables_in_shared", [](bool on) { gh::set_warp_tables_in_shared(on); },
      py::arg("on"),
      "Testing and benchmark hook: whether the 16-bit SSV/MSV warp kernels of long models "
      "(25 stripes and more) read their table from shared memory where it fits (the default) "
      "or from L1.");
  m.def(
      "gpu_warp_kernels_claim_targets", [](bool on) { gh::set_warp_kernels_claim_targets(on); },
      py::arg("on"),
      "Benchmark hook: whether the warps of the SSV/MSV warp kernels claim their next target "
      "from a counter (the default) or take every warps-th target (CUDAMPF's static rule).");
  m.def(
      "gpu_warp_stripes_past_slow", [](bool on) { gh::set_warp_stripes_past_slow(on); },
      py::arg("on"),
      "Benchmark hook: whether profiles built after it whose 16-bit SSV/MSV warp or S-lane "
      "kernels would run at one of the measured slow stripe counts take the next count up (the "
      "default) or the exact one.");
  m.def(
      "gpu_viterbi_rows_without_floors", [](bool on) { gh::set_viterbi_rows_without_floors(on); },
      py::arg("on"),
      "Testing and benchmark hook: whether the fused Viterbi kernel runs the rows that may go "
      "without floors so (the default) or keeps the floors in every row.");
  m.def(
      "gpu_viterbi_systolic_counts",
      [] {
        const gh::ViterbiSystolicCounts c = gh::last_viterbi_systolic_counts();
        py::dict d;
        d["piped"] = c.piped;
        d["handed_back"] = c.handed_back;
        d["piped_seconds"] = c.piped_seconds;
        d["handed_back_seconds"] = c.handed_back_seconds;
        return d;
      },
      "Testing and benchmark hook: this thread's last systolic Viterbi run: targets the "
      "pipeline scored (piped), targets it handed to the fused kernel (handed_back), and, "
      "of a timed run, each kernel's median seconds.");
  m.def(
      "gpu_filter_scores",
      [](const gh::DeviceProfile& dp, const GpuTargets& t, const std::string& which,
         py::object residues, py::object offsets) {
        const gh::DeviceTargets& dt = device_targets(t, residues, offsets);
        const gh::Filter f = gpu_filter(which);
        std::vector<float> out;
        {
          py::gil_scoped_release release;
          out = gh::filter_scores(dp, dt, f);
        }
        return to_numpy(std::move(out));
      },
      py::arg("profile"), py::arg("targets"), py::arg("which"), py::arg("residues") = py::none(),
      py::arg("offsets") = py::none(),
      "filter_scores on the GPU: the same values bit for bit. residues/offsets (optional): the arrays "
      "`targets` was made from.");
  m.def(
      "gpu_filter_kernel_seconds",
      [](const gh::DeviceProfile& dp, const GpuTargets& t, const std::string& which,
         py::object residues, py::object offsets, int repeats) {
        const gh::DeviceTargets& dt = device_targets(t, residues, offsets);
        const gh::Filter f = gpu_filter(which);
        py::gil_scoped_release release;
        return gh::kernel_seconds(dp, dt, f, repeats);
      },
      py::arg("profile"), py::arg("targets"), py::arg("which"), py::arg("residues") = py::none(),
      py::arg("offsets") = py::none(), py::arg("repeats") = 5,
      "Median seconds of one launch of a filter kernel over every non-empty target (msv: the "
      "full MSV recurrence on all of them).");
  m.def(
      "gpu_run_cascade",
      [](const gh::DeviceProfile& dp, const GpuTargets& t, py::object residues,
         py::object offsets, double F1, double F2, bool bias_filter, int threads, double F3,
         bool all_scores) {
        const gh::DeviceTargets& dt = device_targets(t, residues, offsets);
        hmm::CascadeOptions o = cascade_options(F1, F2, bias_filter, threads);
        o.F3 = F3;
        hmm::CascadeResult r;
        gh::CascadeSeconds seconds;
        {
          py::gil_scoped_release release;
          r = gh::run_cascade(dp, dt, o, &seconds, all_scores);
        }
        std::vector<int32_t> survivors = std::move(r.survivors);
        py::dict d = cascade_dict(std::move(r));
        if (!all_scores)
          for (const char* key : {"msv_score", "bias_score", "viterbi_score"}) d.attr("pop")(key);
        d["survivors"] = to_numpy(std::move(survivors));
        d["forward_bound"] = F3 < 1.0;
        d["seconds"] =
            py::dict(py::arg("msv") = seconds.msv, py::arg("decisions") = seconds.decisions,
                     py::arg("viterbi") = seconds.viterbi, py::arg("forward") = seconds.forward,
                     py::arg("bias") = seconds.bias, py::arg("ssv_kernel") = seconds.ssv_kernel,
                     py::arg("setup") = seconds.setup, py::arg("ssv_wait") = seconds.ssv_wait);
        return d;
      },
      py::arg("profile"), py::arg("targets"), py::arg("residues") = py::none(),
      py::arg("offsets") = py::none(),
      py::arg("F1") = 0.02, py::arg("F2") = 1e-3, py::arg("bias_filter") = true,
      py::arg("threads") = 0, py::arg("F3") = 1.0, py::arg("all_scores") = true,
      "run_cascade with the filters on the GPU (gpu_filters.hpp). 'survivors': the targets "
      "that go downstream, ascending. all_scores false: no score arrays (the SSV's rejections "
      "are not scored on the host). With F3 < 1, the survivors' "
      "Forward scores too (forward_bound.cuh): 'downstream' flags those that may pass HMMER's "
      "Forward test (the others cannot; every count stays HMMER's).");
  m.def(
      "gpu_bias_filter_scores",
      [](const gh::DeviceProfile& dp, const GpuTargets& t, py::object residues,
         py::object offsets, int threads) {
        const gh::DeviceTargets& dt = device_targets(t, residues, offsets);
        std::vector<float> out;
        int64_t on_host = 0;
        {
          py::gil_scoped_release release;
          out = gh::bias_filter_scores(dp, dt, dt.non_empty(), std::max(1, threads), &on_host);
        }
        std::vector<float> all(static_cast<size_t>(dt.count()), std::nanf(""));
        for (size_t j = 0; j < out.size(); ++j) all[dt.non_empty()[j]] = out[j];
        return py::make_tuple(to_numpy(std::move(all)), on_host);
      },
      py::arg("profile"), py::arg("targets"), py::arg("residues") = py::none(),
      py::arg("offsets") = py::none(), py::arg("threads") = 1,
      "Bias-filter scores of every non-empty target on the GPU (NaN: empty), bit-equal to the "
      "CPU's, and how many the host computed (longer than the GPU takes, or a log the GPU "
      "could not round for sure).");
  m.def(
      "gpu_forward_scores",
      [](const gh::DeviceProfile& dp, const GpuTargets& t, bool rows_in_registers) {
        const gh::DeviceTargets& dt = device_targets(t, py::none(), py::none());
        std::vector<int32_t> ids;
        for (int64_t i = 0; i < dt.count(); ++i)
          if (dt.host().length(i) > 0) ids.push_back(static_cast<int32_t>(i));
        std::vector<double> out(static_cast<size_t>(dt.count()), std::nan(""));
        {
          py::gil_scoped_release release;
          const std::vector<double> fwd = gh::forward_scores(dp, dt, ids, rows_in_registers);
          for (size_t w = 0; w < ids.size(); ++w) out[ids[w]] = fwd[w];
        }
        return to_numpy(std::move(out));
      },
      py::arg("profile"), py::arg("targets"), py::arg("rows_in_registers") = true,
      "forward_scores on the GPU (a thread block per target): the same values bit for bit. "
      "rows_in_registers: each lane's nodes in registers where the model allows it (models up to "
      "1,280 nodes), else the row in global scratch.");
}
#endif

}  // namespace

void bind_hmm(py::module_& m) {
  py::class_<SearchProfile>(m, "SearchProfile",
                            "A model configured for hmmsearch (local multihit) with the MSV, "
                            "Viterbi-filter and bias-filter tables HMMER derives from it.")
      .def(py::init([](const std::string& name, CArray<float> match_emissions,
                       CArray<float> transitions, CArray<float> composition,
                       std::vector<float> evalue_parameters) {
             if (match_emissions.ndim() != 2 || match_emissions.shape(1) != kAminoK)
               throw std::invalid_argument("match_emissions must be (M+1) x 20");
             const int M = static_cast<int>(match_emissions.shape(0)) - 1;
             if (M < 1) throw std::invalid_argument("model has no nodes");
             if (transitions.ndim() != 2 || transitions.shape(0) != M + 1 ||
                 transitions.shape(1) != hmm::kNumTransitions)
               throw std::invalid_argument("transitions must be (M+1) x 7");
             if (composition.size() != kAminoK)
               throw std::invalid_argument("composition must have 20 entries");
             if (evalue_parameters.size() != 6)
               throw std::invalid_argument("evalue_parameters must have 6 entries");
             hmm::HmmProbabilities p;
             p.M = M;
             p.match_emissions = match_emissions.data();
             p.transitions = transitions.data();
             p.composition = composition.data();
             std::copy(evalue_parameters.begin(), evalue_parameters.end(),
                       p.evalue_parameters.begin());
             return hmm::make_search_profile(p, name);
           }),
           py::arg("name"), py::arg("match_emissions"), py::arg("transitions"),
           py::arg("composition"), py::arg("evalue_parameters"))
      .def_readonly("name", &SearchProfile::name)
      .def_readonly("M", &SearchProfile::M)
      .def_property_readonly("evalue_parameters",
                             [](const SearchProfile& p) {
                               return std::vector<float>(p.evalue_parameters.begin(),
                                                         p.evalue_parameters.end());
                             })
      // MSV/SSV byte tables (unstriped: row = residue code, column = node k - 1).
      .def_property_readonly("msv_costs",
                             [](const SearchProfile& p) {
                               return rows_by_node(p.msv.costs, kAminoKp, p.msv.stride, p.M);
                             })
      .def_property_readonly("bias_b", [](const SearchProfile& p) { return p.msv.bias; })
      .def_property_readonly("tbm", [](const SearchProfile& p) { return p.msv.tbm; })
      .def_property_readonly("tec", [](const SearchProfile& p) { return p.msv.tec; })
      .def_property_readonly_static("base_b", [](py::object) { return hmm::kBaseB; })
      .def_property_readonly_static("scale_b", [](py::object) { return hmm::kScaleB; })
      .def_static("tjb", &hmm::msv_tjb, py::arg("L"), "tjb_b for a target of length L")
      // Viterbi-filter word tables.
      .def_property_readonly("viterbi_emissions",
                             [](const SearchProfile& p) {
                               return rows_by_node(p.viterbi.emissions, kAminoKp, p.viterbi.stride,
                                                   p.M);
                             })
      .def_property_readonly(
          "viterbi_transitions",
          [](const SearchProfile& p) {
            // BM, MM, IM, DM into M_k; MD, MI, II, DD out of node k (HMMER's twv convention).
            const auto& v = p.viterbi;
            const int M = p.M;
            auto by_node = [&](const std::vector<int16_t>& t, int shift) {
              std::vector<int16_t> out(static_cast<size_t>(M));
              for (int k = 1; k <= M; ++k)  // out-of-node tables: nothing leaves node M
                out[k - 1] = k - 1 + shift < M ? t[k - 1 + shift] : hmm::kWordNegInf;
              return to_numpy(std::move(out));
            };
            py::dict d;
            d["BM"] = by_node(v.begin, 0);
            d["MM"] = by_node(v.mm, 0);
            d["IM"] = by_node(v.im, 0);
            d["DM"] = by_node(v.dm, 0);
            d["MD"] = by_node(v.md_into, 1);
            d["MI"] = by_node(v.mi, 0);
            d["II"] = by_node(v.ii, 0);
            d["DD"] = by_node(v.dd_into, 1);
            return d;
          })
      .def_property_readonly("ddbound_w", [](const SearchProfile& p) { return p.viterbi.ddbound; })
      .def_property_readonly("e_move_w", [](const SearchProfile& p) { return p.viterbi.e_move; })
      .def_property_readonly_static("base_w", [](py::object) { return hmm::kBaseW; })
      .def_property_readonly_static("scale_w", [](py::object) { return hmm::kScaleW; })
      .def_static("ncj_move_w", &hmm::viterbi_ncj_move, py::arg("L"));

  m.def(
      "filter_scores",
      [](const SearchProfile& p, const std::string& which, CArray<uint8_t> residues,
         CArray<int64_t> offsets, int threads, const std::string& isa) {
        BatchArgs args{residues, offsets};
        const hmm::FilterKernels& k = kernels_by_name(isa);
        if (which == "ssv")
          return per_target_scores(args, threads, [&](const uint8_t* s, int64_t L, auto& ws) {
            return hmm::ssv_filter(p.msv, s, L, ws, k);
          });
        if (which == "msv")
          return per_target_scores(args, threads, [&](const uint8_t* s, int64_t L, auto& ws) {
            return hmm::msv_filter(p.msv, s, L, ws, k);
          });
        if (which == "viterbi")
          return per_target_scores(args, threads, [&](const uint8_t* s, int64_t L, auto& ws) {
            return hmm::viterbi_filter(p.viterbi, s, L, ws, k);
          });
        if (which == "bias")
          return per_target_scores(args, threads, [&](const uint8_t* s, int64_t L, auto&) {
            return hmm::bias_filter_score(p.bias_filter, s, L);
          });
        if (which == "null1")
          return per_target_scores(args, threads,
                                   [&](const uint8_t*, int64_t L, auto&) { return hmm::null1_score(L); });
        throw std::invalid_argument("unknown filter '" + which +
                                    "' (ssv, msv, viterbi, bias, null1)");
      },
      py::arg("profile"), py::arg("which"), py::arg("residues"), py::arg("offsets"),
      py::arg("threads") = 0, py::arg("isa") = "auto",
      "Per-target score in nats of one filter, HMMER's values bit for bit (NaN: SSV could not "
      "decide, or empty target; inf: overflow).");

  m.def(
      "forward_scores",
      [](const SearchProfile& p, CArray<uint8_t> residues, CArray<int64_t> offsets, int threads) {
        const SequenceBatch b = BatchArgs{residues, offsets}.batch();
        std::vector<double> out(static_cast<size_t>(b.count), std::nan(""));
        {
          py::gil_scoped_release release;
          const hmm::ForwardProfile fp = hmm::make_forward_profile(p.scores);
          parallel_for_blocks(b.count, 4, threads > 0 ? threads : default_thread_count(),
                              [&](int64_t begin, int64_t end, int) {
                                for (int64_t i = begin; i < end; ++i)
                                  if (b.length(i) > 0)
                                    out[i] = hmm::forward_score(fp, b.sequence(i), b.length(i));
                              });
        }
        return to_numpy(std::move(out));
      },
      py::arg("profile"), py::arg("residues"), py::arg("offsets"), py::arg("threads") = 0,
      "Per-target Forward score in nats computed in double (cpp/hmm/forward_bound.hpp): "
      "HMMER's Forward filter score up to rounding (forward_margin); NaN for empty targets.");
  m.def("forward_margin", &hmm::forward_margin, py::arg("L"), py::arg("M"), py::arg("score"),
        "Nats by which HMMER's float Forward score and forward_scores' may differ at most.");
  m.def("forward_may_pass", &hmm::forward_may_pass, py::arg("score"), py::arg("filtersc"),
        py::arg("L"), py::arg("M"), py::arg("tau"), py::arg("lambda_"), py::arg("F3"),
        "False only when a target with this Forward score (forward_scores') fails HMMER's "
        "Forward test P <= F3 even with the margin added; a NaN P passes, as in HMMER.");

  m.def(
      "run_cascade",
      [](const SearchProfile& p, CArray<uint8_t> residues, CArray<int64_t> offsets, double F1,
         double F2, bool bias_filter, int threads) {
        const SequenceBatch b = BatchArgs{residues, offsets}.batch();
        const hmm::CascadeOptions o = cascade_options(F1, F2, bias_filter, threads);
        hmm::CascadeResult r;
        {
          py::gil_scoped_release release;
          r = hmm::run_cascade(p, b, o);
        }
        return cascade_dict(std::move(r));
      },
      py::arg("profile"), py::arg("residues"), py::arg("offsets"), py::arg("F1") = 0.02,
      py::arg("F2") = 1e-3, py::arg("bias_filter") = true, py::arg("threads") = 0,
      "MSV -> bias -> Viterbi filter stages of hmmsearch's pipeline for every target. stage: "
      "0 empty, 1 failed MSV, 2 failed bias, 3 failed Viterbi, 4 passed to Forward.");

  m.def(
      "sequence_blocks",
      [](CArray<uint8_t> residues, CArray<int64_t> offsets, int sequences_per_warp,
         int max_warps) {
        const SequenceBatch b = BatchArgs{residues, offsets}.batch();
        std::vector<int64_t> lengths(static_cast<size_t>(b.count));
        std::vector<int32_t> ids(static_cast<size_t>(b.count));
        for (int64_t i = 0; i < b.count; ++i) {
          lengths[i] = b.length(i);
          ids[i] = static_cast<int32_t>(i);
        }
        hmm::SequenceBlockPlan plan;
        std::vector<uint8_t> bytes;
        {
          py::gil_scoped_release release;
          plan = hmm::plan_sequence_blocks(lengths, sequences_per_warp, max_warps);
          bytes = hmm::fill_sequence_blocks(plan, b, ids);
        }
        py::dict d;
        d["blocks"] = to_numpy(std::move(bytes));
        d["warp_offset"] = to_numpy(std::move(plan.warp_offset));
        d["warp_rows"] = to_numpy(std::move(plan.warp_rows));
        d["column_start"] = to_numpy(std::move(plan.column_start));
        d["column_items"] = to_numpy(std::move(plan.column_items));
        d["item_offset"] = to_numpy(std::move(plan.item_offset));
        d["single"] = to_numpy(std::move(plan.single));
        d["warps"] = plan.warps;
        return d;
      },
      py::arg("residues"), py::arg("offsets"), py::arg("sequences_per_warp"),
      py::arg("max_warps"),
      "The warp-based sequence blocks of the S-lane GPU filters (CUDAMPF++), built on the "
      "host: blocks (warp w's rows x S bytes at warp_offset[w]), per column the targets top "
      "down (column_start, column_items), each target's first byte (item_offset, -1 for "
      "targets left to the warp-per-target kernel: single).");
  m.def(
      "target_length_index",
      [](CArray<int64_t> offsets, int64_t order_from) {
        if (offsets.ndim() != 1 || offsets.shape(0) < 1)
          throw std::invalid_argument("offsets must be a 1-D array of count + 1 entries");
        const SequenceBatch b{nullptr, offsets.data(), offsets.shape(0) - 1};
        for (int64_t i = 0; i < b.count; ++i)
          if (b.length(i) < 0) throw std::invalid_argument("offsets are not increasing");
        hmm::TargetLengthIndex index;
        {
          py::gil_scoped_release release;
          index = hmm::index_target_lengths(b, order_from);
        }
        py::dict d;
        d["non_empty"] = to_numpy(std::move(index.non_empty));
        d["lengths"] = to_numpy(std::move(index.lengths));
        d["length_class"] = to_numpy(std::move(index.length_class));
        d["longest_first"] = to_numpy(std::move(index.longest_first));
        return d;
      },
      py::arg("offsets"), py::arg("order_from") = 0,
      "The targets' lengths as the GPU search indexes them with the upload: non_empty targets, "
      "their distinct lengths ascending, each target's index among them (length_class, -1: "
      "empty) and, from order_from non-empty targets, the positions in non_empty longest "
      "first (longest_first).");
  m.attr("block_end_marker") = static_cast<int>(hmm::kBlockEndMarker);
  m.attr("block_pad_marker") = static_cast<int>(hmm::kBlockPadMarker);
  m.attr("block_limit_over_mean") = hmm::kBlockLimitOverMean;
  m.def("cpu_kernel_isa", [] { return std::string(hmm::cpu_filter_kernels().isa); });
  m.attr("max_target_length") = hmm::kMaxTargetLength;
  bind_runtime_compile(m);
#ifdef GPUSEQ_WITH_CUDA
  bind_gpu_hmm(m);
#endif
}

}  // namespace gpuseq::bindings
