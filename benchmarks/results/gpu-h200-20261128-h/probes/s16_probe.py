# Session 48: S = 16 past H = 48 (up to 56, where the 4 KB-a-stripe shared table still fits one
# block: 56 x 4096 = 229376 <= 232448 bytes) against S = 8 at the same M, SSV and MSV TCUPS per
# real node, NVRTC, 100 M random residues, median of 5; scores against the CPU's on a 300-target
# slice and the two S's scores hashed equal to each other.
import hashlib, sys
import numpy as np
sys.path.insert(0, "benchmarks")
from bench_hmm_filters import model, random_database
from gpuseq import _core
db = random_database(100e6, 350, 1)
targets = _core.GpuTargets(*db)
residues = int(db[1][-1])
small = (db[0][: int(db[1][300])], db[1][:301])
small_t = _core.GpuTargets(*small)
Ms = [int(x) for x in sys.argv[1].split(",")]
Ss = [int(x) for x in sys.argv[2].split(",")]
print(f"{'M':>4} {'S':>3} {'H':>3} cpu_eq   SSV    MSV  hashes", flush=True)
for M in Ms:
    p = model(M, M)
    hashes = {}
    for S in Ss:
        try:
            gp = _core.GpuProfile(p, 16, "warp", S, runtime_compiled=True)
        except ValueError as err:
            print(f"{M:>4} {S:>3} skip: {err}", flush=True)
            continue
        ok = all(np.array_equal(_core.gpu_filter_scores(gp, small_t, w, *small), _core.filter_scores(p, w, *small), equal_nan=True) for w in ("ssv", "msv"))
        r, h = [], []
        for w in ("ssv", "msv"):
            h.append(hashlib.sha1(np.asarray(_core.gpu_filter_scores(gp, targets, w)).tobytes()).hexdigest()[:8])
            r.append(M * residues / _core.gpu_filter_kernel_seconds(gp, targets, w, repeats=5) / 1e12)
        hashes[S] = tuple(h)
        print(f"{M:>4} {S:>3} {gp.multi_stripes:>3} {ok!s:>6} {r[0]:6.2f} {r[1]:6.2f}  {' '.join(h)}", flush=True)
    print(f"{M:>4} all S equal: {len(set(hashes.values())) == 1}", flush=True)
