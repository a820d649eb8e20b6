"""Session 69: gpuseq.hmmsearch(..., backend="cuda") against backend="cpu" in one process, on
random models, options, threads, block sizes and target sources; one held database searched
by every case (its GPU copy kept from case to case), and at times two searches at once.

    python3 api_fuzz.py SEED SECONDS

Models are drawn as in cli_fuzz.py (test_random_commands.random_queries); targets are one
random database made once (test_random_commands.random_targets, a few thousand targets). The
source is the FASTA file, its gzip, a packed database opened anew, the held database, or
(name, sequence) pairs; `cpus` is 1-16 and `block_bytes` 4 KB-64 MB. hits, domains and
pipeline counts must be equal to the CPU backend's (itself compared with hmmsearch by
cli_fuzz.py and the tests)."""

from __future__ import annotations

import gzip
import sys
import threading
import time
from pathlib import Path

import numpy as np

import gpuseq
from synthetic import write_fasta
from test_random_commands import random_queries, random_targets

seed, seconds = int(sys.argv[1]), float(sys.argv[2])
GPU = sys.argv[3] if len(sys.argv) > 3 else "cuda"  # (cpu: a smoke test of the script)
rng = np.random.default_rng(seed)
work = Path(f"/tmp/apifuzz-{seed}")
work.mkdir(exist_ok=True)
records = random_targets(rng, random_queries(rng, work))
for _ in range(4):  # a few thousand targets: several chunks at small block sizes
    records += random_targets(rng, random_queries(rng, work))
fasta = write_fasta(work / "db.fa", [(f"t{i} {n}", s) for i, (n, s) in enumerate(records)])
gz = work / "db.fa.gz"
gz.write_bytes(gzip.compress(fasta.read_bytes()))
packed = gpuseq.makedb(fasta, work / "db.gsdb")
held = gpuseq.open_database(packed)
pairs = [(f"t{i}", s) for i, (_, s) in enumerate(records)]
print(f"seed {seed}: {len(records)} targets, {sum(len(s) for _, s in records)} residues",
      flush=True)


def random_options() -> dict:
    o: dict = {}
    pick = lambda p: rng.random() < p  # noqa: E731
    for name, p in (("E", 0.3), ("domE", 0.3), ("incE", 0.2), ("incdomE", 0.2)):
        if pick(p):
            o[name] = float(rng.choice([10, 1, 0.01, 1e-5, 1e-20, 1000]))
    if pick(0.15):
        o["T"] = float(rng.choice([0, 5, 15.5, 30]))
    if pick(0.15):
        o["max"] = True
    else:
        for name in ("F1", "F2", "F3"):
            if pick(0.15):
                o[name] = float(rng.choice([1, 0.5, 0.1, 0.02, 1e-3, 1e-5, 1e-8]))
        if pick(0.2):
            o["bias_filter"] = False
    if pick(0.2):
        o["null2"] = False
    if pick(0.2):
        o["Z"] = float(rng.choice([1, 7, 1000, 1e6]))
    if pick(0.2):
        o["seed"] = int(rng.integers(1, 100))
    return o


def random_call(i: int) -> dict:
    (work / f"m{i}").mkdir(exist_ok=True)
    source = str(rng.choice(["fasta", "gzip", "packed", "held", "held", "pairs"]))
    return {
        "models": random_queries(rng, work / f"m{i}"),
        "source": source,
        "cpus": int(rng.choice([1, 2, 3, 8, 16])),
        "block_bytes": int(rng.choice([4096, 60_000, 1_000_000, 64 << 20])),
        "options": random_options(),
    }


def targets(source: str):
    return {"fasta": fasta, "gzip": gz, "packed": packed, "held": held, "pairs": pairs}[source]


def search(call: dict, backend: str):
    return gpuseq.hmmsearch(call["models"], targets(call["source"]), backend=backend,
                            cpus=call["cpus"], block_bytes=call["block_bytes"], progress=False,
                            **call["options"])


end = time.time() + seconds
cases = differed = 0
while time.time() < end:
    calls = [random_call(cases), random_call(cases + 1)] if rng.random() < 0.25 else \
        [random_call(cases)]
    t = time.time()
    results: list = [None] * len(calls)

    def run(k):
        try:
            results[k] = search(calls[k], GPU)
        except Exception as exc:  # noqa: BLE001
            results[k] = exc

    threads = [threading.Thread(target=run, args=(k,)) for k in range(len(calls))]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    for k, call in enumerate(calls):
        cpu = search(call, "cpu")
        gpu = results[k]
        same = not isinstance(gpu, Exception) and all(
            getattr(gpu, f).equals(getattr(cpu, f)) for f in ("hits", "domains", "pipeline"))
        cases += 1
        differed += not same
        print(f"case {cases - 1}: {call['source']}, cpus {call['cpus']}, block "
              f"{call['block_bytes']}, {call['options']}, {len(calls)} at once: "
              f"{time.time() - t:.2f} s, {len(cpu.hits)} hits, "
              f"{'same' if same else 'DIFFERENT ' + repr(gpu)[:300]}", flush=True)
print(f"seed {seed}: {cases} cases, {differed} differed")
