# Session 48: one fused/split Viterbi launch per case under ncu (cuProfilerStart/Stop), the
# kernels' choices by model length (targets per warp, warps per target), 4 M random residues.
import sys, ctypes
sys.path.insert(0, "benchmarks")
from pathlib import Path
from bench_hmm_filters import model, random_database, pfam_model
from gpuseq import _core
db = random_database(4e6, 350, 2)
targets = _core.GpuTargets(*db)
cuda = ctypes.CDLL("libcuda.so.1")
ex = Path(".carry/hmmer/examples")
cases = [("M50", model(50, 50)), ("M100", model(100, 100)), ("globins4", pfam_model("globins4", ex)[1]),
         ("M150", model(150, 150)), ("M400", model(400, 400)), ("M1024", model(1024, 1024)),
         ("M2400", model(2400, 2400))]
for name, p in cases:
    gp = _core.GpuProfile(p, 0, "warp_fused", 0, runtime_compiled=True)
    _core.gpu_filter_kernel_seconds(gp, targets, "viterbi", repeats=1)
    cuda.cuProfilerStart()
    _core.gpu_filter_kernel_seconds(gp, targets, "viterbi", repeats=1)
    cuda.cuProfilerStop()
    print(name, "T", gp.viterbi_targets_per_warp, "Q", gp.viterbi_stripes, "W", gp.viterbi_warps_per_target, flush=True)
