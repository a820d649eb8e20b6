"""Session 69: api_fuzz.py seed 406's case 113 again (its models and database replayed from the
seed, carried): the CPU backend with cpus 16, block_bytes 60000, max, Z 7, run again and again
in one process, a GPU search before each; each result's hits against hmmsearch's 4,596.

    python3 repro406.py DIR SECONDS [BACKENDS]"""

import sys
import time

import gpuseq

folder, seconds = sys.argv[1], float(sys.argv[2])
models, db = f"{folder}/queries.hmm", f"{folder}/db.fa"
kw = dict(cpus=16, block_bytes=60000, max=True, Z=7.0, progress=False)
first = None
BACKENDS = sys.argv[3].split(",") if len(sys.argv) > 3 else ["cuda", "cpu"]
end, runs = time.time() + seconds, 0
while time.time() < end:
    for backend in BACKENDS:
        t = time.time()
        r = gpuseq.hmmsearch(models, db, backend=backend, **kw)
        counts = r.pipeline[["n_past_msv", "n_past_fwd", "domZ", "n_reported"]].values.tolist()
        names = set(zip(r.hits["query_name"], r.hits["target_name"]))
        first = first or names
        print(f"run {runs} {backend}: {time.time() - t:.1f} s, {len(r.hits)} hits, {counts}, "
              f"missing {sorted(first - names)[:40]}, extra {sorted(names - first)[:40]}",
              flush=True)
    runs += 1
