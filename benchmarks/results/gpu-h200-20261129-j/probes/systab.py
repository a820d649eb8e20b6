"""Probe: the systolic pipeline (opt-in) against two and four fused targets a warp as a
Viterbi launch grows (log-normal databases, longest 3,000: residues / longest 3,300 to
33,000). GPU event time of one launch, median of 3, two rounds alternated. argv[1]: label.
MODELS, SIZES="10e6,30e6,50e6,100e6"."""
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, "benchmarks")
import bench_hmm_filters as bench  # noqa: E402

from gpuseq import _core  # noqa: E402

label = sys.argv[1]
examples = Path(os.environ.get("GPUSEQ_HMMER_EXAMPLES", "/usr/share/doc/hmmer-examples"))
names = os.environ.get("MODELS", "50,100,150,256,300,384,RRM_1,Caudal_act,globins4,Pkinase").split(",")
gps = {}
for name in names:
    M, p = (int(name), bench.model(int(name), int(name))) if name.isdigit() else bench.pfam_model(name, examples)
    v = {"T2": _core.GpuProfile(p, 0, "warp_fused", 1, viterbi_targets_per_warp=2, viterbi_systolic=-1),
         "sys": _core.GpuProfile(p, 0, "warp_fused", 1, viterbi_systolic=1)}
    if M <= 256:
        v["T4"] = _core.GpuProfile(p, 0, "warp_fused", 1, viterbi_targets_per_warp=4, viterbi_systolic=-1)
    gps[name] = (M, v)
for size in os.environ.get("SIZES", "10e6,30e6,50e6,100e6").split(","):
    codes, offsets = bench.random_database(float(size), 350, 1)
    targets = _core.GpuTargets(codes, offsets)
    total = int(offsets[-1])
    for name, (M, v) in gps.items():
        times = {k: [] for k in v}
        for _ in range(2):
            for k, gp in v.items():
                times[k].append(_core.gpu_filter_kernel_seconds(gp, targets, "viterbi", repeats=3))
        med = {k: statistics.median(t) for k, t in times.items()}
        print(f"[{label}] {size} ratio {total / 3000:.0f} {name} M {M}: " +
              "; ".join(f"{k} {med[k] * 1e3:.3f} ms {M * total / med[k] / 1e9:.0f}" for k in med) +
              f"; sys/best-fused time {med['sys'] / min(med[k] for k in med if k != 'sys'):.3f}",
              flush=True)
