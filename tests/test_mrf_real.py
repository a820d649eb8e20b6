"""segment_mrf on real volumes that packages ship: the T1 head scan of ITK's K-means example
(Debian's insighttoolkit5-examples), against ITK's own labelling of its brain tissues
(KmeansTest_T1KmeansPrelimSegmentation: 4, 5, 6 = the three brain classes, dark to bright);
and a chest CT of pyradiomics' source distribution (lung1, with its tumour label), against
the Hounsfield ranges of air and soft tissue and the tumour's outline."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import gpuseq
from conftest import PYRADIOMICS_DATA
from gpuseq.mrf import nearest_mean_labels

nib = pytest.importorskip("nibabel")

ITK_DATA = Path("/usr/share/doc/insighttoolkit5-examples/examples/Data")
T1 = ITK_DATA / "KmeansTest_T1UCharRaw.nii.gz"
ITK_LABELS = ITK_DATA / "KmeansTest_T1KmeansPrelimSegmentation.nii.gz"
needs_itk_data = pytest.mark.skipif(
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


@needs_itk_data
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


@needs_itk_data
def test_kmeans_start_agrees_with_itk(brain):
    """Our own 1-D K-means on the brain voxels, as the start instead of ITK's means."""
    volume, itk = brain
    inside = itk >= BRAIN_CLASSES[0]
    means = np.concatenate(([0.0], gpuseq.mrf.kmeans_means(volume[inside], 3)))
    start = nearest_mean_labels(volume, means)
    for label, itk_class in enumerate(BRAIN_CLASSES, start=1):
        assert dice((start == label) & inside, itk == itk_class) >= DICE_BOUND


@needs_itk_data
def test_read_and_write_back(brain, tmp_path):
    vol = gpuseq.read_volume(T1)
    res = gpuseq.segment_mrf(vol.data, classes=4, neighbourhood=6, max_sweeps=1, threads=2)
    out = gpuseq.write_labels(vol, res.labels, tmp_path / "labels.nii.gz")
    image = nib.load(out)
    np.testing.assert_array_equal(image.affine, nib.load(T1).affine)
    np.testing.assert_array_equal(np.asanyarray(image.dataobj).transpose(2, 1, 0), res.labels)


# ---- a chest CT (pyradiomics' lung1: 48 x 512 x 512, 5 x 0.57 x 0.57 mm, Hounsfield units) ----

LUNG1 = PYRADIOMICS_DATA / "lung1_image.nrrd"
LUNG1_TUMOUR = PYRADIOMICS_DATA / "lung1_label.nrrd"
needs_ct = pytest.mark.skipif(
    not (LUNG1.exists() and LUNG1_TUMOUR.exists()),
    reason=f"pyradiomics' test volumes are not in {PYRADIOMICS_DATA} "
    "(python tests/fetch_pyradiomics_data.py)",
)


@pytest.fixture(scope="module")
def chest_ct():
    """lung1 at half its in-plane resolution (48 x 256 x 256), and its tumour mask there."""
    if not (LUNG1.exists() and LUNG1_TUMOUR.exists()):
        pytest.skip(f"pyradiomics' test volumes are not in {PYRADIOMICS_DATA}")
    ct = gpuseq.read_volume(LUNG1).data[:, ::2, ::2]
    tumour = gpuseq.read_volume(LUNG1_TUMOUR).data[:, ::2, ::2] > 0
    return np.ascontiguousarray(ct), tumour


@needs_ct
@pytest.mark.parametrize("mode", ["icm", "metropolis"])
def test_chest_ct_tissues(chest_ct, mode):
    """Three classes from K-means on the CT: air (lungs and outside) and soft tissue agree with
    their Hounsfield ranges, the class means fall where those tissues are, and the tumour
    (pyradiomics' outline, a radiologist's) is soft tissue; the same labels on one thread as
    on two; in ICM the energy never rises."""
    ct, tumour = chest_ct
    kwargs = dict(classes=3, beta=1.0, neighbourhood=26, mode=mode, max_sweeps=8,
                  tolerance=1e-3, seed=11)
    res = gpuseq.segment_mrf(ct, threads=2, **kwargs)
    air, soft, dense = res.means[-1]
    assert air < -800 and -150 < soft < 100 and dense > 150, res.means[-1]
    assert dice(res.labels == 0, ct < -400) >= 0.97
    assert dice(res.labels == 1, (ct >= -400) & (ct < 200)) >= 0.93
    assert np.mean(res.labels[tumour] == 1) >= 0.95
    one = gpuseq.segment_mrf(ct, threads=1, **kwargs)
    np.testing.assert_array_equal(one.labels, res.labels)
    if mode == "icm":
        assert np.all(np.diff(res.energy) <= 0)


@needs_ct
def test_chest_ct_labels_written_back_as_nrrd(chest_ct, tmp_path):
    """Labels of the full-resolution CT written as NRRD keep the scan's geometry."""
    vol = gpuseq.read_volume(LUNG1)
    labels = np.zeros(vol.data.shape, dtype=np.uint8)
    labels[vol.data > -400] = 1
    out = gpuseq.write_labels(vol, labels, tmp_path / "labels.nrrd")
    back = gpuseq.read_volume(out)
    np.testing.assert_array_equal(back.data, labels)
    assert back.spacing == pytest.approx(vol.spacing)
    np.testing.assert_allclose(back.affine, vol.affine)
