# Fused Viterbi GCUPS (NVRTC, targets per warp by model length) on bench_hmm_filters' 10 M-residue
# database, median of 5; scores equal to the CPU on a 300-target slice. argv[1]: label.
import os, sys, time
import numpy as np
sys.path.insert(0, "benchmarks")
from bench_hmm_filters import model, random_database, pfam_model
from pathlib import Path
from gpuseq import _core
label = sys.argv[1]
db = random_database(10e6, 350, 2)
targets = _core.GpuTargets(*db)
residues = int(db[1][-1])
small = (db[0][: int(db[1][300])], db[1][:301])
small_t = _core.GpuTargets(*small)
Ms = [int(m) for m in os.environ.get("VIT_M", "100 150 200 256 300 400 520 640 800 1024 1200 1400 2400").split()]
cases = [("sampled", M, lambda M=M: model(M, M)) for M in Ms]
for name in os.environ.get("VIT_PFAM", "RRM_1 globins4 Pkinase LuxC Patched SMC_N").split():
    M, p = pfam_model(name, Path(".carry/hmmer/examples"))
    cases.append((name, M, lambda p=p: p))
for name, M, make in cases:
    p = make()
    t = time.time()
    gp = _core.GpuProfile(p, 0, "warp_fused", 0, runtime_compiled=True)
    c = time.time() - t
    g = M * residues / _core.gpu_filter_kernel_seconds(gp, targets, "viterbi", repeats=5) / 1e9
    eq = np.array_equal(_core.gpu_filter_scores(gp, small_t, "viterbi", *small),
                        _core.filter_scores(p, "viterbi", *small), equal_nan=True)
    print(f"[{label:>7}] {name:>9} M={M:5d} T={gp.viterbi_targets_per_warp} Q={gp.viterbi_stripes:3d} {g:8.1f} GCUPS equal={eq} compile {c:.1f}s", flush=True)
