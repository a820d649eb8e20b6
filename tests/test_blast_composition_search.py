"""gpuseq's blastp with composition-based statistics against Debian's blastp with its default
options (-comp_based_stats 2, and mode 1): every outfmt-6 row, on the dolphin proteome of
Debian's plast-example (queries from the proteome itself, so near-identical self hits whose
subjects keep their low-complexity regions) and on tests/blast_data.py's generated database
(rare letters, X runs, mutated homologs)."""

from __future__ import annotations

import gzip
import subprocess
from pathlib import Path

import pytest
from blast_data import BLASTP, MAKEBLASTDB, MISSING, OUTFMT, SKIP_REASON, make_database

import gpuseq
from gpuseq import blast

PLAST = Path("/usr/share/doc/plast-example/db")
pytestmark = pytest.mark.skipif(MISSING, reason=SKIP_REASON)
QUERIES = 8  # the first queries of plast's query.fa


def blastp_rows(db: Path, queries: Path, *flags: str) -> list[str]:
    run = subprocess.run([BLASTP, "-query", queries, "-db", db, "-outfmt", OUTFMT, *flags],
                         check=True, capture_output=True, text=True)  # fmt: skip
    return run.stdout.splitlines()


@pytest.fixture(scope="module")
def blast_data(tmp_path_factory) -> dict:
    return make_database(tmp_path_factory.mktemp("blast_cbs_generated"))


@pytest.fixture(scope="module")
def dolphin(tmp_path_factory) -> dict:
    if not (PLAST / "tursiops.fa.gz").exists():
        pytest.skip("Debian's plast-example is not installed (apt-get install plast-example)")
    out = tmp_path_factory.mktemp("blast_cbs")
    fasta = out / "tursiops.fa"
    fasta.write_bytes(gzip.decompress((PLAST / "tursiops.fa.gz").read_bytes()))
    subprocess.run([MAKEBLASTDB, "-in", fasta, "-dbtype", "prot", "-out", out / "db"],
                   check=True, capture_output=True)  # fmt: skip
    records = gzip.decompress((PLAST / "query.fa.gz").read_bytes()).decode().split(">")[1:]
    queries = out / "queries.fa"
    queries.write_text("".join(">" + r for r in records[:QUERIES]))
    return {"db": out / "db", "fasta": fasta, "queries": queries}


@pytest.mark.parametrize("mode", ["2", "1"])
def test_real_proteins_rows_equal_blastp_default(dolphin, mode):
    flags = [] if mode == "2" else ["-comp_based_stats", mode]  # 2 is blastp's default
    expected = blastp_rows(dolphin["db"], dolphin["queries"], *flags)
    hits = gpuseq.blastp(dolphin["queries"], dolphin["fasta"], comp_based_stats=mode)
    assert len(expected) > 1000
    assert blast.outfmt6_lines(hits) == expected


@pytest.mark.parametrize("mode", ["2", "1"])
def test_generated_rows_equal_blastp_default(blast_data, mode):
    flags = ["-evalue", "100"] + ([] if mode == "2" else ["-comp_based_stats", mode])
    expected = blastp_rows(blast_data["db"], blast_data["query_fasta"], *flags)
    hits = gpuseq.blastp(blast_data["query_fasta"], blast_data["db_fasta"], evalue=100,
                         comp_based_stats=mode)  # fmt: skip
    assert len(expected) > 50
    assert blast.outfmt6_lines(hits) == expected
