# Session 49: the SSV and MSV warp kernels (a warp per target, 16-bit, tables in shared memory
# from 25 stripes) at every Q (slow list off: the exact Q), M = 64 Q, 100 M random residues,
# median of 5; scores against the CPU's on a 300-target slice. argv: lo-hi; COMPILE_ONLY=1.
import os, sys
import numpy as np
sys.path.insert(0, "benchmarks")
from bench_hmm_filters import model, random_database
from gpuseq import _core
_core.gpu_warp_stripes_past_slow(False)
lo, hi = (int(x) for x in sys.argv[1].split("-"))
if os.environ.get("COMPILE_ONLY"):
    for Q in range(lo, hi + 1):
        _core.GpuProfile(model(64 * Q, 1), 16, "warp", 1, runtime_compiled=True)
    sys.exit(0)
db = random_database(100e6, 350, 1)
targets = _core.GpuTargets(*db)
residues = int(db[1][-1])
small = (db[0][: int(db[1][300])], db[1][:301])
small_t = _core.GpuTargets(*small)
print(f"{'Q':>3} {'M':>5} equal    SSV    MSV", flush=True)
for Q in range(lo, hi + 1):
    M = 64 * Q
    p = model(M, 1)
    gp = _core.GpuProfile(p, 16, "warp", 1, runtime_compiled=True)
    ok = all(np.array_equal(_core.gpu_filter_scores(gp, small_t, w, *small), _core.filter_scores(p, w, *small), equal_nan=True) for w in ("ssv", "msv"))
    r = [M * residues / _core.gpu_filter_kernel_seconds(gp, targets, w, repeats=5) / 1e12 for w in ("ssv", "msv")]
    print(f"{gp.msv_stripes:>3} {M:>5} {ok and gp.msv_stripes == Q!s:>5} {r[0]:6.2f} {r[1]:6.2f}", flush=True)
