#!/usr/bin/env python3
"""FASTA reading: gpuseq's reader against pyhmmer's (Easel's), in one run, on one file.

hmmsearch from a FASTA file reads it while the filters run; the reader's speed is what the
FASTA command pays over the packed database (``reader_s`` in bench_hmmsearch's JSON). Timed
here, each ``--repeat`` times after a warm-up read (the file then in the page cache), medians:

- ``gpuseq.sequences.read_fasta(path, threads)``: the whole file into one SequenceDatabase, at
  each of ``--threads`` (default 1 and every core);
- ``_core.FastaReader`` alone: the 64 MB blocks a search streams, parsed into arrays;
- ``pyhmmer.easel.SequenceFile(path, digital=True).read_block()``: Easel's reader, one thread,
  the peer a Python user would otherwise pick.

Every reader must give the same sequence count and residue total. A file is generated (random
proteins of log-normal lengths, 60-column lines, with descriptions) unless ``--fasta`` names
one. Writes JSON to benchmarks/results/ with the machine, the commit and the command.

    python benchmarks/bench_fasta_reader.py                      # 300 M residues, generated
    python benchmarks/bench_fasta_reader.py --fasta db.fa --threads 1,4,16 --repeat 5
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from provenance import record_header, source_info, write_record  # noqa: E402

AMINO = np.frombuffer(b"ACDEFGHIKLMNPQRSTVWY", dtype=np.uint8)


def generate(path: Path, residues: float, mean_length: float, seed: int) -> None:
    """Random proteins totalling about `residues`, 60 residues a line, a description each."""
    rng = np.random.default_rng(seed)
    n = max(1, int(residues / mean_length))
    lengths = np.clip(rng.lognormal(np.log(mean_length) - 0.18, 0.6, n), 10, 3000).astype(int)
    with open(path, "wb") as f:
        batch = []
        for i, length in enumerate(lengths):
            seq = AMINO[rng.integers(0, 20, length)].tobytes()
            body = b"\n".join(seq[j:j + 60] for j in range(0, length, 60))
            batch.append(b">seq%d random protein %d aa\n%s\n" % (i, length, body))
            if len(batch) == 10000:
                f.write(b"".join(batch))
                batch = []
        f.write(b"".join(batch))


def timed(fn, repeat: int) -> tuple[list[float], tuple[int, int]]:
    fn()  # warm-up: page cache, first allocations
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return times, result


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--fasta", type=Path, help="the file to read (default: generated)")
    p.add_argument("--residues", type=float, default=300e6, help="generated residues [3e8]")
    p.add_argument("--threads", default=f"1,{os.cpu_count() or 1}",
                   help="gpuseq reader threads, comma-separated [1,all cores]")
    p.add_argument("--repeat", type=int, default=3, help="timed reads per reader [3]")
    p.add_argument("--skip-pyhmmer", action="store_true")
    p.add_argument("--out", help="JSON output (default benchmarks/results/fasta-reader-...)")
    args = p.parse_args(argv)

    import gpuseq
    from gpuseq import _core
    from gpuseq.sequences import read_fasta

    started = datetime.datetime.now().astimezone()
    tmp = None
    path = args.fasta
    if path is None:
        tmp = tempfile.TemporaryDirectory(prefix="bench-fasta-")
        path = Path(tmp.name) / "targets.fa"
        t = time.perf_counter()
        generate(path, args.residues, 350.0, 1)
        print(f"generated {path} ({path.stat().st_size / 1e6:.0f} MB) in "
              f"{time.perf_counter() - t:.1f} s", flush=True)
    size = path.stat().st_size

    def gpuseq_whole(threads):
        db = read_fasta(path, threads=threads)
        return len(db), int(db.total_residues)

    def gpuseq_blocks(threads):
        reader = _core.FastaReader(str(path), threads)
        n = total = 0
        while (chunk := reader.read_chunk(str(path), 64 << 20)) is not None:
            n += len(chunk["offsets"]) - 1
            total += int(chunk["offsets"][-1] - chunk["offsets"][0])
        return n, total

    def easel():
        from pyhmmer.easel import Alphabet, SequenceFile

        with SequenceFile(str(path), digital=True, alphabet=Alphabet.amino()) as f:
            block = f.read_block()
        return len(block), sum(len(s.sequence) for s in block)

    cases = []
    for threads in sorted({int(t) for t in args.threads.split(",")}):
        cases.append((f"gpuseq read_fasta, {threads} thread(s)", "gpuseq", threads,
                      lambda threads=threads: gpuseq_whole(threads)))
        cases.append((f"gpuseq FastaReader blocks, {threads} thread(s)", "gpuseq_blocks",
                      threads, lambda threads=threads: gpuseq_blocks(threads)))
    if not args.skip_pyhmmer:
        cases.append(("pyhmmer SequenceFile.read_block", "pyhmmer", 1, easel))

    rows, counts = [], set()
    print(f"{'reader':<40} {'median s':>9} {'min s':>7} {'MB/s':>8}")
    for name, tool, threads, fn in cases:
        times, result = timed(fn, args.repeat)
        counts.add(result)
        med = statistics.median(times)
        rows.append({"reader": name, "tool": tool, "threads": threads, "median_s": med,
                     "min_s": min(times), "times_s": times, "mb_per_s": size / med / 1e6,
                     "sequences": result[0], "residues": result[1]})
        print(f"{name:<40} {med:9.3f} {min(times):7.3f} {size / med / 1e6:8.0f}", flush=True)
    if len(counts) != 1:
        print(f"readers disagree on (sequences, residues): {sorted(counts)}", file=sys.stderr)
        return 1
    peer = next((r["median_s"] for r in rows if r["tool"] == "pyhmmer"), None)
    if peer:
        for r in rows:
            r["speedup_over_pyhmmer"] = peer / r["median_s"]
        best = min(r["median_s"] for r in rows if r["tool"] == "gpuseq")
        print(f"pyhmmer / gpuseq read_fasta (fastest): {peer / best:.1f}x")

    record = {
        **record_header("fasta_reader", started),
        "software": {"gpuseq": gpuseq.__version__, "git": source_info(),
                     "gpuseq_path": os.path.dirname(gpuseq.__file__)},
        "file": {"path": str(args.fasta) if args.fasta else "generated", "bytes": size,
                 "sequences": rows[0]["sequences"], "residues": rows[0]["residues"]},
        "repeat": args.repeat,
        "results": rows,
    }
    write_record(record, args.out, "fasta-reader", started)
    if tmp is not None:
        tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
