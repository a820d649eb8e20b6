"""gpuseq.blastp against Debian's blastp at the scale of real searches: 100,000 generated
subjects with homologs of nine queries (about 100, 500 and 1,000 residues) planted at 30-90%
identity (tests/blast_data.py make_large_database), with blastp's default options and other
option sets; blastp runs here, on the same FASTA made into a BLAST database. At least 99% of
the outfmt-6 rows must be equal; so far all are, in blastp's order (118 rows with the
defaults), and the test also asks for that. Slow (about 3 minutes on 2 cores): the database
is made once for all option sets."""

from __future__ import annotations

import subprocess
from collections import Counter

import pytest
from blast_data import (
    BLASTP,
    CHUNK_BOUNDARIES,
    MISSING,
    OUTFMT,
    SKIP_REASON,
    make_large_database,
    make_long_subject_database,
)

import gpuseq
from gpuseq import blast

SUBJECTS = 100_000
pytestmark = [pytest.mark.skipif(MISSING, reason=SKIP_REASON), pytest.mark.slow]


@pytest.fixture(scope="module")
def large(tmp_path_factory) -> dict:
    return make_large_database(tmp_path_factory.mktemp("blast_scale"), SUBJECTS)


# blastp's flags -> gpuseq.blastp's keywords, per option set.
OPTION_SETS = {
    "defaults": ([], {}),  # -comp_based_stats 2 -seg no
    "cbs0": (["-comp_based_stats", "0"], {"comp_based_stats": 0}),
    "cbs1": (["-comp_based_stats", "1"], {"comp_based_stats": 1}),
    "cbs3": (["-comp_based_stats", "3"], {"comp_based_stats": 3}),
    "seg_yes": (["-seg", "yes"], {"seg": "yes"}),
}


@pytest.mark.parametrize("options", list(OPTION_SETS))
def test_rows_equal_blastp_at_100k_subjects(large, options):
    flags, keywords = OPTION_SETS[options]
    run = subprocess.run([BLASTP, "-query", large["query_fasta"], "-db", large["db"], "-outfmt",
                          OUTFMT, *flags], check=True, capture_output=True, text=True)  # fmt: skip
    expected = run.stdout.splitlines()
    got = blast.outfmt6_lines(gpuseq.blastp(large["query_fasta"], large["db_fasta"], **keywords))
    assert len(expected) > 100
    common = sum((Counter(expected) & Counter(got)).values())
    missing = sorted(set(expected) - set(got))
    extra = sorted(set(got) - set(expected))
    assert common >= 0.99 * max(len(expected), len(got)), (missing[:20], extra[:20])
    # Every row found so far is equal and in blastp's order.
    assert got == expected, (missing[:20], extra[:20])


@pytest.mark.parametrize("flags, keywords", [(["-comp_based_stats", "0"], {"comp_based_stats": 0}),
                                             ([], {})], ids=["cbs0", "defaults"])  # fmt: skip
def test_subject_over_5m_residues_rows_equal_blastp(tmp_path_factory, flags, keywords):
    """blastp splits a subject longer than 5,000,000 residues into overlapping chunks and
    merges their preliminary HSPs (blast_engine.c); gpuseq searches it whole. With homologs
    across every chunk boundary and -evalue 1000 (thousands of weak HSPs, many near the
    boundaries) the rows are the same: the traceback realigns every HSP on the whole subject,
    and the merge joins the HSPs a boundary cut."""
    data = make_long_subject_database(tmp_path_factory.mktemp("blast_long_subject"))
    run = subprocess.run([BLASTP, "-query", data["query_fasta"], "-db", data["db"], "-outfmt",
                          OUTFMT, "-evalue", "1000", *flags],
                         check=True, capture_output=True, text=True)  # fmt: skip
    expected = run.stdout.splitlines()
    hits = gpuseq.blastp(data["query_fasta"], data["db_fasta"], evalue=1000, **keywords)
    got = blast.outfmt6_lines(hits)
    assert len(expected) > 3000
    assert sum("\tgiant\t" in line for line in expected) > 1000
    assert any(
        int(line.split("\t")[8]) < b <= int(line.split("\t")[9])
        for line in expected
        for b in CHUNK_BOUNDARIES
    )  # some HSPs cross a boundary
    assert got == expected
