"""gpuseq.blast against Debian's NCBI blastp 2.12 run by the tests themselves.

A generated database (random subjects with the background composition of real proteins,
homologs of the queries planted at 30-90% identity in random flanks, some with indels, some
with the rare letters B Z J U O X *) is searched with ``blastp -ungapped -comp_based_stats 0
-seg no``; every outfmt-6 row must be equal, as blastp prints it. The statistics are checked
against the numbers of blastp's own text report (Lambda, K, H, effective search space).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from gpuseq import blast
from gpuseq.errors import AlphabetError, EmptyInputError

BLASTP = shutil.which("blastp")
MAKEBLASTDB = shutil.which("makeblastdb")
pytestmark = pytest.mark.skipif(
    BLASTP is None or MAKEBLASTDB is None,
    reason="NCBI BLAST+ is not installed (apt-get install ncbi-blast+)",
)

OUTFMT = "6 std qlen slen score"
AMINO = np.array(list("ACDEFGHIKLMNPQRSTVWY"))
# Robinson & Robinson frequencies (per mille), the composition blastp assumes for subjects.
ROBINSON = np.array(
    [78.05, 19.25, 53.64, 62.95, 38.56, 73.77, 21.99, 51.42, 57.44, 90.19,
     22.43, 44.87, 52.03, 42.64, 51.29, 71.20, 58.41, 64.41, 13.30, 32.16]
)  # fmt: skip
RARE = np.array(list("BZJUOX*"))


def _random_protein(rng: np.random.Generator, n: int) -> str:
    return "".join(rng.choice(AMINO, size=n, p=ROBINSON / ROBINSON.sum()))


def _mutated(rng: np.random.Generator, seq: str, identity: float, indel_rate: float) -> str:
    """A homolog: each residue kept with probability `identity`, else redrawn from the
    background; occasional insertions and deletions of 1-4 residues."""
    out = []
    for c in seq:
        r = rng.random()
        if r < indel_rate / 2:
            continue  # deletion
        if r < indel_rate:
            out.append(_random_protein(rng, int(rng.integers(1, 5))))  # insertion
        out.append(c if rng.random() < identity else _random_protein(rng, 1))
    return "".join(out)


def _with_rare_letters(rng: np.random.Generator, seq: str, every: int) -> str:
    chars = list(seq)
    for i in range(0, len(chars), every):
        chars[i] = str(rng.choice(RARE))
    return "".join(chars)


def _write_fasta(path: Path, records: list[tuple[str, str]]) -> None:
    with open(path, "w") as f:
        for name, seq in records:
            f.write(f">{name}\n")
            for i in range(0, len(seq), 60):
                f.write(seq[i : i + 60] + "\n")


@pytest.fixture(scope="module")
def blast_data(tmp_path_factory) -> dict:
    rng = np.random.default_rng(20261123)
    out = tmp_path_factory.mktemp("blast_ungapped")
    queries = [
        ("q100", _random_protein(rng, 100)),
        ("q300", _random_protein(rng, 300)),
        ("q500", _random_protein(rng, 500)),
    ]
    # Rare letters (and lower case) in the query: O is searched as X, '*' scores +1 with '*'.
    special = _with_rare_letters(rng, _random_protein(rng, 150), 7)
    queries.append(("qspecial", special[:40] + special[40:80].lower() + special[80:]))
    # A K/E/P/S-rich query: its own lambda and K differ clearly from BLOSUM62's.
    kep = "".join(rng.choice(list("KEPSAGLD"), size=220))
    queries.append(("qbiased", kep))

    subjects = [
        (f"r{i:04d}", _random_protein(rng, int(rng.integers(30, 700)))) for i in range(3000)
    ]
    planted = []
    for qname, qseq in queries:
        for k, identity in enumerate([0.9, 0.75, 0.6, 0.5, 0.4, 0.3]):
            indels = 0.0 if k % 2 == 0 else 0.02
            body = _mutated(rng, qseq.upper(), identity, indels)
            if k == 5:  # a partial homolog
                body = body[len(body) // 3 : 2 * len(body) // 3]
            left = _random_protein(rng, int(rng.integers(0, 120)))
            right = _random_protein(rng, int(rng.integers(0, 120)))
            planted.append((f"{qname}_h{k}", left + body + right))
    # A few random subjects with rare letters, and two identical copies of one homolog (the
    # higher database index is reported first among equal hits).
    for i in range(20):
        planted.append((f"rare{i:02d}", _with_rare_letters(rng, _random_protein(rng, 300), 5)))
    planted.append(("dupA", planted[1][1]))
    planted.append(("dupB", planted[1][1]))
    # Planted sequences spread through the database, not all at its end.
    order = rng.permutation(len(subjects))
    records = [subjects[i] for i in order[: len(order) // 2]] + planted
    records += [subjects[i] for i in order[len(order) // 2 :]]

    db_fasta = out / "db.fa"
    query_fasta = out / "queries.fa"
    _write_fasta(db_fasta, records)
    _write_fasta(query_fasta, queries)
    subprocess.run(
        [MAKEBLASTDB, "-in", db_fasta, "-dbtype", "prot", "-out", out / "db"],
        check=True,
        capture_output=True,
    )
    return {"dir": out, "db": out / "db", "db_fasta": db_fasta, "queries": queries,
            "query_fasta": query_fasta, "n_subjects": len(records),
            "db_length": sum(len(s) for _, s in records)}  # fmt: skip


def _blastp(data: dict, query: Path, *args: str, ungapped: bool = True) -> list[str]:
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


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"evalue": 1000.0},
        {"evalue": 1e-5},
        {"evalue": 1000.0, "max_target_seqs": 7},
        {"evalue": 100.0, "threshold": 13, "window_size": 20, "xdrop_ungap": 12.0},
        {"evalue": 100.0, "threshold": 9},
        # A large database size puts the E-value cutoff above the gap trigger.
        {"dbsize": 5_000_000_000, "evalue": 1e4},
    ],
    ids=["default", "evalue1000", "evalue1e-5", "max_target_seqs7", "T13_A20_X12", "T9",
         "dbsize5e9"],
)  # fmt: skip
def test_outfmt6_rows_equal_blastp(blast_data, options):
    flags = []
    for key, value in options.items():
        flags += [FLAGS[key], str(value)]
    expected = _blastp(blast_data, blast_data["query_fasta"], "-outfmt", OUTFMT, *flags)
    hits = blast.blastp_ungapped(blast_data["query_fasta"], blast_data["db_fasta"], **options)
    got = blast.outfmt6_lines(hits)
    assert len(expected) > 30  # the planted homologs are found
    assert got == expected


def test_threads_do_not_change_rows(blast_data):
    one = blast.blastp_ungapped(blast_data["query_fasta"], blast_data["db_fasta"], threads=1)
    two = blast.blastp_ungapped(blast_data["query_fasta"], blast_data["db_fasta"], threads=2)
    assert blast.outfmt6_lines(one) == blast.outfmt6_lines(two)


@pytest.mark.parametrize(
    "name, sequence",
    [
        ("all_x", "X" * 40),  # no Karlin-Altschul block: blastp warns and reports nothing
        ("two", "AC"),  # shorter than a word
        ("short_rich", "WWWCCCHHHWWWCCCYYYMMMWWW"),
        ("with_O", "MKTAYIAKQRQISFVKSHFSRQOOLEERLGLIEVQAPILSRVGDGTQDNLSGAEKAVQ"),
    ],
)
def test_edge_queries_equal_blastp(blast_data, tmp_path, name, sequence):
    fasta = tmp_path / "q.fa"
    _write_fasta(fasta, [(name, sequence)])
    expected = _blastp(blast_data, fasta, "-outfmt", OUTFMT, "-evalue", "1e6")
    hits = blast.blastp_ungapped(fasta, blast_data["db_fasta"], evalue=1e6)
    assert blast.outfmt6_lines(hits) == expected


def test_statistics_equal_blastp_report(blast_data, tmp_path):
    """Lambda, K, H of the query and the effective search space of blastp's -outfmt 0 footer."""
    pattern = re.compile(
        r"Lambda\s+K\s+H\s*\n\s*(\S+)\s+(\S+)\s+(\S+)\s*\n.*?"
        r"Effective search space used:\s*(\d+)",
        re.S,
    )
    for name, seq in blast_data["queries"]:
        fasta = tmp_path / f"{name}.fa"
        _write_fasta(fasta, [(name, seq)])
        report = "\n".join(_blastp(blast_data, fasta, "-outfmt", "0"))
        match = pattern.search(report)
        assert match, report[-2000:]
        lam, k, h, space = match.groups()
        st = blast.query_statistics(
            [(name, seq)], blast_data["db_length"], blast_data["n_subjects"]
        )
        # The report prints 3 significant digits.
        assert f"{st['lambda']:.3g}" == f"{float(lam):.3g}", name
        assert f"{st['K']:.3g}" == f"{float(k):.3g}", name
        assert f"{st['H']:.3g}" == f"{float(h):.3g}", name
        assert st["search_space"] == int(space), name


def test_database_letters_as_makeblastdb_stores_them(tmp_path):
    """Empty records are left out of the database (not counted as sequences); '.' and '~'
    inside a sequence are dropped; lower case is upper case."""
    rng = np.random.default_rng(11)
    query = _random_protein(rng, 120)
    records = [(f"x{i}", _random_protein(rng, 200)) for i in range(30)]
    records[3:3] = [("empty1", ""), ("dots", query[:60] + ".." + query[60:])]
    records += [("tilde", "~" + query.lower() + "~"), ("empty2", ""), ("mix", "AC~DE.FGHIKLMN")]
    db_fasta, query_fasta = tmp_path / "db.fa", tmp_path / "q.fa"
    _write_fasta(db_fasta, records)
    _write_fasta(query_fasta, [("q", query)])
    subprocess.run(
        [MAKEBLASTDB, "-in", db_fasta, "-dbtype", "prot", "-out", tmp_path / "db"],
        check=True,
        capture_output=True,
    )
    expected = _blastp({"db": tmp_path / "db"}, query_fasta, "-outfmt", OUTFMT, "-evalue", "1000")
    hits = blast.blastp_ungapped(query_fasta, db_fasta, evalue=1000)
    assert blast.outfmt6_lines(hits) == expected


def test_gapped_statistics_equal_blastp(blast_data, tmp_path):
    """For gapped blastp (the next stages): E-values and bit scores of the raw scores blastp
    prints, and the gapped effective search space of its report, from our statistics."""
    rows = _blastp(
        blast_data, blast_data["query_fasta"], "-outfmt", OUTFMT, "-evalue", "100", ungapped=False
    )
    assert len(rows) > 30
    fields = [r.split("\t") for r in rows]
    for f in fields:
        evalue, bits = blast.gapped_scores(
            [int(f[14])], int(f[12]), [int(f[13])], blast_data["db_length"]
        )
        assert blast.format_evalue(evalue[0]) == f[10], f
        assert blast.format_bitscore(bits[0]) == f[11], f
    pattern = re.compile(
        r"Gapped\s*\nLambda\s+K\s+H.*?\n\s*(\S+)\s+(\S+)\s+(\S+).*?"
        r"Effective search space used:\s*(\d+)",
        re.S,
    )
    for name, seq in blast_data["queries"][:3]:
        fasta = tmp_path / f"{name}.fa"
        _write_fasta(fasta, [(name, seq)])
        report = "\n".join(
            _blastp(blast_data, fasta, "-outfmt", "0", "-max_target_seqs", "1", ungapped=False)
        )
        match = pattern.search(report)
        assert match, report[-2000:]
        st = blast.gapped_statistics(len(seq), blast_data["db_length"], blast_data["n_subjects"])
        assert f"{st['lambda']:.3g}" == f"{float(match[1]):.3g}"
        assert f"{st['K']:.3g}" == f"{float(match[2]):.3g}"
        assert st["search_space"] == int(match[4]), name


def test_word_hits_follow_the_neighbourhood_rule():
    """Every (q, s) whose words score >= 11 under BLOSUM62, or are the same word, and no other,
    in scan order (subject offsets increasing)."""
    rng = np.random.default_rng(7)
    query = _with_rare_letters(rng, _random_protein(rng, 60), 9)
    subjects = [("s1", _random_protein(rng, 200)), ("s2", query[10:40] + "XXXWW"), ("s3", "AC")]
    hits = blast.word_hits([("q", query)], subjects)

    letters = blast._core.blast_letters
    matrix = np.asarray(blast._core.blast_blosum62).reshape(28, 28)
    q = np.array([letters.index("X" if c == "O" else c) for c in query])
    expected = set()
    for si, (_, text) in enumerate(subjects):
        s = np.array([letters.index(c) for c in text])
        for j in range(len(s) - 2):
            for i in range(len(q) - 2):
                score = sum(matrix[q[i + k], s[j + k]] for k in range(3))
                if score >= 11 or tuple(q[i : i + 3]) == tuple(s[j : j + 3]):
                    expected.add((si, i, j))
    got = list(zip(hits.subject, hits.query_offset, hits.subject_offset))
    assert set(got) == expected
    assert len(got) == len(expected)
    order = [(si, j) for si, _, j in got]
    assert order == sorted(order)


def test_ungapped_stage_holds_every_reported_hsp(blast_data):
    """The ungapped stage's HSPs (score >= the word cutoff) include every row blastp reports."""
    name, seq = blast_data["queries"][1]
    st = blast.query_statistics([(name, seq)], blast_data["db_length"], blast_data["n_subjects"])
    stage = blast.ungapped_hsps([(name, seq)], blast_data["db_fasta"], st["x_drop"],
                                st["word_cutoff"])  # fmt: skip
    assert (stage.score >= st["word_cutoff"]).all()
    hits = blast.blastp_ungapped([(name, seq)], blast_data["db_fasta"])
    _, _, names = blast.encode(blast_data["db_fasta"])
    stage_keys = {
        (names[r.subject], r.q_start + 1, r.s_start + 1, r.length, r.score)
        for r in stage.itertuples()
    }
    for r in hits.itertuples():
        assert (r.sseqid, r.qstart, r.sstart, r.length, r.score) in stage_keys


def test_printed_number_formats():
    assert blast.format_evalue(0.0) == "0.0"
    assert blast.format_evalue(1.93e-151) == "1.93e-151"
    assert blast.format_evalue(2.3e-5) == "2.30e-05"
    assert blast.format_evalue(0.016) == "0.016"
    assert blast.format_evalue(0.3) == "0.30"
    assert blast.format_evalue(9.96) == "10.0"
    assert blast.format_evalue(1000) == "1000"
    assert blast.format_bitscore(214.93) == "214"
    assert blast.format_bitscore(24.6) == "24.6"


def test_empty_query_is_a_typed_error(blast_data):
    with pytest.raises(EmptyInputError, match="empty"):
        blast.blastp_ungapped([("empty", "")], blast_data["db_fasta"])


def test_bad_letter_is_a_typed_error(blast_data):
    with pytest.raises(AlphabetError, match="bad"):
        blast.blastp_ungapped([("bad", "ACDE1FGH")], blast_data["db_fasta"])
