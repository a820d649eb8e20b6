"""segment_mrf on random cases: every parameter drawn together from a seed, so that a failure
names the case that reproduces it.

Each case draws a volume (shapes one voxel thick to tens of thousands of voxels, odd sizes
that cut the GPU's tiles anywhere; blobs of 2-8 intensity levels with noise; float32, float64,
CT's int16 or uint8), the classes, beta, the neighbourhood, ICM or metropolis with its 64-bit
seed and threshold, the start (K-means, given means or given labels), the sweeps and tolerance,
and a seed voxel. On the CPU the first sweep is checked against the NumPy sweep written from
the model's definition (test_mrf.numpy_sweep), the seed voxel's component against
scipy.ndimage.label, and the whole run on one thread against three. Marked cuda, both GPU
kernels against the CPU twin, bit for bit: labels, energies, changed counts, class Gaussians."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import ndimage
from test_mrf import numpy_sweep
from test_mrf_cuda import assert_same

import gpuseq
from gpuseq.mrf import kmeans_means, nearest_mean_labels

SEEDS = range(10)


def random_volume(rng) -> np.ndarray:
    """Smooth random blobs cut into levels, plus noise, in a dtype a scan comes in."""
    dims = [int(rng.choice([1, 2, 3, 7, 16, 23, 31, 32, 33, 40, 64])) for _ in range(3)]
    while np.prod(dims) > 40_000:
        dims[int(np.argmax(dims))] //= 2
    shape = tuple(max(1, d) for d in dims)
    shape = shape if np.prod(shape) > 1 else (1, 1, 2)  # (two classes need two voxels)
    levels = int(rng.integers(2, 9))
    field = ndimage.gaussian_filter(rng.normal(size=shape), sigma=float(rng.uniform(0.5, 4)))
    edges = np.quantile(field, np.sort(rng.uniform(0, 1, levels - 1)))
    truth = np.searchsorted(edges, field)
    spacing = float(rng.choice([10.0, 100.0, 400.0]))
    volume = truth * spacing + rng.normal(0.0, spacing * float(rng.uniform(0.05, 1.5)), shape)
    kind = str(rng.choice(["float32", "float64", "int16", "uint8"]))
    if kind == "int16":  # Hounsfield units
        return np.clip(np.rint(volume - 1000.0), -1024, 3071).astype(np.int16)
    if kind == "uint8":
        lo, hi = volume.min(), volume.max()
        return np.rint((volume - lo) / max(hi - lo, 1e-9) * 255).astype(np.uint8)
    return volume.astype(kind)


def draw_case(seed: int) -> tuple[np.ndarray, dict]:
    rng = np.random.default_rng([2009, seed])
    volume = random_volume(rng)
    classes = int(rng.choice([2, 3, 3, 4, 5, 8]))
    while classes > volume.size:
        classes -= 1
    mode = str(rng.choice(["icm", "metropolis"]))
    kwargs = dict(
        classes=classes,
        beta=float(rng.choice([0.0, 0.3, 1.0, 2.5, 10.0])),
        neighbourhood=int(rng.choice([6, 18, 26])),
        mode=mode,
        max_sweeps=int(rng.choice([1, 2, 4, 8])),
        tolerance=float(rng.choice([0.0, 1e-3, 0.05])),
    )
    if mode == "metropolis":
        kwargs["seed"] = int(rng.integers(0, 2**63))
        kwargs["threshold"] = float(rng.choice([0.0, 0.0, 0.5, 3.0]))
    start = rng.random()
    if start < 0.3:  # given labels: a random start, or nearly the truth
        kwargs["init"] = rng.integers(0, classes, volume.shape).astype(
            str(rng.choice(["uint8", "int64"])))
    elif start < 0.5:
        lo, hi = float(volume.min()), float(volume.max())
        kwargs["means"] = sorted(rng.uniform(lo, hi if hi > lo else lo + 1, classes).tolist())
    if rng.random() < 0.4:
        kwargs["seed_voxel"] = tuple(int(rng.integers(0, d)) for d in volume.shape)
    return volume, kwargs


@pytest.mark.parametrize("seed", SEEDS)
def test_random_segmentation_equals_the_numpy_sweep_and_any_thread_count(seed):
    volume, kwargs = draw_case(seed)
    one = gpuseq.segment_mrf(volume, backend="cpu", threads=1, **kwargs)
    three = gpuseq.segment_mrf(volume, backend="cpu", threads=3, **kwargs)
    case = {k: v for k, v in kwargs.items() if k != "init"} | {
        "shape": volume.shape, "dtype": str(volume.dtype)}
    np.testing.assert_array_equal(one.labels, three.labels, err_msg=str(case))
    np.testing.assert_array_equal(one.energy, three.energy, err_msg=str(case))
    np.testing.assert_array_equal(one.means, three.means, err_msg=str(case))
    assert one.labels.shape == volume.shape and one.labels.max() < kwargs["classes"], case

    if "init" in kwargs:
        start = kwargs["init"].astype(np.uint8)
    else:
        means = kwargs.get("means") or kmeans_means(volume.astype(np.float32), kwargs["classes"])
        start = nearest_mean_labels(volume.astype(np.float32), means)
    first = gpuseq.segment_mrf(volume, backend="cpu", threads=2, **(kwargs | {"max_sweeps": 1}))
    expected = numpy_sweep(volume.astype(np.float32), start, first.means[0], first.variances[0],
                           kwargs["beta"], kwargs["neighbourhood"], kwargs["mode"],
                           kwargs.get("seed", 0), 0, kwargs.get("threshold", 0.0))  # fmt: skip
    np.testing.assert_array_equal(first.labels, expected, err_msg=str(case))
    assert first.changed[0] == np.sum(expected != start), case

    if "seed_voxel" in kwargs:
        voxel = kwargs["seed_voxel"]
        components, _ = ndimage.label(one.labels == one.labels[voxel])  # 6-connected
        np.testing.assert_array_equal(one.component, components == components[voxel])


@pytest.mark.cuda
@pytest.mark.parametrize("kernel", ["tiled", "paper"])
@pytest.mark.parametrize("seed", SEEDS)
def test_random_segmentation_on_the_gpu_equals_the_cpu(seed, kernel):
    volume, kwargs = draw_case(seed)
    cpu = gpuseq.segment_mrf(volume, backend="cpu", threads=2, **kwargs)
    gpu = gpuseq.segment_mrf(volume, backend="cuda", kernel=kernel, **kwargs)
    assert_same(gpu, cpu)
    if "seed_voxel" in kwargs:
        np.testing.assert_array_equal(gpu.component, cpu.component)
