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


def test_ideal_lambda_is_blosum62s_tabulated_ungapped_lambda():
    # blast_stat.c tabulates BLOSUM62's ungapped lambda as 0.3176 (Robinson frequencies).
    assert _core.blast_ideal_lambda() == pytest.approx(0.3176, abs=5e-5)


def with_pseudocounts(p: np.ndarray, n: int) -> np.ndarray:
    """Spec 14.2: 20 pseudocounts of BLOSUM62's background."""
    w = 20 / (n + 20)
    return (1 - w) * p / p.sum() + w * BACKGROUND


def stationarity_residual(x, q, scores=None) -> float:
    """How far ln(x/q) is from row effect + column effect (+ eta * scores): the optimality
    condition of min sum x ln(x/q) under margin (and relative-entropy) constraints."""
    rows = np.kron(np.eye(20), np.ones((20, 1)))
    cols = np.kron(np.ones((20, 1)), np.eye(20))
    basis = [rows, cols] + ([scores.reshape(-1, 1)] if scores is not None else [])
    design = np.hstack(basis)
    target = np.log(x / q).ravel()
    coef, *_ = np.linalg.lstsq(design, target, rcond=None)
    return float(np.abs(design @ coef - target).max())


@pytest.mark.parametrize("relative_entropy", [0.44, 0.0])
def test_target_frequencies_solve_their_problem(proteome, relative_entropy):
    for a, b in [(proteome[0], proteome[1]), (proteome[2], "KKKKEEEE" * 20)]:
        r = with_pseudocounts(*counted_composition(a))
        c = with_pseudocounts(*counted_composition(b))
        x, status, iterations = _core.blast_optimize_target_frequencies(
            JOINT.ravel(), r, c, relative_entropy
        )
        assert status == 0 and 0 < iterations < 2000
        x = x.reshape(20, 20)
        np.testing.assert_allclose(x.sum(axis=1), r, atol=1e-9)
        np.testing.assert_allclose(x.sum(axis=0), c, atol=1e-9)
        scores = np.log(JOINT / np.outer(r, c))
        if relative_entropy:
            assert (x * np.log(x / np.outer(r, c))).sum() == pytest.approx(0.44, abs=1e-9)
            assert stationarity_residual(x, JOINT, scores) < 1e-6
        else:
            assert stationarity_residual(x, JOINT) < 1e-6


def nint(v: np.ndarray) -> np.ndarray:
    return np.trunc(v + np.where(v >= 0, 0.5, -0.5)).astype(int)


def test_adjusted_matrices_follow_the_spec(proteome):
    lam = _core.blast_ideal_lambda() / 32
    true = codes_of(ARND)
    start = np.asarray(_core.blast_blosum62_at_lambda(lam)).reshape(28, 28)
    rules = set()
    for a, b in [(proteome[0], proteome[1]), (proteome[3], proteome[9]), (proteome[5], "A" * 80)]:
        pq, nq = counted_composition(a)
        ps, ns = counted_composition(b)
        for mode in (1, 2):
            flat, rule, ratio, status = _core.blast_adjusted_matrix(mode, codes_of(a), codes_of(b))
            assert status == 0
            m = np.asarray(flat).reshape(28, 28)
            rules.add(rule)
            if rule == "scale":
                # Lambda of the start matrix under the two compositions over the standard one,
                # clamped to [0.5, 1]; the ratios rescaled to lambda / ratio (spec 14.2).
                block = start[np.ix_(true, true)]

                def phi(x, block=block, pq=pq, ps=ps):
                    return (np.outer(pq, ps) * np.exp(x * block)).sum() - 1

                expected = min(max(brentq(phi, 1e-5, 1.0, xtol=1e-15) / lam, 0.5), 1.0)
                assert ratio == pytest.approx(expected, rel=1e-6)
                ratios = JOINT / np.outer(BACKGROUND, BACKGROUND)
                # BLOSUM62's frequency ratios are JOINT's to 8 digits; a .5 boundary is rare.
                diff = m[np.ix_(true, true)] - nint(np.log(ratios) / (lam / ratio))
                assert np.abs(diff).max() <= 1 and (diff != 0).mean() < 0.01
            else:
                r, c = with_pseudocounts(pq, nq), with_pseudocounts(ps, ns)
                x = _core.blast_optimize_target_frequencies(JOINT.ravel(), r, c, 0.44)[0]
                x = x.reshape(20, 20)
                expected = nint(np.log(x / x.sum() / np.outer(r, c)) / lam)
                np.testing.assert_array_equal(m[np.ix_(true, true)], expected)
            # X scores: averages under the compositions, at most -1 (spec 14.2).
            x_code = _core.blast_letters.index("X")
            assert (m[true, x_code] <= -1).all() and (m[x_code, true] <= -1).all()
            stop = _core.blast_letters.index("*")
            np.testing.assert_array_equal(m[stop], start[stop])
    assert rules == {"scale", "relative_entropy"}
    # A sequence without amino acids leaves the matrix alone.
    assert _core.blast_adjusted_matrix(2, codes_of("XXXX"), codes_of(proteome[0]))[3] == 1


def edited(seq: str, rng: np.random.Generator) -> str:
    """A homolog: about 15% substitutions and a few insertions/deletions."""
    out = []
    for c in seq:
        r = rng.random()
        if r < 0.15:
            out.append(ARND[rng.integers(20)])
        elif r < 0.17:
            continue
        elif r < 0.19:
            out.append(c + ARND[rng.integers(20)] * 3)
        else:
            out.append(c)
    return "".join(out)


def score_of_columns(q, s, q_off, s_off, ops, matrix, gap_open, gap_extend) -> int:
    score, i, j, previous = 0, q_off, s_off, "M"
    for op in ops:
        if op == "M":
            score += matrix[q[i], s[j]]
            i, j = i + 1, j + 1
        else:
            score -= gap_extend + (gap_open if op != previous else 0)
            i, j = (i + 1, j) if op == "I" else (i, j + 1)
        previous = op
    return score


def test_traceback_with_a_scaled_or_adjusted_matrix(proteome):
    rng = np.random.default_rng(11)
    blosum = np.asarray(_core.blast_blosum62, dtype=np.int32).reshape(28, 28)
    scaled = np.where(blosum == -32768, -32768, blosum * 32).astype(np.int32)
    for seq in proteome[10:30]:
        q, s = codes_of(seq), codes_of(edited(seq, rng))
        seed = (len(q) // 2, min(len(s) - 1, len(q) // 2))
        plain = _core.blast_traceback_from_seed(q, s, *seed, 64, blosum.ravel(), 11, 1)
        big = _core.blast_traceback_from_seed(q, s, *seed, 64 * 32, scaled.ravel(), 352, 32)
        # Scaling every score, gap cost and the X-drop by 32 changes nothing but the score.
        assert big[1:] == plain[1:] and big[0] == 32 * plain[0]
        assert score_of_columns(q, s, plain[1], plain[3], plain[5], blosum, 11, 1) == plain[0]
        m = np.asarray(_core.blast_adjusted_matrix(2, q, s)[0]).reshape(28, 28)
        adjusted = _core.blast_traceback_from_seed(q, s, *seed, 2076, m.ravel(), 352, 32)
        score, q_off, q_end, s_off, s_end, ops = adjusted
        assert score_of_columns(q, s, q_off, s_off, ops, m, 352, 32) == score
        assert q_end - q_off == ops.count("M") + ops.count("I")
        assert s_end - s_off == ops.count("M") + ops.count("D")
