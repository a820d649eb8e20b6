"""Session 54 probe: what the first cascade over a freshly uploaded chunk pays once. In a fresh
process each: the six models' cascades on the benchmark's chunk (1.4 M targets), first and
again, run_cascade's phases (ms); with WARM=1 every model's cascade first runs on 200 random
targets (the kernels loaded, the per-chunk work not done).
python3 firstcascade.py DB QUERIES"""
import os
import sys
import time

import numpy as np

import gpuseq
from gpuseq import _core
from gpuseq.hmm import iter_hmms, search_profile
from gpuseq.sequences import GPU_DATABASE_CHUNK_RESIDUES

db_path, queries = sys.argv[1], sys.argv[2]
t = time.perf_counter()
print(_core.cuda_initialize("auto") or "context ready", f"{(time.perf_counter() - t) * 1000:.0f} ms")
db = gpuseq.SequenceDatabase.open(db_path)
chunk = next(db.chunks(GPU_DATABASE_CHUNK_RESIDUES))
profiles = [search_profile(h) for h in iter_hmms(queries)]
profiles.sort(key=lambda p: -p.M)
gps = [_core.GpuProfile(p) for p in profiles]


def cascade(gp, targets):
    t = time.perf_counter()
    r = _core.gpu_run_cascade(gp, targets, F1=0.02, F2=1e-3, bias_filter=True, threads=16,
                              F3=1e-5, all_scores=False)
    wall = time.perf_counter() - t
    return f"{wall * 1000:.1f} ms: " + " ".join(f"{k} {v * 1000:.1f}" for k, v in r["seconds"].items())


if os.environ.get("WARM") == "1":
    rng = np.random.default_rng(1)
    small = gpuseq.SequenceDatabase.from_records(
        [(f"r{i}", "".join(rng.choice(list("ACDEFGHIKLMNPQRSTVWY"), 300))) for i in range(200)])
    small_targets = _core.GpuTargets(small.residues, small.offsets)
    for gp in gps:
        cascade(gp, small_targets)
    print("kernels warmed on 200 targets")
t = time.perf_counter()
targets = _core.GpuTargets(chunk.residues, chunk.offsets)
print(f"upload {(time.perf_counter() - t) * 1000:.0f} ms")
for gp, p in zip(gps, profiles):
    print(f"M={p.M} S={gp.sequences_per_warp} first:", cascade(gp, targets))
    print(f"M={p.M} S={gp.sequences_per_warp} again:", cascade(gp, targets))
