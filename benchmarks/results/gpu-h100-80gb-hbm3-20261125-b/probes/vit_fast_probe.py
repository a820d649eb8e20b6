# Fused Viterbi GCUPS with rows without floors on and off (NVRTC exact stripes), T = 1 and 2,
# on the bench's 10 M-residue Viterbi database (mean length 350), median of 5; equality to CPU
# on a 200-target slice for each.
import sys, time
import numpy as np
sys.path.insert(0, "benchmarks")
from bench_hmm_filters import model, random_database
from gpuseq import _core
db = random_database(10e6, 350, 2)
targets = _core.GpuTargets(*db)
residues = int(db[1][-1])
small = (db[0][: int(db[1][200])], db[1][:201])
small_t = _core.GpuTargets(*small)
Ms = [int(m) for m in (sys.argv[1] if len(sys.argv) > 1 else "50,100,150,200,256,400,520,640,800,1000,1024,1100,1200,1600,2400").split(",")]
print(f"{'M':>5} {'T':>2} {'Q':>3} {'min_move':>9} {'floors':>8} {'none':>8} {'x':>6}  equal", flush=True)
for M in Ms:
    p = model(M, M)
    cpu = _core.filter_scores(p, "viterbi", *small)
    for T in (1, 2):
        if T == 2 and M > 256:
            continue
        gp = _core.GpuProfile(p, 0, "warp_fused", 1, runtime_compiled=True, viterbi_targets_per_warp=T)
        g = {}
        eq = []
        for on in (False, True):
            _core.gpu_viterbi_rows_without_floors(on)
            g[on] = M * residues / _core.gpu_filter_kernel_seconds(gp, targets, "viterbi", repeats=5) / 1e9
            out = _core.gpu_filter_scores(gp, small_t, "viterbi", *small)
            eq.append(bool(np.array_equal(out, cpu, equal_nan=True)))
        _core.gpu_viterbi_rows_without_floors(True)
        mm = gp.viterbi_fast_min_move
        print(f"{M:>5} {T:>2} {gp.viterbi_stripes:>3} {mm if mm < 2**31-1 else 'never':>9} {g[False]:8.1f} {g[True]:8.1f} {g[True]/g[False]:6.2f}  {eq}", flush=True)
