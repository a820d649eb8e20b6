"""Probe: where four targets a warp overtake two as a Viterbi launch grows, by its residues
over its longest target's. GPU event time of one launch (median of 5, ROUNDS rounds
alternated) with two and with four targets a warp (explicit), on log-normal databases
(longest 3,000) of each RESIDUES size, and the same with one 35,000-residue target added
(titin's length). argv[1]: label. MODELS, SIZES="10e6,15e6,20e6,30e6", ROUNDS=2."""
import os
import statistics
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, "benchmarks")
import bench_hmm_filters as bench  # noqa: E402

from gpuseq import _core  # noqa: E402

label = sys.argv[1]
rounds = int(os.environ.get("ROUNDS", "2"))
examples = Path(os.environ.get("GPUSEQ_HMMER_EXAMPLES", "/usr/share/doc/hmmer-examples"))
names = os.environ.get("MODELS", "50,71,100,149,200,256,RRM_1,2OG-FeII_Oxy_3,Caudal_act,globins4").split(",")
profiles = {}
for name in names:
    if name.isdigit():
        profiles[name] = (int(name), bench.model(int(name), int(name)))
    else:
        profiles[name] = bench.pfam_model(name, examples)
gps = {name: {T: _core.GpuProfile(p, 0, "warp_fused", 1, viterbi_targets_per_warp=T,
                                  viterbi_systolic=-1) for T in (2, 4)}
       for name, (M, p) in profiles.items()}
for size in os.environ.get("SIZES", "10e6,15e6,20e6,30e6").split(","):
    codes, offsets = bench.random_database(float(size), 350, 1)
    rng = np.random.default_rng(7)
    titin = rng.integers(0, 20, 35000).astype(np.uint8)
    for long in (False, True):
        res = np.concatenate([codes, titin]) if long else codes
        off = np.concatenate([offsets, [offsets[-1] + 35000]]) if long else offsets
        targets = _core.GpuTargets(res, off)
        total, longest = int(off[-1]), int(np.diff(off).max())
        for name, (M, _p) in profiles.items():
            times = {2: [], 4: []}
            for _ in range(rounds):
                for T in (2, 4):
                    times[T].append(_core.gpu_filter_kernel_seconds(gps[name][T], targets, "viterbi", repeats=5))
            t2, t4 = statistics.median(times[2]), statistics.median(times[4])
            print(f"[{label}] {size} ratio {total / longest:.0f} {name} M {M}: T2 {t2 * 1e3:.3f} ms "
                  f"{M * total / t2 / 1e9:.0f}, T4 {t4 * 1e3:.3f} ms {M * total / t4 / 1e9:.0f}, "
                  f"T4/T2 time {t4 / t2:.3f}", flush=True)
