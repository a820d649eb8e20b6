# S-lane SSV/MSV GCUPS at every H for S = 16 (H 16-48) and 8, 4, 2 (H 25-48: the counts the
# paper's rule gives them), 16-bit lanes, M = W x H (every node used), NVRTC for the exact H
# (static where the set has it); 100 M random residues, median of 5. Looks for slow H on the
# current kernels (claimed targets, longest first). Then hmmer-examples' models as a search
# runs them (S by model length, H past the slow counts) and sampled models of their lengths.
import sys, time
import numpy as np
from pathlib import Path
sys.path.insert(0, "benchmarks")
from bench_hmm_filters import model, random_database, pfam_model
from gpuseq import _core
db = random_database(100e6, 350, 1)
targets = _core.GpuTargets(*db)
cells_per_node = int(db[1][-1])
small = (db[0][: int(db[1][300])], db[1][:301])
small_t = _core.GpuTargets(*small)
def equal(gp, p):
    return all(np.array_equal(_core.gpu_filter_scores(gp, small_t, w, *small),
                              _core.filter_scores(p, w, *small), equal_nan=True) for w in ("ssv", "msv"))
_core.gpu_warp_stripes_past_slow(False)  # every exact H, slow or not
def rate(gp, M):
    return {w: M * cells_per_node / _core.gpu_filter_kernel_seconds(gp, targets, w, repeats=5) / 1e9
            for w in ("ssv", "msv")}
print(f"{'S':>3} {'H':>3} {'M':>5} {'H got':>5} {'nvrtc':>5} {'SSV GCUPS':>10} {'MSV GCUPS':>10}", flush=True)
for S in (16, 8, 4, 2):
    W = 64 // S
    for H in range(16 if S == 16 else 25, 49):
        M = W * H
        try:
            p = model(M, M)
            gp = _core.GpuProfile(p, 16, "warp", S, runtime_compiled=True)
        except Exception as e:
            print(f"{S:>3} {H:>3} {M:>5} error {e}", flush=True); continue
        g = rate(gp, M)
        print(f"{S:>3} {H:>3} {M:>5} {gp.multi_stripes:>3} {str(gp.runtime_compiled):>5} {g['ssv']:10.1f} {g['msv']:10.1f} equal={equal(gp, p)}", flush=True)
_core.gpu_warp_stripes_past_slow(True)
print("\nmodels as a search runs them (S chosen, ssv_multi on)")
cases = [(n,) + pfam_model(n, Path(".carry/hmmer/examples")) for n in ("globins4", "Pkinase", "LuxC", "Patched", "SMC_N")]
cases += [(f"sampled", M, model(M, M)) for M in (149, 200, 260, 400, 800, 803, 1142, 1200)]
for name, M, p in cases:
    gp = _core.GpuProfile(p, 16, "warp", 0, runtime_compiled=True)
    gp.ssv_multi = True
    g = rate(gp, M)
    print(f"{name:>9} M={M:5d} S={gp.sequences_per_warp:3d} H={gp.multi_stripes:3d} SSV {g['ssv']:8.1f} MSV {g['msv']:8.1f} equal={equal(gp, p)}", flush=True)
