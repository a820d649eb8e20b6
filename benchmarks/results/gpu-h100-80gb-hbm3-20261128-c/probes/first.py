# A fresh process: each model's first cascade alone (NVRTC cache counters, the model's GPU
# choices), then again; then nvrtc_info's cost.
import importlib, sys, time
T0 = time.perf_counter()
import gpuseq
from gpuseq import _core
from gpuseq.hmm import search_profile, iter_hmms
from gpuseq.sequences import GPU_DATABASE_CHUNK_RESIDUES
hs = importlib.import_module("gpuseq.hmmsearch")
tag, dbpath, hmmfile = sys.argv[1], sys.argv[2], sys.argv[3]
hmms = list(iter_hmms(hmmfile))
names = [h.name if isinstance(h.name, str) else h.name.decode() for h in hmms]
profiles = [search_profile(h) for h in hmms]
t = time.perf_counter(); _core.cuda_initialize(); print(f"[{tag}] cuda_initialize {time.perf_counter() - t:.3f}")
db = gpuseq.SequenceDatabase.open(dbpath)
(chunk,) = list(db.chunks(GPU_DATABASE_CHUNK_RESIDUES, resident=True))
targets = hs._upload(chunk)
hs.GPU_CASCADES_IN_FLIGHT = 1
filters = hs._Filters("cuda", 0.02, 1e-3, True, 1e-5)
for q, p in enumerate(profiles):
    s0 = dict(_core.nvrtc_cache_stats()); t = time.perf_counter()
    filters.add(p)
    g = filters.gpu[q]
    ta = time.perf_counter() - t
    s1 = dict(_core.nvrtc_cache_stats())
    attrs = {k: getattr(g, k) for k in dir(g) if not k.startswith("_") and isinstance(getattr(g, k, None), (int, bool))}
    print(f"[{tag}] {names[q]} M={p.M} add {ta:.3f} s nvrtc {({k: s1[k] - s0[k] for k in s1})} {attrs}", flush=True)
for rep in range(2):
    for q in range(len(profiles)):
        s0 = dict(_core.nvrtc_cache_stats()); t = time.perf_counter()
        ((_, r),) = list(filters.run(chunk, targets, 16, [[q]]))
        dt = time.perf_counter() - t; s1 = dict(_core.nvrtc_cache_stats())
        print(f"[{tag}] rep {rep} {names[q]}: {dt:.3f} s nvrtc {({k: s1[k] - s0[k] for k in s1})} " + ",".join(f"{k[:6]}={v*1e3:.0f}" for k, v in r['seconds'].items() if v > 5e-4), flush=True)
print(f"[{tag}] total {time.perf_counter() - T0:.3f}")
