"""The composition stage of blastp's composition-based statistics (spec blastp.md 14):
compositions, the mode-2 rule and the lambda of a matrix under two compositions, each checked
against an independent computation (letter counts, the rule's formula in numpy, scipy's root
finder) on Debian's plast-example dolphin proteome and BLOSUM62's own tables.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pytest
from scipy.optimize import brentq

from gpuseq import _core

PLAST = Path("/usr/share/doc/plast-example/db")
ARND = "ARNDCQEGHILKMFPSTWYV"
JOINT = np.asarray(_core.blast_blosum62_joint_probabilities).reshape(20, 20)
BACKGROUND = np.asarray(_core.blast_blosum62_background)


@pytest.fixture(scope="module")
def proteome() -> list[str]:
    if not (PLAST / "tursiops.fa.gz").exists():
        pytest.skip("Debian's plast-example is not installed (apt-get install plast-example)")
    text = gzip.decompress((PLAST / "tursiops.fa.gz").read_bytes()).decode()
    return ["".join(r.split("\n")[1:]).upper() for r in text.split(">")[1:]]


def counted_composition(seq: str) -> tuple[np.ndarray, int]:
    """Letter counts of the 20 amino acids, U counted as C, over their own total."""
    counts = np.array([seq.count(a) for a in ARND], dtype=float)
    counts[ARND.index("C")] += seq.count("U")
    n = int(counts.sum())
    return (counts / n if n else counts), n


def codes_of(seq: str) -> np.ndarray:
    letters = _core.blast_letters
    return np.array([letters.index(c) if c in letters else letters.index("X") for c in seq],
                    dtype=np.uint8)  # fmt: skip


def test_blosum62_tables_are_consistent():
    # The background is the margin of the joint probabilities, which sum to 1 and are
    # symmetric; their log-odds in half bits round to BLOSUM62 itself.
    assert JOINT.sum() == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_allclose(JOINT, JOINT.T, rtol=0, atol=0)
    np.testing.assert_allclose(JOINT.sum(axis=1), BACKGROUND, rtol=1e-12)
    blosum = np.asarray(_core.blast_blosum62).reshape(28, 28)[np.ix_(*[codes_of(ARND)] * 2)]
    half_bits = 2 * np.log2(JOINT / np.outer(BACKGROUND, BACKGROUND))
    np.testing.assert_array_equal(np.round(half_bits), blosum)


def test_compositions_count_true_amino_acids(proteome):
    odd = [s for s in proteome if "U" in s][:10] + [s for s in proteome if "X" in s][:40]
    assert len(odd) == 50
    for seq in odd + proteome[:200] + ["XXXX", "UUC*"]:
        probabilities, n = _core.blast_composition(codes_of(seq))
        expected, expected_n = counted_composition(seq)
        assert n == expected_n
        np.testing.assert_allclose(probabilities, expected, rtol=1e-15, atol=0)


def distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """sqrt of the Jensen-Shannon divergence, rows of a against b (spec 14.3)."""
    m = (a + b) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(a > 0, a * np.log(a / m), 0) + np.where(b > 0, b * np.log(b / m), 0)
    return np.sqrt(np.maximum(terms.sum(axis=-1) / 2, 0))


def expected_rules(pq, lq, ps, ls) -> np.ndarray:
    """The mode-2 rule of spec 14.3 for one query against many subjects (rows of ps)."""
    dmq, dmm, dqm = distance(ps, pq), distance(ps, BACKGROUND), distance(pq, BACKGROUND)
    angle = np.degrees(np.arccos((dmm**2 + dqm**2 - dmq**2) / (2 * dmm * dqm)))
    top_two = np.sort(ps, axis=1)[:, -2:].sum(axis=1)
    high = ((ls > 50) & (top_two > 0.4)) | (lq > 50 and np.sort(pq)[-2:].sum() > 0.4)
    ratio = np.maximum(ls, lq) / np.minimum(ls, lq)
    scale = ~high & (dmq > 0.16) & (ratio > 3.0) & (angle > 70)
    return np.where(scale, "scale", "relative_entropy")


def test_mode2_rule_matches_its_formula(proteome):
    subjects = proteome[::8]
    ps = np.array([counted_composition(s)[0] for s in subjects])
    ls = np.array([len(s) for s in subjects])
    chosen = {"scale": 0, "relative_entropy": 0}
    for query in proteome[:6] + ["Q" * 60 + "ACDEFGHIK" * 10]:
        pq = counted_composition(query)[0]
        expected = expected_rules(pq, len(query), ps, ls)
        for i in range(len(subjects)):
            rule = _core.blast_matrix_adjust_rule(2, len(query), ls[i], pq, ps[i])
            assert rule == expected[i], (query[:20], subjects[i][:20])
            chosen[rule] += 1
        assert _core.blast_matrix_adjust_rule(1, len(query), ls[0], pq, ps[0]) == "scale"
        assert _core.blast_matrix_adjust_rule(0, len(query), ls[0], pq, ps[0]) == "none"
    assert min(chosen.values()) > 10  # both outcomes exercised


def test_composition_lambda_is_the_root(proteome):
    blosum = np.asarray(_core.blast_blosum62).reshape(28, 28)[np.ix_(*[codes_of(ARND)] * 2)]
    pairs = [(BACKGROUND, BACKGROUND)]
    pairs += [(counted_composition(a)[0], counted_composition(b)[0])
              for a, b in zip(proteome[:40], proteome[40:80])]  # fmt: skip
    for rows, cols in pairs:
        lam, iterations = _core.blast_composition_lambda(blosum.astype(float), rows, cols)
        assert 0 < iterations < 100

        def phi(x, rows=rows, cols=cols):
            return (np.outer(rows, cols) * np.exp(x * blosum)).sum() - 1

        assert lam == pytest.approx(brentq(phi, 1e-3, 2.0, xtol=1e-14), rel=1e-6)
    # No lambda when the expected score is not negative.
    assert _core.blast_composition_lambda(np.ones((20, 20)), BACKGROUND, BACKGROUND)[0] == -1
