# SSV/MSV warp kernels (one target per warp, the launcher's S for M > 1536) with the table in
# shared memory against L1 (gpu_warp_tables_in_shared), alternated in one process, NVRTC and
# static; 100 M random residues, median of 5 launches each.
import sys
sys.path.insert(0, "benchmarks")
from bench_hmm_filters import model, random_database
from gpuseq import _core
db = random_database(100e6, 350, 1)
targets = _core.GpuTargets(*db)
cells_per_node = int(db[1][-1])
print(f"{'M':>5} {'nvrtc':>5} {'Q':>3} {'table':>6} {'SSV':>8} {'MSV':>8}  (TCUPS as GCUPS)")
for M in (1537, 1600, 1900, 2400, 3000, 3072):
    p = model(M, M)
    for rc in (True, False):
        gp = _core.GpuProfile(p, 16, "auto", 0, runtime_compiled=rc)
        for rnd in range(2):
            for on in (False, True):
                _core.gpu_warp_tables_in_shared(on)
                g = {w: M * cells_per_node / _core.gpu_filter_kernel_seconds(gp, targets, w, repeats=5) / 1e9
                     for w in ("ssv", "msv")}
                print(f"{M:5d} {str(gp.runtime_compiled):>5} {gp.msv_stripes:3d} {'shared' if on else 'L1':>6} {g['ssv']:8.1f} {g['msv']:8.1f}", flush=True)
_core.gpu_warp_tables_in_shared(True)
