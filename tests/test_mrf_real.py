"""segment_mrf on a real MRI volume that a package ships: the T1 head scan of ITK's K-means
example (Debian's insighttoolkit5-examples), against ITK's own labelling of its brain tissues
(KmeansTest_T1KmeansPrelimSegmentation: 4, 5, 6 = the three brain classes, dark to bright)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import gpuseq
from gpuseq.mrf import nearest_mean_labels

nib = pytest.importorskip("nibabel")

ITK_DATA = Path("/usr/share/doc/insighttoolkit5-examples/examples/Data")
T1 = ITK_DATA / "KmeansTest_T1UCharRaw.nii.gz"
ITK_LABELS = ITK_DATA / "KmeansTest_T1KmeansPrelimSegmentation.nii.gz"
pytestmark = pytest.mark.skipif(
    not (T1.exists() and ITK_LABELS.exists()),
    reason="Debian's insighttoolkit5-examples is not installed "
    "(apt-get install insighttoolkit5-examples)",
)
BRAIN_CLASSES = (4, 5, 6)
# Dice of each brain class with ITK's labels. ITK's labelling is its own K-means, not an MRF:
# the Potts prior moves boundary voxels, so the labels agree on most of each class, not all.
# (The nearest class mean alone, the MRF's start, reaches 0.88, 0.91, 0.94.)
DICE_BOUND = 0.85


def dice(a, b):
    return 2.0 * np.sum(a & b) / (np.sum(a) + np.sum(b))


@pytest.fixture(scope="module")
def brain():
    """The T1 volume skull-stripped with ITK's brain mask (its labels 4-6) and cropped to the
    mask's bounding box, with ITK's labels there (z, y, x)."""
    t1 = gpuseq.read_volume(T1).data
    itk = np.asanyarray(nib.load(ITK_LABELS).dataobj).transpose(2, 1, 0)
    mask = itk >= BRAIN_CLASSES[0]
    corners = np.argwhere(mask)
    box = tuple(slice(lo, hi + 1) for lo, hi in zip(corners.min(axis=0), corners.max(axis=0)))
    return (t1 * mask)[box], itk[box]


@pytest.mark.parametrize("mode", ["icm", "metropolis"])
def test_brain_tissues_agree_with_itk(brain, mode):
    volume, itk = brain
    # Background (0 after skull stripping) and ITK's three class means as the start.
    means = [0.0] + [float(volume[itk == c].mean()) for c in BRAIN_CLASSES]
    res = gpuseq.segment_mrf(volume, classes=4, means=means, beta=0.3, neighbourhood=6,
                             mode=mode, max_sweeps=10, threads=2)
    for label, itk_class in enumerate(BRAIN_CLASSES, start=1):
        score = dice(res.labels == label, itk == itk_class)
        assert score >= DICE_BOUND, (mode, itk_class, score)
    assert np.all(res.labels[itk < BRAIN_CLASSES[0]] == 0)  # the stripped background
    if mode == "icm":
        assert np.all(np.diff(res.energy) <= 0)


def test_kmeans_start_agrees_with_itk(brain):
    """Our own 1-D K-means on the brain voxels, as the start instead of ITK's means."""
    volume, itk = brain
    inside = itk >= BRAIN_CLASSES[0]
    means = np.concatenate(([0.0], gpuseq.mrf.kmeans_means(volume[inside], 3)))
    start = nearest_mean_labels(volume, means)
    for label, itk_class in enumerate(BRAIN_CLASSES, start=1):
        assert dice((start == label) & inside, itk == itk_class) >= DICE_BOUND


def test_read_and_write_back(brain, tmp_path):
    vol = gpuseq.read_volume(T1)
    res = gpuseq.segment_mrf(vol.data, classes=4, neighbourhood=6, max_sweeps=1, threads=2)
    out = gpuseq.write_labels(vol, res.labels, tmp_path / "labels.nii.gz")
    image = nib.load(out)
    np.testing.assert_array_equal(image.affine, nib.load(T1).affine)
    np.testing.assert_array_equal(np.asanyarray(image.dataobj).transpose(2, 1, 0), res.labels)
