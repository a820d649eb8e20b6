# Session 45: the S-lane SSV and MSV at S = 16 for every H, with the blocks an SM that the table
# allows (pad 0) and with one block an SM (dynamic shared memory padded: GPUSEQ_EXP_MULTI_
# SHARED_MIN), NVRTC for the exact H, M = 4 H, 100 M random residues, median of 5; the scores
# against the CPU's on a 300-target slice at every H (both filters), and equal across pads.
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
S = int(sys.argv[1]); lo, hi = (int(x) for x in sys.argv[2].split("-"))
pads = [int(x) for x in sys.argv[3].split(",")]
print(f"{'S':>3} {'H':>3} {'M':>4} equal  " + "  ".join(f"pad {p}: SSV    MSV" for p in pads), flush=True)
for H in range(lo, hi + 1):
    M = (64 // S) * H
    p = model(M, M)
    gp = _core.GpuProfile(p, 16, "warp", S, runtime_compiled=True)
    ok = all(np.array_equal(_core.gpu_filter_scores(gp, small_t, w, *small), _core.filter_scores(p, w, *small), equal_nan=True) for w in ("ssv", "msv"))
    row, hashes = [], set()
    for pad in pads:
        os.environ["GPUSEQ_EXP_MULTI_SHARED_MIN"] = str(pad)
        r = []
        for w in ("ssv", "msv"):
            hashes.add((w, hashlib.sha1(np.asarray(_core.gpu_filter_scores(gp, targets, w)).tobytes()).hexdigest()))
            r.append(M * residues / _core.gpu_filter_kernel_seconds(gp, targets, w, repeats=5) / 1e12)
        row.append(f"{r[0]:6.2f} {r[1]:6.2f}")
    print(f"{S:>3} {gp.multi_stripes:>3} {M:>4} {ok and len(hashes) == 2!s:>5}  " + "    ".join(row), flush=True)
