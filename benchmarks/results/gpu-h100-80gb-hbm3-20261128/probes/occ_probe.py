# Fused Viterbi at small stripe counts: resident stripes (GPUSEQ_PROBE_R) and launch-bound
# blocks (GPUSEQ_PROBE_MINB) through GPUSEQ_NVRTC_PROBE_DEFINES; GCUPS as vit_ab.py, scores
# equal to the CPU on a 300-target slice.
import os, sys, time
import numpy as np
sys.path.insert(0, "benchmarks")
from bench_hmm_filters import model, random_database, pfam_model
from pathlib import Path
from gpuseq import _core
db = random_database(10e6, 350, 2)
targets = _core.GpuTargets(*db)
residues = int(db[1][-1])
small = (db[0][: int(db[1][300])], db[1][:301])
small_t = _core.GpuTargets(*small)
cases = [("sampled", M, lambda M=M: model(M, M)) for M in (150, 200, 300, 400, 640, 800)]
for name in ("RRM_1", "globins4", "Pkinase"):
    M, p = pfam_model(name, Path(".carry/hmmer/examples"))
    cases.append((name, M, lambda p=p: p))
label = os.environ.get("GPUSEQ_NVRTC_PROBE_DEFINES", "base")
for name, M, make in cases:
    p = make()
    t = time.time()
    gp = _core.GpuProfile(p, 0, "warp_fused", 1, runtime_compiled=True)
    c = time.time() - t
    g = M * residues / _core.gpu_filter_kernel_seconds(gp, targets, "viterbi", repeats=5) / 1e9
    eq = np.array_equal(_core.gpu_filter_scores(gp, small_t, "viterbi", *small),
                        _core.filter_scores(p, "viterbi", *small), equal_nan=True)
    print(f"[{label}] {name:>9} M={M:5d} T={gp.viterbi_targets_per_warp} Q={gp.viterbi_stripes:3d} {g:8.1f} GCUPS equal={eq} compile {c:.1f}s", flush=True)
