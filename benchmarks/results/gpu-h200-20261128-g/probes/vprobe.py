# Fused Viterbi GCUPS, one variant a process (GPUSEQ_NVRTC_PROBE_DEFINES, every kernel through
# NVRTC: GPUSEQ_PROBE_FORCE_NVRTC); targets per warp by model length; 10 M random residues of
# log-normal lengths, median of 5; scores equal to the CPU's on a 2000-target slice.
# argv[1]: label; argv[2]: "warm" (compile only) or "run".
import os, sys, time
import numpy as np
sys.path.insert(0, "benchmarks")
from bench_hmm_filters import model, random_database, pfam_model
from pathlib import Path
from gpuseq import _core
label, mode = sys.argv[1], sys.argv[2]
part = os.environ.get("PART")  # "i/n": this process's share of the cases (warm-up)
Ms = [int(m) for m in os.environ.get("VIT_M", "50 100 150 200 256 300 400 640 1024 1400").split()]
cases = [("sampled", M, lambda M=M: model(M, M)) for M in Ms]
for name in os.environ.get("VIT_PFAM", "RRM_1 fn3 2OG-FeII_Oxy_3 globins4 Pkinase Caudal_act LuxC Patched SMC_N").split():
    M, p = pfam_model(name, Path(".carry/hmmer/examples"))
    cases.append((name, M, lambda p=p: p))
if mode == "run":
    db = random_database(10e6, 350, 2)
    targets = _core.GpuTargets(*db)
    residues = int(db[1][-1])
    small = (db[0][: int(db[1][2000])], db[1][:2001])
    small_t = _core.GpuTargets(*small)
if part:
    i, n = map(int, part.split("/"))
    cases = cases[i::n]
for name, M, make in cases:
    p = make()
    t = time.time()
    try:
      gp = _core.GpuProfile(p, 0, "warp_fused", 0, runtime_compiled=True,
                         viterbi_targets_per_warp=int(os.environ.get("VIT_T", "0")),
                         viterbi_warps_per_target=int(os.environ.get("VIT_W", "1")))
    except ValueError as err:
      print(f"[{label}] skip {name} M={M}: {err}", flush=True)
      continue
    c = time.time() - t
    if mode != "run":
        print(f"[{label}] warm {name} M={M} Q={gp.viterbi_stripes} rt={gp.runtime_compiled} {c:.1f}s", flush=True)
        continue
    g = M * residues / _core.gpu_filter_kernel_seconds(gp, targets, "viterbi", repeats=5) / 1e9
    eq = os.environ.get("EQ") == "1" and np.array_equal(_core.gpu_filter_scores(gp, small_t, "viterbi", *small),
                        _core.filter_scores(p, "viterbi", *small), equal_nan=True)
    print(f"[{label:>6}] {name:>15} M={M:5d} T={gp.viterbi_targets_per_warp} Q={gp.viterbi_stripes:3d} W={gp.viterbi_warps_per_target} {g:8.1f} GCUPS equal={eq} rt={gp.runtime_compiled}", flush=True)
