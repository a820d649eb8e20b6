"""segment_mrf on the GPU (cuda/mrf/segment.cu) against the CPU twin: labels, energies, changed
counts, class means and variances equal bit for bit, for every mode, neighbourhood and kernel,
on noisy phantoms of odd shapes (tiles cut at every edge, volumes one voxel thick)."""

from __future__ import annotations

import numpy as np
import pytest

import gpuseq
from conftest import PYRADIOMICS_DATA
from gpuseq import _core
from gpuseq.errors import GpuOutOfMemoryError

pytestmark = pytest.mark.cuda

KERNELS = ("tiled", "paper")


def phantom(shape, classes=3, noise=40.0, seed=0):
    """A box and a ball of brighter classes in a background, levels 100 apart, plus Gaussian
    noise (classes - 1 levels nest inside one another along the first axis for classes > 3)."""
    z, y, x = np.indices(shape)
    nz, ny, nx = shape
    truth = np.zeros(shape, dtype=np.int64)
    truth[(abs(z - nz / 2) < nz / 3 + 0.5) & (abs(y - ny / 2) < ny / 3 + 0.5)
          & (abs(x - nx / 2) < nx / 3 + 0.5)] = 1
    r2 = (z - nz / 2) ** 2 + (y - ny / 2) ** 2 + (x - nx / 2) ** 2
    for label in range(2, classes):
        truth[r2 <= (max(shape) / (1.5 + label)) ** 2] = label
    rng = np.random.default_rng(seed)
    volume = truth * 100.0 + rng.normal(0.0, noise, shape)
    return volume.astype(np.float32)


def run(volume, backend, kernel="tiled", **kwargs):
    return gpuseq.segment_mrf(volume, backend=backend, kernel=kernel, threads=2, **kwargs)


def assert_same(gpu, cpu):
    np.testing.assert_array_equal(gpu.labels, cpu.labels)
    # float64 arrays compared with ==: the same bits (no NaN can occur).
    np.testing.assert_array_equal(gpu.energy, cpu.energy)
    np.testing.assert_array_equal(gpu.changed, cpu.changed)
    np.testing.assert_array_equal(gpu.means, cpu.means)
    np.testing.assert_array_equal(gpu.variances, cpu.variances)
    assert gpu.backend == "cuda" and cpu.backend == "cpu"


SHAPES = [(37, 29, 23), (1, 40, 33), (19, 1, 70), (10, 17, 131)]


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("neighbourhood", [6, 18, 26])
@pytest.mark.parametrize("mode", ["icm", "metropolis"])
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_gpu_equals_cpu(shape, mode, neighbourhood, kernel):
    volume = phantom(shape, seed=sum(shape))
    kwargs = dict(beta=0.9, neighbourhood=neighbourhood, mode=mode, max_sweeps=6, tolerance=0.0,
                  seed=2**40 + 3)
    if mode == "metropolis":  # random start: many proposals are taken in every sweep
        kwargs["init"] = np.random.default_rng(1).integers(0, 3, shape)
    cpu = run(volume, "cpu", **kwargs)
    gpu = run(volume, "cuda", kernel, **kwargs)
    assert cpu.changed[0] > 0
    assert_same(gpu, cpu)


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("neighbourhood", [6, 26])
@pytest.mark.parametrize("mode", ["icm", "metropolis"])
def test_gpu_equals_cpu_on_a_real_chest_ct(mode, neighbourhood, kernel):
    """pyradiomics' lung1 CT (Hounsfield units; a quarter of its in-plane resolution, 48 x 128
    x 128), three classes from K-means: the same labels, energies and class statistics."""
    path = PYRADIOMICS_DATA / "lung1_image.nrrd"
    if not path.exists():
        pytest.skip(f"pyradiomics' test volumes are not in {PYRADIOMICS_DATA} "
                    "(python tests/fetch_pyradiomics_data.py)")
    ct = np.ascontiguousarray(gpuseq.read_volume(path).data[:, ::4, ::4])
    kwargs = dict(classes=3, beta=1.0, neighbourhood=neighbourhood, mode=mode, max_sweeps=5,
                  tolerance=0.0, seed=7)
    cpu = run(ct, "cpu", **kwargs)
    assert cpu.changed[0] > 0
    assert_same(run(ct, "cuda", kernel, **kwargs), cpu)


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("mode", ["icm", "metropolis"])
def test_labels_equal_after_every_sweep(mode, kernel):
    volume = phantom((21, 18, 70), seed=4)
    start = np.random.default_rng(2).integers(0, 3, volume.shape)
    for sweeps in range(4):
        kwargs = dict(init=start, neighbourhood=26, mode=mode, max_sweeps=sweeps, tolerance=0.0,
                      seed=9, threshold=0.25)
        assert_same(run(volume, "cuda", kernel, **kwargs), run(volume, "cpu", **kwargs))


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("classes", [2, 12])
def test_class_counts(classes, kernel):
    """2 classes, and 12: more than the 8 whose row sums one GPU pass keeps in registers."""
    volume = phantom((15, 26, 67), classes=classes, noise=30.0, seed=classes)
    for mode in ("icm", "metropolis"):
        kwargs = dict(classes=classes, beta=0.6, neighbourhood=18, mode=mode, max_sweeps=4,
                      tolerance=0.0, seed=3)
        assert_same(run(volume, "cuda", kernel, **kwargs), run(volume, "cpu", **kwargs))


@pytest.mark.parametrize("kernel", KERNELS)
def test_empty_class_and_tolerance(kernel):
    """A class that starts empty keeps its prior Gaussian; the tolerance stops both alike."""
    volume = phantom((12, 30, 40), seed=8)
    init = np.zeros(volume.shape, dtype=np.uint8)
    init[volume > 50] = 1  # class 2 empty
    kwargs = dict(init=init, max_sweeps=30, tolerance=0.002, neighbourhood=6)
    gpu, cpu = run(volume, "cuda", kernel, **kwargs), run(volume, "cpu", **kwargs)
    assert cpu.sweeps < 30
    assert_same(gpu, cpu)


def test_phantom_dice_on_gpu():
    volume = phantom((48, 48, 48), noise=25.0, seed=11)
    truth = np.rint(phantom((48, 48, 48), noise=0.0) / 100.0).astype(np.uint8)
    res = gpuseq.segment_mrf(volume, neighbourhood=26, max_sweeps=30, backend="cuda")
    for label in range(3):
        a, b = res.labels == label, truth == label
        assert 2.0 * np.sum(a & b) / (np.sum(a) + np.sum(b)) >= 0.99


def test_auto_takes_the_gpu():
    volume = phantom((9, 10, 11))
    assert gpuseq.segment_mrf(volume, max_sweeps=1).backend == "cuda"


def test_volume_too_large_for_gpu_memory():
    volume = phantom((37, 29, 23))
    _core.gpu_allocation_limit_for_tests(1000)  # every buffer larger than 1000 bytes refused
    try:
        with pytest.raises(GpuOutOfMemoryError, match="too large for GPU memory"):
            gpuseq.segment_mrf(volume, backend="cuda")
    finally:
        _core.gpu_allocation_limit_for_tests(0)
