# The hand-back's fused run with one target a warp (T = 1) against the default T (by model
# length): GCUPS of the systolic path on 10 M random residues, and the hand-back's share.
import sys
from pathlib import Path
sys.path.insert(0, "benchmarks")
from bench_hmm_filters import model, pfam_model, random_database
from gpuseq import _core
db = random_database(10e6, 350, 2)
targets = _core.GpuTargets(*db)
cases = [(n, pfam_model(n, Path(".carry/hmmer/examples"))[1]) for n in ("Caudal_act", "globins4", "Pkinase")]
cases.append(("sampled384", model(384, 384)))
for name, p in cases:
    for T in (0, 1):
        for systolic in (1, -1):
            gp = _core.GpuProfile(p, 0, "warp_fused", 0, viterbi_targets_per_warp=T, viterbi_systolic=systolic)
            s = _core.gpu_filter_kernel_seconds(gp, targets, "viterbi", repeats=5)
            c = _core.gpu_viterbi_systolic_counts() if systolic == 1 else None
            extra = f" handed back {c['handed_back']}: {c['handed_back_seconds']*1e3:.3f} ms" if c else ""
            print(f"{name:>11} M={p.M} T={gp.viterbi_targets_per_warp} systolic={systolic:2d} {p.M * int(db[1][-1]) / s / 1e9:8.1f} GCUPS {s*1e3:.3f} ms{extra}", flush=True)
