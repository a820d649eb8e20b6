# One S-lane SSV launch per (S, H) under ncu (cuProfilerStart/Stop around it), exact H (NVRTC).
import sys, ctypes
sys.path.insert(0, "benchmarks")
from bench_hmm_filters import model, random_database
from gpuseq import _core
db = random_database(20e6, 350, 2)
targets = _core.GpuTargets(*db)
cuda = ctypes.CDLL("libcuda.so.1")
_core.gpu_warp_stripes_past_slow(False)
for S, H in [(8, 27), (8, 28), (8, 29), (8, 30), (8, 37), (8, 38), (8, 46), (8, 47)]:
    p = model((64 // S) * H, (64 // S) * H)
    gp = _core.GpuProfile(p, 16, "warp", S, runtime_compiled=True)
    _core.gpu_filter_kernel_seconds(gp, targets, "ssv", repeats=1)
    cuda.cuProfilerStart()
    _core.gpu_filter_kernel_seconds(gp, targets, "ssv", repeats=1)
    cuda.cuProfilerStop()
    print(S, H, gp.multi_stripes, flush=True)
