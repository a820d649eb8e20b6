# One fused Viterbi launch per case under ncu (cuProfilerStart/Stop around it).
import sys, ctypes
sys.path.insert(0, "benchmarks")
from bench_hmm_filters import model, random_database
from gpuseq import _core
db = random_database(4e6, 350, 2)
targets = _core.GpuTargets(*db)
cuda = ctypes.CDLL("libcuda.so.1")
for M, T in [(200, 2), (640, 1), (1024, 1), (1200, 1)]:
    gp = _core.GpuProfile(model(M, M), 0, "warp_fused", 1, runtime_compiled=True, viterbi_targets_per_warp=T)
    _core.gpu_filter_kernel_seconds(gp, targets, "viterbi", repeats=1)
    cuda.cuProfilerStart()
    _core.gpu_filter_kernel_seconds(gp, targets, "viterbi", repeats=1)
    cuda.cuProfilerStop()
    print(M, T, gp.viterbi_stripes, flush=True)
