"""Session 69: `gpuseq blastp` against Debian's blastp 2.12 as processes, on random queries,
subjects and flags; every outfmt-6 row compared.

    python3 blastp_fuzz.py SEED SECONDS BACKEND [THREADS]

Each case draws 1-6 queries (random proteins of 1-2,000 residues, some with rare letters,
lower case or a biased composition) and a database of random subjects with planted homologs of
the queries at 25-95% identity, with indels, cut to parts, repeated, or inside subjects of up to
200,000 residues. The flags are drawn from those gpuseq implements: -evalue, -max_target_seqs,
-comp_based_stats 0-3, -seg (no, yes, 'window locut hicut'), -ungapped, -threshold,
-window_size, the three X-drops and -dbsize. blastp searches a makeblastdb database of the
subjects; gpuseq their FASTA, gzipped FASTA or a `gpuseq makedb` database. Both must fail or
neither; the rows `6 std qlen slen score` must be equal. A case that differs keeps its directory
and prints its flags."""

from __future__ import annotations

import gzip
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from blast_data import RARE, mutated, random_protein, with_rare_letters, write_fasta

seed, seconds, backend = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
threads = int(sys.argv[4]) if len(sys.argv) > 4 else 2
rng = np.random.default_rng(seed)
BLASTP, MAKEBLASTDB = shutil.which("blastp"), shutil.which("makeblastdb")
OUTFMT = "6 std qlen slen score"
root = Path(f"/tmp/blastfuzz-{seed}")
shutil.rmtree(root, ignore_errors=True)
root.mkdir()


def a_query() -> str:
    n = int(rng.choice([1, 5, 11, 30, 100, 300, 800, 2000]))
    q = random_protein(rng, n)
    r = rng.random()
    if r < 0.15:
        q = with_rare_letters(rng, q, int(rng.integers(3, 20)))
    elif r < 0.25:
        q = "".join(rng.choice(list("KEPSAGLD"), size=n))
    elif r < 0.32:
        q = q[: n // 3] + q[n // 3:].lower()
    elif r < 0.38:
        q = q + str(rng.choice(["Q", "GS", "PPG"])) * int(rng.integers(10, 60)) + q
    return q


def subjects_for(queries: list[str]) -> list[tuple[str, str]]:
    subjects = [random_protein(rng, int(rng.integers(1, 900)))
                for _ in range(int(rng.integers(0, 1500)))]
    for q in queries:
        for _ in range(int(rng.integers(0, 8))):
            body = mutated(rng, q.upper(), float(rng.uniform(0.25, 0.95)),
                           float(rng.choice([0.0, 0.01, 0.03])))
            r = rng.random()
            if r < 0.2 and len(body) > 3:
                a, b = sorted(int(x) for x in rng.integers(0, len(body), size=2))
                body = body[a:b + 1]
            elif r < 0.3:
                body = body * int(rng.integers(2, 4))
            elif r < 0.35:
                body = random_protein(rng, int(rng.integers(50000, 100000))) + body + \
                    random_protein(rng, int(rng.integers(0, 100000)))
            flank = int(rng.integers(0, 150))
            subjects.append(random_protein(rng, flank) + body + random_protein(rng, flank // 2))
    for _ in range(int(rng.integers(0, 4))):
        subjects.append(str(rng.choice(["".join(rng.choice(RARE, size=40)), "X" * 60,
                                        with_rare_letters(rng, random_protein(rng, 200), 4)])))
    subjects = [subjects[i] for i in rng.permutation(len(subjects))]
    if rng.random() < 0.2 and subjects:  # identical subjects (the later one is ranked first)
        subjects.append(subjects[int(rng.integers(len(subjects)))])
    return [(f"s{i}", s) for i, s in enumerate(subjects) if s]


def flags_for() -> list[str]:
    f: list[str] = []
    pick = lambda p: rng.random() < p  # noqa: E731
    if pick(0.5):
        f += ["-evalue", str(rng.choice(["10", "1", "1e-3", "1e-10", "100", "1000"]))]
    if pick(0.3):
        f += ["-max_target_seqs", str(rng.choice([1, 2, 5, 20, 100, 600]))]
    f += ["-comp_based_stats", str(rng.choice(["0", "1", "2", "3"]))] if pick(0.7) else []
    if pick(0.4):
        f += ["-seg", str(rng.choice(["yes", "no", "12 2.2 2.5", "10 1.8 2.1", "20 3.0 3.3"]))]
    if pick(0.25):
        f += ["-ungapped"]
        if pick(0.8):  # (blastp takes -ungapped with -comp_based_stats 0 only)
            f = [x for i, x in enumerate(f) if "-comp_based_stats" not in f[max(i - 1, 0):i + 1]]
            f += ["-comp_based_stats", "0"]
    if pick(0.25):
        f += ["-threshold", str(rng.choice([9, 11, 13, 15, 20]))]
    if pick(0.2):
        f += ["-window_size", str(rng.choice([10, 20, 40, 60]))]
    if pick(0.2):
        f += ["-xdrop_ungap", str(rng.choice([5, 7, 10, 20]))]
    if pick(0.2):
        f += ["-xdrop_gap", str(rng.choice([10, 15, 30, 50]))]
    if pick(0.2):
        f += ["-xdrop_gap_final", str(rng.choice([15, 25, 50, 100]))]
    if pick(0.25):
        f += ["-dbsize", str(rng.choice([1000, 1000000, 500000000, 5000000000]))]
    return f


end = time.time() + seconds
cases = differed = 0
while time.time() < end:
    work = root / f"c{cases}"
    work.mkdir()
    queries = [a_query() for _ in range(int(rng.integers(1, 7)))]
    qfa, dbfa = work / "q.fa", work / "db.fa"
    write_fasta(qfa, [(f"q{i}", q) for i, q in enumerate(queries)])
    write_fasta(dbfa, subjects_for(queries))
    made = subprocess.run([MAKEBLASTDB, "-in", dbfa, "-dbtype", "prot", "-out", work / "db"],
                          capture_output=True)
    if made.returncode:  # (its format guess fails when a database starts with rare letters)
        print(f"case {cases}: makeblastdb refused the database, skipped", flush=True)
        shutil.rmtree(work)
        cases += 1
        continue
    kind = str(rng.choice(["fasta", "gzip", "packed"]))
    ours_db = dbfa
    if kind == "gzip":
        ours_db = work / "db.fa.gz"
        ours_db.write_bytes(gzip.compress(dbfa.read_bytes()))
    elif kind == "packed":
        ours_db = work / "db.gsdb"
        subprocess.run([sys.executable, "-m", "gpuseq.cli", "makedb", dbfa, ours_db],
                       check=True, capture_output=True)
    flags = flags_for()
    t = time.time()
    ref = subprocess.run([BLASTP, "-query", qfa, "-db", work / "db", "-outfmt", OUTFMT,
                          "-num_threads", str(threads), *flags], capture_output=True, text=True)
    t_ref = time.time() - t
    t = time.time()
    ours = subprocess.run([sys.executable, "-m", "gpuseq.cli", "blastp", "-query", qfa, "-db",
                           ours_db, "-outfmt", OUTFMT, "-num_threads", str(threads),
                           "--backend", backend, *flags], capture_output=True, text=True)
    t_ours = time.time() - t
    bad = ""
    if (ref.returncode == 0) != (ours.returncode == 0):
        bad = f"rc {ours.returncode} vs {ref.returncode}: {ours.stderr[-300:]!r} {ref.stderr[-300:]!r}"
    elif ref.returncode == 0 and ours.stdout != ref.stdout:
        o, r = ours.stdout.splitlines(), ref.stdout.splitlines()
        bad = f"rows {len(o)} vs {len(r)}, {len(set(o) ^ set(r))} not in both"
    cases += 1
    differed += bool(bad)
    (work / "flags.txt").write_text(" ".join(flags) + "\n")
    print(f"case {cases - 1}: {len(queries)} queries, {kind}, {' '.join(flags) or '(no flags)'}: "
          f"ref {t_ref:.1f} s, ours {t_ours:.1f} s, rows {ref.stdout.count(chr(10))}, "
          f"{'DIFFERENT ' + bad if bad else 'same'}", flush=True)
    if not bad:
        shutil.rmtree(work)
    else:
        (work / "ours.tsv").write_text(ours.stdout)
        (work / "ref.tsv").write_text(ref.stdout)
print(f"seed {seed}: {cases} cases, {differed} differed")
