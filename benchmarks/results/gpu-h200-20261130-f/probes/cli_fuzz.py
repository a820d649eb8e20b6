"""Session 69: `gpuseq hmmsearch` against Debian's hmmsearch 3.3.2 as processes, on random
models, targets and flags; every output file compared.

    python3 cli_fuzz.py SEED SECONDS BACKEND [CPUS]

Each case draws 1-3 query models (HMMER's tutorial models, pyhmmer's test models, and models
hmmbuild makes from random alignments of 1 to 3,000 columns), a database of background
proteins with planted and weakened homologs and odd targets (length 0 and 1, every residue
code, low complexity, lower case, up to 180,000 residues), and a random set of hmmsearch's flags.
The database is FASTA, gzipped FASTA, or (ours only) a database from `gpuseq makedb`. The report
body, the option lines of its header, the three tables and the -A alignment are compared; both
must fail or neither. A case that differs keeps its directory and prints its command."""

from __future__ import annotations

import gzip
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

import pyhmmer
from conftest import HMMER_EXAMPLES
from synthetic import AMINO, hmmemit, mutate, plant, random_protein, random_proteins, write_fasta
from test_cli import header_options
from test_hmmsearch import report_body, rows

seed, seconds, backend = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
cpus = int(sys.argv[4]) if len(sys.argv) > 4 else 2
rng = np.random.default_rng(seed)
HMMSEARCH, HMMBUILD = shutil.which("hmmsearch"), shutil.which("hmmbuild")
TUT = HMMER_EXAMPLES / "tutorial"
PYD = Path(pyhmmer.__file__).parent / "tests" / "data" / "hmms" / "txt"
REAL = [TUT / "globins4.hmm", TUT / "fn3.hmm", TUT / "Pkinase.hmm", PYD / "PF02826.hmm",
        PYD / "KR.hmm", PYD / "Thioesterase.hmm", PYD / "LuxC.hmm", PYD / "RREFam.hmm"]
root = Path(f"/tmp/clifuzz-{seed}")
shutil.rmtree(root, ignore_errors=True)
root.mkdir()


def random_model(work: Path, i: int) -> Path:
    """hmmbuild's model of a random alignment: a random ancestor, 4-30 copies mutated, with
    gaps and, at times, insert columns hmmbuild leaves out of the model."""
    length = int(rng.choice([1, 2, 3, 5, 10, 30, 60, 120, 250, 500, 900, 1200, 2000, 3000]))
    ancestor = random_protein(rng, length)
    nseq = int(rng.integers(4, 31))
    lines = ["# STOCKHOLM 1.0"]
    for s in range(nseq):
        chars = list(mutate(rng, ancestor, float(rng.uniform(0.05, 0.6))))
        for p in np.nonzero(rng.random(length) < rng.uniform(0, 0.15))[0]:
            chars[p] = "-"
        lines.append(f"r{s} {''.join(chars)}")
    lines.append("//")
    sto = work / f"m{i}.sto"
    sto.write_text("\n".join(lines) + "\n")
    hmm = work / f"m{i}.hmm"
    subprocess.run([HMMBUILD, "--amino", "-n", f"rand{i}_{length}", str(hmm), str(sto)],
                   check=True, capture_output=True)
    return hmm


def models_for(work: Path) -> Path:
    chosen = []
    for i in range(int(rng.integers(1, 4))):
        if rng.random() < 0.5:
            chosen.append(REAL[int(rng.integers(len(REAL)))])
        else:
            chosen.append(random_model(work, i))
    out = work / "q.hmm"
    out.write_text("".join(p.read_text() for p in chosen))
    return out


def targets_for(work: Path, hmms: Path) -> list[tuple[str, str]]:
    seqs = random_proteins(rng, int(rng.integers(0, 1500)), mean_length=float(rng.choice([80, 300])))
    emitted = hmmemit(hmms, int(rng.integers(1, 12)), seed=int(rng.integers(1, 1 << 30)))
    for s in emitted:
        seqs.append(plant(rng, mutate(rng, s, float(rng.choice([0.0, 0.2, 0.4, 0.6])))))
    odd = [
        lambda: "",
        lambda: random_protein(rng, 1),
        lambda: "".join(rng.choice(list(AMINO + "BJZOUX*"), size=int(rng.integers(5, 400)))),
        lambda: "X" * int(rng.integers(1, 500)),
        lambda: str(rng.choice(["KE", "A", "GS", "Q", "PPG"])) * int(rng.integers(10, 400)),
        lambda: random_protein(rng, int(rng.integers(50, 400))).lower(),
        lambda: plant(rng, emitted[0], 20000) if emitted else "M",
        lambda: random_protein(rng, int(rng.integers(10000, 60000))),
        lambda: plant(rng, emitted[-1], 60000) if emitted else "W",
        lambda: "".join(emitted[: int(rng.integers(1, 4))]) * 2,
    ]
    for _ in range(int(rng.integers(0, 8))):
        seqs.append(odd[int(rng.integers(len(odd)))]())
    order = rng.permutation(len(seqs))
    names = []
    for i in order:
        name = f"t{i}"
        if rng.random() < 0.2:
            name += " some description " + str(rng.integers(1000))
        names.append(name)
    return [(names[k], seqs[i]) for k, i in enumerate(order)]


def flags_for() -> list[str]:
    f: list[str] = []
    pick = lambda p: rng.random() < p  # noqa: E731
    evalue = lambda: str(rng.choice(["10", "1", "0.01", "1e-5", "1e-20", "1000"]))  # noqa: E731
    score = lambda: str(rng.choice(["0", "5", "15.5", "30", "-5"]))  # noqa: E731
    if pick(0.3):
        f += ["-E", evalue()]
    elif pick(0.15):
        f += ["-T", score()]
    if pick(0.3):
        f += ["--domE", evalue()]
    elif pick(0.15):
        f += ["--domT", score()]
    if pick(0.2):
        f += ["--incE", evalue()]
    elif pick(0.1):
        f += ["--incT", score()]
    if pick(0.2):
        f += ["--incdomE", evalue()]
    elif pick(0.1):
        f += ["--incdomT", score()]
    if pick(0.15):
        f += ["--max"]
    else:
        for flag in ("--F1", "--F2", "--F3"):
            if pick(0.15):
                f += [flag, str(rng.choice(["1", "0.5", "0.1", "0.02", "1e-3", "1e-5", "1e-8"]))]
        if pick(0.2):
            f += ["--nobias"]
    if pick(0.2):
        f += ["--nonull2"]
    if pick(0.2):
        f += ["-Z", str(rng.choice(["1", "7", "1000", "1e6", "45.5"]))]
    if pick(0.15):
        f += ["--domZ", str(rng.choice(["1", "3", "100", "0.5"]))]
    if pick(0.2):
        f += ["--seed", str(rng.integers(1, 100))]
    if pick(0.3):
        f += ["--acc"]
    if pick(0.4):
        f += ["--noali"]
    if pick(0.1):
        f += ["--notextw"]
    elif pick(0.1):
        f += ["--textw", str(rng.integers(120, 300))]
    return f


def run(program: list[str], flags, base: str, hmm: Path, db: Path):
    files = ["-o", f"{base}.out", "--tblout", f"{base}.tbl", "--domtblout", f"{base}.dom",
             "--pfamtblout", f"{base}.pfam", "-A", f"{base}.sto"]
    return subprocess.run([*program, *flags, *files, str(hmm), str(db)], capture_output=True,
                          text=True, timeout=1800)


def read(path: str, base: str) -> str:
    if not os.path.exists(path):
        return ""
    text = Path(path).read_text().replace(base, "X")
    for db in ("db.fa.gz", "db.gsdb", "db.fa"):
        text = text.replace(str(Path(base).parent / db), "DB")
    return text


def compare(ours: str, ref: str) -> list[str]:
    bad = []
    o_out, r_out = read(ours + ".out", ours), read(ref + ".out", ref)
    if r_out:
        if header_options(o_out) != header_options(r_out):
            bad.append("header")
        if report_body(o_out) != report_body(r_out):
            bad.append("report")
    for ext in ("tbl", "dom"):
        if rows(read(f"{ours}.{ext}", ours)) != rows(read(f"{ref}.{ext}", ref)):
            bad.append(ext)
    if read(ours + ".pfam", ours).split("# Program:")[0] != \
            read(ref + ".pfam", ref).split("# Program:")[0]:
        bad.append("pfam")
    sto = [[x for x in read(f"{b}.sto", b).splitlines() if not x.startswith("#=GF AU")]
           for b in (ours, ref)]
    if sto[0] != sto[1]:
        bad.append("sto")
    return bad


end = time.time() + seconds
cases = differed = 0
while time.time() < end:
    work = root / f"c{cases}"
    work.mkdir()
    hmm = models_for(work)
    records = targets_for(work, hmm)
    fasta = write_fasta(work / "db.fa", records, width=int(rng.choice([60, 80, 1000])))
    kind = str(rng.choice(["fasta", "gzip", "packed"]))
    ours_db = ref_db = fasta
    if kind == "gzip":  # (hmmsearch reads a .gz file for one model only: FASTA for it)
        ours_db = work / "db.fa.gz"
        with open(fasta, "rb") as src, gzip.open(ours_db, "wb") as dst:
            dst.write(src.read())
    elif kind == "packed":
        ours_db = work / "db.gsdb"
        subprocess.run([sys.executable, "-m", "gpuseq.cli", "makedb", str(fasta), str(ours_db)],
                       check=True, capture_output=True)
    flags = flags_for()
    t = time.time()
    ref = run([HMMSEARCH, "--cpu", str(cpus)], flags, str(work / "ref"), hmm, ref_db)
    t_ref = time.time() - t
    t = time.time()
    ours = run([sys.executable, "-m", "gpuseq.cli", "hmmsearch", "--cpu", str(cpus),
                "--backend", backend, "--no-progress"], flags, str(work / "ours"), hmm, ours_db)
    t_ours = time.time() - t
    bad = []
    if (ref.returncode == 0) != (ours.returncode == 0):
        bad = [f"rc {ours.returncode} vs {ref.returncode}: {ours.stderr[-300:]!r}"]
    elif ref.returncode == 0:
        bad = compare(str(work / "ours"), str(work / "ref"))
    cases += 1
    differed += bool(bad)
    n_models = hmm.read_text().count("\n//")
    print(f"case {cases - 1}: {n_models} models, {len(records)} targets, {kind}, "
          f"{' '.join(flags) or '(no flags)'}: ref {t_ref:.1f} s, ours {t_ours:.1f} s, "
          f"{'DIFFERENT ' + ' '.join(bad) if bad else 'same'}", flush=True)
    if not bad:
        shutil.rmtree(work)
print(f"seed {seed}: {cases} cases, {differed} differed")
