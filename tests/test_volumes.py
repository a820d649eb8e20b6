"""gpuseq.volumes against the libraries' own readings: NIfTI (nibabel), NRRD (pynrrd), DICOM
series (pydicom's CT_small.dcm made into generated series; in-plane geometry from nibabel's
DICOM wrapper), on ITK's example volumes (Debian's insighttoolkit5-examples) and generated
files; labels written back and read by the libraries; the typed errors; gpuseq segment."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

from gpuseq.errors import FormatError, InputError, InvalidDataError, MissingDependencyError
from gpuseq.volumes import LPS_TO_RAS, read_volume, seed_window_labels, write_labels

nib = pytest.importorskip("nibabel")
nrrd = pytest.importorskip("nrrd")
pydicom = pytest.importorskip("pydicom")

ITK_DATA = Path("/usr/share/doc/insighttoolkit5-examples/examples/Data")
ITK_T1 = ITK_DATA / "KmeansTest_T1UCharRaw.nii.gz"
needs_itk = pytest.mark.skipif(not ITK_T1.exists(), reason="Debian's insighttoolkit5-examples "
                               "is not installed (apt-get install insighttoolkit5-examples)")

# An oblique affine: voxel index (x, y, z) -> mm, rotated 30 degrees about z, anisotropic.
COS, SIN = np.cos(np.pi / 6), np.sin(np.pi / 6)
OBLIQUE = np.array([
    [0.8 * COS, -0.9 * SIN, 0.0, -40.5],
    [0.8 * SIN, 0.9 * COS, 0.0, 12.25],
    [0.0, 0.0, 2.5, 7.0],
    [0.0, 0.0, 0.0, 1.0],
])


def random_labels(shape, classes=4, seed=0):
    return np.random.default_rng(seed).integers(0, classes, shape).astype(np.uint8)


# ---- NIfTI ---------------------------------------------------------------------------------


@needs_itk
def test_itk_t1_equals_nibabel():
    vol = read_volume(ITK_T1)
    image = nib.load(ITK_T1)
    assert vol.format == "nifti" and vol.space == "RAS" and vol.data.dtype == np.float32
    np.testing.assert_array_equal(vol.data, image.get_fdata().transpose(2, 1, 0))
    np.testing.assert_array_equal(vol.affine, image.affine)
    assert vol.spacing == tuple(float(z) for z in image.header.get_zooms()[::-1])  # (3, 2, 2)


@pytest.mark.parametrize("suffix", [".nii", ".nii.gz"])
def test_nifti_scaling_and_round_trip(tmp_path, suffix):
    raw = np.random.default_rng(1).integers(-1000, 3000, (7, 6, 5)).astype(np.int16)  # x, y, z
    image = nib.Nifti1Image(raw, OBLIQUE)
    image.header.set_slope_inter(0.5, -10.0)  # stored = (value + 10) / 0.5
    image.set_qform(OBLIQUE, code=2)
    image.set_sform(OBLIQUE, code=2)
    source = tmp_path / f"in{suffix}"
    nib.save(image, source)
    vol = read_volume(source)
    expected = nib.load(source).get_fdata()  # nibabel applies scl_slope / scl_inter
    np.testing.assert_allclose(vol.data, expected.transpose(2, 1, 0), rtol=1e-7)
    np.testing.assert_allclose(vol.affine, OBLIQUE, atol=1e-6)
    np.testing.assert_allclose(vol.spacing, (2.5, 0.9, 0.8), rtol=1e-6)

    labels = random_labels(vol.data.shape)
    out = write_labels(vol, labels, tmp_path / f"labels{suffix}")
    back = nib.load(out)
    assert back.get_data_dtype() == np.uint8
    np.testing.assert_array_equal(np.asanyarray(back.dataobj), labels.transpose(2, 1, 0))
    np.testing.assert_array_equal(back.affine, nib.load(source).affine)
    assert int(back.header["qform_code"]) == int(back.header["sform_code"]) == 2
    assert back.header.get_slope_inter() in ((None, None), (1.0, 0.0))


def test_nifti_trailing_singleton_axis(tmp_path):
    data = np.arange(60, dtype=np.float32).reshape(5, 4, 3, 1)
    nib.save(nib.Nifti1Image(data, np.eye(4)), tmp_path / "v.nii")
    np.testing.assert_array_equal(read_volume(tmp_path / "v.nii").data,
                                  data[..., 0].transpose(2, 1, 0))


def nibabel_data(name) -> Path:
    path = Path(nib.__file__).parent / "tests" / "data" / name
    if not path.exists():
        pytest.skip(f"nibabel's test data has no {name}")
    return path


def test_nibabel_anatomical_mri(tmp_path):
    """nibabel's own anatomical.nii: a real MRI, big-endian int16."""
    path = nibabel_data("anatomical.nii")
    image = nib.load(path)
    vol = read_volume(path)
    np.testing.assert_array_equal(vol.data, image.get_fdata().transpose(2, 1, 0))
    labels = random_labels(vol.data.shape, classes=3, seed=5)
    back = nib.load(write_labels(vol, labels, tmp_path / "labels.nii"))
    np.testing.assert_array_equal(back.affine, image.affine)
    np.testing.assert_array_equal(np.asanyarray(back.dataobj), labels.transpose(2, 1, 0))


def test_nifti2_stays_nifti2(tmp_path):
    nib.save(nib.Nifti2Image(np.ones((6, 5, 4), np.float32), OBLIQUE), tmp_path / "v.nii")
    vol = read_volume(tmp_path / "v.nii")
    back = nib.load(write_labels(vol, np.ones(vol.data.shape, np.uint8), tmp_path / "l.nii"))
    assert isinstance(back, nib.Nifti2Image)
    np.testing.assert_allclose(back.affine, OBLIQUE, atol=1e-6)


def test_nibabel_4d_example_is_not_3d():
    path = nibabel_data("example4d.nii.gz")
    with pytest.raises(FormatError, match=r"example4d\.nii\.gz.*4-D"):
        read_volume(path)


# ---- NRRD ----------------------------------------------------------------------------------


@pytest.mark.parametrize("suffix", [".nrrd", ".nhdr"])
def test_nrrd_geometry_and_round_trip(tmp_path, suffix):
    xyz = np.random.default_rng(2).normal(0, 100, (7, 6, 5)).astype(np.float32)
    directions = OBLIQUE[:3, :3].T  # pynrrd: row a is axis a's step
    header = {"space": "left-posterior-superior", "space directions": directions,
              "space origin": OBLIQUE[:3, 3], "kinds": ["domain"] * 3}
    source = tmp_path / f"in{suffix}"
    nrrd.write(str(source), xyz, header)  # Fortran order: xyz[x, y, z]
    vol = read_volume(source)
    assert vol.format == "nrrd" and vol.space == "LPS"
    np.testing.assert_array_equal(vol.data, xyz.transpose(2, 1, 0))
    np.testing.assert_allclose(vol.affine, OBLIQUE)

    labels = random_labels(vol.data.shape, seed=3)
    out = write_labels(vol, labels, tmp_path / f"labels{suffix}")
    data, back = nrrd.read(str(out))
    assert data.dtype == np.uint8
    np.testing.assert_array_equal(data, labels.transpose(2, 1, 0))
    assert back["space"] == "left-posterior-superior"
    np.testing.assert_allclose(back["space directions"], directions)
    np.testing.assert_allclose(back["space origin"], OBLIQUE[:3, 3])


def test_nrrd_spacings_only(tmp_path):
    xyz = np.zeros((4, 3, 2), dtype=np.int16)
    nrrd.write(str(tmp_path / "s.nrrd"), xyz, {"spacings": [0.5, 0.75, 3.0]})
    vol = read_volume(tmp_path / "s.nrrd")
    np.testing.assert_array_equal(vol.affine, np.diag([0.5, 0.75, 3.0, 1.0]))
    assert vol.spacing == (3.0, 0.75, 0.5)


@needs_itk
def test_itk_2d_nhdr_is_not_3d():
    with pytest.raises(FormatError, match=r"BrainProtonDensitySliceBorder20\.nhdr.*2-D"):
        read_volume(ITK_DATA / "BrainProtonDensitySliceBorder20.nhdr")


def test_nifti_to_nrrd_converts_ras_to_lps(tmp_path):
    nib.save(nib.Nifti1Image(np.zeros((5, 4, 3), np.float32), OBLIQUE), tmp_path / "v.nii")
    vol = read_volume(tmp_path / "v.nii")
    out = write_labels(vol, np.zeros(vol.data.shape, np.uint8), tmp_path / "labels.nrrd")
    _, header = nrrd.read(str(out))
    lps = LPS_TO_RAS @ OBLIQUE  # the same flip both ways
    assert header["space"] == "left-posterior-superior"
    np.testing.assert_allclose(header["space directions"], lps[:3, :3].T)
    np.testing.assert_allclose(header["space origin"], lps[:3, 3])


# ---- DICOM series --------------------------------------------------------------------------

# Geometry rules (DICOM PS3.3 C.7.6.2.1.1): ImageOrientationPatient holds the direction of a
# row (x grows) then of a column (y grows); PixelSpacing is (between rows, between columns);
# ImagePositionPatient is the centre of the first pixel; slices stack along row x column.
ROW = np.array([COS, SIN, 0.0])
COLUMN = np.array([0.0, 0.0, -1.0])  # a coronal-like oblique plane
NORMAL = np.cross(ROW, COLUMN)
ORIGIN = np.array([-120.0, 33.5, 80.25])


def write_series(folder: Path, count=5, gap=2.5, uid=None, positions=None, seed=0):
    """A series made from pydicom's CT_small.dcm: slice k at ORIGIN + k * gap * NORMAL with
    stored pixels k * 100 + its own, RescaleSlope 2, RescaleIntercept -1024; files named in a
    shuffled order. Returns the expected (z, y, x) intensities."""
    from pydicom.data import get_testdata_file

    template = pydicom.dcmread(get_testdata_file("CT_small.dcm"))
    pixels = template.pixel_array.astype(np.int16)[:12, :10]  # rows (y) x columns (x)
    folder.mkdir(parents=True, exist_ok=True)
    order = np.random.default_rng(seed).permutation(count)
    expected = []
    for k in range(count):
        ds = template.copy()
        stored = pixels + np.int16(k * 100)
        ds.Rows, ds.Columns = stored.shape
        ds.PixelData = stored.tobytes()
        ds.ImageOrientationPatient = [float(v) for v in (*ROW, *COLUMN)]
        ds.PixelSpacing = [0.7, 0.55]
        position = ORIGIN + k * gap * NORMAL if positions is None else positions[k]
        ds.ImagePositionPatient = [float(v) for v in position]
        ds.InstanceNumber = int(order[k]) + 1
        ds.RescaleSlope, ds.RescaleIntercept = 2, -1024
        if uid is not None:
            ds.SeriesInstanceUID = uid
        ds.save_as(folder / f"IM{order[k]:04d}")
        expected.append(stored * 2.0 - 1024)
    (folder / "notes.txt").write_text("not DICOM: skipped")
    return np.stack(expected).astype(np.float32)


def test_dicom_series_geometry(tmp_path):
    from pydicom.data import get_testdata_file

    expected = write_series(tmp_path / "s", count=5, gap=2.5)
    vol = read_volume(tmp_path / "s")
    assert vol.format == "dicom" and vol.space == "LPS"
    np.testing.assert_array_equal(vol.data, expected)
    np.testing.assert_allclose(vol.affine[:3, 0], ROW * 0.55)
    np.testing.assert_allclose(vol.affine[:3, 1], COLUMN * 0.7)
    np.testing.assert_allclose(vol.affine[:3, 2], NORMAL * 2.5, atol=1e-9)
    np.testing.assert_allclose(vol.affine[:3, 3], ORIGIN)
    np.testing.assert_allclose(vol.spacing, (2.5, 0.7, 0.55))
    # nibabel's DICOM wrapper on the first slice: its axes are (row index, column index) =
    # (our y, our x), so its first two affine columns are ours swapped.
    first = pydicom.dcmread(get_testdata_file("CT_small.dcm"))
    first.ImageOrientationPatient = [float(v) for v in (*ROW, *COLUMN)]
    first.PixelSpacing = [0.7, 0.55]
    first.ImagePositionPatient = [float(v) for v in ORIGIN]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "highly experimental", on import
        from nibabel.nicom import dicomwrappers

        theirs = dicomwrappers.wrapper_from_data(first).affine
    np.testing.assert_allclose(vol.affine[:3, [1, 0, 3]], theirs[:3, [0, 1, 3]], atol=1e-6)


def test_dicom_written_as_nifti_and_nrrd(tmp_path):
    write_series(tmp_path / "s", count=4)
    vol = read_volume(tmp_path / "s")
    labels = random_labels(vol.data.shape, classes=3)
    image = nib.load(write_labels(vol, labels, tmp_path / "l.nii.gz"))
    np.testing.assert_allclose(image.affine, LPS_TO_RAS @ vol.affine, atol=1e-5)
    np.testing.assert_array_equal(np.asanyarray(image.dataobj), labels.transpose(2, 1, 0))
    data, header = nrrd.read(str(write_labels(vol, labels, tmp_path / "l.nrrd")))
    np.testing.assert_array_equal(data, labels.transpose(2, 1, 0))
    np.testing.assert_allclose(header["space directions"], vol.affine[:3, :3].T)
    with pytest.raises(FormatError, match=r"l\.dcm"):
        write_labels(vol, labels, tmp_path / "l.dcm")


def test_dicom_mixed_series(tmp_path):
    write_series(tmp_path / "s", count=3, uid="1.2.3.1")
    write_series(tmp_path / "s" / "other", count=3, uid="1.2.3.2")
    with pytest.raises(FormatError, match=r"2 DICOM series.*1\.2\.3\.1, 1\.2\.3\.2"):
        read_volume(tmp_path / "s")


def test_dicom_uneven_slices(tmp_path):
    positions = [ORIGIN + d * NORMAL for d in (0.0, 2.5, 5.0, 10.0)]  # one slice missing
    write_series(tmp_path / "s", count=4, positions=positions)
    with pytest.raises(FormatError, match="slice gaps vary from 2.5 to 5 mm"):
        read_volume(tmp_path / "s")


def test_dicom_duplicate_position(tmp_path):
    write_series(tmp_path / "s", count=3, positions=[ORIGIN, ORIGIN + NORMAL, ORIGIN])
    with pytest.raises(FormatError, match="same position"):
        read_volume(tmp_path / "s")


def test_dicom_single_image_and_empty_folder(tmp_path):
    write_series(tmp_path / "one", count=1)
    with pytest.raises(FormatError, match="2-D"):
        read_volume(tmp_path / "one")
    (tmp_path / "empty").mkdir()
    with pytest.raises(FormatError, match=r"empty: no DICOM images"):
        read_volume(tmp_path / "empty")


# ---- errors --------------------------------------------------------------------------------


def test_missing_file(tmp_path):
    with pytest.raises(InputError, match=r"nope\.nii\.gz: no such file"):
        read_volume(tmp_path / "nope.nii.gz")


def test_unknown_extension(tmp_path):
    (tmp_path / "v.mha").write_text("x")
    with pytest.raises(FormatError, match=r"v\.mha: unknown volume format"):
        read_volume(tmp_path / "v.mha")


@pytest.mark.parametrize("name", ["bad.nii", "bad.nii.gz", "bad.nrrd"])
def test_unreadable_file(tmp_path, name):
    (tmp_path / name).write_bytes(b"this is not an image\n" * 20)
    with pytest.raises(FormatError, match=rf"{name.replace('.', '[.]')}: not a readable"):
        read_volume(tmp_path / name)


def test_truncated_nifti(tmp_path):
    nib.save(nib.Nifti1Image(np.zeros((20, 20, 20), np.float32), np.eye(4)), tmp_path / "v.nii")
    raw = (tmp_path / "v.nii").read_bytes()
    (tmp_path / "v.nii").write_bytes(raw[: len(raw) // 2])
    with pytest.raises(FormatError, match="v.nii"):
        read_volume(tmp_path / "v.nii")


@pytest.mark.parametrize("module, package, name", [
    ("nibabel", "nibabel", "v.nii"), ("nrrd", "pynrrd", "v.nrrd"),
])
def test_missing_dependency(tmp_path, monkeypatch, module, package, name):
    (tmp_path / name).write_bytes(b"x")
    monkeypatch.setitem(sys.modules, module, None)  # import fails as if not installed
    with pytest.raises(MissingDependencyError, match=f"pip install {package}"):
        read_volume(tmp_path / name)


def test_labels_of_wrong_shape(tmp_path):
    nib.save(nib.Nifti1Image(np.zeros((5, 4, 3), np.float32), np.eye(4)), tmp_path / "v.nii")
    vol = read_volume(tmp_path / "v.nii")
    with pytest.raises(InvalidDataError, match="shape"):
        write_labels(vol, np.zeros((5, 4, 3), np.uint8), tmp_path / "l.nii")
    with pytest.raises(InvalidDataError, match="0 to 255"):
        write_labels(vol, np.full(vol.data.shape, 256), tmp_path / "l.nii")


# ---- a start from a seed and a window ------------------------------------------------------


def test_seed_window_labels():
    # A bright box (200) and a separate bright blob in a background (0) with a mid shell (100):
    # the window [150, 250] at the box's seed takes the box, not the blob.
    volume = np.zeros((12, 12, 12), np.float32)
    volume[1:5, 1:5, 1:5] = 100
    volume[2:4, 2:4, 2:4] = 200
    volume[8:11, 8:11, 8:11] = 200
    labels = seed_window_labels(volume, 3, (2, 2, 2), (150, 250))
    box = np.zeros(volume.shape, bool)
    box[2:4, 2:4, 2:4] = True
    assert np.all(labels[box] == 2)  # the brightest class
    assert np.all(labels[8:11, 8:11, 8:11] == 1)  # nearest of the other means (0, ~130)
    assert np.all(labels[volume == 0] == 0)
    with pytest.raises(InvalidDataError, match="outside the window"):
        seed_window_labels(volume, 3, (0, 0, 0), (150, 250))
    with pytest.raises(InvalidDataError, match="outside the volume"):
        seed_window_labels(volume, 3, (12, 0, 0), (150, 250))


# ---- gpuseq segment ------------------------------------------------------------------------


def test_cli_segment_equals_the_api(tmp_path):
    import gpuseq
    from gpuseq.cli import main

    rng = np.random.default_rng(4)
    truth = np.zeros((16, 18, 20), np.uint8)
    truth[4:12, 5:13, 6:14] = 1
    volume = (truth * 100 + rng.normal(0, 20, truth.shape)).astype(np.float32)
    nib.save(nib.Nifti1Image(volume.transpose(2, 1, 0), OBLIQUE), tmp_path / "ct.nii.gz")
    log = tmp_path / "log.txt"
    args = [str(tmp_path / "ct.nii.gz"), str(tmp_path / "labels.nrrd"), "--classes", "2",
            "--beta", "0.8", "--neighbourhood", "6", "--mode", "metropolis", "--seed", "9",
            "--max-sweeps", "6", "--tolerance", "0", "--means", "0,90", "--threads", "2",
            "--log", str(log)]
    assert main(["segment", *args]) == 0
    res = gpuseq.segment_mrf(volume, classes=2, beta=0.8, neighbourhood=6, mode="metropolis",
                             seed=9, max_sweeps=6, tolerance=0.0, means=[0.0, 90.0])
    data, header = nrrd.read(str(tmp_path / "labels.nrrd"))
    np.testing.assert_array_equal(data.transpose(2, 1, 0), res.labels)
    rows = [line.split() for line in log.read_text().splitlines() if not line.startswith("#")]
    assert rows[0] == ["sweep", "energy", "changed", "fraction"]
    assert [int(r[0]) for r in rows[1:]] == list(range(res.sweeps + 1))
    np.testing.assert_allclose([float(r[1]) for r in rows[1:]], res.energy, rtol=1e-6)
    assert [int(r[2]) for r in rows[2:]] == list(res.changed)

    # --component writes the seed's component as 0/1.
    assert main(["segment", str(tmp_path / "ct.nii.gz"), str(tmp_path / "c.nii"),
                 "--classes", "2", "--seed-voxel", "8,9,10", "--window", "50,1000",
                 "--component", "--log", str(log)]) == 0
    component = np.asanyarray(nib.load(tmp_path / "c.nii").dataobj).transpose(2, 1, 0)
    assert component[8, 9, 10] == 1 and set(np.unique(component)) == {0, 1}


@pytest.mark.parametrize("extra, message", [
    (["--window", "0,1"], "--window needs --seed-voxel"),
    (["--seed-voxel", "99,0,0"], "outside the volume"),
    (["--means", "1,2"], "means must be 3 finite numbers"),
])
def test_cli_segment_errors(tmp_path, capsys, extra, message):
    from gpuseq.cli import main

    nib.save(nib.Nifti1Image(np.zeros((5, 4, 3), np.float32), np.eye(4)), tmp_path / "v.nii")
    assert main(["segment", str(tmp_path / "v.nii"), str(tmp_path / "l.nii"), *extra]) == 1
    assert message in capsys.readouterr().err


def test_cli_segment_bad_files(tmp_path, capsys):
    from gpuseq.cli import main

    assert main(["segment", str(tmp_path / "none.nii"), str(tmp_path / "l.nii")]) == 1
    assert "none.nii: no such file" in capsys.readouterr().err
    (tmp_path / "v.nii").write_bytes(b"x")
    assert main(["segment", str(tmp_path / "v.nii"), str(tmp_path / "l.png")]) == 1
    assert "l.png" in capsys.readouterr().err


# ---- pydicom's own small series (dicomdirtests: real scans downsampled to 16 x 16) ---------


def pydicom_series(*parts) -> Path:
    path = Path(pydicom.__file__).parent / "data" / "test_files" / "dicomdirtests"
    path = path.joinpath(*parts)
    if not path.is_dir():
        pytest.skip(f"pydicom's test data has no {path}")
    return path


def test_pydicom_ct_series():
    """98892001/CT5N: five axial CT slices 2.5 mm apart, stored in descending z order."""
    folder = pydicom_series("98892001", "CT5N")
    datasets = [pydicom.dcmread(p) for p in sorted(folder.iterdir())]
    vol = read_volume(folder)
    assert vol.data.shape == (5, 16, 16)
    # Axial slices (row +x, column +y): the normal is +z, so z ascends along axis 0.
    heights = [float(ds.ImagePositionPatient[2]) for ds in datasets]
    by_height = sorted(zip(heights, range(len(datasets))))
    for z, (_, i) in enumerate(by_height):
        ds = datasets[i]
        hu = ds.pixel_array * float(ds.RescaleSlope) + float(ds.RescaleIntercept)
        np.testing.assert_array_equal(vol.data[z], hu.astype(np.float32))
    np.testing.assert_allclose(vol.affine[:3, 3], [float(v) for v in
                                                   datasets[by_height[0][1]].ImagePositionPatient])
    np.testing.assert_allclose(vol.affine[:3, 2], [0.0, 0.0, 2.5], atol=1e-4)
    spacing = [float(v) for v in datasets[0].PixelSpacing]
    np.testing.assert_allclose(vol.spacing, (2.5, spacing[0], spacing[1]), rtol=1e-5)


def test_pydicom_uneven_ct_series():
    """77654033/CT2: slices at z = -99.48, 103.02, 104.27, 105.52 (a gap of 202.5 mm)."""
    with pytest.raises(FormatError, match=r"CT2: slice gaps vary from 1.25 to 202.5 mm"):
        read_volume(pydicom_series("77654033", "CT2"))


def test_multi_frame_dicom(tmp_path):
    """CT_small.dcm made into one file of two frames."""
    from pydicom.data import get_testdata_file

    ds = pydicom.dcmread(get_testdata_file("CT_small.dcm"))
    ds.NumberOfFrames = 2
    ds.PixelData = ds.PixelData * 2
    (tmp_path / "s").mkdir()
    ds.save_as(tmp_path / "s" / "IM0")
    with pytest.raises(FormatError, match=r"IM0: a multi-frame image \(2 frames\)"):
        read_volume(tmp_path / "s")


def test_pydicom_folder_of_several_series():
    with pytest.raises(FormatError, match=r"98892003: \d+ DICOM series"):
        read_volume(pydicom_series("98892003"))


def test_cli_segments_a_dicom_series_into_nifti(tmp_path):
    from gpuseq.cli import main

    folder = pydicom_series("98892001", "CT5N")
    out = tmp_path / "labels.nii.gz"
    assert main(["segment", str(folder), str(out), "--classes", "2", "--neighbourhood", "6",
                 "--log", str(tmp_path / "log")]) == 0
    vol = read_volume(folder)
    image = nib.load(out)
    np.testing.assert_allclose(image.affine, LPS_TO_RAS @ vol.affine, atol=1e-5)
    assert image.shape == vol.data.shape[::-1] and image.get_data_dtype() == np.uint8
