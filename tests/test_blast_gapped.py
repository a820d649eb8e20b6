"""gpuseq.blast.blastp_gapped against Debian's NCBI blastp 2.12 (-comp_based_stats 0 -seg no),
run by the tests themselves on generated databases: every outfmt-6 row as blastp prints it."""

from __future__ import annotations

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
    mutated,
    random_protein,
    run_blastp,
    write_fasta,
)

from gpuseq import blast

pytestmark = pytest.mark.skipif(MISSING, reason=SKIP_REASON)


@pytest.fixture(scope="module")
def blast_data(tmp_path_factory) -> dict:
    return make_database(tmp_path_factory.mktemp("blast_gapped"))


GAPPED_FLAGS = {**FLAGS, "xdrop_gap": "-xdrop_gap", "xdrop_gap_final": "-xdrop_gap_final"}


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"evalue": 1000.0},
        {"evalue": 1e-5},
        {"evalue": 1000.0, "max_target_seqs": 7},
        {"max_target_seqs": 1},
        {"evalue": 100.0, "xdrop_gap": 10.0, "xdrop_gap_final": 40.0},
        # blastp aligns approximately first (restricted DP, spec 11.2/11.9) when the
        # preliminary cutoff is this high.
        {"dbsize": 5_000_000_000},
    ],
    ids=["default", "evalue1000", "evalue1e-5", "max_target_seqs7", "max_target_seqs1",
         "xdrop10_40", "dbsize5e9"],
)  # fmt: skip
def test_gapped_rows_equal_blastp(blast_data, options):
    flags = []
    for key, value in options.items():
        flags += [GAPPED_FLAGS[key], str(value)]
    expected = run_blastp(blast_data, blast_data["query_fasta"], "-outfmt", OUTFMT, *flags,
                       ungapped=False)  # fmt: skip
    hits = blast.blastp_gapped(blast_data["query_fasta"], blast_data["db_fasta"], **options)
    assert len(expected) >= 5
    assert blast.outfmt6_lines(hits) == expected


@pytest.fixture(scope="module")
def split_data(tmp_path_factory) -> dict:
    """Spec section 16's case: a homolog split by a 45-residue insertion (bridged only by the
    final X-drop), and single-segment homologs that rank above each half before the
    traceback; plus homologs with many long insertions and deletions."""
    rng = np.random.default_rng(4242)
    out = tmp_path_factory.mktemp("blast_split")
    query = random_protein(rng, 200)
    records = [
        (f"rand{i:03d}", random_protein(rng, int(rng.integers(50, 600)))) for i in range(300)
    ]
    half = mutated(rng, query, 0.85, 0.0)
    records.append(("splitA", random_protein(rng, 30) + half[:100] + random_protein(rng, 45)
                    + half[100:] + random_protein(rng, 30)))  # fmt: skip
    for k in range(14):
        start = int(rng.integers(0, 60))
        body = mutated(rng, query[start : start + 120], 0.9, 0.0)
        flanked = random_protein(rng, 20) + body + random_protein(rng, 20)
        records.append((f"single{k:02d}", flanked))
    for k in range(10):
        records.append((f"indel{k}", mutated(rng, query, 0.6, 0.08)))
    db_fasta, query_fasta = out / "db.fa", out / "q.fa"
    write_fasta(db_fasta, records)
    write_fasta(query_fasta, [("qsplit", query)])
    subprocess.run([MAKEBLASTDB, "-in", db_fasta, "-dbtype", "prot", "-out", out / "db"],
                   check=True, capture_output=True)  # fmt: skip
    return {"db": out / "db", "db_fasta": db_fasta, "query_fasta": query_fasta}


@pytest.mark.parametrize("max_target_seqs", [1, 5, 500])
def test_preliminary_hit_list_capacity_equalsrun_blastp(split_data, max_target_seqs):
    flags = ["-evalue", "1000", "-max_target_seqs", str(max_target_seqs)]
    expected = run_blastp(split_data, split_data["query_fasta"], "-outfmt", OUTFMT, *flags,
                          ungapped=False)  # fmt: skip
    hits = blast.blastp_gapped(split_data["query_fasta"], split_data["db_fasta"], evalue=1000,
                               max_target_seqs=max_target_seqs)  # fmt: skip
    assert blast.outfmt6_lines(hits) == expected
    if max_target_seqs == 500:
        assert any(line.split("\t")[1] == "splitA" for line in expected)
        assert any(int(line.split("\t")[5]) >= 3 for line in expected)  # gapped alignments


def test_traceback_columns_add_up(split_data):
    """Each row's columns hold its coordinates: matches + mismatches + gaps = length, and the
    query and subject extents equal length minus the gaps in the other sequence."""
    hits = blast.blastp_gapped(split_data["query_fasta"], split_data["db_fasta"], evalue=1000)
    gaps = hits.length - hits.mismatch - np.round(hits.pident * hits.length / 100).astype(int)
    assert (gaps >= hits.gapopen).all()
    extents = (hits.qend - hits.qstart + 1) + (hits.send - hits.sstart + 1)
    assert (extents == 2 * hits.length - gaps).all()
