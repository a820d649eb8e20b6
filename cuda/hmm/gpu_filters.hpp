// hmmsearch's filters on the GPU: the CUDAMPF warp kernels (msv.cuh, viterbi_filter.cuh) behind
// the same interface as the CPU filters (cpp/hmm/filters.hpp, cascade.hpp). The kernels return
// integers; the host turns them into nats and makes every pipeline decision with the CPU code,
// so scores and decisions are the CPU's bit for bit. No CUDA headers here.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/sequence_chunk.hpp"
#include "hmm/cascade.hpp"
#include "hmm/profile.hpp"

namespace gpuseq::cuda::hmm {

// Targets resident on the GPU: uploaded once, searched by every model. It keeps a view of the
// host batch it was made from (which must outlive it) and the values that depend only on each
// target's length, computed once for every model (glibc logf, as the CPU filters do).
class DeviceTargets {
 public:
  static constexpr size_t kMaxSsvBlockSets = 4;  // S-lane SSV block sets kept (gpu_filters.cu)
  explicit DeviceTargets(const SequenceBatch& batch);
  ~DeviceTargets();
  DeviceTargets(const DeviceTargets&) = delete;
  DeviceTargets& operator=(const DeviceTargets&) = delete;
  int64_t count() const { return count_; }
  int64_t residues() const { return residues_; }
  const SequenceBatch& host() const { return host_; }
  int tjb(int64_t i) const { return tjb_[i]; }                // msv_tjb(L)
  int ncj_move(int64_t i) const { return ncj_move_[i]; }      // viterbi_ncj_move(L)
  const float* null1() const { return null1_.data(); }        // null1_score(L) per target
  // The non-empty targets, ascending; the distinct lengths of the targets, ascending, and
  // each target's index among them (-1: empty), for what depends on the length only.
  const std::vector<int32_t>& non_empty() const { return non_empty_; }
  const std::vector<int64_t>& lengths() const { return lengths_; }
  int32_t length_class(int64_t i) const { return length_class_[i]; }
  const std::vector<int32_t>& length_classes() const { return length_class_; }
  // S-lane SSV block sets on the GPU, made and kept for every model's SSV (gpu_filters.cu).
  size_t ssv_block_sets() const;

  struct Buffers;
  const Buffers& buffers() const { return *buffers_; }

 private:
  int64_t count_ = 0, residues_ = 0;
  SequenceBatch host_;
  std::vector<uint8_t> tjb_;
  std::vector<int16_t> ncj_move_;
  std::vector<float> null1_;
  std::vector<int32_t> non_empty_, length_class_;
  std::vector<int64_t> lengths_;
  std::unique_ptr<Buffers> buffers_;
};

// Which kernels a search runs. Every choice gives the same scores; the defaults are the fastest
// measured (benchmarks/bench_hmm_filters.py).
struct KernelOptions {
  // SSV/MSV lane width: 8 (the paper's bytes), 16 (DPX words), 0: this device's faster one
  // (default_msv_bits).
  int msv_bits = 0;
  // Viterbi filter: a warp per target (CUDAMPF), a thread per target (Walters et al. 2009), or
  // a warp per target with the saturating adds fused into DPX instructions (viterbi_fused.cuh).
  enum class Viterbi {
    kWarpPerTarget,
    kThreadPerTarget,
    kWarpFused
  } viterbi = Viterbi::kWarpPerTarget;
  // Kernels compiled at run time by NVRTC for the model's exact stripe count (and for models
  // longer than the static kernels take), where the static set lacks it; false, or NVRTC
  // missing or failing: the statically compiled kernels (stripe count rounded up).
  bool runtime_compiled = true;
  // SSV/MSV targets per warp (CUDAMPF++, msv_multi.cuh): 1 is CUDAMPF's warp per target, 2 to
  // 64 (16-bit lanes) or 128 (bytes), powers of two: S targets at once on warp-based sequence
  // blocks; 0: chosen by model length (choose_sequences_per_warp).
  int sequences_per_warp = 0;
  // Fused Viterbi targets per warp (viterbi_fused.cuh): 1, 2 or 4, each target on 32 / T
  // threads; 0: chosen by model length (choose_viterbi_targets_per_warp). Other Viterbi
  // kernels take 1.
  int viterbi_targets_per_warp = 0;
  // Fused Viterbi warps per target (viterbi_split_kernel): 1, or 2 to 4 for a model split over
  // that many warps of a block, each with its part's transitions in registers where they fit
  // (NVRTC only); 0: chosen by model length (choose_viterbi_warps_per_target).
  int viterbi_warps_per_target = 0;
  // The fused Viterbi's targets through the systolic pipeline first (viterbi_systolic.cuh),
  // the few it hands back through the fused kernel, on every launch: 1 where the model fits
  // the pipeline (M up to 384), -1 never, 0 the measured default (not on every launch: on the
  // largest, through viterbi_by_launch below). Resolved to 1 or -1.
  int viterbi_systolic = 0;
  // The fused Viterbi's kernel chosen for each launch (gpu_filters.cu, run_kernel) where its
  // targets per warp are chosen by model length (viterbi_targets_per_warp 0): four targets a
  // warp (DeviceProfile::viterbi_four_targets) on the launches with rows enough for them, where
  // two are chosen and four take the model, and the systolic pipeline
  // (DeviceProfile::viterbi_pipeline) on larger ones, where viterbi_systolic is 0 and the
  // pipeline takes the model. 1: on (an error where neither applies), -1: never, 0: the
  // measured default (on where either applies). Resolved to 1 or -1.
  int viterbi_by_launch = 0;
};

// One model's filter tables laid out for the chosen kernels, resident on the GPU.
class DeviceProfile {
 public:
  explicit DeviceProfile(const ::gpuseq::hmm::SearchProfile& profile,
                         const KernelOptions& options = {});
  ~DeviceProfile();
  DeviceProfile(const DeviceProfile&) = delete;
  DeviceProfile& operator=(const DeviceProfile&) = delete;
  const ::gpuseq::hmm::SearchProfile& profile() const { return profile_; }
  // Defaults resolved; runtime_compiled: whether this profile's kernels came from NVRTC.
  const KernelOptions& options() const { return options_; }
  int msv_bits() const { return options_.msv_bits; }
  int msv_stripes() const { return msv_stripes_; }
  int viterbi_stripes() const { return viterbi_stripes_; }  // of 64 / T nodes
  int viterbi_targets_per_warp() const { return options_.viterbi_targets_per_warp; }
  int viterbi_warps_per_target() const { return options_.viterbi_warps_per_target; }
  bool viterbi_systolic() const { return options_.viterbi_systolic == 1; }
  int viterbi_systolic_lanes() const { return systolic_lanes_; }  // G (0: not systolic)
  int viterbi_systolic_nodes() const { return systolic_nodes_; }  // B, nodes a lane
  bool viterbi_by_launch() const { return options_.viterbi_by_launch == 1; }
  // With viterbi_by_launch: the same model's profile with four targets a warp, and with the
  // systolic pipeline, which run the launches with rows enough for them (gpu_filters.cu,
  // run_kernel). Each made at its first such launch (NVRTC may compile for it), thread-safe;
  // null where this profile does not choose it, or where four a warp could not be built.
  const DeviceProfile* viterbi_four_targets() const;
  const DeviceProfile* viterbi_pipeline() const;
  // The least N/C/J MOVE word of a target whose rows the fused Viterbi kernel runs without
  // floors (viterbi_fused.cuh; INT_MAX where it never does: not the fused kernel).
  int viterbi_fast_min_move() const;
  int sequences_per_warp() const { return options_.sequences_per_warp; }
  // H of the S-lane SSV and MSV kernels (0 if S = 1): each past its own slow counts.
  int ssv_multi_stripes() const { return ssv_multi_stripes_; }
  int msv_multi_stripes() const { return msv_multi_stripes_; }
  // The SSV too on the S-lane kernels: when S was given, or set by a search whose models share
  // S often enough to pay for the SSV's sequence blocks (hmmsearch.py). Needs S > 1.
  bool ssv_multi() const { return ssv_multi_; }
  // Whether the caller gave sequences_per_warp (0: chosen by model length).
  bool sequences_per_warp_given() const { return sequences_per_warp_given_; }
  void set_ssv_multi(bool on);
  // Whether this profile's SSV, where the targets' sequence blocks are not yet made, starts
  // their plan on a host thread and runs a warp per target meanwhile (a search's first models
  // need not wait for them) instead of waiting for them (the default).
  bool ssv_blocks_background() const { return ssv_blocks_background_; }
  void set_ssv_blocks_background(bool on) { ssv_blocks_background_ = on; }

  struct Tables;
  const Tables& tables() const { return *tables_; }

 private:
  const ::gpuseq::hmm::SearchProfile& profile_;  // borrowed: outlives this object
  KernelOptions options_;
  int msv_stripes_ = 0, viterbi_stripes_ = 0, ssv_multi_stripes_ = 0, msv_multi_stripes_ = 0;
  int systolic_lanes_ = 0, systolic_nodes_ = 0;
  bool ssv_multi_ = false;
  bool ssv_blocks_background_ = false;
  bool sequences_per_warp_given_ = false;
  bool runtime_compile_allowed_ = true;  // options.runtime_compiled as given
  std::unique_ptr<Tables> tables_;
  bool four_by_launch_ = false, pipeline_by_launch_ = false;  // viterbi_by_launch's choices
  const DeviceProfile* made_for_launches(std::once_flag& once, std::unique_ptr<DeviceProfile>& made,
                                         int T, int systolic) const;
  mutable std::once_flag four_made_, pipeline_made_;
  mutable std::unique_ptr<DeviceProfile> four_, pipeline_;
};

// Fused Viterbi targets per warp for a model of M nodes (gpu_filters.cu: measured);
// runtime_compiled: whether the profile may use kernels compiled by NVRTC (where it works).
int choose_viterbi_targets_per_warp(int M, bool runtime_compiled = true);

// Whether a profile with two fused Viterbi targets a warp by model length runs four on the
// launches with rows enough for them (KernelOptions::viterbi_by_launch, measured): M up to
// 256 with NVRTC, 128 without.
bool viterbi_four_targets_by_launch(int M, bool runtime_compiled = true);

// Fused Viterbi warps per target for a model of M nodes (gpu_filters.cu: measured).
int choose_viterbi_warps_per_target(int M, bool runtime_compiled = true);

// Targets of the last systolic Viterbi run (this thread): scored by the pipeline, and handed
// to the fused kernel (xC above xN, a weak residue, too long, empty). For tests.
struct ViterbiSystolicCounts {
  int64_t piped = 0, handed_back = 0;
  double piped_seconds = 0, handed_back_seconds = 0;  // of timed runs (medians)
};
ViterbiSystolicCounts last_viterbi_systolic_counts();

// The Viterbi kernel of this thread's last launch (not a hand-back): "fused/T1", "fused/T2",
// "fused/T4", "split/W2".."split/W4", "systolic", "warp" or "thread". For tests and benchmarks.
std::string last_viterbi_kernel();

// Where viterbi_by_launch runs four targets a warp and the systolic pipeline: from these many
// times a launch's longest target's residues (kFourTargetsRowsPerLongest,
// kPipelineRowsPerLongest in gpu_filters.cu); for tests and measurements, 0 restores either.
void set_viterbi_by_launch_rows(double four, double pipeline);

// SSV/MSV lane width used when none is asked for, by compute capability (bench_hmm_filters.py).
int default_msv_bits();

// Testing hook: device allocations larger than `bytes` fail as on a full device (0: off).
void set_allocation_limit_for_tests(size_t bytes);
// Testing hook: the n-th device allocation from now fails as on a full device (0: none).
void fail_allocation_for_tests(int64_t n);
// Testing hook: whether the calling thread's stream has no work queued or running.
bool thread_stream_idle_for_tests();

// Testing and benchmark hook: whether the 16-bit SSV/MSV warp kernels of long models read their
// table from shared memory where it fits (on, the default) or from L1.
void set_warp_tables_in_shared(bool on);

// Benchmark hook: whether the SSV/MSV warp kernels' warps claim their next target from a counter
// (on, the default) or take every warps-th target (CUDAMPF's static rule).
void set_warp_kernels_claim_targets(bool on);

// Benchmark hook: whether a model whose SSV/MSV would need one of the slow 16-bit stripe counts
// of the warp kernels (kSlowWarpSsvWordStripes) or of the S-lane kernels (kSlowMultiWordStripes)
// takes the next count up (on, the default) or the exact count. Read when a profile is built.
void set_warp_stripes_past_slow(bool on);

// Testing and benchmark hook: whether the fused Viterbi kernel runs the rows that may go without
// floors so (on, the default) or keeps them in every row.
void set_viterbi_rows_without_floors(bool on);

// Longest model the kernels take (a longer one is searched by the CPU filters): with
// runtime_compiled, the NVRTC kernels' limit while NVRTC works, else the static kernels'.
int max_model_length(bool runtime_compiled = true);

// SSV/MSV stripes of an NVRTC-compiled model that needs `exact` (the count, or the next one up
// where the SSV warp kernel is measured slow at it: gpu_filters.cu).
int run_time_msv_stripes(int msv_bits, int exact);

// S-lane stripes H of an NVRTC-compiled model that needs `exact` with S targets per warp, for
// the SSV or (msv) the MSV kernel: the count, or the next one up where that filter's S-lane
// kernel is measured slow at it (gpu_filters.cu).
int run_time_multi_stripes(int msv_bits, int S, int exact, bool msv);

// Why run-time compilation is off, once per process ("" otherwise, and on later calls): for
// the one notice the bindings turn into a Python warning.
std::string take_runtime_compilation_notice();

// Drops the kernels loaded at run time (profiles keep theirs), so that the next profile loads
// them from the disk cache again: for tests.
void clear_runtime_kernels();

// CUDAMPF++'s rule (eq. 5): the most targets per warp S whose W x H_max nodes (W = 64 / S for
// 16-bit lanes, 128 / S for bytes) cover a model of M nodes; 1 (a warp per target) when even
// S = 2 does not.
int choose_sequences_per_warp(int M, int msv_bits = 16);

enum class Filter { kSsv, kMsv, kViterbi };

// Forward filter scores in nats (double) of the targets `ids`, a thread block per target
// (forward_bound.cuh): bit-equal to ::gpuseq::hmm::forward_score. rows_in_registers: each
// lane's nodes in registers where the model allows it (the cascade's choice), else the row in
// global scratch.
std::vector<double> forward_scores(const DeviceProfile& profile, const DeviceTargets& targets,
                                   const std::vector<int32_t>& ids, bool rows_in_registers = true);

// Per-target scores in nats of one filter, bit-equal to cpp/hmm/filters.hpp (NaN: SSV could not
// decide, or empty target; +inf: overflow).
std::vector<float> filter_scores(const DeviceProfile& profile, const DeviceTargets& targets,
                                 Filter which);

// Median time of one launch of a filter's kernel over every non-empty target (for kMsv the
// full MSV recurrence on all of them): for benchmarks.
double kernel_seconds(const DeviceProfile& profile, const DeviceTargets& targets, Filter which,
                      int repeats);

// hmmsearch's filter stages (MSV, bias, Viterbi) on the GPU, equal to
// ::gpuseq::hmm::run_cascade. The SSV runs on every non-empty target; a table of the lowest
// SSV result that can pass, per target length, rejects most targets without their score; the
// rest (a few percent) get their exact score on the host, the MSV on the GPU where the SSV
// cannot decide, then the bias filter on the GPU (bias_filter.cuh) and HMMER's decisions on
// options.threads CPU threads; the Viterbi filter and the Forward bound on the GPU.
// CascadeResult::survivors lists the targets that go downstream. all_scores: the score
// arrays too, every target's MSV score computed on the host (and the rejections checked
// against it); without it they stay empty.
// Wall time of its phases: SSV (launch, rejections), the MSV and bias filters with the
// decisions, the Viterbi filter with its decisions, the Forward bound.
struct CascadeSeconds {
  double msv = 0, decisions = 0, viterbi = 0, forward = 0;  // forward: the Forward bound
  double bias = 0;        // the bias filter, part of decisions
  double ssv_kernel = 0;  // the SSV's launch (CUDA events), part of msv
  double setup = 0;       // the result's per-target arrays (host), part of msv
  double ssv_wait = 0;    // waiting for the SSV's buffers (another model's SSV), part of msv
};
::gpuseq::hmm::CascadeResult run_cascade(const DeviceProfile& profile,
                                         const DeviceTargets& targets,
                                         const ::gpuseq::hmm::CascadeOptions& options,
                                         CascadeSeconds* seconds = nullptr,
                                         bool all_scores = true);

// Bias-filter scores of the targets ids on the GPU (thread per target, the host where the
// GPU's log is not sure to round as glibc's): bit-equal to bias_filter_score.
std::vector<float> bias_filter_scores(const DeviceProfile& profile,
                                      const DeviceTargets& targets,
                                      const std::vector<int32_t>& ids, int threads = 1,
                                      int64_t* on_host = nullptr);

}  // namespace gpuseq::cuda::hmm
