# S-lane SSV/MSV GCUPS at every H (2..48) for S = 16, 8, 4, 2 (16-bit lanes), M = W x H (every
# node used): NVRTC for the exact H (static where the set has it). Looks for slow H.
import sys, time
sys.path.insert(0, "benchmarks")
from bench_hmm_filters import model, random_database
from gpuseq import _core
db = random_database(100e6, 350, 1)
targets = _core.GpuTargets(*db)
cells_per_node = int(db[1][-1])
print(f"{'S':>3} {'H':>3} {'M':>5} {'nvrtc':>5} {'SSV GCUPS':>10} {'MSV GCUPS':>10} {'build s':>8}")
for S in (16, 8, 4, 2):
    W = 64 // S
    for H in range(20, 49):
        M = W * H
        p = model(M, M)
        t = time.perf_counter()
        gp = _core.GpuProfile(p, 16, "warp", S, runtime_compiled=True)
        built = time.perf_counter() - t
        assert gp.multi_stripes == H, (S, H, gp.multi_stripes)
        g = {w: M * cells_per_node / _core.gpu_filter_kernel_seconds(gp, targets, w, repeats=5) / 1e9
             for w in ("ssv", "msv")}
        print(f"{S:>3} {H:>3} {M:>5} {str(gp.runtime_compiled):>5} {g['ssv']:10.1f} {g['msv']:10.1f} {built:8.2f}", flush=True)
