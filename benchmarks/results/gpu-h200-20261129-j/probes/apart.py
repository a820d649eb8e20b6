"""Probe: four targets a warp with the longest apart (GpuProfile's default up to 256 nodes),
GPU event time of one Viterbi launch (median of 5; rounds alternated), against two a warp (the
choice before) and four a warp alone, at several scales of the cut
(gpu_viterbi_longest_apart_scale), on RESIDUES (10e6: about one model's Viterbi input in the
benchmark's 500 M-residue search). argv[1]: label. MODELS, SCALES="0.25,0.5,1,2,4", ROUNDS=2."""
import os
import statistics
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, "benchmarks")
import bench_hmm_filters as bench  # noqa: E402

from gpuseq import _core  # noqa: E402

label = sys.argv[1]
codes, offsets = bench.random_database(float(os.environ.get("RESIDUES", "10e6")), 350, 1)
targets = _core.GpuTargets(codes, offsets)
total = int(offsets[-1])
n = 3000
sres, soff = codes[: offsets[n]], offsets[: n + 1]
slice_targets = _core.GpuTargets(sres, soff)
scales = [float(v) for v in os.environ.get("SCALES", "0.25,0.5,1,2,4").split(",")]
rounds = int(os.environ.get("ROUNDS", "2"))
print(f"[{label}] {len(offsets) - 1} targets, {total} residues", flush=True)
examples = Path(os.environ.get("GPUSEQ_HMMER_EXAMPLES", "/usr/share/doc/hmmer-examples"))
for name in os.environ.get("MODELS", "50,71,100,149,200,256,RRM_1,2OG-FeII_Oxy_3,Caudal_act,globins4").split(","):
    if name.isdigit():
        M, profile = int(name), bench.model(int(name), int(name))
    else:
        M, profile = bench.pfam_model(name, examples)
    gps = {"T2": _core.GpuProfile(profile, 0, "warp_fused", 1, viterbi_targets_per_warp=2,
                                  viterbi_systolic=-1),
           "T4": _core.GpuProfile(profile, 0, "warp_fused", 1, viterbi_targets_per_warp=4,
                                  viterbi_systolic=-1),
           "auto": _core.GpuProfile(profile, 0, "warp_fused", 1, viterbi_systolic=-1)}
    assert gps["auto"].viterbi_longest_apart, name
    ref = np.asarray(_core.gpu_filter_scores(gps["T2"], slice_targets, "viterbi", sres, soff))
    got = np.asarray(_core.gpu_filter_scores(gps["auto"], slice_targets, "viterbi", sres, soff))
    same = np.array_equal(ref, got, equal_nan=True)
    times = {}
    for _ in range(rounds):
        for key in ("T2", "T4"):
            times.setdefault(key, []).append(
                _core.gpu_filter_kernel_seconds(gps[key], targets, "viterbi", repeats=5))
        for sc in scales:
            _core.gpu_viterbi_longest_apart_scale(sc)
            times.setdefault(f"x{sc:g}", []).append(
                _core.gpu_filter_kernel_seconds(gps["auto"], targets, "viterbi", repeats=5))
            if _ == 0:
                times.setdefault(f"n{sc:g}", [_core.gpu_viterbi_longest_apart_counts()[0]])
        _core.gpu_viterbi_longest_apart_scale(0.0)
    cells = M * total
    out = []
    for key, v in times.items():
        if key.startswith("n"):
            out.append(f"apart@{key[1:]} {v[0]}")
        else:
            out.append(f"{key} {statistics.median(v) * 1e3:.3f} ms {cells / statistics.median(v) / 1e9:.0f}")
    print(f"[{label}] {name} M {M} Q {gps['T2'].viterbi_stripes}/{gps['T4'].viterbi_stripes} "
          f"same {same}: " + "; ".join(out), flush=True)
