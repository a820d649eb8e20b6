"""Probe: the split Viterbi kernel's GCUPS at W = 2, 3, 4 warps a target (M 1600-3000) on
100 M random residues, with the module on PYTHONPATH; and its scores on the first 20,000
targets, saved for the other module's run to compare (argv[1]: a label; argv[2]: npz path)."""
import sys

import numpy as np

sys.path.insert(0, "benchmarks")
import bench_hmm_filters as bench  # noqa: E402

from gpuseq import _core  # noqa: E402

label, npz = sys.argv[1], sys.argv[2]
codes, offsets = bench.random_database(100e6, 350, 1)
targets = _core.GpuTargets(codes, offsets)
n = 20000
sres, soff = codes[: offsets[n]], offsets[: n + 1]
slice_targets = _core.GpuTargets(sres, soff)
scores = {}
for M in (1600, 2048, 2400, 3000):
    profile = bench.model(M, M)
    for W in (2, 3, 4):
        gp = _core.GpuProfile(profile, 0, "warp_fused", 1, runtime_compiled=True,
                              viterbi_targets_per_warp=1, viterbi_warps_per_target=W)
        s = _core.gpu_filter_kernel_seconds(gp, targets, "viterbi", repeats=3)
        gcups = M * int(offsets[-1]) / s / 1e9
        sc = _core.gpu_filter_scores(gp, slice_targets, "viterbi", sres, soff)
        scores[f"{M}-{W}"] = np.asarray(sc)
        print(f"[{label}] M {M} W {W} Q {gp.viterbi_stripes} GCUPS {gcups:.1f}", flush=True)
np.savez(npz, **scores)
