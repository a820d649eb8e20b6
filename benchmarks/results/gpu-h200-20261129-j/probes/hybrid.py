"""Probe: four targets a warp with the longest apart. For each model, wall seconds (median of
REPEATS) of one Viterbi launch over a 10 M-residue database: two targets a warp over every
target (a search's choice today, one thread), against the targets shorter than CUT on four a
warp and the others at once on one a warp (two threads, each its own per-thread stream; each
launch's ids copied up and scores down, as the one-thread row). Also four a warp alone.
argv[1]: label. MODELS, CUTS="600,900,1200,1800", RESIDUES=10e6."""
import os
import statistics
import sys
import threading
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, "benchmarks")
import bench_hmm_filters as bench  # noqa: E402

from gpuseq import _core  # noqa: E402

label = sys.argv[1]
REPEATS = int(os.environ.get("REPEATS", "15"))
codes, offsets = bench.random_database(float(os.environ.get("RESIDUES", "10e6")), 350, 1)
lengths = np.diff(offsets)
order = np.argsort(-lengths, kind="stable")


def subset(idx):
    idx = np.asarray(idx)
    ln = lengths[idx]
    off = np.zeros(len(idx) + 1, np.int64)
    np.cumsum(ln, out=off[1:])
    res = np.concatenate([codes[offsets[i]:offsets[i + 1]] for i in idx]) if len(idx) else codes[:0]
    return _core.GpuTargets(res, off), int(off[-1])


allt, total = subset(np.arange(len(lengths)))
cuts = [int(c) for c in os.environ.get("CUTS", "600,900,1200,1800").split(",")]
parts = {c: (subset(np.flatnonzero(lengths >= c)), subset(np.flatnonzero(lengths < c))) for c in cuts}
print(f"[{label}] {len(lengths)} targets, {total} residues; heads: " +
      ", ".join(f"L >= {c}: {int((lengths >= c).sum())}" for c in cuts), flush=True)


def one(gp, t):
    t0 = time.perf_counter()
    _core.gpu_filter_kernel_seconds(gp, t, "viterbi", repeats=1)
    return time.perf_counter() - t0


def pair(gp_head, head, gp_rest, rest):
    barrier = threading.Barrier(2)

    def run(gp, t):
        barrier.wait()
        _core.gpu_filter_kernel_seconds(gp, t, "viterbi", repeats=1)

    th = threading.Thread(target=run, args=(gp_head, head))
    th.start()
    t0 = time.perf_counter()
    run(gp_rest, rest)
    th.join()
    return time.perf_counter() - t0


examples = Path(os.environ.get("GPUSEQ_HMMER_EXAMPLES", "/usr/share/doc/hmmer-examples"))
for name in os.environ.get("MODELS", "50,71,100,149,200,256,RRM_1,Caudal_act,globins4").split(","):
    if name.isdigit():
        M, profile = int(name), bench.model(int(name), int(name))
    else:
        M, profile = bench.pfam_model(name, examples)
    gps = {T: _core.GpuProfile(profile, 0, "warp_fused", 1, runtime_compiled=True,
                               viterbi_targets_per_warp=T, viterbi_systolic=-1) for T in (1, 2, 4)}
    for gp in gps.values():  # warm up (module load, first launch)
        _core.gpu_filter_kernel_seconds(gp, allt, "viterbi", repeats=1)
    rows = {"T2": [], "T4": []}
    rows.update({f"cut{c}": [] for c in cuts})
    for _ in range(REPEATS):  # alternated
        rows["T2"].append(one(gps[2], allt))
        rows["T4"].append(one(gps[4], allt))
        for c in cuts:
            (head, _h), (rest, _r) = parts[c]
            rows[f"cut{c}"].append(pair(gps[1], head, gps[4], rest))
    med = {k: statistics.median(v) for k, v in rows.items()}
    print(f"[{label}] {name} M {M} (Q T2 {gps[2].viterbi_stripes}, T4 {gps[4].viterbi_stripes}): " +
          "; ".join(f"{k} {v * 1e3:.3f} ms {M * total / v / 1e9:.0f}" for k, v in med.items()),
          flush=True)
