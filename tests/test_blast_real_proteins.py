"""gpuseq.blast against Debian's blastp on real proteins: Debian's plast-example ships a
dolphin proteome (Ensembl, 16,598 proteins, 9.5 M residues, with X runs and U) and queries
from it. Every outfmt-6 row must be equal, gapped and ungapped (-comp_based_stats 0 -seg no).
"""

from __future__ import annotations

import pytest
from blast_data import MISSING, OUTFMT, PLAST, SKIP_REASON, dolphin_files, run_blastp

from gpuseq import blast

pytestmark = [
    pytest.mark.skipif(MISSING, reason=SKIP_REASON),
    pytest.mark.skipif(
        not (PLAST / "tursiops.fa.gz").exists(),
        reason="Debian's plast-example is not installed (apt-get install plast-example)",
    ),
]
QUERIES = 4  # the first queries of plast's query.fa (246, 585, 232, 435 residues)


@pytest.fixture(scope="module")
def dolphin(tmp_path_factory) -> dict:
    out = tmp_path_factory.mktemp("blast_plast")
    return dolphin_files(out, QUERIES)


@pytest.mark.parametrize(
    "ungapped, dbsize",
    [
        (True, None),
        (False, None),
        # A database this large makes blastp align approximately first (restricted DP, spec
        # 11.2/11.9): here that loses a row a full alignment finds (the 4th query against
        # ENSTTRP00000000323, E 0.38), so the rows test our restricted DP and its redo rule.
        (False, 5_000_000_000),
    ],
    ids=["ungapped", "gapped", "gapped_dbsize5e9"],
)
def test_real_protein_rows_equal_blastp(dolphin, ungapped, dbsize):
    flags = ["-dbsize", str(dbsize)] if dbsize else []
    expected = run_blastp(dolphin, dolphin["queries"], "-outfmt", OUTFMT, *flags, ungapped=ungapped)
    search = blast.blastp_ungapped if ungapped else blast.blastp_gapped
    hits = search(dolphin["queries"], dolphin["fasta"], dbsize=dbsize)
    assert len(expected) > 100
    assert blast.outfmt6_lines(hits) == expected
