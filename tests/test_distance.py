"""All-pairs distances equal scipy's cdist/pdist for every kernel (CPU here; the GPU kernels,
marked cuda, bit for bit against the CPU twin and scipy on the device machine)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial.distance import cdist, pdist

import gpuseq
from gpuseq import _core
from gpuseq import distance as gd

SCIPY_METRIC = {"hamming": "hamming", "manhattan": "cityblock"}
GPU_KERNELS = ("naive", "coalesced", "char4", "register", "shared", "bitplane")


def reference(X, Y, metric):
    """scipy's value as an integer count (hamming fractions times the attribute count)."""
    d = cdist(X, Y, SCIPY_METRIC[metric])
    if metric == "hamming":
        d = d * X.shape[1]
    return np.rint(d).astype(np.int64)


def reference_with_missing(X, Y, metric):
    """Definition of the missing-value rule, in NumPy: skip attributes missing in either."""
    valid = (X[:, None, :] >= 0) & (Y[None, :, :] >= 0)
    diff = X[:, None, :].astype(np.int64) - Y[None, :, :]
    per = (diff != 0) if metric == "hamming" else np.abs(diff)
    return (per * valid).sum(axis=2), valid.sum(axis=2)


def structured(n, a, rng):
    """Blocks of identical rows, all-zero and all-two rows, alternating patterns."""
    base = rng.integers(0, 3, (max(1, n // 4), a))
    rows = [base[i % len(base)] for i in range(n)]
    out = np.array(rows, dtype=np.int8)
    if n > 2:
        out[0] = 0
        out[1] = 2
        out[2] = np.arange(a) % 3
    return out


SHAPES = [(1, 1, 1), (1, 5, 3), (2, 1, 4), (7, 3, 31), (13, 17, 32), (5, 9, 33), (20, 11, 255),
          (9, 20, 256), (17, 4, 257), (3, 8, 511), (6, 6, 513), (33, 29, 1000)]


def cpu_kernels():
    return [("cpu", "cpu"), ("bitplane", "cpu")]


@pytest.mark.parametrize("metric", ["hamming", "manhattan"])
@pytest.mark.parametrize("kernel, backend", cpu_kernels())
def test_cpu_kernels_equal_scipy(kernel, backend, metric):
    rng = np.random.default_rng(1)
    for n, m, a in SHAPES:
        for X, Y in ((rng.integers(0, 3, (n, a)), rng.integers(0, 3, (m, a))),
                     (structured(n, a, rng), structured(m, a, rng))):
            got = gpuseq.pairwise_distances(X.astype(np.int8), Y.astype(np.int8), metric,
                                            kernel=kernel, backend=backend)
            np.testing.assert_array_equal(got, reference(X, Y, metric), err_msg=f"{n}x{m}x{a}")


@pytest.mark.parametrize("alphabet_size", [2, 4, 7])
def test_other_alphabets(alphabet_size):
    rng = np.random.default_rng(2)
    X = rng.integers(0, alphabet_size, (19, 300))
    for metric in ("hamming", "manhattan"):
        for kernel in ("cpu", "bitplane"):
            got = gpuseq.pairwise_distances(X, metric=metric, alphabet_size=alphabet_size,
                                            kernel=kernel, backend="cpu")
            np.testing.assert_array_equal(got, reference(X, X, metric))


def test_fractions_and_condensed_equal_pdist():
    rng = np.random.default_rng(3)
    X = rng.integers(0, 3, (25, 123)).astype(np.uint8)
    f = gpuseq.pairwise_distances(X, normalize=True, condensed=True, backend="cpu")
    np.testing.assert_array_equal(f, pdist(X, "hamming"))  # exactly: count / n in float64
    full = gpuseq.pairwise_distances(X, normalize=True, backend="cpu")
    np.testing.assert_array_equal(full, cdist(X, X, "hamming"))
    counts = gpuseq.pairwise_distances(X, metric="manhattan", condensed=True, backend="cpu")
    np.testing.assert_array_equal(counts, pdist(X, "cityblock"))


@pytest.mark.parametrize("metric", ["hamming", "manhattan"])
def test_missing_values_follow_the_documented_rule(metric):
    rng = np.random.default_rng(4)
    X = rng.integers(0, 3, (23, 700)).astype(float)
    Y = rng.integers(0, 3, (17, 700)).astype(float)
    X[rng.random(X.shape) < 0.15] = np.nan
    Y[rng.random(Y.shape) < 0.05] = np.nan
    Y[3] = np.nan  # an instance with nothing known
    Xi = np.where(np.isnan(X), -1, X).astype(np.int64)
    Yi = np.where(np.isnan(Y), -1, Y).astype(np.int64)
    ref, ref_compared = reference_with_missing(Xi, Yi, metric)
    for kernel in ("cpu", "bitplane"):
        got, compared = gpuseq.pairwise_distances(X, Y, metric, kernel=kernel, backend="cpu",
                                                  return_compared=True)
        np.testing.assert_array_equal(got, ref)
        np.testing.assert_array_equal(compared, ref_compared)
    # An explicit missing code works the same way as NaN.
    got = gpuseq.pairwise_distances(Xi.astype(np.int8), Yi.astype(np.int8), metric, missing=-1,
                                    backend="cpu")
    np.testing.assert_array_equal(got, ref)
    frac = gpuseq.pairwise_distances(X, Y, metric, normalize=True, backend="cpu")
    assert np.isnan(frac[:, 3]).all()  # nothing compared


def test_nearest_neighbors_equal_brute_force():
    rng = np.random.default_rng(5)
    X = rng.integers(0, 3, (97, 64))
    X[10] = X[11]  # ties at distance 0
    full = reference(X, X, "hamming")
    np.fill_diagonal(full, 1 << 40)
    order = np.lexsort((np.broadcast_to(np.arange(97), full.shape), full), axis=1)[:, :5]
    idx, dist = gpuseq.nearest_neighbors(X, 5, backend="cpu", tile=16)
    np.testing.assert_array_equal(idx, order)
    np.testing.assert_array_equal(dist, np.take_along_axis(full, order, axis=1))
    Y = rng.integers(0, 3, (40, 64))
    idx, dist = gpuseq.nearest_neighbors(X, 3, Y, metric="manhattan", backend="cpu", tile=7)
    ref = reference(X, Y, "manhattan")
    order = np.lexsort((np.broadcast_to(np.arange(40), ref.shape), ref), axis=1)[:, :3]
    np.testing.assert_array_equal(idx, order)


def _nearest_by_sorting(D, k, skip_self):
    """k nearest by a full sort of each row: (distance, index) order."""
    D = D.astype(np.int64)
    if skip_self:
        D = D.copy()
        np.fill_diagonal(D, 1 << 40)
    order = np.lexsort((np.broadcast_to(np.arange(D.shape[1]), D.shape), D), axis=1)[:, :k]
    return order, np.take_along_axis(D, order, axis=1)


@pytest.mark.parametrize("backend", ["cpu", pytest.param("cuda", marks=pytest.mark.cuda)])
def test_nearest_neighbors_over_tiles_narrower_than_k(backend):
    """Blocks of 3 columns for k = 7 (the engine pads each block's rows with empty slots),
    missing values, both metrics, with and without Y: equal to a full sort."""
    rng = np.random.default_rng(11)
    X, Xi = _missing_genotypes(rng, (41, 90), 0.05)
    Y, Yi = _missing_genotypes(rng, (23, 90), 0.05)
    X[:, :3] = 1  # more ties
    Xi[:, :3] = 1
    for metric in ("hamming", "manhattan"):
        for other, other_i, k in ((None, Xi, 7), (Y, Yi, 7), (Y, Yi, 23), (None, Xi, 40)):
            D, _ = reference_with_missing(Xi, other_i, metric)
            want_idx, want_dist = _nearest_by_sorting(D, k, other is None)
            for tile in (3, 16, None):
                idx, dist = gpuseq.nearest_neighbors(X, k, other, metric, backend=backend,
                                                     tile=tile)
                np.testing.assert_array_equal(idx, want_idx, err_msg=f"{metric} k={k} {tile}")
                np.testing.assert_array_equal(dist, want_dist)


@pytest.mark.parametrize("backend", ["cpu", pytest.param("cuda", marks=pytest.mark.cuda)])
def test_a_subset_of_the_panel_against_the_whole_panel(backend):
    """X the first rows of Y (NumPy views that start at the same address): Y's rows past X's
    are its own, not X's planes read past their end (every column from 10 was wrong)."""
    rng = np.random.default_rng(14)
    Z = rng.integers(0, 3, (700, 300), dtype=np.int8)
    X = Z[:10]
    assert X.__array_interface__["data"][0] == Z.__array_interface__["data"][0]
    for metric in ("hamming", "manhattan"):
        want = reference(X, Z, metric)
        got = gpuseq.pairwise_distances(X, Z, metric, backend=backend)
        np.testing.assert_array_equal(got, want, err_msg=metric)
        idx, dist = gpuseq.nearest_neighbors(X, 5, Z, metric, backend=backend)
        want_idx, want_dist = _nearest_by_sorting(want, 5, False)
        np.testing.assert_array_equal(dist, want_dist, err_msg=metric)
        np.testing.assert_array_equal(idx, want_idx, err_msg=metric)


def test_engine_nearest_pads_rows_with_empty_slots():
    X = np.random.default_rng(12).integers(0, 3, (6, 20)).astype(np.int8)
    engine = _core.DistanceEngine(X, X, "hamming", 3, False, "bitplane", "cpu", 1)
    idx = np.empty((6, 4), np.int64)
    dist = np.empty((6, 4), np.int32)
    engine.nearest_into(idx, dist, 0, 2, 5, True)  # 3 columns, the row's own one left out
    D = reference(X, X, "hamming")
    for i in range(6):
        cols = [j for j in range(2, 5) if j != i]
        want = sorted((int(D[i, j]), j) for j in cols)
        assert [(int(d), int(j)) for d, j in zip(dist[i], idx[i])][: len(want)] == want
        assert (idx[i, len(want) :] == -1).all()
        assert (dist[i, len(want) :] == np.iinfo(np.int32).max).all()
    with pytest.raises(ValueError, match="outside"):
        engine.nearest_into(idx, dist, 3, 0, 6, False)


def test_tiles_and_memory_mapped_output(tmp_path):
    rng = np.random.default_rng(6)
    X = rng.integers(0, 3, (150, 90))
    Y = rng.integers(0, 3, (70, 90))
    out = gpuseq.pairwise_distances(X, Y, out=tmp_path / "D.npy", tile=32, backend="cpu")
    assert isinstance(out, np.memmap)
    np.testing.assert_array_equal(np.load(tmp_path / "D.npy"), reference(X, Y, "hamming"))


def _missing_genotypes(rng, shape, rate):
    X = rng.integers(0, 3, shape).astype(float)
    X[rng.random(shape) < rate] = np.nan
    return X, np.where(np.isnan(X), -1, X).astype(np.int64)


@pytest.mark.parametrize("backend", ["cpu", pytest.param("cuda", marks=pytest.mark.cuda)])
@pytest.mark.parametrize("missing_rate", [0.0, 0.1])
def test_out_file_holds_what_the_call_returns(tmp_path, backend, missing_rate):
    """out= with normalize, condensed and return_compared, over many tiles: the file holds
    the returned values (fractions, condensed order), equal to scipy / the NumPy rule, and
    the compared counts go to D.compared.npy beside it."""
    rng = np.random.default_rng(7)
    X, Xi = _missing_genotypes(rng, (83, 150), missing_rate)
    ref, ref_compared = reference_with_missing(Xi, Xi, "hamming")
    with np.errstate(invalid="ignore", divide="ignore"):
        fractions = ref / ref_compared
    upper = np.triu_indices(len(X), 1)
    if missing_rate == 0:
        np.testing.assert_array_equal(fractions[upper], pdist(X, "hamming"))
    cases = [
        (dict(normalize=True), fractions),
        (dict(normalize=True, condensed=True), fractions[upper]),
        (dict(condensed=True), ref[upper]),
        (dict(), ref),
    ]
    for i, (options, expected) in enumerate(cases):
        path = tmp_path / f"D{i}.npy"
        got, compared = gpuseq.pairwise_distances(X, out=path, tile=16, backend=backend,
                                                  return_compared=True, **options)
        assert isinstance(got, np.memmap) and isinstance(compared, np.memmap)
        assert got.dtype == (np.float64 if options.get("normalize") else np.int32)
        for array, want in ((got, expected), (np.load(path), expected),
                            (np.load(tmp_path / f"D{i}.compared.npy"),
                             ref_compared[upper] if options.get("condensed") else ref_compared)):
            np.testing.assert_array_equal(array, want, err_msg=str(options))
        # The same in memory.
        again = gpuseq.pairwise_distances(X, tile=16, backend=backend, **options)
        np.testing.assert_array_equal(again, expected, err_msg=str(options))


def test_condensed_computes_only_the_upper_triangle(monkeypatch):
    """Condensed output asks the engine for the tiles that hold pairs j > i, and no others."""
    asked = []
    real = gd._compute_tile

    def spy(engine, result, compared, r0, r1, c0, c1, origin=(0, 0)):
        asked.append((r0, r1, c0, c1))
        real(engine, result, compared, r0, r1, c0, c1, origin)

    monkeypatch.setattr(gd, "_compute_tile", spy)
    X = np.random.default_rng(8).integers(0, 3, (100, 40))
    got = gpuseq.pairwise_distances(X, condensed=True, tile=10, backend="cpu")
    np.testing.assert_array_equal(got, np.rint(pdist(X, "hamming") * 40))
    assert len(asked) == 10 * 11 // 2  # the diagonal tiles and those above them
    assert all(c1 > r0 + 1 for r0, _, _, c1 in asked)


def test_out_of_core_result_keeps_memory_flat(tmp_path):
    """A normalized result written with out= stays tiled: the arrays the call allocates peak
    at a few tiles, not at the n x n float64 matrix (288 MB here). NumPy's allocations are
    traced by tracemalloc; the file's pages are the memory map's, not counted."""
    import tracemalloc

    X = np.random.default_rng(9).integers(0, 3, (6000, 64)).astype(np.int8)
    tracemalloc.start()
    try:
        D = gpuseq.pairwise_distances(X, normalize=True, out=tmp_path / "D.npy", tile=1000,
                                      backend="cpu")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # Tiles of 1000 x 1000: int32 counts and float64 fractions, 12 MB.
    assert peak < 40 << 20, peak
    np.testing.assert_array_equal(D[:50], cdist(X[:50], X, "hamming"))


@pytest.mark.parametrize("backend", ["cpu", pytest.param("cuda", marks=pytest.mark.cuda)])
def test_one_engine_shared_by_threads(backend):
    """compute_into releases the GIL and a GPU engine reuses its device buffers; the binding
    serializes calls, so threads filling blocks through one engine get scipy's distances."""
    from concurrent.futures import ThreadPoolExecutor

    rng = np.random.default_rng(5)
    X = rng.integers(0, 3, (300, 700)).astype(np.int8)
    Y = rng.integers(0, 3, (260, 700)).astype(np.int8)
    engine, _ = gd._engine(X, Y, "manhattan", 3, False, "bitplane", backend, 2)
    out = np.full((300, 260), -1, np.int32)
    blocks = [(r, c) for r in range(0, 300, 50) for c in range(0, 260, 65)]

    def fill(block):
        r, c = block
        engine.compute_into(out[r : r + 50, c : c + 65], None, r, c)

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(fill, blocks * 3))  # every block three times, by any thread
    np.testing.assert_array_equal(out, reference(X, Y, "manhattan"))


def test_plink_bed_input(tmp_path):
    from bed_reader import to_bed

    rng = np.random.default_rng(7)
    G = rng.integers(0, 3, (30, 200)).astype(float)
    G[rng.random(G.shape) < 0.1] = np.nan
    to_bed(tmp_path / "g.bed", G)
    got, compared = gpuseq.pairwise_distances(tmp_path / "g.bed", return_compared=True,
                                              backend="cpu")
    Gi = np.where(np.isnan(G), -1, G).astype(np.int64)
    ref, ref_compared = reference_with_missing(Gi, Gi, "hamming")
    np.testing.assert_array_equal(got, ref)
    np.testing.assert_array_equal(compared, ref_compared)


def write_vcf(path, alleles, phased):
    """A VCF of samples x variants diploid calls (allele indices, -1 missing), plus a haploid
    sample and a multi-allelic site, as text."""
    n, v, _ = alleles.shape
    lines = ["##fileformat=VCFv4.2", "##contig=<ID=7>",
             '##FORMAT=<ID=GT,Number=1,Type=String,Description="Genotype">',
             "\t".join(["#CHROM", "POS", "ID", "REF", "ALT", "QUAL", "FILTER", "INFO", "FORMAT",
                        *(f"s{i}" for i in range(n))])]
    for j in range(v):
        calls = []
        for i in range(n):
            a, b = (("." if x < 0 else str(x)) for x in alleles[i, j])
            calls.append(a + ("|" if phased[i, j] else "/") + b)
        fields = ["7", str(100 + j), ".", "A", "G,T", ".", "PASS", ".", "GT", *calls]
        lines.append("\t".join(fields))
    path.write_text("\n".join(lines) + "\n")


def test_vcf_input(tmp_path):
    rng = np.random.default_rng(8)
    alleles = rng.integers(0, 3, (25, 150, 2))          # 0 REF, 1 and 2 two ALT alleles
    alleles[rng.random(alleles.shape) < 0.05] = -1      # missing alleles (./. and ./1)
    write_vcf(tmp_path / "g.vcf", alleles, rng.random((25, 150)) < 0.5)
    # The documented value: non-reference alleles in the call, missing if any allele is.
    G = (alleles > 0).sum(axis=2)
    G[(alleles < 0).any(axis=2)] = -1
    np.testing.assert_array_equal(gd.read_genotypes(tmp_path / "g.vcf"), G)
    got, compared = gpuseq.pairwise_distances(tmp_path / "g.vcf", return_compared=True,
                                              backend="cpu")
    ref, ref_compared = reference_with_missing(G, G, "hamming")
    np.testing.assert_array_equal(got, ref)
    np.testing.assert_array_equal(compared, ref_compared)

    header = ("##fileformat=VCFv4.2\n##contig=<ID=7>\n"
              '##FORMAT=<ID=GT,Number=1,Type=String,Description="Genotype">\n'
              "#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT")
    mixed = tmp_path / "mixed_ploidy.vcf"
    mixed.write_text(header + "".join(f"\ts{i}" for i in range(7)) +
                     "\n7\t5\t.\tA\tG,T\t.\t.\t.\tGT\t1\t0\t.\t1/2\t./1\t0|1\t2|0\n")
    np.testing.assert_array_equal(gd.read_genotypes(mixed), [[1], [0], [-1], [2], [-1], [1], [1]])

    no_gt = tmp_path / "no_gt.vcf"
    no_gt.write_text(header + "\ts0\n7\t5\t.\tA\tG\t.\t.\t.\tDP\t3\n")
    with pytest.raises(gpuseq.errors.FormatError, match="7:5"):
        gd.read_genotypes(no_gt)
    broken = tmp_path / "broken.vcf"
    broken.write_text("this is not a VCF\n")
    with pytest.raises(gpuseq.errors.FormatError, match="broken.vcf"):
        gd.read_genotypes(broken)


def test_cli_writes_npy(tmp_path):
    import subprocess
    import sys

    rng = np.random.default_rng(8)
    X = rng.integers(0, 3, (12, 40)).astype(np.int8)
    np.save(tmp_path / "g.npy", X)
    subprocess.run([sys.executable, "-m", "gpuseq.cli", "distance", "--backend", "cpu",
                    "--metric", "manhattan", str(tmp_path / "g.npy"), str(tmp_path / "d.npy")],
                   check=True, capture_output=True)
    np.testing.assert_array_equal(np.load(tmp_path / "d.npy"), reference(X, X, "manhattan"))
    # Fractions in condensed order, straight into the file.
    subprocess.run([sys.executable, "-m", "gpuseq.cli", "distance", "--backend", "cpu",
                    "--normalize", "--condensed", str(tmp_path / "g.npy"),
                    str(tmp_path / "f.npy")], check=True, capture_output=True)
    np.testing.assert_array_equal(np.load(tmp_path / "f.npy"), pdist(X, "hamming"))
    # --knn 0 is a k out of range (it was taken for no --knn), and --knn writes counts only.
    for flags, words in ((["--knn", "0"], "k must be between 1 and 11"),
                         (["--knn", "2", "--normalize"], "--normalize cannot be combined"),
                         (["--knn", "2", "--condensed"], "--condensed cannot be combined")):
        run = subprocess.run([sys.executable, "-m", "gpuseq.cli", "distance", "--backend", "cpu",
                              *flags, str(tmp_path / "g.npy"), str(tmp_path / "k.npy")],
                             capture_output=True, text=True)  # fmt: skip
        assert run.returncode == 1 and words in run.stderr, (flags, run.stderr)
        assert not (tmp_path / "k.npy").exists()


# ---- errors ---------------------------------------------------------------------------------

def test_bad_inputs_get_clear_errors(monkeypatch):
    with pytest.raises(gpuseq.InvalidDataError, match="rectangular|ragged"):
        gpuseq.pairwise_distances([[0, 1, 2], [0, 1]], backend="cpu")
    with pytest.raises(gpuseq.InvalidDataError, match="non-integer"):
        gpuseq.pairwise_distances(np.array([[0.5, 1.0]]), backend="cpu")
    with pytest.raises(gpuseq.InvalidDataError, match=r"X\[1, 2\] = 3 is outside the alphabet"):
        gpuseq.pairwise_distances(np.array([[0, 1, 2], [0, 1, 3]]), backend="cpu")
    with pytest.raises(gpuseq.InvalidDataError, match="empty"):
        gpuseq.pairwise_distances(np.zeros((0, 5)), backend="cpu")
    with pytest.raises(gpuseq.InvalidDataError, match="empty"):
        gpuseq.pairwise_distances(np.zeros((4, 0)), backend="cpu")
    with pytest.raises(gpuseq.InvalidDataError, match="attributes"):
        gpuseq.pairwise_distances(np.zeros((2, 5)), np.zeros((2, 6)), backend="cpu")
    with pytest.raises(gpuseq.InvalidDataError, match="2-D"):
        gpuseq.pairwise_distances(np.zeros(5), backend="cpu")
    with pytest.raises(gpuseq.InvalidDataError, match="dtype"):
        gpuseq.pairwise_distances(np.array([["a", "b"]]), backend="cpu")
    with pytest.raises(gpuseq.InvalidDataError, match="missing values"):
        gpuseq.pairwise_distances(np.array([[0, np.nan]]), kernel="shared")
    with pytest.raises(gpuseq.BackendError):
        gpuseq.pairwise_distances(np.zeros((2, 2)), kernel="shared", backend="cpu")
    with pytest.raises(ValueError, match="metric"):
        gpuseq.pairwise_distances(np.zeros((2, 2)), metric="euclidean")
    monkeypatch.setattr(gd, "_available_memory", lambda: 1000)
    with pytest.raises(gpuseq.OutputTooLargeError, match="out="):
        gpuseq.pairwise_distances(np.zeros((100, 3)), backend="cpu")


def test_paper_kernels_need_a_gpu():
    if gpuseq.cuda_devices():
        pytest.skip("a GPU is present: see the cuda tests below")
    with pytest.raises(gpuseq.BackendError, match="not available"):
        gpuseq.pairwise_distances(np.zeros((2, 2)), kernel="register")


def test_cuda_failures_are_backend_errors():
    """A CUDA failure reaches Python as a BackendError subclass; out of GPU memory is also a
    MemoryError (what the tiling catches to split its work)."""
    assert issubclass(_core.CudaError, gpuseq.GpuError)
    assert issubclass(_core.DeviceOutOfMemory, gpuseq.GpuOutOfMemoryError)
    assert issubclass(gpuseq.GpuOutOfMemoryError, gpuseq.BackendError)
    assert issubclass(gpuseq.GpuOutOfMemoryError, MemoryError)
    assert not issubclass(gpuseq.GpuError, MemoryError)


# ---- GPU (run on the device machine) --------------------------------------------------------

@pytest.mark.cuda
@pytest.mark.parametrize("metric", ["hamming", "manhattan"])
@pytest.mark.parametrize("kernel", GPU_KERNELS)
def test_gpu_kernels_equal_cpu_twin_and_scipy(kernel, metric):
    rng = np.random.default_rng(10)
    shapes = SHAPES + [(300, 257, 1100), (129, 131, 2048)]
    for n, m, a in shapes:
        X = rng.integers(0, 3, (n, a)).astype(np.int8)
        Y = rng.integers(0, 3, (m, a)).astype(np.int8)
        gpu = gpuseq.pairwise_distances(X, Y, metric, kernel=kernel, backend="cuda", tile=200)
        cpu = gpuseq.pairwise_distances(X, Y, metric, kernel="bitplane", backend="cpu")
        np.testing.assert_array_equal(gpu, cpu, err_msg=f"{kernel} {n}x{m}x{a}")
        np.testing.assert_array_equal(gpu, reference(X, Y, metric))


@pytest.mark.cuda
@pytest.mark.parametrize("metric", ["hamming", "manhattan"])
def test_gpu_bitplanes_with_missing_values(metric):
    rng = np.random.default_rng(11)
    X = rng.integers(0, 3, (211, 1500)).astype(float)
    X[rng.random(X.shape) < 0.1] = np.nan
    Y = X[::3].copy()
    gpu, gpu_compared = gpuseq.pairwise_distances(X, Y, metric, backend="cuda", tile=100,
                                                  return_compared=True)
    cpu, cpu_compared = gpuseq.pairwise_distances(X, Y, metric, backend="cpu",
                                                  return_compared=True)
    np.testing.assert_array_equal(gpu, cpu)
    np.testing.assert_array_equal(gpu_compared, cpu_compared)


@pytest.mark.cuda
@pytest.mark.parametrize("threads", [1, 2])
def test_gpu_tiles_over_the_staging_pieces_come_back_whole(threads):
    """A result tile of 9 MB comes back through the pinned staging in 4 MB pieces: every piece
    of it with one host thread (a worker is then handed all the pieces at once) as with two."""
    rng = np.random.default_rng(13)
    X = rng.integers(0, 3, (1500, 70)).astype(np.int8)
    gpu = gpuseq.pairwise_distances(X, backend="cuda", tile=1500, threads=threads)
    np.testing.assert_array_equal(gpu, reference(X, X, "hamming"))


@pytest.mark.cuda
def test_gpu_alphabets_nearest_neighbors_and_auto_backend():
    rng = np.random.default_rng(12)
    X = rng.integers(0, 5, (500, 333))
    for metric in ("hamming", "manhattan"):
        gpu = gpuseq.pairwise_distances(X, metric=metric, alphabet_size=5, backend="cuda")
        np.testing.assert_array_equal(gpu, reference(X, X, metric))
    a = gpuseq.nearest_neighbors(X, 4, alphabet_size=5, backend="cuda", tile=128)
    b = gpuseq.nearest_neighbors(X, 4, alphabet_size=5, backend="cpu", tile=128)
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])
    assert gpuseq.backend.resolve_backend("auto", "distance") == "cuda"


def and_popcount_reference(a, b):
    """popcount(a_i AND b_j) through unpacked bits and an integer matrix product."""
    abits = np.unpackbits(a.view(np.uint8), axis=1).astype(np.int32)
    bbits = np.unpackbits(b.view(np.uint8), axis=1).astype(np.int32)
    return abits @ bbits.T


@pytest.mark.cuda
def test_every_tensor_core_variant_equals_numpy():
    variants = gpuseq._core.b1_gemm_variants()
    if gpuseq.cuda_devices()[0]["compute_capability"] == (9, 0):
        assert any(v.startswith("wgmma") for v in variants), "sm_90 GPU without the wgmma kernel"
    rng = np.random.default_rng(13)
    # Sizes not multiples of any tile (128 x 256, 128 x 128, 64 x 128), K from 1 to 5 stages,
    # and dense, sparse and all-ones bits.
    for rows, cols, words, density in [(1, 1, 16, 0.5), (129, 257, 16, 0.5), (300, 517, 48, 0.5),
                                       (255, 130, 80, 0.05), (70, 300, 32, 1.0)]:
        a = np.packbits(rng.random((rows, words * 64)) < density, axis=1).view(np.uint64)
        b = np.packbits(rng.random((cols, words * 64)) < density, axis=1).view(np.uint64)
        expected = and_popcount_reference(a, b)
        for variant in [""] + variants:
            got = gpuseq._core.b1_gemm_product(variant, a, b)
            np.testing.assert_array_equal(got, expected,
                                          err_msg=f"{variant!r} {rows}x{cols}x{words}")


# Dense b1 (AND+POPC) tensor rates, in operations (2 per bit pair: AND, POPC) per clock per SM,
# from NVIDIA's published figures. A100 (sm_80): 4,992 dense INT1 TOPS with 108 SMs at 1.41 GHz
# = 32,768. H100/H200 (sm_90): NVIDIA publishes no INT1 figure; its dense INT8 is 1,979 TOPS
# with 132 SMs at 1.83 GHz = 8,192 per clock per SM, and b1 runs at 8x INT8 on Ampere
# (4,992 : 624), giving 65,536 (15,830 TOPS on the H100 SXM).
B1_OPS_PER_CLOCK_PER_SM = {(8, 0): 32768, (9, 0): 65536}
PUBLISHED_CLOCK_GHZ = {(8, 0): 1.41, (9, 0): 1.83}
MAX_BOOST_GHZ = 2.0  # above every A100/H100/H200 boost clock (1.41, 1.755, 1.98 GHz)


@pytest.mark.cuda
def test_b1_tensor_core_peaks_are_plausible():
    """The measured peaks lie between a fraction of the published rate for this GPU's SM
    count and the hardware's ceiling at its highest clock: a wrong operation count, a timer
    bug or a kernel that does not run the instruction shows up as a rate out of range."""
    device = gpuseq.cuda_devices()[0]
    cc, sms = tuple(device["compute_capability"]), device["multiprocessors"]
    if cc not in B1_OPS_PER_CLOCK_PER_SM:
        pytest.skip(f"no published b1 tensor rate for compute capability {cc}")
    per_clock = B1_OPS_PER_CLOCK_PER_SM[cc] * sms
    published = per_clock * PUBLISHED_CLOCK_GHZ[cc] * 1e9 / 1e12  # TOPS
    ceiling = per_clock * MAX_BOOST_GHZ * 1e9 / 1e12
    mma = gpuseq._core.b1_mma_peak_tops(2000)
    # On Hopper the legacy mma.sync path reaches about two thirds of the wgmma rate (the
    # tensor-core kernels' own reason to exist), on Ampere it is the full rate.
    assert (0.4 if cc == (9, 0) else 0.6) * published < mma < ceiling, (mma, published, ceiling)
    if any(v.startswith("wgmma") for v in gpuseq._core.b1_gemm_variants()):
        wgmma = gpuseq._core.b1_wgmma_peak_tops(2000)
        assert 0.6 * published < wgmma < ceiling, (wgmma, published, ceiling)
        assert wgmma > mma, (wgmma, mma)
    else:
        with pytest.raises(ValueError, match="sm_90a"):
            gpuseq._core.b1_wgmma_peak_tops(200)


@pytest.mark.cuda
@pytest.mark.parametrize("missing", [False, True])
def test_a_tile_larger_than_the_last_one_that_does_not_fit_is_split(missing):
    """Allocations capped between a quarter tile and a tile (a testing hook): the first tile
    fails and is split, its quarters allocate the tile buffer; the next full tile then needs a
    larger buffer, fails again, and its quarters must allocate anew (they were once handed the
    freed buffer and the kernel wrote through a null pointer). The results equal the CPU's."""
    rng = np.random.default_rng(14)
    X = rng.integers(0, 3, (600, 300)).astype(float)
    Y = rng.integers(0, 3, (1200, 300)).astype(float)
    if missing:  # the compared-count buffer too
        X[rng.random(X.shape) < 0.05] = np.nan
    cpu = gpuseq.pairwise_distances(X, Y, "manhattan", backend="cpu", return_compared=True)
    _core.gpu_allocation_limit_for_tests(400 * 400 * 4 - 1)  # a 400 x 400 int32 tile: refused
    try:
        gpu = gpuseq.pairwise_distances(
            X, Y, "manhattan", backend="cuda", tile=400, return_compared=True
        )
    finally:
        _core.gpu_allocation_limit_for_tests(0)
    np.testing.assert_array_equal(gpu[0], cpu[0])
    np.testing.assert_array_equal(gpu[1], cpu[1])


@pytest.mark.cuda
@pytest.mark.parametrize("metric", ["hamming", "manhattan"])
@pytest.mark.parametrize("missing", [False, True])
def test_planes_larger_than_the_gpu_allows_are_streamed_by_tile(metric, missing):
    """Allocations capped below the whole planes (a testing hook): the engine keeps the planes
    on the host and uploads each tile's rows; all pairs of X, X against Y, and k nearest equal
    the CPU's."""
    rng = np.random.default_rng(15)
    X = rng.integers(0, 3, (700, 900)).astype(float)
    Y = rng.integers(0, 3, (500, 900)).astype(float)
    if missing:
        X[rng.random(X.shape) < 0.05] = np.nan
        Y[rng.random(Y.shape) < 0.05] = np.nan
    # A row of planes is 3 x 1024 bits (384 bytes): 700 rows are 269 KB, a 128-row tile 49 KB.
    cap = 64 * 1024
    cpu = [gpuseq.pairwise_distances(X, metric=metric, backend="cpu"),
           gpuseq.pairwise_distances(X, Y, metric, backend="cpu", return_compared=True),
           gpuseq.nearest_neighbors(X, 7, metric=metric, backend="cpu"),
           gpuseq.nearest_neighbors(X, 7, Y, metric, backend="cpu")]
    _core.gpu_allocation_limit_for_tests(cap)
    try:
        gpu = [gpuseq.pairwise_distances(X, metric=metric, backend="cuda", tile=100),
               gpuseq.pairwise_distances(X, Y, metric, backend="cuda", tile=100,
                                         return_compared=True),
               gpuseq.nearest_neighbors(X, 7, metric=metric, backend="cuda", tile=100),
               gpuseq.nearest_neighbors(X, 7, Y, metric, backend="cuda", tile=100)]
    finally:
        _core.gpu_allocation_limit_for_tests(0)
    np.testing.assert_array_equal(gpu[0], cpu[0])
    for got, want in zip(gpu[1:], cpu[1:]):
        np.testing.assert_array_equal(got[0], want[0])
        np.testing.assert_array_equal(got[1], want[1])


@pytest.mark.cuda
def test_nearest_column_blocks_that_do_not_fit_are_narrowed():
    """k nearest with allocations capped below the engine's first column block (a testing
    hook): the block is narrowed until it fits, and the neighbours equal the CPU's."""
    rng = np.random.default_rng(16)
    X = rng.integers(0, 3, (600, 300)).astype(np.int8)
    want = gpuseq.nearest_neighbors(X, 9, backend="cpu")
    # All 600 rows by 600, 300 or 256 columns are refused: the rows are then split, and 300
    # rows by 300 columns fit.
    _core.gpu_allocation_limit_for_tests(300 * 300 * 4)
    try:
        got = gpuseq.nearest_neighbors(X, 9, backend="cuda")
    finally:
        _core.gpu_allocation_limit_for_tests(0)
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_array_equal(got[1], want[1])
