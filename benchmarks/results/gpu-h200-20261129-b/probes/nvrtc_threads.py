"""Session 52: how NVRTC's compilations scale with threads on this host: ten fused Viterbi
kernels (one program each, no disk cache) one after another, then on 2, 5 and 10 threads."""
import time
from concurrent.futures import ThreadPoolExecutor
from gpuseq import _core
NS = "gpuseq::cuda::hmm::"
programs = [[f"{NS}viterbi_fused_kernel<{q}, {t}>"] for q, t in
            ((9, 2), (10, 2), (11, 2), (12, 2), (13, 2), (14, 2), (11, 1), (13, 1), (18, 1), (21, 1))]
def one(names):
    t = time.perf_counter(); _core.nvrtc_compile(names, "sm_90a", cache=False)
    return time.perf_counter() - t
one(programs[0])  # load NVRTC
alone = [one(p) for p in programs]
print(f"one after another: {sum(alone):.2f} s (each {min(alone):.2f}-{max(alone):.2f} s)", flush=True)
for threads in (2, 5, 10):
    t = time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        each = list(pool.map(one, programs))
    print(f"{threads:2d} threads: {time.perf_counter() - t:.2f} s (each {min(each):.2f}-{max(each):.2f} s)", flush=True)
# The same ten as ten processes at once (no lock of this process shared).
import subprocess, sys
t = time.perf_counter()
procs = [subprocess.Popen([sys.executable, "-c", "import sys; from gpuseq import _core; "
                           f"_core.nvrtc_compile([sys.argv[1]], 'sm_90a', cache=False)", p[0]])
         for p in programs]
for p in procs:
    p.wait()
print(f"10 processes: {time.perf_counter() - t:.2f} s (each started a Python with gpuseq)", flush=True)
