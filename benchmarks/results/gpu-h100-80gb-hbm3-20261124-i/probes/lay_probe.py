# S-lane SSV/MSV GCUPS at the H the launcher picks for M = 149, 200, 400, 800, 1200 (16-bit,
# NVRTC): run once per build (PYTHONPATH picks the build); the caller alternates builds.
import sys, time
sys.path.insert(0, "benchmarks")
from bench_hmm_filters import model, random_database
from gpuseq import _core
db = random_database(100e6, 350, 1)
targets = _core.GpuTargets(*db)
cells_per_node = int(db[1][-1])
for M in (149, 200, 400, 800, 1200):
    p = model(M, M)
    gp = _core.GpuProfile(p, 16, "warp", 0, runtime_compiled=True)
    gp.ssv_multi = True
    g = {w: M * cells_per_node / _core.gpu_filter_kernel_seconds(gp, targets, w, repeats=5) / 1e9
         for w in ("ssv", "msv")}
    print(f"M {M:5d} S {gp.sequences_per_warp:3d} H {gp.multi_stripes:3d} SSV {g['ssv']:8.1f} MSV {g['msv']:8.1f}", flush=True)
