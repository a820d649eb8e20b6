"""The distance API on random cases, against scipy and a NumPy statement of the missing-value
rule: every argument drawn together from a seed, so that a failure names the case that
reproduces it.

Each case draws the shapes (1 to hundreds of instances, 1 to thousands of attributes, around
the 64-bit words of the bit planes and the tiles), the alphabet (2-16), the input's dtype (int8,
uint8, int64, bool, float with NaN, a missing code), the share missing, the metric, X against
itself or against Y, normalized fractions, condensed output, compared counts, tiles, threads, a
memory-mapped `out` file, and the k nearest neighbours. The CPU kernels run here; the GPU's
(the paper's ladder and the tensor-core bit planes), marked cuda, on the device machine.
The same cases ran there as a fuzzer (`seeds_distances.py` in the session's results)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial.distance import cdist, pdist

import gpuseq
from gpuseq.distance import PAPER_KERNELS

SEEDS = range(12)
BACKENDS = ["cpu", pytest.param("cuda", marks=pytest.mark.cuda)]
WIDTHS = [1, 2, 7, 31, 63, 64, 65, 127, 128, 129, 255, 256, 257, 511, 512, 513, 1000, 2047,
          2048, 2049, 4100]
CELLS = 40_000_000  # n x m x attributes of a case at most (the reference's work)


def reference(X: np.ndarray, Y: np.ndarray, metric: str) -> tuple[np.ndarray, np.ndarray]:
    """Counts and attributes compared per pair, missing (-1) skipped in either instance: the
    documented rule, row block by row block. scipy gives the same where nothing is missing."""
    n, m = X.shape[0], Y.shape[0]
    counts, compared = np.empty((n, m), np.int64), np.empty((n, m), np.int64)
    step = max(1, 4_000_000 // max(1, m * X.shape[1]))
    for r in range(0, n, step):
        x = X[r : r + step, None, :].astype(np.int16)
        valid = (x >= 0) & (Y[None, :, :] >= 0)
        diff = x - Y[None, :, :]
        per = (diff != 0) if metric == "hamming" else np.abs(diff)
        counts[r : r + step] = (per * valid).sum(axis=2)
        compared[r : r + step] = valid.sum(axis=2)
    if not (X < 0).any() and not (Y < 0).any():
        scipy = cdist(X, Y, {"hamming": "hamming", "manhattan": "cityblock"}[metric])
        if metric == "hamming":
            scipy = scipy * X.shape[1]
        np.testing.assert_array_equal(counts, np.rint(scipy))  # the statement is scipy's
    return counts, compared


def as_input(rng, values: np.ndarray, alphabet: int) -> tuple[object, object]:
    """The matrix (-1 where missing) in a dtype a user passes, and the `missing=` it needs."""
    has_missing = bool((values < 0).any())
    kinds = ["int8", "int64", "float", "code"] + (["uint8"] if not has_missing else [])
    kinds += ["bool"] if alphabet == 2 and not has_missing else []
    kind = str(rng.choice(kinds))
    if kind == "float":
        return np.where(values < 0, np.nan, values).astype(np.float64), None
    if kind == "code":  # a missing code outside the alphabet, as PLINK-style exports have
        code = int(rng.choice([c for c in (-9, 9, 99, alphabet) if not 0 <= c < alphabet]))
        return np.where(values < 0, code, values).astype(np.int64), code
    if kind == "bool":
        return values.astype(bool), None
    if has_missing:
        return values.astype(kind), -1
    return values.astype(kind), None


def draw_case(seed: int, backend: str) -> dict:
    rng = np.random.default_rng([1010, seed])
    a = int(rng.choice(WIDTHS))
    n = int(rng.choice([1, 2, 3, 5, 17, 64, 65, 129, 200, 333, 600]))
    other = rng.random() < 0.5
    m = int(rng.choice([1, 2, 9, 64, 100, 257, 400])) if other else n
    while n * m * a > CELLS:
        a = max(1, a // 2)
    alphabet = int(rng.choice([2, 3, 3, 3, 4, 5, 7, 16]))
    missing_rate = float(rng.choice([0.0, 0.0, 0.01, 0.2, 0.9]))
    paper = backend == "cuda" and missing_rate == 0.0 and rng.random() < 0.5
    kernel = str(rng.choice(PAPER_KERNELS)) if paper else str(
        rng.choice(["auto", "bitplane"] + (["cpu"] if backend == "cpu" else [])))

    def matrix(rows: int) -> np.ndarray:
        values = rng.integers(0, alphabet, (rows, a))
        if rows > 2 and rng.random() < 0.3:  # repeated rows: ties in distance, zeros
            values[1::2] = values[0]
        values[rng.random(values.shape) < missing_rate] = -1
        if missing_rate and rows > 1 and rng.random() < 0.3:
            values[rows // 2] = -1  # an instance with nothing known
        return values

    X = matrix(n)
    Y = matrix(m) if other else None
    tile = int(rng.choice([1, 3, 64, 100, 128, 1000])) if rng.random() < 0.5 else None
    if tile and (n // tile + 1) * (m // tile + 1) > 300:
        tile = None
    return dict(
        X=X, Y=Y, alphabet=alphabet, kernel=kernel, tile=tile,
        metric=str(rng.choice(["hamming", "manhattan"])),
        normalize=bool(rng.random() < 0.3),
        condensed=bool(not other and n > 1 and rng.random() < 0.3),
        compared=bool(rng.random() < 0.4),
        to_file=bool(rng.random() < 0.2),
        threads=int(rng.choice([0, 1, 2, 3])),
        k=int(rng.integers(1, min(m - (0 if other else 1), 40) + 1)) if m > (0 if other else 1)
        and rng.random() < 0.5 else 0,
        inputs=rng.integers(1 << 30),
    )


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_distance_call_equals_the_reference(seed, backend, tmp_path):
    c = draw_case(seed, backend)
    X, Y, metric = c["X"], c["Y"], c["metric"]
    Yv = X if Y is None else Y
    counts, compared = reference(X, Yv, metric)
    input_rng = np.random.default_rng(c["inputs"])
    x_in, x_missing = as_input(input_rng, X, c["alphabet"])
    y_in, y_missing = (None, x_missing) if Y is None else as_input(input_rng, Y, c["alphabet"])
    if x_missing is not None and y_missing is not None and x_missing != y_missing:
        y_in = np.where(Y < 0, x_missing, Y).astype(np.int64)  # one `missing=` for both
    missing = x_missing if x_missing is not None else y_missing
    common = dict(alphabet_size=c["alphabet"], missing=missing, kernel=c["kernel"],
                  backend=backend, threads=c["threads"], tile=c["tile"])  # fmt: skip
    case = {key: v for key, v in c.items() if key not in ("X", "Y")} | {
        "shape": (X.shape, None if Y is None else Y.shape), "missing": missing}

    out = tmp_path / "D.npy" if c["to_file"] else None
    got = gpuseq.pairwise_distances(x_in, y_in, metric, normalize=c["normalize"],
                                    condensed=c["condensed"], out=out,
                                    return_compared=c["compared"], **common)  # fmt: skip
    got, got_compared = got if c["compared"] else (got, None)
    want, want_compared = counts, compared
    if c["normalize"]:
        with np.errstate(invalid="ignore", divide="ignore"):
            want = counts / compared
        if metric == "hamming" and not (X < 0).any() and not (Yv < 0).any():
            np.testing.assert_array_equal(want, cdist(X, Yv, "hamming"))  # scipy's fractions
    if c["condensed"]:
        upper = np.triu_indices(X.shape[0], 1)
        want, want_compared = want[upper], want_compared[upper]
        if c["normalize"] and metric == "hamming" and not (X < 0).any():
            np.testing.assert_array_equal(want, pdist(X, "hamming"))
    assert got.dtype == (np.float64 if c["normalize"] else np.int32), case
    np.testing.assert_array_equal(got, want, err_msg=str(case))
    if got_compared is not None:
        np.testing.assert_array_equal(got_compared, want_compared, err_msg=str(case))
    if out is not None:
        np.testing.assert_array_equal(np.load(out), want, err_msg=str(case))
        if c["compared"]:
            np.testing.assert_array_equal(np.load(tmp_path / "D.compared.npy"), want_compared)

    if c["k"]:
        k, skip_self = c["k"], Y is None
        D = counts.astype(np.int64)
        if skip_self:
            np.fill_diagonal(D, 1 << 40)
        columns = np.broadcast_to(np.arange(D.shape[1]), D.shape)
        order = np.lexsort((columns, D), axis=1)[:, :k]  # (distance, index) order
        idx, dist = gpuseq.nearest_neighbors(x_in, k, y_in, metric, **common)
        np.testing.assert_array_equal(idx, order, err_msg=f"k={k} {case}")
        np.testing.assert_array_equal(dist, np.take_along_axis(D, order, axis=1),
                                      err_msg=f"k={k} {case}")  # fmt: skip
