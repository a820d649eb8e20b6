"""Session 52: `gpuseq hmmsearch` with a cold and a warm NVRTC disk cache, two wheels
alternated (old: every model's kernels compiled one after another on the main thread once the
first chunk is uploaded; new: each model's tables started on a pool as it is read, NVRTC
compiling several programs at once). Each run is a process, timed from its start to its end,
with its own empty cache directory for the cold run, the same one again for the warm run.
Usage: cold.py OLD_WHEEL NEW_WHEEL ROUNDS (run from the repository root)."""
import os, shutil, subprocess, sys, time
from pathlib import Path

old, new, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
work = Path("/tmp/cold")
work.mkdir(exist_ok=True)
site = "/tmp/site"
env0 = {**os.environ, "PYTHONPATH": f"{new}:{site}:tests"}

# The query sets and the database, made once with the new wheel (deterministic).
if not (work / "db.gsdb").exists():
    subprocess.run([sys.executable, "-c", """
import numpy as np, gpuseq, gzip, shutil
from pathlib import Path
from pyhmmer.plan7 import HMMFile, Builder, Background
from pyhmmer.easel import Alphabet, TextSequence
from synthetic import random_proteins, plant
w = Path('/tmp/cold'); ex = Path('.carry/hmmer/examples')
# six: the bench's models (hmmer-examples); spread: 24 models, M 50 to 2400, log-spaced
with open(w / 'six.hmm', 'wb') as out:
    for n in 'RRM_1,globins4,Pkinase,LuxC,Patched,SMC_N'.split(','):
        src = ex / 'tutorial' / f'{n}.hmm'
        if not src.exists(): src = ex / 'testsuite' / f'{n}.hmm.gz'
        with (gzip.open if src.suffix == '.gz' else open)(src, 'rb') as f, HMMFile(f) as hf:
            next(iter(hf)).write(out)  # one format for all (3/e and 3/f do not mix in a file)
rng = np.random.default_rng(52)
Ms = np.unique(np.round(np.geomspace(50, 2400, 24)).astype(int))
abc = Alphabet.amino(); builder = Builder(abc, seed=42); background = Background(abc)
queries = []  # single-sequence models (phmmer's, calibrated by the builder), M 50 to 2400
with open(w / 'spread.hmm', 'wb') as out:
    for M in Ms:
        seq = random_proteins(rng, 1, int(M), int(M), int(M))[0]
        hmm, _, _ = builder.build(TextSequence(name=f'seq{M}'.encode(), sequence=seq).digitize(abc), background)
        hmm.write(out); queries.append(seq)
seqs = random_proteins(rng, 57000, mean_length=350)
seqs += [plant(rng, q) for q in queries for _ in range(3)]
with open(w / 'db.fa', 'w') as f:
    for i, s in enumerate(seqs): f.write(f'>t{i}\\n{s}\\n')
gpuseq.makedb(w / 'db.fa', w / 'db.gsdb')
print('models', list(Ms), 'targets', len(seqs), 'residues', sum(map(len, seqs)))
"""], env=env0, check=True)

def run(wheel, queries, cache, tag):
    env = {**os.environ, "PYTHONPATH": f"{wheel}:{site}", "GPUSEQ_CACHE_DIR": str(cache)}
    tbl = work / f"{tag}.tbl"
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "gpuseq.cli", "hmmsearch", "--cpu", "16", "--noali",
                    "--tblout", str(tbl), "-o", "/dev/null", "--backend", "cuda",
                    "--no-progress", str(work / queries), str(work / "db.gsdb")],
                   env=env, check=True)
    seconds = time.perf_counter() - t
    rows = sorted(l for l in tbl.read_text().splitlines() if not l.startswith("#"))
    return seconds, rows

for queries in ("six.hmm", "spread.hmm"):
    results = {}
    for r in range(rounds):
        for name, wheel in (("old", old), ("new", new)) if r % 2 == 0 else (("new", new), ("old", old)):
            cache = work / f"kc-{name}-{queries}-{r}"
            shutil.rmtree(cache, ignore_errors=True)
            cold, rows_cold = run(wheel, queries, cache, f"{name}-cold")
            entries = len(list(cache.glob("*.kernel")))
            warm, rows_warm = run(wheel, queries, cache, f"{name}-warm")
            results.setdefault(name, []).append((cold, warm, rows_cold))
            same = rows_cold == rows_warm
            print(f"{queries} round {r} {name}: cold {cold:.2f} s ({entries} cache entries), "
                  f"warm {warm:.2f} s, {len(rows_cold)} tblout rows, cold == warm: {same}",
                  flush=True)
    print(f"{queries}: old and new tblout rows equal in every run:",
          all(x[2] == results["old"][0][2] for v in results.values() for x in v))
