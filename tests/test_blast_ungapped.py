"""gpuseq.blast against Debian's NCBI blastp 2.12 run by the tests themselves.

A generated database (random subjects with the background composition of real proteins,
homologs of the queries planted at 30-90% identity in random flanks, some with indels, some
with the rare letters B Z J U O X *) is searched with ``blastp -ungapped -comp_based_stats 0
-seg no``; every outfmt-6 row must be equal, as blastp prints it. The statistics are checked
against the numbers of blastp's own text report (Lambda, K, H, effective search space).
"""

from __future__ import annotations

import re
import subprocess

import numpy as np
import pytest
from blast_data import (
    FLAGS,
    MAKEBLASTDB,
    MISSING,
    OUTFMT,
    SKIP_REASON,
    make_database,
    random_protein,
    run_blastp,
    with_rare_letters,
    write_fasta,
)

from gpuseq import blast
from gpuseq.errors import AlphabetError, EmptyInputError

pytestmark = pytest.mark.skipif(MISSING, reason=SKIP_REASON)


@pytest.fixture(scope="module")
def blast_data(tmp_path_factory) -> dict:
    return make_database(tmp_path_factory.mktemp("blast_ungapped"))


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
    expected = run_blastp(blast_data, blast_data["query_fasta"], "-outfmt", OUTFMT, *flags)
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
    write_fasta(fasta, [(name, sequence)])
    expected = run_blastp(blast_data, fasta, "-outfmt", OUTFMT, "-evalue", "1e6")
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
        write_fasta(fasta, [(name, seq)])
        report = "\n".join(run_blastp(blast_data, fasta, "-outfmt", "0"))
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
    query = random_protein(rng, 120)
    records = [(f"x{i}", random_protein(rng, 200)) for i in range(30)]
    records[3:3] = [("empty1", ""), ("dots", query[:60] + ".." + query[60:])]
    records += [("tilde", "~" + query.lower() + "~"), ("empty2", ""), ("mix", "AC~DE.FGHIKLMN")]
    db_fasta, query_fasta = tmp_path / "db.fa", tmp_path / "q.fa"
    write_fasta(db_fasta, records)
    write_fasta(query_fasta, [("q", query)])
    subprocess.run(
        [MAKEBLASTDB, "-in", db_fasta, "-dbtype", "prot", "-out", tmp_path / "db"],
        check=True,
        capture_output=True,
    )
    expected = run_blastp(
        {"db": tmp_path / "db"}, query_fasta, "-outfmt", OUTFMT, "-evalue", "1000"
    )
    hits = blast.blastp_ungapped(query_fasta, db_fasta, evalue=1000)
    assert blast.outfmt6_lines(hits) == expected


def test_gapped_statistics_equal_blastp(blast_data, tmp_path):
    """For gapped blastp (the next stages): E-values and bit scores of the raw scores blastp
    prints, and the gapped effective search space of its report, from our statistics."""
    rows = run_blastp(
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
        write_fasta(fasta, [(name, seq)])
        report = "\n".join(
            run_blastp(blast_data, fasta, "-outfmt", "0", "-max_target_seqs", "1", ungapped=False)
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
    query = with_rare_letters(rng, random_protein(rng, 60), 9)
    subjects = [("s1", random_protein(rng, 200)), ("s2", query[10:40] + "XXXWW"), ("s3", "AC")]
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
