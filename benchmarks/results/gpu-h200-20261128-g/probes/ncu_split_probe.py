# One fused Viterbi launch per case under ncu (cuProfilerStart/Stop around it): one warp a target, and a
# model split over W warps (viterbi_split_kernel).
import sys, ctypes
sys.path.insert(0, "benchmarks")
from bench_hmm_filters import model, random_database
from gpuseq import _core
db = random_database(4e6, 350, 2)
targets = _core.GpuTargets(*db)
cuda = ctypes.CDLL("libcuda.so.1")
for M, W in ((1024, 1), (2000, 1), (2000, 2), (1600, 2), (2400, 2), (2400, 3), (3000, 4)):
    gp = _core.GpuProfile(model(M, M), 0, "warp_fused", 1, runtime_compiled=True,
                          viterbi_targets_per_warp=1, viterbi_warps_per_target=W)
    _core.gpu_filter_kernel_seconds(gp, targets, "viterbi", repeats=1)
    cuda.cuProfilerStart()
    s = _core.gpu_filter_kernel_seconds(gp, targets, "viterbi", repeats=1)
    cuda.cuProfilerStop()
    print(M, W, gp.viterbi_stripes, f"{M * int(db[1][-1]) / s / 1e9:.0f} GCUPS", flush=True)
