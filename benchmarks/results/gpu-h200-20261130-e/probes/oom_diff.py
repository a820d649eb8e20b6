"""Session 68: the cases of oom_search.py that differed, taken apart. The same data as
oom_search.py for SEED; the n-th allocation refused for each n in N0..N1 over the FASTA file
in BLOCK-byte blocks; for each search that differs from the CPU backend, what differs.

    python3 oom_diff.py SEED N0 N1 BLOCK [IN_FLIGHT]"""

import sys
import threading

import numpy as np

import gpuseq
from gpuseq import _core
from conftest import HMMER_EXAMPLES
from synthetic import hmmemit, plant, random_proteins, write_fasta

hs = __import__("importlib").import_module("gpuseq.hmmsearch")
seed, n0, n1, block = (int(a) for a in sys.argv[1:5])
if len(sys.argv) > 5:
    hs.GPU_CASCADES_IN_FLIGHT = int(sys.argv[5])
rng = np.random.default_rng(seed)
tut = HMMER_EXAMPLES / "tutorial"
names = ("globins4", "fn3", "Pkinase")
seqs = random_proteins(rng, 2500, mean_length=300)
for name in names:
    seqs += [plant(rng, s) for s in hmmemit(tut / f"{name}.hmm", 10, seed=seed)]
order = rng.permutation(len(seqs))
work = __import__("pathlib").Path(f"/tmp/oomd-{seed}-{block}-{len(sys.argv)}")
work.mkdir(exist_ok=True)
fasta = write_fasta(work / "db.fa", [(f"t{i}", seqs[i]) for i in order])
models = work / "three.hmm"
models.write_text("".join((tut / f"{name}.hmm").read_text() for name in names))
cpu = gpuseq.hmmsearch(models, fasta, backend="cpu", cpus=4)

events: list[str] = []  # what failed, on which thread
real_cascade = hs._Filters._cascade


def cascade(self, q, residues, offsets, targets, threads):
    try:
        return real_cascade(self, q, residues, offsets, targets, threads)
    except _core.DeviceOutOfMemory as exc:
        events.append(f"cascade q{q} targets {len(offsets) - 1} from {int(offsets[0])}: {exc}")
        raise


hs._Filters._cascade = cascade
real_tables = hs._gpu_tables


def tables(profile):
    t = real_tables(profile)
    if t is None:
        events.append(f"tables M={profile.M}: None")
    return t


hs._gpu_tables = tables


def diff(gpu) -> list[str]:
    out = []
    key = ["query_name", "target_name"]
    for frame in ("hits", "domains", "pipeline"):
        a, b = getattr(gpu, frame), getattr(cpu, frame)
        if a.equals(b):
            continue
        if frame == "pipeline":
            for i in range(max(len(a), len(b))):
                ra, rb = a.iloc[i], b.iloc[i]
                cols = [c for c in a.columns if ra[c] != rb[c]]
                if cols:
                    out.append(f"pipeline {ra['query_name'] if 'query_name' in a else i}: "
                               + ", ".join(f"{c} gpu {ra[c]} cpu {rb[c]}" for c in cols))
        elif frame == "hits":
            ka = set(map(tuple, a[key].values))
            kb = set(map(tuple, b[key].values))
            out.append(f"hits: {len(a)} gpu {len(b)} cpu; only gpu {sorted(ka - kb)[:6]} "
                       f"only cpu {sorted(kb - ka)[:6]}")
            if ka == kb:
                m = a.merge(b, on=key, suffixes=("_g", "_c"))
                cols = [c[:-2] for c in m.columns if c.endswith("_g")]
                for c in cols:
                    bad = m[m[c + "_g"] != m[c + "_c"]]
                    if len(bad):
                        out.append(f"hits {c}: {len(bad)} rows, e.g. "
                                   f"{bad[key + [c + '_g', c + '_c']].head(3).values.tolist()}")
        else:
            out.append(f"domains: {len(a)} gpu {len(b)} cpu")
    return out


differed = 0
for n in range(n0, n1 + 1):
    for attempt in (1, 2):
        events.clear()
        _core.gpu_fail_allocation_for_tests(n)
        try:
            gpu = gpuseq.hmmsearch(models, fasta, backend="cuda", cpus=4, block_bytes=block)
        finally:
            _core.gpu_fail_allocation_for_tests(0)
        d = diff(gpu)
        if d or attempt == 1 and events:
            print(f"n {n} attempt {attempt}: {'DIFFERENT' if d else 'same'}; "
                  + " | ".join(events), flush=True)
            for line in d:
                print("   ", line, flush=True)
        differed += bool(d)
        if not d:
            break
print(f"seed {seed} block {block} args {sys.argv[5:]}: {differed} differed")
