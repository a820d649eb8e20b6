# The systolic pipeline with its J layer against the fused kernel alone: GCUPS on 10 M random
# residues (as bench_hmm_filters' Viterbi rows), scores equal to the fused kernel's on every
# target, and the targets handed back.
import os, sys
from pathlib import Path
import numpy as np
sys.path.insert(0, "benchmarks")
from bench_hmm_filters import model, pfam_model, random_database
from gpuseq import _core
db = random_database(10e6, 350, 2)
res, off = db
targets = _core.GpuTargets(*db)
cases = [(f"sampled{M}", model(M, M)) for M in (100, 129, 150, 200, 256, 300, 384)]
cases += [(n, pfam_model(n, Path(".carry/hmmer/examples"))[1]) for n in ("RRM_1", "fn3", "Caudal_act", "globins4", "Pkinase")]
for rnd in range(1):
    for name, p in cases:
        ref = None
        for label, systolic in (("fused", -1), ("systolic", 1)):
            gp = _core.GpuProfile(p, 0, "warp_fused", 0, viterbi_systolic=systolic)
            if rnd == 0:
                scores = _core.gpu_filter_scores(gp, targets, "viterbi", res, off)
                if ref is None:
                    ref = scores
                same = np.array_equal(scores.view(np.uint32), ref.view(np.uint32))
            else:
                same = "-"
            s = _core.gpu_filter_kernel_seconds(gp, targets, "viterbi", repeats=7)
            c = _core.gpu_viterbi_systolic_counts() if systolic == 1 else None
            extra = (f" back {c['handed_back']}: {c['handed_back_seconds']*1e3:.3f} ms"
                     f" piped {c['piped_seconds']*1e3:.3f} ms") if c else ""
            print(f"r{rnd} {name:>11} M={p.M} T={gp.viterbi_targets_per_warp} {label:>9} {p.M * int(off[-1]) / s / 1e9:8.1f} GCUPS {s*1e3:.3f} ms same={same}{extra}", flush=True)
