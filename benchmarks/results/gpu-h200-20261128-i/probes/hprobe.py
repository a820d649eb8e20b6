# Session 49: the S-lane SSV and MSV as a search runs them (S by model length, each filter's H
# past its slow counts, NVRTC), sampled models; 100 M random residues, median of 5; a hash of
# the scores (equal across builds) and the scores against the CPU's on a 300-target slice.
import hashlib, sys
import numpy as np
sys.path.insert(0, "benchmarks")
from bench_hmm_filters import model, random_database
from gpuseq import _core
import os
if os.environ.get("NOSLOW"):
    _core.gpu_warp_stripes_past_slow(False)  # every filter at the exact H
db = random_database(100e6, 350, 1)
targets = _core.GpuTargets(*db)
residues = int(db[1][-1])
small = (db[0][: int(db[1][300])], db[1][:301])
small_t = _core.GpuTargets(*small)
def stripes(gp, w):
    if hasattr(gp, "ssv_multi_stripes"):
        return gp.ssv_multi_stripes if w == "ssv" else gp.msv_multi_stripes
    return gp.multi_stripes
for M in [int(m) for m in sys.argv[1].split(",")]:
    p = model(M, M)
    gp = _core.GpuProfile(p, 16, "warp", 0, runtime_compiled=True)
    gp.ssv_multi = True
    ok = all(np.array_equal(_core.gpu_filter_scores(gp, small_t, w, *small), _core.filter_scores(p, w, *small), equal_nan=True) for w in ("ssv", "msv"))
    r, h = [], []
    for w in ("ssv", "msv"):
        h.append(hashlib.sha1(np.asarray(_core.gpu_filter_scores(gp, targets, w)).tobytes()).hexdigest()[:8])
        r.append(M * residues / _core.gpu_filter_kernel_seconds(gp, targets, w, repeats=5) / 1e12)
    print(f"M {M:4d} S {gp.sequences_per_warp:2d} H {stripes(gp, 'ssv'):2d}/{stripes(gp, 'msv'):2d} SSV {r[0]:6.2f} MSV {r[1]:6.2f} {h[0]} {h[1]} cpu_equal={ok}", flush=True)
