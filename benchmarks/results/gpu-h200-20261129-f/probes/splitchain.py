"""Probe: the split Viterbi kernel's GCUPS on 100 M random residues for (M, W) pairs of
sampled models, with the module on PYTHONPATH (and GPUSEQ_PROBE_DEFINE for the probe build's
GPUSEQ_SPLIT_CHAIN, GPUSEQ_SPLIT_HOLD_*); its scores on the first 20,000 targets saved, and compared with the
first run's file where argv[3] names one. argv[1]: a label; argv[2]: npz path."""
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
CASES = [(1400, 2), (1600, 2), (2048, 2), (2400, 2), (2400, 4), (2816, 2), (3000, 2), (3000, 4),
         (4096, 4)]
if os.environ.get("CASES"):  # "M:W,M:W,..."
    CASES = [tuple(int(v) for v in c.split(":")) for c in os.environ["CASES"].split(",")]
for M, W in CASES:
    profile = bench.model(M, M)
    gp = _core.GpuProfile(profile, 0, "warp_fused", 1, runtime_compiled=True,
                          viterbi_targets_per_warp=1, viterbi_warps_per_target=W)
    s = _core.gpu_filter_kernel_seconds(gp, targets, "viterbi", repeats=3)
    gcups = M * int(offsets[-1]) / s / 1e9
    sc = np.asarray(_core.gpu_filter_scores(gp, slice_targets, "viterbi", sres, soff))
    key = f"{M}-{W}"
    scores[key] = sc
    same = "" if reference is None else f" same scores {np.mean(reference[key] == sc) * 100:.2f}%"
    print(f"[{label}] M {M} W {W} Q {gp.viterbi_stripes} GCUPS {gcups:.1f}{same}", flush=True)
np.savez(npz, **scores)
