#!/usr/bin/env python3
"""gpuseq's CPU blastp against NCBI blastp 2.12 on one generated database, in one run.

The database: ``--subjects`` random proteins (lengths 50-700, Robinson & Robinson
composition) with homologs of ``--queries`` queries of each of 100, 500 and 1,000 residues
planted at 30-90% identity. Each tool runs as its own process, from the FASTA files (gpuseq) or
the BLAST database made by ``makeblastdb`` (blastp, not timed) to an outfmt-6 file, with one of
the option sets (``--options``):

    gapped    -comp_based_stats 0 -seg no
    ungapped  -ungapped -comp_based_stats 0 -seg no
    defaults  (no option: blastp's defaults, -comp_based_stats 2 -seg no)
    seg       -seg yes (SEG on the queries, otherwise the defaults)
    mode1     -comp_based_stats 1
    mode3     -comp_based_stats 3

    blastp -query Q -db DB OPTIONS -num_threads N -outfmt "6 std qlen slen score" -out F
    python -m gpuseq.cli blastp -query Q -db subjects.fa OPTIONS -num_threads N
           -outfmt "6 std qlen slen score" -out F

Rows are compared (their number and how many equal, line by line), wall times are the median
of ``--repeat`` runs, the ratio is blastp's time over gpuseq's (above 1: gpuseq is faster).
Then gpuseq's search runs once more in this process with ``counters`` to give its seconds by
stage (lookup; scan: the two-hit stage and the preliminary gapped extension, with the CPU
threads' wait for the GPU's batches; traceback; hit lists; the GPU stage's hit detection,
sort, filter, extension and ordering). From a packed database (``--subjects-from packed``)
the searches also run in this process on the database opened once and held
(``SequenceDatabase``): the first encodes it (and on the GPU uploads it), the later ones find
it resident. A JSON record goes to benchmarks/results/.

    python benchmarks/bench_blastp.py                          # 100,000 subjects, 1 thread
    python benchmarks/bench_blastp.py --subjects 20000 --threads 1 2 --repeat 1
    python benchmarks/bench_blastp.py --options defaults seg --repeat 1
    python benchmarks/bench_blastp.py --backends cpu cuda   # gpuseq with --backend cuda too
    python benchmarks/bench_blastp.py --subjects 1330000 --workdir /tmp/db500m  # kept for reruns
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from provenance import REPO, record_header, source_info, wall_times, write_record  # noqa: E402

AMINO = np.array(list("ACDEFGHIKLMNPQRSTVWY"))
ROBINSON = np.array(
    [78.05, 19.25, 53.64, 62.95, 38.56, 73.77, 21.99, 51.42, 57.44, 90.19,
     22.43, 44.87, 52.03, 42.64, 51.29, 71.20, 58.41, 64.41, 13.30, 32.16]
)  # fmt: skip
OUTFMT = "6 std qlen slen score"


# Each option set's flags, the same for blastp and gpuseq.
OPTION_SETS = {
    "gapped": ["-comp_based_stats", "0", "-seg", "no"],
    "ungapped": ["-ungapped", "-comp_based_stats", "0", "-seg", "no"],
    "defaults": [],
    "seg": ["-seg", "yes"],
    "mode1": ["-comp_based_stats", "1"],
    "mode3": ["-comp_based_stats", "3"],
}


def search_keywords(flags: list[str]) -> dict:
    """gpuseq.blastp's keywords for blastp's flags of an option set."""
    keywords, i = {}, 0
    while i < len(flags):
        if flags[i] == "-ungapped":
            keywords["ungapped"] = True
            i += 1
        else:
            keywords[flags[i].lstrip("-")] = flags[i + 1]
            i += 2
    return keywords


def stage_seconds(queries: Path, subjects: Path, flags: list[str], threads: int,
                  backend: str) -> dict:  # fmt: skip
    """One in-process search with counters: its wall seconds (reading included) and counters."""
    import gpuseq

    counters: dict = {}
    t0 = time.perf_counter()
    gpuseq.blastp(str(queries), str(subjects), num_threads=threads, backend=backend,
                  counters=counters, as_frame=False, **search_keywords(flags))  # fmt: skip
    counters["call_s"] = time.perf_counter() - t0
    return counters


def held_seconds(queries: Path, packed: Path, flags: list[str], threads: int, backend: str,
                 repeat: int) -> dict:  # fmt: skip
    """In-process searches of a packed database opened once and held (SequenceDatabase): the
    first search encodes it (and, on the GPU, uploads it), the later ones find it resident."""
    import gpuseq

    t0 = time.perf_counter()
    db = gpuseq.SequenceDatabase.open(packed)
    held: dict = {"open_s": time.perf_counter() - t0, "calls_s": []}
    for _ in range(repeat + 1):
        counters: dict = {}
        t0 = time.perf_counter()
        gpuseq.blastp(str(queries), db, num_threads=threads, backend=backend,
                      counters=counters, as_frame=False, **search_keywords(flags))  # fmt: skip
        held["calls_s"].append(time.perf_counter() - t0)
        if "resident_upload_s" in counters:
            held["resident_upload_s"] = counters["resident_upload_s"]
    return held


def write_database(folder: Path, subjects: int, seed: int, per_length: int) -> dict:
    rng = np.random.default_rng(seed)
    p = ROBINSON / ROBINSON.sum()

    def protein(n: int) -> str:
        return "".join(rng.choice(AMINO, size=n, p=p))

    queries = [(f"q{n}_{k}", protein(n)) for n in (100, 500, 1000) for k in range(per_length)]
    planted = []
    for name, seq in queries:
        for identity in (0.9, 0.7, 0.5, 0.4, 0.3):
            keep = rng.random(len(seq)) < identity
            body = "".join(c if k else protein(1) for c, k in zip(seq, keep))
            planted.append(f">{name}_{int(identity * 100)}\n{protein(50)}{body}{protein(50)}\n")
    planted_count = len(planted)
    planted_residues = sum(len(p.split("\n")[1]) for p in planted)
    lengths = rng.integers(50, 701, size=subjects)
    # One string of all letters, sliced per subject (joining a subject's letters one by one
    # took minutes at 500 M residues).
    letters = rng.choice(AMINO, size=int(lengths.sum()), p=p).astype("S1").tobytes().decode()
    bounds = np.concatenate([[0], np.cumsum(lengths)])
    every = max(1, subjects // len(planted))
    with open(folder / "subjects.fa", "w") as f:
        for i in range(subjects):
            f.write(f">s{i}\n{letters[bounds[i] : bounds[i + 1]]}\n")
            if i % every == 0 and planted:
                f.write(planted.pop())
        f.writelines(planted)
    with open(folder / "queries.fa", "w") as f:
        f.writelines(f">{n}\n{s}\n" for n, s in queries)
    subprocess.run(["makeblastdb", "-in", folder / "subjects.fa", "-dbtype", "prot", "-out",
                    folder / "db"], check=True, capture_output=True)  # fmt: skip
    return {"subjects": subjects + planted_count, "residues": int(lengths.sum()) + planted_residues,
            "query_lengths": [len(s) for _, s in queries]}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--subjects", type=int, default=100_000, help="database size [100000]")
    ap.add_argument("--threads", type=int, nargs="+", default=[1], help="thread counts [1]")
    ap.add_argument("--repeat", type=int, default=3, help="runs per command [3]")
    ap.add_argument(
        "--options",
        nargs="+",
        default=["gapped", "ungapped"],
        choices=list(OPTION_SETS),
        help="option sets [gapped ungapped]",
    )
    ap.add_argument("--queries", type=int, default=1, help="queries of each length [1]")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--backends", nargs="+", default=["cpu"], choices=["cpu", "cuda"],
                    help="gpuseq's --backend, each timed [cpu]")  # fmt: skip
    ap.add_argument("--subjects-from", nargs="+", default=["fasta"], choices=["fasta", "packed"],
                    help="gpuseq reads the subjects from the FASTA file, or from a packed database "
                         "made by gpuseq makedb (not timed, as makeblastdb) [fasta]")  # fmt: skip
    ap.add_argument("--out", help="JSON output (default benchmarks/results/blastp-<host>-...)")
    ap.add_argument("--workdir", help="folder for the database, kept and used again by a run "
                                      "of the same --subjects, --seed and --queries "
                                      "(default: a temporary one)")  # fmt: skip
    args = ap.parse_args(argv)
    blastp = shutil.which("blastp")
    if blastp is None or shutil.which("makeblastdb") is None:
        sys.exit("NCBI BLAST+ is not installed (apt-get install ncbi-blast+)")
    version = subprocess.run([blastp, "-version"], capture_output=True, text=True).stdout

    started = datetime.datetime.now().astimezone()
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench_blastp-") as tmp:
        folder = Path(args.workdir or tmp)
        folder.mkdir(parents=True, exist_ok=True)
        # A --workdir keeps the database for the next run of the same parameters.
        made = folder / "database.json"
        key = {"subjects": args.subjects, "seed": args.seed, "queries": args.queries}
        old = json.loads(made.read_text()) if made.exists() else {}
        if old.get("key") == key:
            data = old["data"]
        else:
            made.unlink(missing_ok=True)
            (folder / "subjects.gsdb").unlink(missing_ok=True)
            data = write_database(folder, args.subjects, args.seed, args.queries)
            made.write_text(json.dumps({"key": key, "data": data}))
        print(f"{data['subjects']} subjects, {data['residues']} residues; queries "
              f"{data['query_lengths']}")  # fmt: skip
        print(f"{'mode':<9} {'backend':>7} {'from':>6} {'threads':>7} {'blastp s':>9} "
              f"{'gpuseq s':>9} {'ratio':>6} {'rows':>6} {'equal':>6} {'common':>6}")  # fmt: skip
        # The source tree's package after any on PYTHONPATH already (an installed build).
        paths = [p for p in (os.environ.get("PYTHONPATH"), str(REPO / "python")) if p]
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(paths))
        subjects = {"fasta": folder / "subjects.fa", "packed": folder / "subjects.gsdb"}
        if "packed" in args.subjects_from and not subjects["packed"].exists():
            subprocess.run([sys.executable, "-m", "gpuseq.cli", "makedb", subjects["fasta"],
                            subjects["packed"]], check=True, env=env)  # fmt: skip
        for mode in args.options:
            for threads in args.threads:
                ref = folder / f"ref-{mode}.tsv"
                blast_cmd = [blastp, "-query", folder / "queries.fa", "-db", folder / "db",
                             *OPTION_SETS[mode], "-num_threads", str(threads),
                             "-outfmt", OUTFMT, "-out", ref]  # fmt: skip
                t_ref = wall_times(blast_cmd, args.repeat)
                expected = ref.read_text().splitlines()
                for backend, source in [(b, f) for b in args.backends for f in args.subjects_from]:
                    ours = folder / f"ours-{mode}-{backend}-{source}.tsv"
                    our_cmd = [sys.executable, "-m", "gpuseq.cli", "blastp", "-query",
                               folder / "queries.fa", "-db", subjects[source],
                               *OPTION_SETS[mode], "-num_threads", str(threads),
                               "-outfmt", OUTFMT, "-out", ours,
                               "--backend", backend]  # fmt: skip
                    t_ours = wall_times(our_cmd, args.repeat, env=env)
                    got = ours.read_text().splitlines()
                    equal = sum(a == b for a, b in zip(expected, got))
                    # Rows found by both, wherever they are (one extra row shifts all later ones).
                    common = sum((Counter(expected) & Counter(got)).values())
                    row = {"mode": mode, "backend": backend, "subjects_from": source,
                           "threads": threads,
                           "blastp_s": statistics.median(t_ref),
                           "gpuseq_s": statistics.median(t_ours),
                           "blastp_times_s": t_ref, "gpuseq_times_s": t_ours,
                           "rows_blastp": len(expected), "rows_gpuseq": len(got),
                           "rows_equal": equal, "rows_common": common,
                           "blastp_command": shlex.join(map(str, blast_cmd)),
                           "gpuseq_command": shlex.join(map(str, our_cmd))}  # fmt: skip
                    row["ratio"] = row["blastp_s"] / row["gpuseq_s"]
                    stages = stage_seconds(folder / "queries.fa", subjects[source],
                                           OPTION_SETS[mode], threads, backend)  # fmt: skip
                    row["stages"] = stages
                    rows.append(row)
                    print(f"{mode:<9} {backend:>7} {source:>6} {threads:>7} {row['blastp_s']:9.2f} "
                          f"{row['gpuseq_s']:9.2f} {row['ratio']:6.2f} {len(expected):>6} "
                          f"{equal:>6} {common:>6}")  # fmt: skip
                    print(f"          in process {stages['call_s']:.3f} s: " + ", ".join(
                        f"{k} {v:.3f}" for k, v in sorted(stages["seconds"].items())))
                    if source == "packed":
                        held = held_seconds(folder / "queries.fa", subjects[source],
                                            OPTION_SETS[mode], threads, backend, args.repeat)
                        row["held"] = held
                        print(f"          held database: opened {held['open_s']:.3f} s, "
                              "searches " + ", ".join(f"{t:.3f}" for t in held["calls_s"])
                              + " s (the first encodes"
                              + (f" and uploads it, {held['resident_upload_s']:.3f} s)"
                                 if "resident_upload_s" in held else " it)"))

    import gpuseq

    record = {
        **record_header("blastp", started),
        "software": {
            "gpuseq": gpuseq.__version__,
            "git": source_info(),
            "blastp": version.strip(),
        },  # fmt: skip
        "database": data,
        "repeat": args.repeat,
        "results": rows,
    }
    write_record(record, args.out, "blastp", started)
    return 0


if __name__ == "__main__":
    sys.exit(main())
