"""Probe: where a 10 M-residue Viterbi launch (about one model's Viterbi input in the
benchmark's 500 M-residue search) spends its time. For each model and fused variant (T targets
a warp, or the systolic pipeline), kernel seconds over: every target; every target but the
longest (L >= CUT residues); those longest alone; and one 3,000-residue target alone (a row's
latency). argv[1]: label. MODELS="50,71,100,149,RRM_1,globins4", CUT=1200."""
import os
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, "benchmarks")
import bench_hmm_filters as bench  # noqa: E402

from gpuseq import _core  # noqa: E402

label = sys.argv[1]
cut = int(os.environ.get("CUT", "1200"))
codes, offsets = bench.random_database(float(os.environ.get("RESIDUES", "10e6")), 350, 1)
lengths = np.diff(offsets)


def subset(idx):
    idx = np.asarray(idx)
    ln = lengths[idx]
    off = np.zeros(len(idx) + 1, np.int64)
    np.cumsum(ln, out=off[1:])
    res = np.concatenate([codes[offsets[i]:offsets[i + 1]] for i in idx])
    return _core.GpuTargets(res, off), int(off[-1])


allt = subset(np.arange(len(lengths)))
head_idx = np.flatnonzero(lengths >= cut)
rest = subset(np.flatnonzero(lengths < cut))
head = subset(head_idx)
one = subset([int(np.argmax(lengths))])
print(f"[{label}] {len(lengths)} targets, {allt[1]} residues; head {len(head_idx)} targets "
      f"(L >= {cut}) {head[1]} residues; longest {lengths.max()}", flush=True)
examples = Path(os.environ.get("GPUSEQ_HMMER_EXAMPLES", "/usr/share/doc/hmmer-examples"))
for name in os.environ.get("MODELS", "50,71,100,149,RRM_1,globins4").split(","):
    if name.isdigit():
        M, profile = int(name), bench.model(int(name), int(name))
    else:
        M, profile = bench.pfam_model(name, examples)
    for variant in ("T1", "T2", "T4", "sys"):
        T = 1 if variant == "sys" else int(variant[1])
        gp = _core.GpuProfile(profile, 0, "warp_fused", 1, runtime_compiled=True,
                              viterbi_targets_per_warp=T, viterbi_systolic=1 if variant == "sys" else -1)
        row = []
        for what, (t, res) in (("all", allt), ("rest", rest), ("head", head), ("one", one)):
            s = _core.gpu_filter_kernel_seconds(gp, t, "viterbi", repeats=5)
            row.append(f"{what} {s * 1e3:.3f} ms {M * res / s / 1e9:.0f} GCUPS")
        print(f"[{label}] {name} M {M} {variant} Q {gp.viterbi_stripes}: " + "; ".join(row), flush=True)
