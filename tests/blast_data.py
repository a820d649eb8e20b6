"""Generated protein databases and Debian's blastp for the blast tests (test_blast_*.py)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np

BLASTP = shutil.which("blastp")
MAKEBLASTDB = shutil.which("makeblastdb")
SKIP_REASON = "NCBI BLAST+ is not installed (apt-get install ncbi-blast+)"
MISSING = BLASTP is None or MAKEBLASTDB is None

OUTFMT = "6 std qlen slen score"
AMINO = np.array(list("ACDEFGHIKLMNPQRSTVWY"))
# Robinson & Robinson frequencies (per mille), the composition blastp assumes for subjects.
ROBINSON = np.array(
    [78.05, 19.25, 53.64, 62.95, 38.56, 73.77, 21.99, 51.42, 57.44, 90.19,
     22.43, 44.87, 52.03, 42.64, 51.29, 71.20, 58.41, 64.41, 13.30, 32.16]
)  # fmt: skip
RARE = np.array(list("BZJUOX*"))


def random_protein(rng: np.random.Generator, n: int) -> str:
    return "".join(rng.choice(AMINO, size=n, p=ROBINSON / ROBINSON.sum()))


def mutated(rng: np.random.Generator, seq: str, identity: float, indel_rate: float) -> str:
    """A homolog: each residue kept with probability `identity`, else redrawn from the
    background; occasional insertions and deletions of 1-4 residues."""
    out = []
    for c in seq:
        r = rng.random()
        if r < indel_rate / 2:
            continue  # deletion
        if r < indel_rate:
            out.append(random_protein(rng, int(rng.integers(1, 5))))  # insertion
        out.append(c if rng.random() < identity else random_protein(rng, 1))
    return "".join(out)


def with_rare_letters(rng: np.random.Generator, seq: str, every: int) -> str:
    chars = list(seq)
    for i in range(0, len(chars), every):
        chars[i] = str(rng.choice(RARE))
    return "".join(chars)


def write_fasta(path: Path, records: list[tuple[str, str]]) -> None:
    with open(path, "w") as f:
        for name, seq in records:
            f.write(f">{name}\n")
            for i in range(0, len(seq), 60):
                f.write(seq[i : i + 60] + "\n")


def make_database(out: Path) -> dict:
    """The shared test database: random subjects with planted homologs of five queries (100,
    300, 500 residues; one with rare letters, one K/E/P/S-rich) at 30-90% identity."""
    rng = np.random.default_rng(20261123)
    queries = [
        ("q100", random_protein(rng, 100)),
        ("q300", random_protein(rng, 300)),
        ("q500", random_protein(rng, 500)),
    ]
    # Rare letters (and lower case) in the query: O is searched as X, '*' scores +1 with '*'.
    special = with_rare_letters(rng, random_protein(rng, 150), 7)
    queries.append(("qspecial", special[:40] + special[40:80].lower() + special[80:]))
    # A K/E/P/S-rich query: its own lambda and K differ clearly from BLOSUM62's.
    kep = "".join(rng.choice(list("KEPSAGLD"), size=220))
    queries.append(("qbiased", kep))

    subjects = [(f"r{i:04d}", random_protein(rng, int(rng.integers(30, 700)))) for i in range(3000)]
    planted = []
    for qname, qseq in queries:
        for k, identity in enumerate([0.9, 0.75, 0.6, 0.5, 0.4, 0.3]):
            indels = 0.0 if k % 2 == 0 else 0.02
            body = mutated(rng, qseq.upper(), identity, indels)
            if k == 5:  # a partial homolog
                body = body[len(body) // 3 : 2 * len(body) // 3]
            left = random_protein(rng, int(rng.integers(0, 120)))
            right = random_protein(rng, int(rng.integers(0, 120)))
            planted.append((f"{qname}_h{k}", left + body + right))
    # A few random subjects with rare letters, and two identical copies of one homolog (the
    # higher database index is reported first among equal hits).
    for i in range(20):
        planted.append((f"rare{i:02d}", with_rare_letters(rng, random_protein(rng, 300), 5)))
    planted.append(("dupA", planted[1][1]))
    planted.append(("dupB", planted[1][1]))
    # Planted sequences spread through the database, not all at its end.
    order = rng.permutation(len(subjects))
    records = [subjects[i] for i in order[: len(order) // 2]] + planted
    records += [subjects[i] for i in order[len(order) // 2 :]]

    db_fasta = out / "db.fa"
    query_fasta = out / "queries.fa"
    write_fasta(db_fasta, records)
    write_fasta(query_fasta, queries)
    subprocess.run(
        [MAKEBLASTDB, "-in", db_fasta, "-dbtype", "prot", "-out", out / "db"],
        check=True,
        capture_output=True,
    )
    return {"dir": out, "db": out / "db", "db_fasta": db_fasta, "queries": queries,
            "query_fasta": query_fasta, "n_subjects": len(records),
            "db_length": sum(len(s) for _, s in records)}  # fmt: skip


def run_blastp(data: dict, query: Path, *args: str, ungapped: bool = True) -> list[str]:
    mode = ["-ungapped"] if ungapped else []
    run = subprocess.run(
        [BLASTP, "-query", query, "-db", data["db"], *mode, "-comp_based_stats", "0",
         "-seg", "no", *args],
        check=True,
        capture_output=True,
        text=True,
    )  # fmt: skip
    return run.stdout.splitlines()


# Our keyword -> blastp's flag.
FLAGS = {
    "evalue": "-evalue",
    "max_target_seqs": "-max_target_seqs",
    "threshold": "-threshold",
    "window_size": "-window_size",
    "xdrop_ungap": "-xdrop_ungap",
    "dbsize": "-dbsize",
}
