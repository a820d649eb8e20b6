"""gpuseq's blastp with composition-based statistics against Debian's blastp with its default
options (-comp_based_stats 2) and the other modes (1, 3), and with SEG on the queries (-seg
yes): every outfmt-6 row, on the dolphin proteome of Debian's plast-example (queries from the
proteome itself, so near-identical self hits whose subjects keep their low-complexity regions,
and real low-complexity regions for SEG to mask) and on tests/blast_data.py's generated
database (rare letters, X runs, mutated homologs, a K/E/P/S-rich query that SEG masks)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest
from blast_data import (
    BLASTP,
    MAKEBLASTDB,
    MISSING,
    OUTFMT,
    PLAST,
    SKIP_REASON,
    dolphin_files,
    make_database,
    random_protein,
    write_fasta,
)

import gpuseq
from gpuseq import _core, blast

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
    return dolphin_files(out, QUERIES)


# (-comp_based_stats, -seg): blastp's defaults first; the last, SEG with its own window and
# cutoffs (those the composition stage uses on subjects).
OPTION_SETS = [("2", "no"), ("1", "no"), ("3", "no"), ("2", "yes"), ("0", "yes"),
               ("2", "10 1.8 2.1")]  # fmt: skip


def masked_queries(queries: Path, seg: str) -> int:
    """How many queries SEG masks (so that -seg has something to do)."""
    codes, offsets, _ = blast.encode(queries)
    window, locut, hicut = (12, 2.2, 2.5) if seg == "yes" else seg.split()
    return sum(bool(_core.blast_seg(codes[a:b], int(window), float(locut), float(hicut)))
               for a, b in zip(offsets[:-1], offsets[1:]))  # fmt: skip


def blastp_flags(mode: str, seg: str) -> list[str]:
    return (["-comp_based_stats", mode] if mode != "2" else []) + (
        ["-seg", seg] if seg != "no" else []
    )


@pytest.mark.parametrize("mode, seg", OPTION_SETS)
def test_real_proteins_rows_equal_blastp(dolphin, mode, seg):
    expected = blastp_rows(dolphin["db"], dolphin["queries"], *blastp_flags(mode, seg))
    hits = gpuseq.blastp(dolphin["queries"], dolphin["fasta"], comp_based_stats=mode, seg=seg)
    assert len(expected) > 1000
    assert seg == "no" or masked_queries(dolphin["queries"], seg) >= 2
    assert blast.outfmt6_lines(hits) == expected


@pytest.mark.parametrize("mode, seg", OPTION_SETS)
def test_generated_rows_equal_blastp(blast_data, mode, seg):
    flags = ["-evalue", "100", *blastp_flags(mode, seg)]
    expected = blastp_rows(blast_data["db"], blast_data["query_fasta"], *flags)
    hits = gpuseq.blastp(blast_data["query_fasta"], blast_data["db_fasta"], evalue=100,
                         comp_based_stats=mode, seg=seg)  # fmt: skip
    assert len(expected) > 50
    assert seg == "no" or masked_queries(blast_data["query_fasta"], seg) >= 1
    assert blast.outfmt6_lines(hits) == expected


def test_near_identity_threshold_equals_blastp(dolphin, tmp_path):
    """A subject aligning with more than 96% identities keeps its low-complexity regions
    (s_TestNearIdentical), else SEG masks it: a dolphin protein against itself with runs of X
    in the query at 95.1%, 95.7% and 96.2% identity (blastp's scores: 2580, 2692, 2712)."""
    codes, offsets, names = blast.encode(dolphin["fasta"])
    i = names.index("ENSTTRP00000000008")
    protein = "".join(_core.blast_letters[c] for c in codes[offsets[i] : offsets[i + 1]])
    queries = []
    for runs in ([(300, 326)], [(371, 377), (463, 480)], [(300, 320)]):
        letters = list(protein)
        for begin, end in runs:
            letters[begin:end] = "X" * (end - begin)
        queries.append(f">x{len(queries)}\n{''.join(letters)}\n")
    path = tmp_path / "masked.fa"
    path.write_text("".join(queries))
    expected = blastp_rows(dolphin["db"], path)
    assert len(expected) > 3
    assert blast.outfmt6_lines(gpuseq.blastp(path, dolphin["fasta"])) == expected



def test_a_query_without_true_amino_acids_equals_blastp(tmp_path):
    """A query of only B, Z and X fails every composition adjustment (no true amino acid to
    adjust to): blastp drops each subject's first HSP and realigns the others with the
    matrix its thread holds, BLOSUM62 in standard units, against the scaled gap costs and
    lambda, so that nothing passes. gpuseq realigned them with the scaled matrix and
    reported rows where blastp reports none. The subjects hold D/N and E/Q images of the
    query, two each in swapped order (two HSPs), found without composition-based
    statistics."""
    rng = np.random.default_rng(5)
    query = "".join(rng.choice(list("BZ"), size=900)) + "XXXXX"
    query += "".join(rng.choice(list("BZ"), size=300))

    def image(part: str) -> str:  # B -> D/N, Z -> E/Q, X -> A; one residue in ten random
        out = [rng.choice(list({"B": "DN", "Z": "EQ", "X": "A"}[c])) for c in part]
        return "".join(random_protein(rng, 1) if rng.random() < 0.1 else c for c in out)

    records = []
    for i in range(8):
        a, b, c = (random_protein(rng, 40) for _ in range(3))
        records.append((f"h{i}", a + image(query[600:]) + b + image(query[:600]) + c))
        records.append((f"r{i}", random_protein(rng, 400)))
    db_fasta, query_fasta = tmp_path / "db.fa", tmp_path / "query.fa"
    write_fasta(db_fasta, records)
    write_fasta(query_fasta, [("bz", query)])
    subprocess.run([MAKEBLASTDB, "-in", db_fasta, "-dbtype", "prot", "-out", tmp_path / "db"],
                   check=True, capture_output=True)  # fmt: skip
    assert len(blastp_rows(tmp_path / "db", query_fasta, "-comp_based_stats", "0")) > 20
    for mode in ("1", "2", "3"):
        expected = blastp_rows(tmp_path / "db", query_fasta, "-comp_based_stats", mode)
        hits = gpuseq.blastp(query_fasta, db_fasta, comp_based_stats=mode, backend="cpu")
        assert blast.outfmt6_lines(hits) == expected, mode
