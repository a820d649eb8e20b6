"""All-pairs distances between instances described by small-integer attributes.

The use is SNP genotypes (0/1/2, with missing values): ``X`` is instances x attributes, and
the result is the matrix of distances between all pairs of instances, like scipy's
``cdist``/``pdist``::

    D = gpuseq.pairwise_distances(genotypes)                      # hamming counts, n x n
    D = gpuseq.pairwise_distances(X, Y, metric="manhattan")       # cdist(X, Y, "cityblock")
    f = gpuseq.pairwise_distances(X, normalize=True, condensed=True)  # pdist(X, "hamming")

Missing values: attributes missing in either instance are skipped for that pair; with
``return_compared=True`` the number of attributes compared for each pair is returned too,
and ``normalize=True`` divides by it (so fractions equal scipy's on complete data).

Kernels (``kernel=``): ``"cpu"`` (the plain loop), ``"naive"``, ``"coalesced"``, ``"char4"``,
``"register"``, ``"shared"`` (the GPU ladder of Payne et al. 2010), and ``"bitplane"`` (the
default: bit planes with popcount on the CPU, binary tensor cores on the GPU). Every kernel
gives the same integers.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from . import _checks as checks
from . import _core
from .backend import resolve_backend, worker_threads
from .errors import BackendError, InvalidDataError, OutputTooLargeError

__all__ = [
    "pairwise_distances",
    "nearest_neighbors",
    "read_genotypes",
    "PAPER_KERNELS",
    "KERNELS",
]

PAPER_KERNELS = ("naive", "coalesced", "char4", "register", "shared")
KERNELS = ("auto", "cpu", "bitplane", *PAPER_KERNELS)
METRICS = ("hamming", "manhattan")
_MISSING = -1  # the core's missing code (cpp/distance/genotypes.hpp)
_DEFAULT_TILE = 8192
# Tiles the GPU writes straight into the result (no host temporaries): larger tiles, fewer
# launches and copies. 50,000 x 50,000 x 10,000 on the H100, the tile loop: 0.55 s at 8,192,
# 0.46 s at 16,384, 0.40 s at 32,768 (benchmarks/results/gpu-h100-80gb-hbm3-20261124-c/).
_GPU_DIRECT_TILE = 32768


def pairwise_distances(
    X,
    Y=None,
    metric: str = "hamming",
    *,
    normalize: bool = False,
    condensed: bool = False,
    alphabet_size: int = 3,
    missing=None,
    kernel: str = "auto",
    backend: str = "auto",
    threads: int = 0,
    out: str | os.PathLike | None = None,
    tile: int | None = None,
    return_compared: bool = False,
):
    """Distances between all pairs of instances (rows) of X, or of X and Y.

    Arguments:
        X, Y: 2-D arrays (instances x attributes) of integers in ``0..alphabet_size-1``
            (int8/uint8 or any integer or integral float dtype), or the path of a genotype
            file (``.npy``, PLINK ``.bed``, VCF/BCF: see read_genotypes). Y defaults to X.
        metric: ``"hamming"`` (attributes that differ) or ``"manhattan"`` (sum of |a - b|,
            scipy's ``"cityblock"``).
        normalize: divide by the number of attributes compared (scipy's ``hamming`` fraction).
        condensed: return the upper triangle as scipy's ``pdist`` does (Y must be None);
            only the tiles that hold it are computed.
        alphabet_size: number of values an attribute can take (3 for genotypes 0/1/2).
        missing: the value that marks a missing attribute (NaN is always missing).
        kernel: see the module docstring; ``"auto"`` is ``"bitplane"``.
        backend: ``"auto"``, ``"cpu"`` or ``"cuda"`` (for ``"bitplane"``; the paper's GPU
            kernels need ``"cuda"``, ``"cpu"`` is the CPU loop).
        threads: CPU threads (0: all cores).
        out: path of a ``.npy`` file to write the result to, memory-mapped, for results
            larger than memory: the file holds exactly what the call returns (int32 counts,
            float64 fractions with ``normalize``, 1-D with ``condensed``) and the
            memory-mapped array is returned. The work stays tiled: no n x m array is held
            in memory. With ``return_compared`` the compared counts go beside it
            (``D.npy`` -> ``D.compared.npy``).
        tile: rows/columns per computed block (default 8192; 32768 where the GPU writes
            straight into the result).
        return_compared: also return the int32 matrix of attributes compared per pair.

    Returns:
        int32 counts (float64 fractions with ``normalize``), n x m, or condensed; with
        ``return_compared``, a tuple ``(distances, compared)``.

    Raises:
        InvalidDataError: ragged, empty or non-integer input, values outside the alphabet.
        OutputTooLargeError: the result does not fit in memory and no ``out`` file is given.
        BackendError: the requested kernel or backend is not available.
    """
    if metric not in METRICS:
        raise ValueError(f"metric must be one of {METRICS}, not {metric!r}")
    for name, value in (("normalize", normalize), ("condensed", condensed),
                        ("return_compared", return_compared)):
        checks.flag(value, name)
    _check_tile(tile)
    if kernel not in KERNELS:
        raise ValueError(f"kernel must be one of {KERNELS}, not {kernel!r}")
    if condensed and Y is not None:
        raise ValueError("condensed output is for one set of instances (Y must be None)")
    x, x_missing = _genotype_matrix(X, "X", alphabet_size, missing)
    if Y is None:
        y, y_missing = x, x_missing
    else:
        y, y_missing = _genotype_matrix(Y, "Y", alphabet_size, missing)
        if y.shape[1] != x.shape[1]:
            raise InvalidDataError(
                f"X has {x.shape[1]} attributes and Y has {y.shape[1]}: they must match"
            )
    has_missing = x_missing or y_missing
    engine, where = _engine(x, y, metric, alphabet_size, has_missing, kernel, backend, threads)

    n, m = x.shape[0], y.shape[0]
    shape = (n * (n - 1) // 2,) if condensed else (n, m)
    result = _allocate(out, shape, np.float64 if normalize else np.int32)
    compared = None
    if return_compared:
        compared = _allocate(None if out is None else _compared_path(out), shape, np.int32)
    # Attributes compared per pair: computed only when values are missing (else all of them).
    count_compared = has_missing and (return_compared or normalize)
    direct = not (normalize or condensed)  # the engine writes straight into the result
    size = tile or (_GPU_DIRECT_TILE if direct and where == "cuda" else _DEFAULT_TILE)
    for r0, r1, c0, c1 in _tiles(n, m, size, kernel):
        if condensed and c1 <= r0 + 1:
            continue  # no pair of the upper triangle: condensed output computes half the tiles
        if direct:
            _compute_tile(engine, result, compared if count_compared else None, r0, r1, c0, c1)
            if compared is not None and not count_compared:
                compared[r0:r1, c0:c1] = x.shape[1]
            continue
        counts = np.empty((r1 - r0, c1 - c0), dtype=np.int32)
        tile_compared = np.empty_like(counts) if count_compared else None
        _compute_tile(engine, counts, tile_compared, r0, r1, c0, c1, origin=(r0, c0))
        if tile_compared is None:
            tile_compared = x.shape[1]
        values = counts
        if normalize:
            with np.errstate(invalid="ignore", divide="ignore"):  # NaN: nothing compared
                values = counts / tile_compared
        _put_tile(result, values, r0, c0, n, condensed)
        if compared is not None:
            _put_tile(compared, tile_compared, r0, c0, n, condensed, like=counts)
    for array in (result, compared):
        if out is not None and hasattr(array, "flush"):
            array.flush()
    return (result, compared) if return_compared else result


def nearest_neighbors(
    X,
    k: int,
    Y=None,
    metric: str = "hamming",
    *,
    alphabet_size: int = 3,
    missing=None,
    kernel: str = "auto",
    backend: str = "auto",
    threads: int = 0,
    tile: int | None = None,
):
    """The k nearest instances of Y (default X, excluding each instance itself) for every
    instance of X, computed block by block so that the full matrix is never held.

    Args:
        tile: rows per block, and columns per block the engine computes (default 8192 rows
            and the engine's column blocks).

    Returns:
        ``(indices, distances)``: int64 and int32 arrays of shape (n, k), each row sorted by
        distance, ties by index.
    """
    checks.integer(k, "k")
    _check_tile(tile)
    x, x_missing = _genotype_matrix(X, "X", alphabet_size, missing)
    y, y_missing = (x, x_missing) if Y is None else _genotype_matrix(Y, "Y", alphabet_size, missing)
    m = y.shape[0] - (1 if Y is None else 0)
    if not 1 <= k <= m:
        raise ValueError(f"k must be between 1 and {m}")
    engine, _ = _engine(x, y, metric, alphabet_size, x_missing or y_missing, kernel, backend,
                        threads)
    n, total = x.shape[0], y.shape[0]
    best_idx = np.empty((n, k), dtype=np.int64)
    best_dist = np.empty((n, k), dtype=np.int32)
    # A block of rows against all columns: the engine computes the columns block by block and
    # keeps each row's k best between blocks (on the GPU: on the device, k per row copied back).
    rows = tile or _DEFAULT_TILE
    for r0 in range(0, n, rows):
        r1 = min(n, r0 + rows)
        _nearest_tile(engine, best_idx[r0:r1], best_dist[r0:r1], r0, r1, total, Y is None,
                      tile or 0)
    return best_idx, best_dist


VCF_SUFFIXES = (".vcf", ".vcf.gz", ".vcf.bgz", ".bcf")


def read_genotypes(path: str | os.PathLike) -> np.ndarray:
    """Instances x attributes genotype matrix from a file, missing calls as -1:

    - ``.npy``: any integer dtype, memory-mapped;
    - PLINK ``.bed`` (with its ``.bim``/``.fam``), read with bed-reader: counts of allele 1;
    - VCF or BCF (``.vcf``, ``.vcf.gz``, ``.bcf``), read with cyvcf2: samples are the
      instances, variants the attributes, and the value of a call is its number of
      non-reference alleles (``0/0`` 0, ``0|1`` 1, ``1/1`` 2, ``1/2`` 2, haploid ``1`` 1); a
      call with any missing allele (``./.``, ``./1``) is missing.

    Raises:
        InputError: missing file; FormatError: unreadable or unsupported file, or a VCF
        record without GT.
    """
    from .errors import FormatError, InputError

    p = Path(path)
    if not p.exists():
        raise InputError(p, None, "no such file")
    if p.suffix == ".npy":
        try:
            return np.load(p, mmap_mode="r")
        except (ValueError, EOFError, OSError) as exc:  # EOFError: an empty file
            raise FormatError(p, None, f"not a NumPy array file: {exc}") from None
    if p.suffix == ".bed":
        try:
            from bed_reader import open_bed
        except ImportError:
            raise FormatError(p, None, "reading PLINK .bed needs bed-reader "
                              "(pip install gpuseq[genotypes])") from None
        try:
            with open_bed(p) as bed:
                values = bed.read(dtype="int8")
        except Exception as exc:  # bed-reader raises its own types for damaged files
            raise FormatError(p, None, f"unreadable PLINK file: {exc}") from None
        values[values == -127] = _MISSING  # bed-reader's int8 missing call
        return values
    if p.name.endswith(VCF_SUFFIXES):
        return _read_vcf(p)
    raise FormatError(p, None, "unsupported genotype file (use .npy, PLINK .bed, VCF or BCF)")


def _read_vcf(p: Path) -> np.ndarray:
    import json
    import subprocess
    import sys
    import tempfile

    from . import _vcf_reader
    from .errors import FormatError

    try:
        import cyvcf2  # noqa: F401
    except ImportError:
        raise FormatError(p, None, "reading VCF/BCF needs cyvcf2 "
                          "(pip install gpuseq[genotypes])") from None
    # In a child process: cyvcf2 crashes on records htslib could not parse (_vcf_reader.py).
    with tempfile.TemporaryDirectory(prefix="gpuseq-vcf-") as tmp:
        out = os.path.join(tmp, "genotypes.npy")
        proc = subprocess.run([sys.executable, _vcf_reader.__file__, os.fspath(p), out],
                              capture_output=True, text=True, errors="replace")
        if proc.returncode == 0:
            return np.load(out)
    if proc.returncode == _vcf_reader.BAD_INPUT:
        error = json.loads(proc.stdout)
        raise FormatError(p, None, error["message"], error["record"])
    htslib = [ln for ln in proc.stderr.splitlines() if ln.startswith("[E::")]
    raise FormatError(p, None, "malformed VCF/BCF: its reader (htslib through cyvcf2) failed"
                      + (f" after: {htslib[-1]}" if htslib else f" (exit {proc.returncode})"))


# ---- implementation ---------------------------------------------------------------------


def _genotype_matrix(data, name: str, alphabet_size: int, missing) -> tuple[np.ndarray, bool]:
    """int8 C-contiguous copy/view of the input with missing values as -1, checked."""
    if isinstance(data, (str, os.PathLike)):
        if missing is None and (Path(data).suffix == ".bed"
                                or str(data).endswith(VCF_SUFFIXES)):
            missing = _MISSING  # read_genotypes marks missing calls so
        data = read_genotypes(data)
    if not 2 <= checks.integer(alphabet_size, "alphabet_size") <= 16:
        raise ValueError("alphabet_size must be between 2 and 16")
    try:
        arr = np.asarray(data)
    except ValueError as exc:  # e.g. ragged nested lists
        raise InvalidDataError(f"{name} is not a rectangular array: {exc}") from None
    if arr.dtype == object:
        raise InvalidDataError(f"{name} is ragged or holds non-numbers (object array)")
    if arr.ndim != 2:
        raise InvalidDataError(f"{name} must be 2-D (instances x attributes), not {arr.ndim}-D")
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise InvalidDataError(f"{name} is empty ({arr.shape[0]} x {arr.shape[1]})")
    if arr.dtype.kind == "b":
        arr = arr.astype(np.int8)
    if arr.dtype.kind in "iu" and arr.size:
        # The common case in one quick look: every value in the alphabet, nothing missing
        # (min and max are two vectorized passes; the masks below cost 5x more).
        lo, hi = int(arr.min()), int(arr.max())
        if 0 <= lo and hi < alphabet_size and (missing is None or not lo <= missing <= hi):
            return np.ascontiguousarray(arr, dtype=np.int8), False
    if arr.dtype.kind == "f":
        nan = np.isnan(arr)
        finite = arr[~nan]
        if finite.size and not np.array_equal(finite, np.round(finite)):
            raise InvalidDataError(f"{name} holds non-integer values")
        missing_mask = nan
        if missing is not None:
            missing_mask = missing_mask | (arr == missing)
        values = np.where(missing_mask, 0, arr).astype(np.int64)
    elif arr.dtype.kind in "iu":
        missing_mask = (arr == missing) if missing is not None else np.zeros(arr.shape, bool)
        values = arr
    else:
        raise InvalidDataError(f"{name} has dtype {arr.dtype}; expected integers")
    bad = ((values < 0) | (values >= alphabet_size)) & ~missing_mask
    if bad.any():
        i, j = np.argwhere(bad)[0]
        raise InvalidDataError(
            f"{name}[{i}, {j}] = {arr[i, j].item()!r} is outside the alphabet "
            f"0..{alphabet_size - 1}"
            + ("" if missing is not None else " (pass missing=... if it marks a missing value)")
        )
    has_missing = bool(missing_mask.any())
    out = np.ascontiguousarray(values, dtype=np.int8)
    if has_missing:
        out = out.copy() if out is arr else out
        out[missing_mask] = _MISSING
    return out, has_missing


def _check_tile(tile) -> None:
    if tile is not None and checks.integer(tile, "tile") < 1:
        raise ValueError(f"tile must be 1 or more (or None: the default), not {tile}")


def _engine(x, y, metric, alphabet_size, has_missing, kernel, backend, threads):
    """The engine for the problem, and where it runs ("cpu" or "cuda")."""
    if kernel in PAPER_KERNELS:
        if has_missing:
            raise InvalidDataError(
                f"kernel {kernel!r} (Payne et al. 2010) has no missing values; use 'bitplane'"
            )
        if backend == "cpu":
            raise BackendError(f"kernel {kernel!r} is a GPU kernel; backend='cpu' cannot run it")
        where = resolve_backend("cuda", "distance")
    elif kernel == "cpu":
        where = "cpu"
    else:
        kernel = "bitplane"
        where = resolve_backend(backend, "distance")
    nthreads = worker_threads(threads)
    engine = _core.DistanceEngine(x, y, metric, alphabet_size, has_missing, kernel, where, nthreads)
    return engine, where


def _compute_tile(engine, result, compared, r0, r1, c0, c1, origin=(0, 0)) -> None:
    """Distances of rows r0..r1 to columns c0..c1 into result (whose element [0, 0] is pair
    `origin`); a block the GPU cannot allocate is split in four and retried."""
    a0, b0 = r0 - origin[0], c0 - origin[1]
    a1, b1 = r1 - origin[0], c1 - origin[1]
    try:
        engine.compute_into(result[a0:a1, b0:b1],
                            None if compared is None else compared[a0:a1, b0:b1], r0, c0)
    except MemoryError:
        if r1 - r0 <= 256 and c1 - c0 <= 256:
            raise
        rm, cm = (r0 + r1) // 2, (c0 + c1) // 2
        for a, b in ((r0, rm), (rm, r1)):
            for c, d in ((c0, cm), (cm, c1)):
                if a < b and c < d:
                    _compute_tile(engine, result, compared, a, b, c, d, origin)


def _nearest_tile(engine, idx, dist, r0, r1, total, skip_self, column_block) -> None:
    """k nearest of all columns for rows r0..r1 into idx/dist (rows x k); a block the GPU
    cannot allocate is split by rows and retried."""
    try:
        engine.nearest_into(idx, dist, r0, 0, total, skip_self, column_block)
    except MemoryError:
        if r1 - r0 <= 1:
            raise
        rm = (r0 + r1) // 2
        _nearest_tile(engine, idx[: rm - r0], dist[: rm - r0], r0, rm, total, skip_self,
                      column_block)
        _nearest_tile(engine, idx[rm - r0 :], dist[rm - r0 :], rm, r1, total, skip_self,
                      column_block)


def _allocate(out, shape: tuple, dtype) -> np.ndarray:
    if out is not None:
        return np.lib.format.open_memmap(out, mode="w+", dtype=dtype, shape=shape)
    need = int(np.prod(shape)) * np.dtype(dtype).itemsize
    available = _available_memory()
    if available is not None and need > available:
        what = " x ".join(str(k) for k in shape)
        raise OutputTooLargeError(
            f"a {what} {np.dtype(dtype).name} distance matrix needs {need / 2**30:.1f} GiB and "
            f"{available / 2**30:.1f} GiB is available: write it to a file with out='D.npy', "
            "or ask for nearest_neighbors()"
        )
    return np.empty(shape, dtype=dtype)


def _compared_path(out) -> Path:
    """Where return_compared's matrix goes beside out= ("D.npy" -> "D.compared.npy")."""
    path = Path(out)
    return path.with_name(path.stem + ".compared" + (path.suffix or ".npy"))


def _put_tile(dest, values, r0: int, c0: int, n: int, condensed: bool, like=None) -> None:
    """A tile of pairs (rows r0.., columns c0..) into the full or condensed destination;
    values may be a scalar (shaped as `like`)."""
    if not condensed:
        rows, cols = like.shape if like is not None else values.shape
        dest[r0 : r0 + rows, c0 : c0 + cols] = values
        return
    rows, cols = like.shape if like is not None else values.shape
    for a in range(rows):
        i = r0 + a
        j0 = max(c0, i + 1)  # the upper triangle: j > i
        if j0 >= c0 + cols:
            continue
        start = n * i - i * (i + 1) // 2 + (j0 - i - 1)  # scipy's pdist order
        span = c0 + cols - j0
        dest[start : start + span] = values if np.isscalar(values) else values[a, j0 - c0 :]


def _available_memory() -> int | None:
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def _tiles(n: int, m: int, size: int, kernel: str) -> Iterator[tuple[int, int, int, int]]:
    cols = min(size, 65535) if kernel in PAPER_KERNELS else size  # grid limit of the paper's
    for r0 in range(0, n, size):
        for c0 in range(0, m, cols):
            yield r0, min(n, r0 + size), c0, min(m, c0 + cols)
