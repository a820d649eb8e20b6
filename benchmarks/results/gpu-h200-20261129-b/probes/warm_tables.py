"""Session 52: what the warm (disk-cached) tables cost a model: the 24 spread models of
cold.py (made there on this host), each GpuProfile made with a cold cache first (to fill it),
then in a new process state (kernels dropped, cache on disk) one after another, then on 16
threads. Run after cold.py (reads /tmp/cold/spread.hmm)."""
import os, time
from concurrent.futures import ThreadPoolExecutor
from pyhmmer.plan7 import HMMFile
from gpuseq import _core
from gpuseq.hmm import search_profile
os.environ["GPUSEQ_CACHE_DIR"] = "/tmp/kc-warm-tables"
with HMMFile("/tmp/cold/spread.hmm") as f:
    profiles = [search_profile(h) for h in f]
def made(p):
    t = time.perf_counter(); _core.GpuProfile(p); return time.perf_counter() - t
t = time.perf_counter()
with ThreadPoolExecutor(16) as pool:
    list(pool.map(made, profiles))
print(f"cold, 16 threads: {time.perf_counter() - t:.2f} s", flush=True)
for how in ("one after another", "16 threads"):
    _core.gpu_clear_runtime_kernels()
    t = time.perf_counter()
    if how == "16 threads":
        with ThreadPoolExecutor(16) as pool:
            each = list(pool.map(made, profiles))
    else:
        each = [made(p) for p in profiles]
    print(f"warm, {how}: {time.perf_counter() - t:.3f} s (each {min(each)*1e3:.1f}-{max(each)*1e3:.1f} ms)", flush=True)
s0 = _core.nvrtc_cache_stats(); print(s0)
