# S-lane SSV TCUPS at the S and H the launcher picks (16-bit, NVRTC where the static set lacks
# H), 100 M random residues, and a hash of every target's SSV score: run once per build
# (PYTHONPATH picks it); the caller alternates builds and compares the hashes.
import hashlib, sys, time
sys.path.insert(0, "benchmarks")
from bench_hmm_filters import model, random_database
from gpuseq import _core
import numpy as np
db = random_database(100e6, 350, 1)
targets = _core.GpuTargets(*db)
residues = int(db[1][-1])
for M in [int(m) for m in sys.argv[1].split(",")]:
    p = model(M, M)
    gp = _core.GpuProfile(p, 16, "warp", 0, runtime_compiled=True)
    gp.ssv_multi = True
    scores = np.asarray(_core.gpu_filter_scores(gp, targets, "ssv"))
    s = _core.gpu_filter_kernel_seconds(gp, targets, "ssv", repeats=int(sys.argv[2]))
    h = hashlib.sha1(scores.tobytes()).hexdigest()[:12]
    print(f"M {M:5d} S {gp.sequences_per_warp:3d} H {gp.multi_stripes:3d} SSV {M * residues / s / 1e12:6.2f} TCUPS scores {h}", flush=True)
