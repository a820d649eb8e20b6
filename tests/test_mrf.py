"""gpuseq.segment_mrf: truth of synthetic phantoms, an independent NumPy ICM sweep, thread-count
independence, Philox against Random123's known answers, and the errors."""

from __future__ import annotations

import math

import numpy as np
import pytest

import gpuseq
from gpuseq import _core
from gpuseq.errors import BackendError, InvalidDataError
from gpuseq.mrf import kmeans_means, nearest_mean_labels

LEVELS = (0.0, 100.0, 200.0)


def phantom(size=48, noise=25.0, seed=1):
    """Nested regions of three intensities: background, a box, a sphere inside the box; plus
    Gaussian noise (class means 4 noise sigmas apart). Returns (volume, truth)."""
    z, y, x = np.mgrid[:size, :size, :size]
    truth = np.zeros((size, size, size), dtype=np.uint8)
    lo, hi = size // 6, size - size // 6
    truth[lo:hi, lo:hi, lo:hi] = 1
    c = (size - 1) / 2
    truth[(z - c) ** 2 + (y - c) ** 2 + (x - c) ** 2 <= (size / 4) ** 2] = 2
    rng = np.random.default_rng(seed)
    volume = np.take(LEVELS, truth) + rng.normal(0.0, noise, truth.shape)
    return volume.astype(np.float32), truth


def dice(a, b):
    return 2.0 * np.sum(a & b) / (np.sum(a) + np.sum(b))


@pytest.fixture(scope="module")
def small():
    return phantom(size=20, noise=40.0, seed=7)


# ---- Philox-4x32-10 ------------------------------------------------------------------------

# Random123 (DEShawResearch/random123, tests/kat_vectors), "philox4x32 10" lines: counter words,
# key words, output words.
PHILOX_KAT = [
    ("00000000 00000000 00000000 00000000", "00000000 00000000",
     "6627e8d5 e169c58d bc57ac4c 9b00dbd8"),
    ("ffffffff ffffffff ffffffff ffffffff", "ffffffff ffffffff",
     "408f276d 41c83b0e a20bc7c6 6d5451fd"),
    ("243f6a88 85a308d3 13198a2e 03707344", "a4093822 299f31d0",
     "d16cfe09 94fdcceb 5001e420 24126ea1"),
]


WORD = np.uint64(0xFFFFFFFF)


def numpy_philox(counter, key0, key1):
    """Philox-4x32-10 written from Salmon et al. 2011, vectorised: counter is four arrays of
    32-bit words (in uint64), the result the four output words."""
    c0, c1, c2, c3 = (np.asarray(c, dtype=np.uint64) for c in counter)
    k0, k1 = np.uint64(key0), np.uint64(key1)
    for _ in range(10):
        p0 = np.uint64(0xD2511F53) * c0
        p1 = np.uint64(0xCD9E8D57) * c2
        hi0, lo0 = p0 >> np.uint64(32), p0 & WORD
        hi1, lo1 = p1 >> np.uint64(32), p1 & WORD
        c0, c1, c2, c3 = hi1 ^ c1 ^ k0, lo1, hi0 ^ c3 ^ k1, lo0
        k0 = (k0 + np.uint64(0x9E3779B9)) & WORD
        k1 = (k1 + np.uint64(0xBB67AE85)) & WORD
    return c0, c1, c2, c3


@pytest.mark.parametrize("counter, key, expected", PHILOX_KAT)
def test_philox_known_answers(counter, key, expected):
    words = [int(w, 16) for w in counter.split()]
    k0, k1 = (int(w, 16) for w in key.split())
    expected = [int(w, 16) for w in expected.split()]
    assert list(_core.philox4x32_10(words, k0, k1)) == expected
    assert [int(w) for w in numpy_philox(words, k0, k1)] == expected


# ---- accuracy on phantoms ------------------------------------------------------------------


@pytest.mark.parametrize("mode, neighbourhood", [("icm", 26), ("icm", 6), ("metropolis", 18)])
def test_phantom_dice(mode, neighbourhood):
    volume, truth = phantom()
    res = gpuseq.segment_mrf(volume, classes=3, beta=1.0, neighbourhood=neighbourhood,
                             mode=mode, max_sweeps=30, tolerance=1e-4, threads=2)
    assert res.labels.dtype == np.uint8 and res.labels.shape == truth.shape
    for label in range(3):
        assert dice(res.labels == label, truth == label) >= 0.99, (mode, neighbourhood, label)
    # The class Gaussians found are the phantom's.
    np.testing.assert_allclose(res.means[-1], LEVELS, atol=2.0)
    np.testing.assert_allclose(np.sqrt(res.variances[-1]), 25.0, rtol=0.05)


def test_kmeans_means_reach_the_levels():
    volume, _ = phantom(noise=10.0)
    np.testing.assert_allclose(kmeans_means(volume, 3), LEVELS, atol=1.0)


def test_kmeans_is_lloyd_fixed_point():
    # At convergence every mean is the mean of the voxels nearest to it.
    volume, _ = phantom(size=24, noise=40.0)
    means = kmeans_means(volume, 3)
    labels = nearest_mean_labels(volume, means)
    for label in range(3):
        assert means[label] == pytest.approx(volume[labels == label].astype(np.float64).mean(),
                                             rel=1e-9)


@pytest.mark.parametrize("mode", ["icm", "metropolis"])
@pytest.mark.parametrize("neighbourhood", [6, 18, 26])
def test_energy_never_rises(small, mode, neighbourhood):
    volume, _ = small
    res = gpuseq.segment_mrf(volume, beta=1.5, neighbourhood=neighbourhood, mode=mode,
                             max_sweeps=15, tolerance=0.0, threads=2)
    rises = np.diff(res.energy)
    assert np.all(rises <= 1e-12 * np.abs(res.energy[1:])), res.energy
    assert len(res.energy) == res.sweeps + 1 and res.means.shape == (res.sweeps + 1, 3)


def test_tolerance_stops_the_sweeps(small):
    volume, _ = small
    res = gpuseq.segment_mrf(volume, max_sweeps=50, tolerance=0.01)
    assert res.sweeps < 50
    assert res.changed[-1] <= 0.01 * volume.size
    assert np.all(res.changed[:-1] > 0.01 * volume.size)


# ---- the independent NumPy sweep -----------------------------------------------------------

OFFSETS = {
    n: [(dz, dy, dx) for dz in (-1, 0, 1) for dy in (-1, 0, 1) for dx in (-1, 0, 1)
        if 0 < abs(dz) + abs(dy) + abs(dx) <= {6: 1, 18: 2, 26: 3}[n]]
    for n in (6, 18, 26)
}


def colour_masks(shape, neighbourhood):
    z, y, x = np.indices(shape)
    if neighbourhood == 6:
        return [(x + y + z) % 2 == c for c in range(2)]
    colour = (x & 1) | (y & 1) << 1 | (z & 1) << 2
    return [colour == c for c in range(8)]


def numpy_sweep(volume, labels, means, variances, beta, neighbourhood, mode="icm", seed=0,
                sweep=0, threshold=0.0):
    """One sweep written from the model's definition: each colour at once, every voxel's local
    energy for every label from the neighbour labels (read through a padded copy); ICM takes the
    lowest (first) one, metropolis the Philox proposal (counter: voxel index low and high
    words, sweep, 0; key: the seed's words) when the energy drops by more than threshold."""
    k = len(means)
    labels = labels.copy()
    nz, ny, nx = labels.shape
    values = volume.astype(np.float64)
    data = np.stack([
        0.5 * math.log(2 * math.pi * variances[label])
        + (values - means[label]) ** 2 * (1.0 / (2.0 * variances[label]))
        for label in range(k)
    ])
    for mask in colour_masks(labels.shape, neighbourhood):
        padded = np.full((nz + 2, ny + 2, nx + 2), 255, dtype=np.uint8)
        padded[1:-1, 1:-1, 1:-1] = labels
        same = np.zeros((k,) + labels.shape, dtype=np.int64)
        neighbours = np.zeros(labels.shape, dtype=np.int64)
        for dz, dy, dx in OFFSETS[neighbourhood]:
            shifted = padded[1 + dz:1 + dz + nz, 1 + dy:1 + dy + ny, 1 + dx:1 + dx + nx]
            neighbours += shifted != 255
            for label in range(k):
                same[label] += shifted == label
        energy = data + beta * (neighbours - same).astype(np.float64)
        if mode == "icm":
            best = np.argmin(energy, axis=0).astype(np.uint8)  # first minimum: lowest label
            labels[mask] = best[mask]
            continue
        index = np.arange(labels.size, dtype=np.uint64).reshape(labels.shape)
        r0 = numpy_philox((index & WORD, index >> np.uint64(32), np.full_like(index, sweep),
                           np.zeros_like(index)), seed & 0xFFFFFFFF, seed >> 32)[0]
        proposal = ((r0 * np.uint64(k)) >> np.uint64(32)).astype(np.int64)
        current = labels.astype(np.int64)
        drop = (np.take_along_axis(energy, current[None], 0)[0]
                - np.take_along_axis(energy, proposal[None], 0)[0])
        take = mask & (proposal != current) & (drop > threshold)
        labels[take] = proposal[take]
    return labels


@pytest.mark.parametrize("neighbourhood", [6, 18, 26])
def test_icm_sweep_equals_numpy(neighbourhood):
    volume, _ = phantom(size=17, noise=45.0, seed=3)
    start = nearest_mean_labels(volume, kmeans_means(volume, 3))
    res = gpuseq.segment_mrf(volume, init=start, beta=0.7, neighbourhood=neighbourhood,
                             max_sweeps=1, threads=2)
    expected = numpy_sweep(volume, start, res.means[0], res.variances[0], 0.7, neighbourhood)
    assert res.changed[0] == np.sum(expected != start) > 0
    np.testing.assert_array_equal(res.labels, expected)


@pytest.mark.parametrize("neighbourhood, seed, threshold", [
    (6, 0, 0.0), (18, 2**40 + 3, 0.0), (26, 77, 0.5),
])
def test_metropolis_sweeps_equal_numpy(neighbourhood, seed, threshold):
    """Two sweeps, so that the sweep number in Philox's counter and the class Gaussians
    re-estimated between sweeps are both checked."""
    volume, _ = phantom(size=15, noise=45.0, seed=5)
    start = np.random.default_rng(seed % 1000).integers(0, 3, volume.shape).astype(np.uint8)
    res = gpuseq.segment_mrf(volume, init=start, beta=0.8, neighbourhood=neighbourhood,
                             mode="metropolis", max_sweeps=2, tolerance=0.0, seed=seed,
                             threshold=threshold, threads=2)
    assert res.sweeps == 2
    expected = start
    for sweep in range(2):
        before = expected
        expected = numpy_sweep(volume, expected, res.means[sweep], res.variances[sweep], 0.8,
                               neighbourhood, "metropolis", seed, sweep, threshold)
        assert res.changed[sweep] == np.sum(expected != before) > 0
    np.testing.assert_array_equal(res.labels, expected)


def test_class_model_is_the_labels_gaussians(small):
    volume, _ = small
    res = gpuseq.segment_mrf(volume, max_sweeps=2)
    for label in range(3):
        values = volume[res.labels == label].astype(np.float64)
        assert res.means[-1][label] == pytest.approx(values.mean(), rel=1e-12)
        assert res.variances[-1][label] == pytest.approx(values.var(), rel=1e-9)


# ---- determinism ---------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["icm", "metropolis"])
@pytest.mark.parametrize("neighbourhood", [6, 18, 26])
def test_labels_do_not_depend_on_threads(small, mode, neighbourhood):
    volume, _ = small
    runs = [
        gpuseq.segment_mrf(volume, beta=1.0, neighbourhood=neighbourhood, mode=mode,
                           max_sweeps=6, tolerance=0.0, seed=5, threads=threads)
        for threads in (1, 2, 3)
    ]
    for other in runs[1:]:
        np.testing.assert_array_equal(runs[0].labels, other.labels)
        np.testing.assert_array_equal(runs[0].energy, other.energy)  # bit for bit
        np.testing.assert_array_equal(runs[0].changed, other.changed)


def test_metropolis_seed(small):
    volume, _ = small
    # Random labels, far from the optimum: many proposals are taken.
    start = np.random.default_rng(9).integers(0, 3, volume.shape)

    def run(seed):
        return gpuseq.segment_mrf(volume, init=start, mode="metropolis", max_sweeps=2,
                                  tolerance=0.0, seed=seed).labels

    np.testing.assert_array_equal(run(11), run(11))
    assert np.any(run(11) != run(12))
    assert np.any(run(2**64 - 1) != run(11))


def test_metropolis_threshold_blocks_small_drops(small):
    volume, _ = small
    start = nearest_mean_labels(volume, kmeans_means(volume, 3))
    res = gpuseq.segment_mrf(volume, init=start, mode="metropolis", threshold=1e9,
                             max_sweeps=3, tolerance=0.0)
    np.testing.assert_array_equal(res.labels, start)
    assert list(res.changed) == [0]


# ---- initialisation and the seed's component -----------------------------------------------


def test_means_and_init_start_points(small):
    volume, _ = small
    res = gpuseq.segment_mrf(volume, means=[0.0, 100.0, 200.0], max_sweeps=0)
    np.testing.assert_array_equal(res.labels, nearest_mean_labels(volume, [0.0, 100.0, 200.0]))
    start = np.random.default_rng(0).integers(0, 3, volume.shape)
    res = gpuseq.segment_mrf(volume, init=start, max_sweeps=0)
    np.testing.assert_array_equal(res.labels, start)
    assert res.sweeps == 0 and len(res.energy) == 1


def test_seed_component_equals_scipy():
    ndimage = pytest.importorskip("scipy.ndimage")
    labels = np.random.default_rng(4).integers(0, 2, (12, 13, 14)).astype(np.int64)
    seed = (5, 6, 7)
    res = gpuseq.segment_mrf(labels.astype(np.float32) * 100, classes=2, init=labels,
                             max_sweeps=0, seed_voxel=seed)
    components, _ = ndimage.label(labels == labels[seed])  # default structure: 6-connected
    np.testing.assert_array_equal(res.component, components == components[seed])
    assert res.component.dtype == bool
    assert gpuseq.segment_mrf(labels * 1.0, classes=2, init=labels, max_sweeps=0).component is None


# ---- errors --------------------------------------------------------------------------------


@pytest.mark.parametrize("volume, match", [
    (np.zeros((4, 4)), "3-D"),
    (np.zeros((2, 2, 2, 2)), "3-D"),
    (np.zeros((3, 3, 3), dtype=complex), "dtype"),
    (np.array([[["a", "b"]]]), "dtype"),
    (np.zeros((3, 3, 3), dtype=bool), "dtype"),
    (np.zeros((1, 1, 2)), "fewer than the 3 classes"),
])
def test_bad_volumes(volume, match):
    with pytest.raises(InvalidDataError, match=match):
        gpuseq.segment_mrf(volume)


@pytest.mark.parametrize("shape, classes", [((2, 2, 2), 9), ((1, 1, 1), 2), ((0, 4, 4), 2)])
def test_too_few_voxels_for_the_classes(shape, classes):
    with pytest.raises(InvalidDataError, match=f"fewer than the {classes} classes"):
        gpuseq.segment_mrf(np.zeros(shape), classes=classes)


@pytest.mark.parametrize("volume", [
    [[[1.0, 2.0], [3.0]]],  # ragged
    np.zeros((2, 2, 2), dtype=object),
    np.zeros((2, 2, 2), dtype="datetime64[s]"),
])
def test_not_numeric_volumes(volume):
    with pytest.raises(InvalidDataError):
        gpuseq.segment_mrf(volume, classes=2)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf, 1e300])
def test_non_finite_voxels(bad):
    volume = np.zeros((3, 4, 5))
    volume[1, 2, 3] = bad
    with pytest.raises(InvalidDataError, match=r"\(1, 2, 3\)"):
        gpuseq.segment_mrf(volume)


@pytest.mark.parametrize("seed_voxel", [(3, 0, 0), (0, -1, 0), (0, 0, 5), (1, 1), (0.5, 0, 0)])
def test_seed_voxel_outside(seed_voxel):
    with pytest.raises(InvalidDataError, match="seed_voxel"):
        gpuseq.segment_mrf(np.zeros((3, 4, 5)), seed_voxel=seed_voxel)


@pytest.mark.parametrize("init, match", [
    (np.zeros((3, 4, 4), dtype=int), "shape"),
    (np.full((3, 4, 5), 3), "labels from 3 to 3"),
    (np.full((3, 4, 5), -1), "labels from -1"),
    (np.zeros((3, 4, 5)), "dtype"),
])
def test_bad_init(init, match):
    with pytest.raises(InvalidDataError, match=match):
        gpuseq.segment_mrf(np.zeros((3, 4, 5)), init=init)


@pytest.mark.parametrize("kwargs", [
    {"classes": 1}, {"classes": 256}, {"classes": 2.0}, {"beta": np.nan},
    {"neighbourhood": 8}, {"mode": "gibbs"}, {"max_sweeps": -1}, {"tolerance": 2.0},
    {"threshold": np.inf}, {"seed": -1}, {"seed": 2**64}, {"threads": -2},
    {"backend": "gpu"}, {"kernel": "fast"}, {"means": [1.0, 2.0]},
    {"means": [0.0, np.nan, 1.0]},
    {"means": [0.0, 1.0, 2.0], "init": np.zeros((3, 4, 5), dtype=int)},
    # (a float neighbourhood reached the core as a binding error; a bool is not a number)
    {"neighbourhood": 6.0}, {"beta": True}, {"tolerance": True}, {"threshold": True},
    {"means": ["a", "b", "c"]},
])
def test_bad_parameters(kwargs):
    with pytest.raises(ValueError):
        gpuseq.segment_mrf(np.zeros((3, 4, 5)), **kwargs)


def test_cuda_backend_without_a_gpu():
    """No GPU (or a CPU-only build): backend="cuda" says why, "auto" runs on the CPU.
    tests/test_mrf_cuda.py compares the GPU with the CPU where there is one."""
    if gpuseq.cuda_devices():
        pytest.skip("a GPU is visible")
    with pytest.raises(BackendError, match="not available"):
        gpuseq.segment_mrf(np.zeros((3, 4, 5)), backend="cuda")
    res = gpuseq.segment_mrf(np.arange(60.0).reshape(3, 4, 5), max_sweeps=1)
    assert res.backend == "cpu" and len(res.sweep_seconds) == res.sweeps
