# Fused Viterbi, one target a warp against two, M 240-352 (the bound of choose_viterbi_targets_per_warp):
# GCUPS as vit_ab2.py (10 M residues, median of 5), scores equal to the CPU on a 300-target slice.
import sys, time
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
cases = [("sampled", M, model(M, M)) for M in (240, 256, 257, 280, 300, 320, 352)]
M, p = pfam_model("Pkinase", Path(".carry/hmmer/examples")); cases.append(("Pkinase", M, p))
for name, M, p in cases:
    out = []
    for T in (1, 2):
        gp = _core.GpuProfile(p, 0, "warp_fused", 0, True, T)
        g = M * residues / _core.gpu_filter_kernel_seconds(gp, targets, "viterbi", repeats=5) / 1e9
        eq = np.array_equal(_core.gpu_filter_scores(gp, small_t, "viterbi", *small),
                            _core.filter_scores(p, "viterbi", *small), equal_nan=True)
        out.append(f"T={T} Q={gp.viterbi_stripes:2d} nvrtc={int(gp.runtime_compiled)} {g:7.1f} eq={eq}")
    print(f"{name:>8} M={M:4d}  " + "   ".join(out), flush=True)
