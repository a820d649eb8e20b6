# Session 45: the S-lane SSV and MSV as a search runs them (S by model length, H past the slow
# counts, NVRTC), hmmer-examples' protein models and sampled ones; 100 M random residues,
# median of 3; a hash of the scores (equal across builds) and the scores against the CPU's.
import hashlib, sys
import numpy as np
from pathlib import Path
sys.path.insert(0, "benchmarks")
from bench_hmm_filters import model, random_database, pfam_model
from gpuseq import _core
db = random_database(100e6, 350, 1)
targets = _core.GpuTargets(*db)
residues = int(db[1][-1])
small = (db[0][: int(db[1][300])], db[1][:301])
small_t = _core.GpuTargets(*small)
cases = []
names = sys.argv[1].split(",") if len(sys.argv) > 1 else ["20aa", "XYPPX", "RRM_1", "fn3", "Caudal_act", "2OG-FeII_Oxy_3", "globins4", "Pkinase"]
sampled = [int(m) for m in sys.argv[2].split(",")] if len(sys.argv) > 2 else [40, 50, 60, 71, 80, 90, 100, 110, 120, 130, 140, 149, 160, 175, 190]
for n in names:
    try:
        cases.append((n,) + pfam_model(n, Path(".carry/hmmer/examples")))
    except BaseException as e:
        print(n, "skipped:", e)
cases += [("sampled", M, model(M, M)) for M in sampled]
for name, M, p in cases:
    gp = _core.GpuProfile(p, 16, "warp", 0, runtime_compiled=True)
    gp.ssv_multi = True
    ok = all(np.array_equal(_core.gpu_filter_scores(gp, small_t, w, *small), _core.filter_scores(p, w, *small), equal_nan=True) for w in ("ssv", "msv"))
    r, h = [], []
    for w in ("ssv", "msv"):
        h.append(hashlib.sha1(np.asarray(_core.gpu_filter_scores(gp, targets, w)).tobytes()).hexdigest()[:8])
        r.append(M * residues / _core.gpu_filter_kernel_seconds(gp, targets, w, repeats=3) / 1e12)
    print(f"{name:>15} M {M:4d} S {gp.sequences_per_warp:2d} H {gp.multi_stripes:2d} SSV {r[0]:6.2f} MSV {r[1]:6.2f} {h[0]} {h[1]} cpu_equal={ok}", flush=True)
