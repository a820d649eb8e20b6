# Where a process's first cascade spends its extra time: a tiny target set first (per-process
# costs: kernel loading ...), then the whole chunk (per-chunk costs: the launch order ...).
import importlib, os, sys, time
import numpy as np
T0 = time.perf_counter()
import gpuseq
from gpuseq import _core
from gpuseq.hmm import search_profile, iter_hmms
from gpuseq.sequences import GPU_DATABASE_CHUNK_RESIDUES
hs = importlib.import_module("gpuseq.hmmsearch")
tag, dbpath, hmmfile = sys.argv[1], sys.argv[2], sys.argv[3]
hmms = list(iter_hmms(hmmfile))
profiles = [search_profile(h) for h in hmms]
t = time.perf_counter(); _core.cuda_initialize(); ti = time.perf_counter() - t
db = gpuseq.SequenceDatabase.open(dbpath)
(chunk,) = list(db.chunks(GPU_DATABASE_CHUNK_RESIDUES, resident=True))
t = time.perf_counter(); targets = hs._upload(chunk); tu = time.perf_counter() - t
g = _core.GpuProfile(profiles[0])
n = 2000
off = np.ascontiguousarray(chunk.offsets[: n + 1]); res = np.ascontiguousarray(chunk.residues[: off[-1]])
t = time.perf_counter(); tiny = _core.GpuTargets(res, off); tt = time.perf_counter() - t
def cascade(tg):
    t = time.perf_counter()
    r = _core.gpu_run_cascade(g, tg, F1=0.02, F2=1e-3, bias_filter=True, threads=16, F3=1e-5, all_scores=False)
    return time.perf_counter() - t, r["seconds"]
out = [f"[{tag} {os.environ.get('CUDA_MODULE_LOADING', 'default')}] init {ti:.3f} upload {tu:.3f} tiny-upload {tt:.3f}"]
for label, tg in (("tiny", tiny), ("tiny", tiny), ("full", targets), ("full", targets)):
    dt, ph = cascade(tg)
    out.append(f"{label} {dt*1e3:.0f} ms (ssv {ph['ssv_kernel']*1e3:.0f} setup {ph['setup']*1e3:.0f} msv {ph['msv']*1e3:.0f})")
print(" | ".join(out), flush=True)
