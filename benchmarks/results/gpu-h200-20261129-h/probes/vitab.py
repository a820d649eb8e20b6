"""Probe: the fused Viterbi kernels' GCUPS on 100 M random residues for (M, W, T) cases of
sampled models (W warps a target, T targets a warp), with the module on PYTHONPATH; its
scores on the first 20,000 targets saved, and compared with an earlier run's file where argv[3]
names one. argv[1]: a label; argv[2]: npz path; CASES="M:W:T,...". """
import os
import sys

import numpy as np

sys.path.insert(0, "benchmarks")
import bench_hmm_filters as bench  # noqa: E402

from gpuseq import _core  # noqa: E402

label, npz = sys.argv[1], sys.argv[2]
reference = np.load(sys.argv[3]) if len(sys.argv) > 3 else None
codes, offsets = bench.random_database(100e6, 350, 1)
targets = _core.GpuTargets(codes, offsets)
n = 20000
sres, soff = codes[: offsets[n]], offsets[: n + 1]
slice_targets = _core.GpuTargets(sres, soff)
scores = {}
CASES = [tuple(int(v) for v in c.split(":")) for c in os.environ["CASES"].split(",")]
for M, W, T in CASES:
    profile = bench.model(M, M)
    gp = _core.GpuProfile(profile, 0, "warp_fused", 1, runtime_compiled=True,
                          viterbi_targets_per_warp=T, viterbi_warps_per_target=W)
    s = _core.gpu_filter_kernel_seconds(gp, targets, "viterbi", repeats=3)
    gcups = M * int(offsets[-1]) / s / 1e9
    sc = np.asarray(_core.gpu_filter_scores(gp, slice_targets, "viterbi", sres, soff))
    key = f"{M}-{W}-{T}"
    scores[key] = sc
    same = "" if reference is None else f" same scores {np.mean(reference[key] == sc) * 100:.2f}%"
    print(f"[{label}] M {M} W {W} T {T} Q {gp.viterbi_stripes} GCUPS {gcups:.1f}{same}", flush=True)
np.savez(npz, **scores)
