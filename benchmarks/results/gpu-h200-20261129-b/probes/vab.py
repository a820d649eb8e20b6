"""Session 52: the fused Viterbi kernel of one wheel (this process's PYTHONPATH): for each case
the GpuProfile's making (NVRTC compiling where the cache lacks the kernel: timed), GCUPS on
10 M random residues (median of 5 launches) and the scores against the CPU filter's on a
2,000-target slice. Default kernel choice (targets per warp, warps per target by M).
argv[1]: label. Run from the repository root."""
import sys, time
from pathlib import Path
import numpy as np
sys.path.insert(0, "benchmarks")
from bench_hmm_filters import model, pfam_model, random_database
from gpuseq import _core

label = sys.argv[1]
cases = [("sampled", M, lambda M=M: model(M, M))
         for M in (50, 100, 150, 200, 256, 300, 400, 640, 1024, 1400, 2000, 2400, 3000)]
for name in "RRM_1 fn3 globins4 Pkinase Caudal_act LuxC Patched SMC_N".split():
    M, p = pfam_model(name, Path(".carry/hmmer/examples"))
    cases.append((name, M, lambda p=p: p))
db = random_database(10e6, 350, 2)
targets = _core.GpuTargets(*db)
residues = int(db[1][-1])
small = (db[0][: int(db[1][2000])], db[1][:2001])
small_t = _core.GpuTargets(*small)
for name, M, make in cases:
    p = make()
    t = time.perf_counter()
    gp = _core.GpuProfile(p)
    made = time.perf_counter() - t
    g = M * residues / _core.gpu_filter_kernel_seconds(gp, targets, "viterbi", repeats=5) / 1e9
    equal = np.array_equal(_core.gpu_filter_scores(gp, small_t, "viterbi", *small),
                           _core.filter_scores(p, "viterbi", *small), equal_nan=True)
    print(f"[{label:>8}] {name:>10} M={M:5d} T={gp.viterbi_targets_per_warp} "
          f"W={gp.viterbi_warps_per_target} Q={gp.viterbi_stripes:3d} rt={int(gp.runtime_compiled)} "
          f"made {made:5.2f} s {g:8.1f} GCUPS equal={equal}", flush=True)
