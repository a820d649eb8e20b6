# In-process cascades over the packed database as hmmsearch runs them on the GPU (one resident
# chunk): all models at once (GPU_CASCADES_IN_FLIGHT), then each model alone; wall times and
# the cascade's own phase seconds.
import importlib, sys, time
import gpuseq
from gpuseq.hmm import search_profile, iter_hmms
from gpuseq.sequences import GPU_DATABASE_CHUNK_RESIDUES
hs = importlib.import_module("gpuseq.hmmsearch")
tag, dbpath, hmmfile, reps = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
hmms = list(iter_hmms(hmmfile))
names = [h.name if isinstance(h.name, str) else h.name.decode() for h in hmms]
profiles = [search_profile(h) for h in hmms]
db = gpuseq.SequenceDatabase.open(dbpath)
(chunk,) = list(db.chunks(GPU_DATABASE_CHUNK_RESIDUES, resident=True))
a = time.perf_counter(); targets = hs._upload(chunk); print(f"[{tag}] upload {time.perf_counter() - a:.3f} s")
filters = hs._Filters("cuda", 0.02, 1e-3, True, 1e-5)
for p in profiles:
    filters.add(p)
in_flight = hs.GPU_CASCADES_IN_FLIGHT
for mode in ("together", "alone"):
    hs.GPU_CASCADES_IN_FLIGHT = in_flight if mode == "together" else 1
    for rep in range(reps):
        t1 = time.perf_counter(); prev = 0.0
        lines = []
        for q, r in filters.run(chunk, targets, 16, [range(len(profiles))]):
            t = time.perf_counter() - t1
            ph = r.get("seconds", {})
            lines.append(f"{names[q]}:{t - (prev if mode == 'alone' else 0):.3f}(" + ",".join(f"{k[:4]}={v*1e3:.0f}" for k, v in ph.items() if v > 5e-4) + f";n={len(r.get('survivors', []))})")
            prev = t
        print(f"[{tag}] {mode} rep {rep}: {time.perf_counter() - t1:.3f} s | " + " ".join(lines), flush=True)
