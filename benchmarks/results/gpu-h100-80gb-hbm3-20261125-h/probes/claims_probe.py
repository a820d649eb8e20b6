"""A/B on the H100: the SSV/MSV warp kernels with warps claiming targets against CUDAMPF's static
rule, and the S-lane kernels at S = 2 and 4 beside them (past 48 stripes only on the tree that
allowed them, NVRTC: claims-and-s2-past-48-claims-only.log). TCUPS of one launch over all
targets (median of 5), the scores of both rules compared."""

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from bench_hmm_filters import model, random_database  # noqa: E402

from gpuseq import _core  # noqa: E402

residues = float(sys.argv[1]) if len(sys.argv) > 1 else 100e6
db = random_database(residues, 350, 1)
targets = _core.GpuTargets(*db)
total = int(db[1][-1])
print(f"{len(db[1]) - 1} targets, {total} residues", flush=True)
for M in (800, 1200, 1536, 1600, 1792, 2048, 2400):
    profile = model(M, M)
    for which in ("ssv", "msv"):
        line = []
        scores = {}
        gp = _core.GpuProfile(profile, 16, "warp", 1)
        for claim in (False, True):
            _core.gpu_warp_kernels_claim_targets(claim)
            s = _core.gpu_filter_kernel_seconds(gp, targets, which, repeats=5)
            line.append(f"{'claims' if claim else 'static'} {M * total / s / 1e12:6.2f}")
            scores[claim] = np.asarray(_core.gpu_filter_scores(gp, targets, which))
        _core.gpu_warp_kernels_claim_targets(True)
        same = np.array_equal(scores[False], scores[True], equal_nan=True)
        line.append(f"Q={gp.msv_stripes} same={same}")
        for S in (2, 4):
            try:
                gs = _core.GpuProfile(profile, 16, "warp", S)
            except ValueError as err:
                line.append(f"S={S}: -")
                continue
            s = _core.gpu_filter_kernel_seconds(gs, targets, which, repeats=5)
            line.append(f"S={S} H={gs.multi_stripes} {M * total / s / 1e12:6.2f}")
        print(f"M={M:5d} {which}: " + "  ".join(line), flush=True)
