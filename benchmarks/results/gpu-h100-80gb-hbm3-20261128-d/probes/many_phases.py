# In-process cascades of the 100 models over the resident packed database, as hmmsearch runs
# them (no downstream): wall time at several GPU_CASCADES_IN_FLIGHT, and each phase's wall
# summed over the models (at 1 in flight: each phase's own time).
import importlib, sys, time
import gpuseq
from gpuseq.hmm import search_profile, iter_hmms
from gpuseq.sequences import GPU_DATABASE_CHUNK_RESIDUES
hs = importlib.import_module("gpuseq.hmmsearch")
dbpath, hmmfile = sys.argv[1], sys.argv[2]
hmms = list(iter_hmms(hmmfile))
profiles = [search_profile(h) for h in hmms]
print("models", len(profiles), "M", sorted({p.M for p in profiles}))
db = gpuseq.SequenceDatabase.open(dbpath)
(chunk,) = list(db.chunks(GPU_DATABASE_CHUNK_RESIDUES, resident=True))
a = time.perf_counter(); targets = hs._upload(chunk); print(f"upload {time.perf_counter() - a:.3f} s")
filters = hs._Filters("cuda", 0.02, 1e-3, True, 1e-5)
a = time.perf_counter()
for p in profiles:
    filters.add(p)
print(f"GpuProfile x{len(profiles)}: {time.perf_counter() - a:.3f} s")
def go(in_flight):
    hs.GPU_CASCADES_IN_FLIGHT = in_flight
    t = time.perf_counter(); sums = {}; n = 0
    for q, r in filters.run(chunk, targets, 16, [range(len(profiles))]):
        for k, v in r.get("seconds", {}).items():
            sums[k] = sums.get(k, 0.0) + v
        n += len(r.get("survivors", []))
    return time.perf_counter() - t, sums, n
for in_flight, reps in ((8, 2), (1, 2), (4, 2), (8, 2), (16, 2), (32, 1)):
    for rep in range(reps):
        w, s, n = go(in_flight)
        print(f"in_flight {in_flight:2d} rep {rep}: {w:.3f} s ({w / len(profiles) * 1e3:.2f} ms a model), "
              f"survivors {n} | a model, phase walls: " + " ".join(f"{k}={v * 1e3 / len(profiles):.2f}" for k, v in s.items()) + " ms", flush=True)
