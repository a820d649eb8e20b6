"""Probe: compiles (or reads from the kernel cache) the fused Viterbi kernels of CASES="M:W:T,..."
by building their GpuProfiles, so that several processes fill the cache at once."""
import os
import sys

sys.path.insert(0, "benchmarks")
import bench_hmm_filters as bench  # noqa: E402

from gpuseq import _core  # noqa: E402

for c in os.environ["CASES"].split(","):
    M, W, T = (int(v) for v in c.split(":"))
    _core.GpuProfile(bench.model(M, M), 0, "warp_fused", 1, runtime_compiled=True,
                     viterbi_targets_per_warp=T, viterbi_warps_per_target=W)
