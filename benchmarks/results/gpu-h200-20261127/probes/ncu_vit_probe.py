# One fused Viterbi launch per case under ncu (cuProfilerStart/Stop around it), as a search runs it.
import sys, ctypes
sys.path.insert(0, "benchmarks")
from pathlib import Path
from bench_hmm_filters import model, random_database, pfam_model
from gpuseq import _core
db = random_database(4e6, 350, 2)
targets = _core.GpuTargets(*db)
cuda = ctypes.CDLL("libcuda.so.1")
cases = [("globins4", pfam_model("globins4", Path(".carry/hmmer/examples"))[1]), ("M200", model(200, 200)),
         ("M400", model(400, 400)), ("M1600", model(1600, 1600)), ("M2400", model(2400, 2400))]
for name, p in cases:
    gp = _core.GpuProfile(p, 0, "warp_fused", 1, runtime_compiled=True)
    _core.gpu_filter_kernel_seconds(gp, targets, "viterbi", repeats=1)
    cuda.cuProfilerStart()
    _core.gpu_filter_kernel_seconds(gp, targets, "viterbi", repeats=1)
    cuda.cuProfilerStop()
    print(name, gp.viterbi_targets_per_warp, gp.viterbi_stripes, flush=True)
