"""Session 68: whole GPU searches of three models with device allocations refused, each
compared with the CPU backend's hits, domains and pipeline counts.

    python3 oom_search.py SEED SECONDS

Each case refuses one allocation (the n-th from the search's start: an upload, a model's
tables, a cascade's work buffers, ...) or every allocation over a cap, over a FASTA file in
small blocks or a database the process holds (its copies kept from case to case). Prints a
line per case and the number of cases that differed."""

import sys
import threading
import time

import numpy as np

import gpuseq
from gpuseq import _core
from conftest import HMMER_EXAMPLES
from synthetic import hmmemit, plant, random_proteins, write_fasta

seed, seconds = int(sys.argv[1]), float(sys.argv[2])
rng = np.random.default_rng(seed)
tut = HMMER_EXAMPLES / "tutorial"
names = ("globins4", "fn3", "Pkinase")
seqs = random_proteins(rng, 2500, mean_length=300)
for name in names:
    seqs += [plant(rng, s) for s in hmmemit(tut / f"{name}.hmm", 10, seed=seed)]
order = rng.permutation(len(seqs))
work = __import__("pathlib").Path(f"/tmp/oom-{seed}")
work.mkdir(exist_ok=True)
fasta = write_fasta(work / "db.fa", [(f"t{i}", seqs[i]) for i in order])
models = work / "three.hmm"
models.write_text("".join((tut / f"{name}.hmm").read_text() for name in names))
held = gpuseq.open_database(gpuseq.makedb(fasta, work / "db.gsdb"))
cpu = gpuseq.hmmsearch(models, fasta, backend="cpu", cpus=4)
assert len(cpu.hits) > 20

uploads: list[tuple] = []  # ranges uploaded beside the upload thread
real = _core.GpuTargets


def counted(residues, offsets):
    made = real(residues, offsets)
    if not threading.current_thread().name.startswith("gpuseq-upload"):
        first, last = int(offsets[0]), int(offsets[-1])
        uploads.append((first, last, hash(residues[first:last].tobytes())))
    return made


_core.GpuTargets = counted
end = time.time() + seconds
cases = differed = 0
while time.time() < end:
    how = rng.choice(["nth", "cap"])
    value = int(rng.integers(1, 120)) if how == "nth" else int(rng.choice(
        [20_000, 40_000, 80_000, 160_000, 400_000, 1_000_000, 4_000_000]))
    source = rng.choice(["fasta", "held"])
    block = int(rng.choice([60_000, 200_000, 1_000_000]))
    uploads.clear()
    t = time.time()
    if how == "nth":
        _core.gpu_fail_allocation_for_tests(value)
    else:
        _core.gpu_allocation_limit_for_tests(value)
    try:
        gpu = gpuseq.hmmsearch(models, fasta if source == "fasta" else held, backend="cuda",
                               cpus=4, block_bytes=block)
    finally:
        _core.gpu_fail_allocation_for_tests(0)
        _core.gpu_allocation_limit_for_tests(0)
    same = all(getattr(gpu, f).equals(getattr(cpu, f)) for f in ("hits", "domains", "pipeline"))
    again = len(uploads) - len(set(uploads))
    cases += 1
    differed += not same or again > 0
    print(f"{how} {value} {source} block {block}: {time.time() - t:.2f} s, "
          f"{len(uploads)} cut uploads ({again} again), {'same' if same else 'DIFFERENT'}",
          flush=True)
print(f"seed {seed}: {cases} cases, {differed} differed")
