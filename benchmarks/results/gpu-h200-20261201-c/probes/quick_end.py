"""Session 74: `gpuseq blastp` with and without the interpreter's teardown (GPUSEQ_FULL_EXIT
1 and 0), whole commands alternated, on the GPU from a packed database: the database of
benchmarks/bench_blastp.py (SUBJECTS random proteins and planted homologs of 3 queries) and
a small one given as FOLDER (q.fa, db.gsdb). Prints each round and the medians; every run's
rows must equal the first's.

    python3 quick_end.py WORK SUBJECTS ROUNDS [SMALL_FOLDER]"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[4] / "benchmarks"))
from bench_blastp import write_database  # noqa: E402

BACKEND = os.environ.get("QUICK_END_BACKEND", "cuda")
work, subjects, rounds = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
work.mkdir(parents=True, exist_ok=True)
t = time.perf_counter()
info = write_database(work, subjects, 1, 1)
subprocess.run([sys.executable, "-m", "gpuseq.cli", "makedb", work / "subjects.fa",
                work / "db.gsdb"], check=True, capture_output=True)  # fmt: skip
print(f"database: {info['subjects']} subjects, {info['residues']} residues "
      f"({time.perf_counter() - t:.1f} s to write and pack)", flush=True)
cases = {"large": (work / "queries.fa", work / "db.gsdb")}
if len(sys.argv) > 4:
    small = Path(sys.argv[4])
    cases["small"] = (small / "q.fa", small / "db.gsdb")
for name, (queries, db) in cases.items():
    times: dict[str, list[float]] = {"0": [], "1": []}
    first = None
    for r in range(rounds + 1):  # (round 0: the kernel cache and the page cache warm)
        for full in ("0", "1") if r % 2 else ("1", "0"):
            out = work / f"hits-{name}-{full}.tsv"
            t = time.perf_counter()
            run = subprocess.run([sys.executable, "-m", "gpuseq.cli", "blastp", "-query", queries,
                                  "-db", db, "-outfmt", "6 std qlen slen score", "-num_threads",
                                  "16", "--backend", BACKEND, "-out", out],
                                 capture_output=True, text=True,
                                 env=dict(os.environ, GPUSEQ_FULL_EXIT=full))  # fmt: skip
            seconds = time.perf_counter() - t
            assert run.returncode == 0, run.stderr
            rows = out.read_text()
            first = first or rows
            assert rows == first, (name, r, full)
            if r:
                times[full].append(seconds)
        if r:
            print(f"{name} round {r}: quick end {times['0'][-1]:.3f} s, "
                  f"teardown {times['1'][-1]:.3f} s", flush=True)
    print(f"{name}: {len(first.splitlines())} rows; median of {rounds}: quick end "
          f"{statistics.median(times['0']):.3f} s, teardown {statistics.median(times['1']):.3f} s;"
          f" quick faster in {sum(a < b for a, b in zip(times['0'], times['1']))} of {rounds}",
          flush=True)
