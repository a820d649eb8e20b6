# The fused Viterbi's GCUPS as a search runs it (NVRTC, targets per warp by model length) on
# bench_hmm_filters' 10 M-residue Viterbi database, median of 5; scores equal to the CPU on a
# 300-target slice. Run under two builds (PYTHONPATH) for an A/B on one host.
import sys
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
cases = [("sampled", M, lambda M=M: model(M, M)) for M in (150, 200, 400, 640, 800, 1024, 1200, 1400, 1600, 2400)]
for name in ("globins4", "Pkinase", "LuxC", "Patched", "SMC_N"):
    M, p = pfam_model(name, Path(".carry/hmmer/examples"))
    cases.append((name, M, lambda p=p: p))
for label, M, make in cases:
    p = make()
    gp = _core.GpuProfile(p, 0, "warp_fused", 1, runtime_compiled=True)
    g = M * residues / _core.gpu_filter_kernel_seconds(gp, targets, "viterbi", repeats=5) / 1e9
    eq = np.array_equal(_core.gpu_filter_scores(gp, small_t, "viterbi", *small),
                        _core.filter_scores(p, "viterbi", *small), equal_nan=True)
    print(f"{label:>10} M={M:5d} T={gp.viterbi_targets_per_warp} Q={gp.viterbi_stripes:3d} {g:8.1f} GCUPS equal={eq}", flush=True)
