"""On the H100: the SSV/MSV warp kernels (warps claiming targets) over the same random database
in its own order and sorted longest first, to see what the last targets claimed cost. TCUPS of
one launch over all targets (median of 5); the scores of both orders compared."""

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from bench_hmm_filters import model, random_database  # noqa: E402

from gpuseq import _core  # noqa: E402

residues = float(sys.argv[1]) if len(sys.argv) > 1 else 100e6
codes, offsets = random_database(residues, 350, 1)
lengths = np.diff(offsets)
order = np.argsort(-lengths, kind="stable")
sorted_offsets = np.zeros_like(offsets)
np.cumsum(lengths[order], out=sorted_offsets[1:])
sorted_codes = np.concatenate([codes[offsets[i] : offsets[i + 1]] for i in order])
total = int(offsets[-1])
dbs = {"own order": _core.GpuTargets(codes, offsets),
       "longest first": _core.GpuTargets(sorted_codes, sorted_offsets)}
print(f"{len(lengths)} targets, {total} residues", flush=True)
for M in (1200, 1600, 2048, 2400, 3000):
    profile = model(M, M)
    gp = _core.GpuProfile(profile, 16, "warp", 1)
    for which in ("ssv", "msv"):
        line, scores = [], {}
        for name, targets in dbs.items():
            s = _core.gpu_filter_kernel_seconds(gp, targets, which, repeats=5)
            line.append(f"{name} {M * total / s / 1e12:6.2f}")
            scores[name] = np.asarray(_core.gpu_filter_scores(gp, targets, which))
        same = np.array_equal(scores["own order"][order], scores["longest first"], equal_nan=True)
        print(f"M={M:5d} Q={gp.msv_stripes} {which}: " + "  ".join(line) + f"  same={same}",
              flush=True)
