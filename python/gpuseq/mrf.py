"""3-D Markov random field segmentation (Walters et al. 2009), deterministic on any thread count.

K Gaussian intensity classes and a Potts prior over 6, 18 or 26 neighbours::

    res = gpuseq.segment_mrf(ct, classes=3, beta=1.0, neighbourhood=26, mode="icm")
    res.labels      # uint8 volume, shape of ct (from K-means, 0 is the darkest class)
    res.energy      # total energy before the first sweep and after each sweep
    res.changed     # labels changed by each sweep

Energy of a labelling L: the sum over voxels of -log N(I; mean_l, variance_l) plus ``beta`` for
every neighbour pair with different labels (the paper's beta_out - beta_in). Class means and
variances are re-estimated from the labels before the first sweep and after every sweep.
Sweeps visit the grid by colours whose voxels are independent (red-black for 6 neighbours, the
8 parity classes of x, y, z for 18 and 26), so the labels are a function of the inputs only:
not of the thread count, and the same on a GPU. ``mode="icm"`` gives each voxel its best label
(ties to the lowest), ``mode="metropolis"`` is the paper's rule: one uniformly random proposal
per voxel and sweep (Philox-4x32-10 keyed by seed, sweep and voxel), taken when the energy drops
by more than ``threshold``.

``backend="cuda"`` runs the sweeps on the GPU (``kernel="tiled"``, the default: 3-D tiles of
byte labels in shared memory; ``kernel="paper"``: Walters et al.'s thread per x column) and
gives the same labels, energies, changed counts and class Gaussians bit for bit; ``"auto"``
takes the GPU when there is one and falls back to the CPU with one notice.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import _checks as checks
from .backend import resolve_backend, worker_threads
from .errors import InvalidDataError

__all__ = ["MrfResult", "segment_mrf", "kmeans_means"]

MODES = ("icm", "metropolis")
NEIGHBOURHOODS = (6, 18, 26)
BACKENDS = ("auto", "cpu", "cuda")
KERNELS = ("tiled", "paper")


@dataclass(frozen=True)
class MrfResult:
    """What segment_mrf returns.

    Attributes:
        labels: uint8 (z, y, x) labels in 0..classes-1.
        energy: float64, the total energy before the first sweep and after each sweep.
        changed: int64, labels changed by each sweep (len = sweeps run).
        means, variances: float64 (sweeps + 1, classes), each class's Gaussian with the energy
            of the same row.
        component: bool mask of the seed voxel's 6-connected component of its label, or None
            when no seed_voxel was given.
        sweep_seconds: float64, wall time of each sweep's label updates (without the class
            estimates and energies between sweeps); for benchmarks.
        backend: "cpu" or "cuda", where the sweeps ran.
    """

    labels: np.ndarray
    energy: np.ndarray
    changed: np.ndarray
    means: np.ndarray
    variances: np.ndarray
    component: np.ndarray | None = None
    sweep_seconds: np.ndarray | None = None
    backend: str = "cpu"

    @property
    def sweeps(self) -> int:
        return len(self.changed)


def segment_mrf(
    volume,
    classes: int = 3,
    beta: float = 1.0,
    neighbourhood: int = 26,
    mode: str = "icm",
    max_sweeps: int = 20,
    tolerance: float = 1e-3,
    threshold: float = 0.0,
    seed: int = 0,
    means=None,
    init=None,
    seed_voxel=None,
    threads: int = 0,
    backend: str = "auto",
    kernel: str = "tiled",
) -> MrfResult:
    """Segments a 3-D volume (z, y, x) into ``classes`` intensity classes.

    Args:
        volume: 3-D numeric array; intensities are computed in float32 (exact for CT's int16).
        classes: number of classes, 2 to 255.
        beta: cost of one neighbour pair with different labels (in the data term's units, nats).
        neighbourhood: 6 (faces), 18 (and edges) or 26 (and corners).
        mode: "icm" or "metropolis".
        max_sweeps: at most this many sweeps.
        tolerance: stop after a sweep that changed at most this fraction of the voxels.
        threshold: metropolis: a proposal is taken when the energy drops by more than this.
        seed: 64-bit key of the metropolis proposals.
        means: initial class means (length ``classes``); each voxel starts at its nearest mean.
            Default: 1-D K-means on the intensities (kmeans_means).
        init: initial labels instead (same shape as volume, integers below ``classes``).
        seed_voxel: (z, y, x); the result's ``component`` is its 6-connected component.
        threads: CPU threads, 0 for all cores. The labels do not depend on it.
        backend: "auto" (the GPU when this build has CUDA and a GPU is visible, else the CPU
            with one BackendFallbackWarning), "cpu" or "cuda". The results do not depend on it.
        kernel: the GPU kernel, "tiled" (default) or "paper" (Walters et al.'s layout).

    Raises:
        InvalidDataError: volume not 3-D, not numeric, holding NaN or infinity, with fewer
            voxels than classes; init of another shape or with labels out of range; a seed
            voxel outside the volume.
        ValueError: a parameter out of its range.
        BackendError: backend="cuda" without a CUDA build or a GPU.
        GpuOutOfMemoryError: the volume does not fit in the GPU's free memory (a
            BackendError and a MemoryError; backend="cpu" runs it).
    """
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, not {backend!r}")
    if kernel not in KERNELS:
        raise ValueError(f"kernel must be one of {KERNELS}, not {kernel!r}")
    _check_parameters(classes, beta, neighbourhood, mode, max_sweeps, tolerance, threshold,
                      seed, threads)
    data = _checked_volume(volume, classes)
    if init is not None and means is not None:
        raise ValueError("give either means or init, not both")
    if init is not None:
        labels = _checked_labels(init, data.shape, classes)
    else:
        if means is None:
            means = kmeans_means(data, classes)
        else:
            try:
                means = np.asarray(means, dtype=np.float64)
            except (TypeError, ValueError):
                raise ValueError(f"means must be {classes} finite numbers, not {means!r}") from None
            if means.shape != (classes,) or not np.all(np.isfinite(means)):
                raise ValueError(f"means must be {classes} finite numbers")
        labels = nearest_mean_labels(data, means)
    seed_position = None
    if seed_voxel is not None:
        seed_position = _checked_seed_voxel(seed_voxel, data.shape)

    from . import _core

    where = resolve_backend(backend, "mrf")
    out = _core.mrf_segment(data, labels, classes, float(beta), neighbourhood, mode,
                            max_sweeps, float(tolerance), float(threshold), int(seed),
                            worker_threads(threads),
                            where, kernel)
    component = None
    if seed_position is not None:
        component = _core.mrf_connected_component(out["labels"], *seed_position).astype(bool)
    return MrfResult(
        labels=out["labels"],
        energy=out["energy"],
        changed=out["changed"],
        means=out["means"].reshape(-1, classes),
        variances=out["variances"].reshape(-1, classes),
        component=component,
        sweep_seconds=out["sweep_seconds"],
        backend=where,
    )


def kmeans_means(volume, classes: int, max_iterations: int = 100) -> np.ndarray:
    """Ascending class means of a 1-D K-means (Lloyd) on the intensities; deterministic.

    Lloyd runs from two starts, the quantiles (k + 0.5) / classes and evenly spaced points
    (k + 0.5) / classes of the way from the minimum to the maximum, and the one with the smaller
    within-class sum of squares wins (quantiles alone put two means into a background that
    fills most of the volume). In 1-D the classes are intervals of the sorted intensities: each
    iteration cuts at the midpoints between means (a value on a midpoint goes to the lower
    class) and takes interval means from prefix sums. A class left empty keeps its mean."""
    values = np.sort(np.asarray(volume, dtype=np.float64), axis=None)
    prefix = np.concatenate(([0.0], np.cumsum(values)))
    prefix_squares = np.concatenate(([0.0], np.cumsum(values * values)))
    n = len(values)
    fractions = (np.arange(classes) + 0.5) / classes
    starts = [
        values[np.minimum((fractions * n).astype(np.int64), n - 1)],
        values[0] + fractions * (values[-1] - values[0]),
    ]
    best_means, best_cost = None, math.inf
    for means in starts:
        means = means.copy()
        cuts = None
        for _ in range(max_iterations):
            midpoints = (means[:-1] + means[1:]) / 2
            new_cuts = np.concatenate(([0], np.searchsorted(values, midpoints, side="right"),
                                       [n]))
            if cuts is not None and np.array_equal(new_cuts, cuts):
                break
            cuts = new_cuts
            counts = cuts[1:] - cuts[:-1]
            sums = prefix[cuts[1:]] - prefix[cuts[:-1]]
            means = np.where(counts > 0, sums / np.maximum(counts, 1), means)
        counts = cuts[1:] - cuts[:-1]
        sums = prefix[cuts[1:]] - prefix[cuts[:-1]]
        squares = prefix_squares[cuts[1:]] - prefix_squares[cuts[:-1]]
        cost = float(np.sum(squares - sums * sums / np.maximum(counts, 1)))
        if cost < best_cost:
            best_means, best_cost = means, cost
    return best_means


def nearest_mean_labels(volume: np.ndarray, means) -> np.ndarray:
    """uint8 labels: each voxel's nearest mean (ties to the lowest label).

    Distances are taken in float64 on blocks of voxels small enough to stay in cache: the whole
    volume at once in float64 (several temporaries of 8 bytes a voxel) took seconds at 512^3,
    more than the GPU's sweeps."""
    values = np.asarray(volume)
    means = np.asarray(means, dtype=np.float64)
    flat = values.reshape(-1)
    labels = np.zeros(flat.shape, dtype=np.uint8)
    block = 1 << 15
    value, best, distance = (np.empty(block) for _ in range(3))
    closer = np.empty(block, dtype=bool)
    for start in range(0, flat.size, block):
        n = min(block, flat.size - start)
        v, b, d, c = value[:n], best[:n], distance[:n], closer[:n]
        v[...] = flat[start:start + n]
        np.abs(np.subtract(v, means[0], out=b), out=b)
        for label in range(1, len(means)):
            np.abs(np.subtract(v, means[label], out=d), out=d)
            np.less(d, b, out=c)
            np.copyto(labels[start:start + n], np.uint8(label), where=c)
            np.copyto(b, d, where=c)
    return labels.reshape(values.shape)


def _check_parameters(classes, beta, neighbourhood, mode, max_sweeps, tolerance, threshold,
                      seed, threads) -> None:
    integer, real = checks.is_integer, checks.is_real  # (a bool is not taken for a number)

    if not integer(classes) or not 2 <= classes <= 255:
        raise ValueError(f"classes must be an integer from 2 to 255, not {classes!r}")
    if not real(beta) or not math.isfinite(beta):
        raise ValueError(f"beta must be a finite number, not {beta!r}")
    if not integer(neighbourhood) or neighbourhood not in NEIGHBOURHOODS:
        raise ValueError(f"neighbourhood must be one of {NEIGHBOURHOODS}, not {neighbourhood!r}")
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
    if not integer(max_sweeps) or max_sweeps < 0:
        raise ValueError(f"max_sweeps must be an integer >= 0, not {max_sweeps!r}")
    if not real(tolerance) or not 0 <= tolerance <= 1:
        raise ValueError(f"tolerance must be a fraction from 0 to 1, not {tolerance!r}")
    if not real(threshold) or not math.isfinite(threshold):
        raise ValueError(f"threshold must be a finite number, not {threshold!r}")
    if not integer(seed) or not 0 <= seed < 2**64:
        raise ValueError(f"seed must be an integer from 0 to 2**64 - 1, not {seed!r}")
    worker_threads(threads)  # (checked)


def _checked_volume(volume, classes: int) -> np.ndarray:
    try:
        arr = np.asarray(volume)
    except (ValueError, TypeError) as exc:
        raise InvalidDataError(f"volume is not a rectangular array: {exc}") from None
    if arr.ndim != 3:
        raise InvalidDataError(f"volume must be 3-D (z, y, x), not {arr.ndim}-D")
    if arr.dtype.kind not in "iuf":
        raise InvalidDataError(f"volume has dtype {arr.dtype}; expected integers or floats")
    if arr.size < classes:
        raise InvalidDataError(
            f"volume has {arr.size} voxels, fewer than the {classes} classes"
        )
    with np.errstate(over="ignore"):  # values beyond float32 become inf, reported below
        data = np.ascontiguousarray(arr, dtype=np.float32)
    finite = np.isfinite(data)
    if not finite.all():
        where = tuple(int(i) for i in np.argwhere(~finite)[0])
        value = arr[where]
        why = "is not finite" if not np.isfinite(value) else "overflows float32"
        raise InvalidDataError(f"volume voxel (z, y, x) = {where} {why} ({value})")
    return data


def _checked_labels(init, shape, classes: int) -> np.ndarray:
    arr = np.asarray(init)
    if arr.shape != shape:
        raise InvalidDataError(f"init has shape {arr.shape}, the volume {shape}")
    if arr.dtype.kind not in "iu":
        raise InvalidDataError(f"init has dtype {arr.dtype}; expected integer labels")
    if arr.size and (arr.min() < 0 or arr.max() >= classes):
        raise InvalidDataError(
            f"init holds labels from {arr.min()} to {arr.max()}; expected 0 to {classes - 1}"
        )
    return np.ascontiguousarray(arr, dtype=np.uint8)


def _checked_seed_voxel(seed_voxel, shape) -> tuple[int, int, int]:
    position = tuple(seed_voxel)
    if len(position) != 3 or not all(
        checks.is_integer(p) for p in position
    ):
        raise InvalidDataError(f"seed_voxel must be three integers (z, y, x), not {seed_voxel!r}")
    if not all(0 <= p < n for p, n in zip(position, shape)):
        raise InvalidDataError(f"seed_voxel {position} is outside the volume of shape {shape}")
    return tuple(int(p) for p in position)
