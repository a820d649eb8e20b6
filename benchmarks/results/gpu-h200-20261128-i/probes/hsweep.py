# Session 49: the S-lane SSV and MSV for every H (slow lists off: the exact H), M = W x H,
# 100 M random residues, median of 5; scores against the CPU's on a 300-target slice.
# argv: S lo-hi; COMPILE_ONLY=1 only builds the profiles (fills the NVRTC cache).
import hashlib, os, sys
import numpy as np
sys.path.insert(0, "benchmarks")
from bench_hmm_filters import model, random_database
from gpuseq import _core
_core.gpu_warp_stripes_past_slow(False)
S = int(sys.argv[1]); lo, hi = (int(x) for x in sys.argv[2].split("-"))
if os.environ.get("COMPILE_ONLY"):
    for H in range(lo, hi + 1):
        _core.GpuProfile(model((64 // S) * H, 1), 16, "warp", S, runtime_compiled=True)
    sys.exit(0)
db = random_database(100e6, 350, 1)
targets = _core.GpuTargets(*db)
residues = int(db[1][-1])
small = (db[0][: int(db[1][300])], db[1][:301])
small_t = _core.GpuTargets(*small)
print(f"{'S':>3} {'H':>3} {'M':>4} equal    SSV    MSV", flush=True)
for H in range(lo, hi + 1):
    M = (64 // S) * H
    p = model(M, M)
    gp = _core.GpuProfile(p, 16, "warp", S, runtime_compiled=True)
    ok = all(np.array_equal(_core.gpu_filter_scores(gp, small_t, w, *small), _core.filter_scores(p, w, *small), equal_nan=True) for w in ("ssv", "msv"))
    r = [M * residues / _core.gpu_filter_kernel_seconds(gp, targets, w, repeats=5) / 1e12 for w in ("ssv", "msv")]
    hs = (gp.ssv_multi_stripes, gp.msv_multi_stripes)
    print(f"{S:>3} {hs[0]:>3} {M:>4} {ok and hs == (H, H)!s:>5} {r[0]:6.2f} {r[1]:6.2f}", flush=True)
