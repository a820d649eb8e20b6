# S-lane SSV TCUPS at given (S, H) with the blocks per SM as the table gives them and forced to
# one (dynamic shared memory padded past half the SM's, GPUSEQ_EXP_MULTI_SHARED_MIN); a hash of
# the scores per (S, H), and the scores against the CPU's on a 300-target slice.
import hashlib, os, sys
import numpy as np
sys.path.insert(0, "benchmarks")
from bench_hmm_filters import model, random_database
from gpuseq import _core
db = random_database(100e6, 350, 1)
targets = _core.GpuTargets(*db)
residues = int(db[1][-1])
small = (db[0][: int(db[1][300])], db[1][:301])
small_t = _core.GpuTargets(*small)
_core.gpu_warp_stripes_past_slow(False)
cases = [(int(a), int(b)) for a, b in (c.split(":") for c in sys.argv[1].split(","))]
pads = [int(x) for x in sys.argv[2].split(",")]
for S, H in cases:
    M = (64 // S) * H
    p = model(M, M)
    gp = _core.GpuProfile(p, 16, "warp", S, runtime_compiled=True)
    ok = np.array_equal(_core.gpu_filter_scores(gp, small_t, "ssv", *small), _core.filter_scores(p, "ssv", *small), equal_nan=True)
    out = []
    for pad in pads:
        os.environ["GPUSEQ_EXP_MULTI_SHARED_MIN"] = str(pad)
        scores = np.asarray(_core.gpu_filter_scores(gp, targets, "ssv"))
        s = _core.gpu_filter_kernel_seconds(gp, targets, "ssv", repeats=3)
        out.append(f"pad {pad:6d} {M * residues / s / 1e12:6.2f} {hashlib.sha1(scores.tobytes()).hexdigest()[:8]}")
    print(f"S {S:2d} H {gp.multi_stripes:3d} M {M:4d} cpu_equal={ok} | " + " | ".join(out), flush=True)
