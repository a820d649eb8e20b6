"""Generated protein databases and Debian's blastp for the blast tests (test_blast_*.py)."""

from __future__ import annotations

import gzip
import shutil
import subprocess
from pathlib import Path

import numpy as np

BLASTP = shutil.which("blastp")
MAKEBLASTDB = shutil.which("makeblastdb")
SKIP_REASON = "NCBI BLAST+ is not installed (apt-get install ncbi-blast+)"
MISSING = BLASTP is None or MAKEBLASTDB is None

OUTFMT = "6 std qlen slen score"

# Debian's plast-example: a dolphin proteome and query proteins, real data for blastp.
PLAST = Path("/usr/share/doc/plast-example/db")


def dolphin_files(out: Path, queries: int) -> dict:
    """plast-example's dolphin proteome under `out` as FASTA and as a BLAST database
    (makeblastdb), and its first `queries` query records: {"db", "fasta", "queries"}."""
    fasta = out / "tursiops.fa"
    fasta.write_bytes(gzip.decompress((PLAST / "tursiops.fa.gz").read_bytes()))
    subprocess.run([MAKEBLASTDB, "-in", fasta, "-dbtype", "prot", "-out", out / "db"],
                   check=True, capture_output=True)  # fmt: skip
    records = gzip.decompress((PLAST / "query.fa.gz").read_bytes()).decode().split(">")[1:]
    query_fasta = out / "queries.fa"
    query_fasta.write_text("".join(">" + r for r in records[:queries]))
    return {"db": out / "db", "fasta": fasta, "queries": query_fasta}
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


def run_blastp(
    data: dict, query: Path, *args: str, ungapped: bool = True, seg: str = "no"
) -> list[str]:
    mode = ["-ungapped"] if ungapped else []
    run = subprocess.run(
        [BLASTP, "-query", query, "-db", data["db"], *mode, "-comp_based_stats", "0",
         "-seg", seg, *args],
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


# Low-complexity runs planted in some queries and subjects: blastp -seg yes masks them in the
# queries; without SEG they give hits between unrelated sequences.
LOW_COMPLEXITY = [
    "QQQQQQQQQQQQQQQQQQQQQQQQQ",
    "PPSPPAPPSPPPAPSPPPPAPPSP",
    "KKEEKKEKKEEEKKEKEEKKEKE",
    "SGSGSGSGGSSGSGSGSGGSGS",
    "ALALALLAALALALALLA",
]


def make_large_database(out: Path, subjects: int, seed: int = 20261124) -> dict:
    """A database at the scale of real searches: `subjects` random proteins (lengths 50-700,
    Robinson & Robinson composition), one in 200 with a low-complexity run, and homologs of
    nine queries (three each of about 100, 500 and 1,000 residues; two of each length carry a
    low-complexity run) planted at 90% to 30% identity, with and without indels, whole and
    partial, spread through the database."""
    rng = np.random.default_rng(seed)
    p = ROBINSON / ROBINSON.sum()
    queries = []
    for n in (100, 500, 1000):
        for k in range(3):
            seq = random_protein(rng, n)
            if k < 2:  # a low-complexity run inside the query
                run = LOW_COMPLEXITY[int(rng.integers(len(LOW_COMPLEXITY)))]
                at = int(rng.integers(0, n - len(run)))
                seq = seq[:at] + run + seq[at + len(run) :]
            queries.append((f"q{n}_{k}", seq))
    planted = []
    for qname, qseq in queries:
        for k, identity in enumerate([0.9, 0.75, 0.6, 0.5, 0.4, 0.35, 0.3]):
            body = mutated(rng, qseq, identity, 0.02 if k % 2 else 0.0)
            if k == 4:  # a partial homolog
                body = body[len(body) // 4 : 3 * len(body) // 4]
            flanks = [random_protein(rng, int(rng.integers(0, 80))) for _ in range(2)]
            planted.append((f"{qname}_h{k}", flanks[0] + body + flanks[1]))

    # The random subjects as bytes (fast at 100,000 subjects).
    lengths = rng.integers(50, 701, size=subjects)
    letters = np.frombuffer("".join(AMINO).encode(), dtype=np.uint8)
    residues = letters[rng.choice(20, size=int(lengths.sum()), p=p)].tobytes()
    bounds = np.concatenate([[0], np.cumsum(lengths)])
    every = max(1, subjects // len(planted))
    db_fasta = out / "db.fa"
    total = 0
    with open(db_fasta, "w") as f:
        for i in range(subjects):
            seq = residues[bounds[i] : bounds[i + 1]].decode()
            if i % 200 == 7:
                run = LOW_COMPLEXITY[i % len(LOW_COMPLEXITY)]
                seq = seq[: len(seq) // 2] + run + seq[len(seq) // 2 :]
            f.write(f">s{i}\n{seq}\n")
            total += len(seq)
            if i % every == 0 and planted:
                name, seq = planted.pop()
                f.write(f">{name}\n{seq}\n")
                total += len(seq)
        for name, seq in planted:
            f.write(f">{name}\n{seq}\n")
            total += len(seq)
    query_fasta = out / "queries.fa"
    write_fasta(query_fasta, queries)
    subprocess.run([MAKEBLASTDB, "-in", db_fasta, "-dbtype", "prot", "-out", out / "db"],
                   check=True, capture_output=True)  # fmt: skip
    return {"dir": out, "db": out / "db", "db_fasta": db_fasta, "queries": queries,
            "query_fasta": query_fasta, "db_length": total}  # fmt: skip


# blastp searches a subject longer than 5,000,000 residues (MAX_DBSEQ_LEN) in chunks of that
# length overlapping by 100 (s_GetNextSubjectChunk): chunk 1 is [0, 5,000,000), chunk 2
# [4,999,900, 9,999,900), chunk 3 [9,999,800, ...).
CHUNK_BOUNDARIES = (4_999_900, 5_000_000, 9_999_800, 9_999_900)


def make_long_subject_database(out: Path, seed: int = 7) -> dict:
    """300 short random subjects and one of 10,200,000 residues holding homologs (40-60%
    identity, with indels) of eight 200-residue queries, each placed across or next to a
    boundary of blastp's subject chunks."""
    rng = np.random.default_rng(seed)
    letters = np.frombuffer("".join(AMINO).encode(), dtype=np.uint8)
    p = ROBINSON / ROBINSON.sum()
    giant = bytearray(letters[rng.choice(20, size=10_200_000, p=p)].tobytes())
    queries = []
    starts = (4_999_700, 4_999_800, 4_999_850, 4_999_900, 4_999_950, 4_999_990, 9_999_700,
              9_999_850)  # fmt: skip
    for k, at in enumerate(starts):
        query = random_protein(rng, 200)
        queries.append((f"q{k}", query))
        homolog = mutated(rng, query, [0.4, 0.5, 0.6, 0.45][k % 4], 0.02)
        giant[at : at + len(homolog)] = homolog.encode()
    records = [(f"r{i}", random_protein(rng, int(rng.integers(50, 500)))) for i in range(300)]
    records.insert(150, ("giant", giant.decode()))
    db_fasta, query_fasta = out / "db.fa", out / "queries.fa"
    write_fasta(db_fasta, records)
    write_fasta(query_fasta, queries)
    subprocess.run([MAKEBLASTDB, "-in", db_fasta, "-dbtype", "prot", "-out", out / "db"],
                   check=True, capture_output=True)  # fmt: skip
    return {"dir": out, "db": out / "db", "db_fasta": db_fasta, "query_fasta": query_fasta}
