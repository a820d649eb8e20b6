"""CT/MR volumes with their geometry: NIfTI (nibabel), NRRD (pynrrd) and DICOM series (pydicom).

::

    vol = gpuseq.volumes.read_volume("ct.nii.gz")      # or "ct.nrrd", or a DICOM series folder
    res = gpuseq.segment_mrf(vol.data, classes=3)
    gpuseq.volumes.write_labels(vol, res.labels, "labels.nii.gz")

Arrays are (z, y, x): axis 2 is the file's fastest axis (NIfTI i, NRRD's first axis, a DICOM
image column), axis 0 the slowest (NIfTI k, the DICOM slice). ``affine`` maps a voxel index
(x, y, z, 1) = (axis 2, axis 1, axis 0, 1) to millimetres in ``space``: "RAS" for NIfTI
(right, anterior, superior grow), "LPS" for DICOM (patient coordinates) and NRRD files that
say "left-posterior-superior", else the NRRD's own space name. Labels are written with the
input's geometry in the format the output name says (.nii, .nii.gz, .nrrd, .nhdr); a DICOM
series is written as NIfTI or NRRD (gpuseq writes no DICOM). Between formats the affine is
converted (RAS = LPS with x and y negated; a new NRRD file is in LPS).

The libraries are the optional extra ``pip install gpuseq[mrf]``; a missing one raises
MissingDependencyError naming the pip package.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .errors import FormatError, InputError, MissingDependencyError

__all__ = ["Volume", "read_volume", "write_labels", "volume_format", "seed_window_labels"]

NIFTI_SUFFIXES = (".nii", ".nii.gz")
NRRD_SUFFIXES = (".nrrd", ".nhdr")
# Relative difference allowed between a DICOM series' slice gaps (positions are printed to
# about 6 significant digits in the files).
SLICE_GAP_TOLERANCE = 1e-3
LPS_TO_RAS = np.diag([-1.0, -1.0, 1.0, 1.0])


@dataclass(frozen=True)
class Volume:
    """A volume read by read_volume.

    Attributes:
        data: float32 (z, y, x) intensities (NIfTI scl_slope/inter and DICOM RescaleSlope/
            Intercept applied).
        spacing: (z, y, x) voxel size in mm.
        affine: 4x4, voxel index (x, y, z, 1) to mm in ``space``.
        space: "RAS", "LPS" or an NRRD space name ("" when the file gives none).
        path: the file or DICOM folder read.
        format: "nifti", "nrrd" or "dicom".
        header: the file's header (nibabel header, pynrrd dict, the first DICOM dataset), kept
            so that labels are written back with it.
    """

    data: np.ndarray
    spacing: tuple[float, float, float]
    affine: np.ndarray
    space: str
    path: Path
    format: str
    header: Any = field(default=None, repr=False)


def volume_format(path) -> str:
    """"nifti", "nrrd" or "dicom" (a folder) from a path's name; FormatError otherwise."""
    path = Path(path)
    name = path.name.lower()
    if path.is_dir():
        return "dicom"
    if name.endswith(NIFTI_SUFFIXES):
        return "nifti"
    if name.endswith(NRRD_SUFFIXES):
        return "nrrd"
    raise FormatError(path, message="unknown volume format: expected .nii, .nii.gz, .nrrd, "
                      ".nhdr or a folder holding one DICOM series")


def read_volume(path) -> Volume:
    """Reads a 3-D volume and its geometry (see the module's docstring).

    Raises:
        InputError: the path does not exist.
        FormatError: an unknown extension, a file the library cannot read, a volume that is
            not 3-D, a DICOM folder with several series, no images, images of different sizes
            or orientations, or uneven slice gaps.
        MissingDependencyError: nibabel, pynrrd or pydicom is not installed.
    """
    path = Path(os.fspath(path))
    if not path.exists():
        raise InputError(path, message="no such file or folder")
    kind = volume_format(path)
    reader = {"nifti": _read_nifti, "nrrd": _read_nrrd, "dicom": _read_dicom}[kind]
    return reader(path)


def write_labels(volume: Volume, labels, path) -> Path:
    """Writes uint8 ``labels`` (z, y, x, the volume's shape) with the volume's geometry.

    The format comes from ``path``'s name (.nii, .nii.gz, .nrrd or .nhdr). When it is the
    input's format, the input's header is kept (NIfTI: its qform/sform codes, units,
    description; NRRD: its space and fields), with the data type made uint8 and no scaling.

    Raises:
        InvalidDataError: labels of another shape, or not integers from 0 to 255.
        FormatError: an output name of no format gpuseq writes.
    """
    from .errors import InvalidDataError

    path = Path(os.fspath(path))
    labels = np.asarray(labels)
    if labels.shape != volume.data.shape:
        raise InvalidDataError(f"labels have shape {labels.shape}, the volume "
                               f"{volume.data.shape}")
    if labels.dtype.kind not in "iub" or (labels.size and (labels.min() < 0
                                                           or labels.max() > 255)):
        raise InvalidDataError("labels must be integers from 0 to 255")
    labels = labels.astype(np.uint8)
    name = path.name.lower()
    if name.endswith(NIFTI_SUFFIXES):
        _write_nifti(volume, labels, path)
    elif name.endswith(NRRD_SUFFIXES):
        _write_nrrd(volume, labels, path)
    else:
        raise FormatError(path, message="labels are written as .nii, .nii.gz, .nrrd or .nhdr")
    return path


def spacing_of(affine) -> tuple[float, float, float]:
    """(z, y, x) voxel sizes: the lengths of the affine's x, y, z columns, reversed."""
    lengths = np.linalg.norm(np.asarray(affine, dtype=np.float64)[:3, :3], axis=0)
    return tuple(float(v) for v in lengths[::-1])


def _require(module: str, package: str):
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingDependencyError(
            f"reading and writing this volume format needs {package}: pip install {package} "
            "(or pip install gpuseq[mrf])"
        ) from None


# ---- NIfTI ---------------------------------------------------------------------------------


def _read_nifti(path: Path) -> Volume:
    nib = _require("nibabel", "nibabel")
    try:
        image = nib.load(path)
        shape = image.shape
        # A trailing axis of length 1 (x, y, z, 1) is still one volume.
        while len(shape) > 3 and shape[-1] == 1:
            shape = shape[:-1]
        if len(shape) != 3:
            raise FormatError(path, message=f"the image is {len(image.shape)}-D "
                              f"{tuple(image.shape)}; segmentation needs a 3-D volume")
        xyz = np.asarray(image.get_fdata(dtype=np.float32)).reshape(shape)
    except FormatError:
        raise
    except Exception as exc:  # nibabel's own errors (ImageFileError, EOFError, zlib, ...)
        raise FormatError(path, message=f"not a readable NIfTI file ({exc})") from None
    affine = np.asarray(image.affine, dtype=np.float64)
    return Volume(data=np.ascontiguousarray(xyz.transpose(2, 1, 0)),
                  spacing=spacing_of(affine), affine=affine, space="RAS", path=path,
                  format="nifti", header=image.header)


def _write_nifti(volume: Volume, labels: np.ndarray, path: Path) -> None:
    nib = _require("nibabel", "nibabel")
    affine = _affine_in(volume, "RAS")
    xyz = labels.transpose(2, 1, 0)
    if volume.format == "nifti":
        header = volume.header.copy()
        header.set_data_shape(xyz.shape)
        header.set_data_dtype(np.uint8)
        header.set_slope_inter(1.0, 0.0)
        # Same header class as the input (NIfTI-1 or NIfTI-2); set_qform/set_sform keep the
        # input's codes.
        image = nib.Nifti2Image if isinstance(header, nib.Nifti2Header) else nib.Nifti1Image
        out = image(xyz, affine, header)
        out.set_qform(affine, code=int(header["qform_code"]) or 1)
        out.set_sform(affine, code=int(header["sform_code"]) or 1)
    else:
        out = nib.Nifti1Image(xyz, affine)
        out.set_qform(affine, code=1)  # scanner coordinates
        out.set_sform(affine, code=1)
        out.header.set_data_dtype(np.uint8)
    out.header["cal_min"], out.header["cal_max"] = 0, int(labels.max(initial=0))
    nib.save(out, path)


# ---- NRRD ----------------------------------------------------------------------------------

NRRD_SPACES = {"left-posterior-superior": "LPS", "right-anterior-superior": "RAS"}


def _read_nrrd(path: Path) -> Volume:
    nrrd = _require("nrrd", "pynrrd")
    try:
        # C order: the array comes as (z, y, x); the header still lists axes fastest first.
        data, header = nrrd.read(str(path), index_order="C")
    except Exception as exc:  # pynrrd's NRRDError, missing data files, bad gzip, ...
        raise FormatError(path, message=f"not a readable NRRD file ({exc})") from None
    if data.ndim != 3:
        raise FormatError(path, message=f"the image is {data.ndim}-D {tuple(data.shape[::-1])} "
                          "(axes fastest first); segmentation needs a 3-D volume")
    if data.dtype.kind not in "iuf":
        raise FormatError(path, message=f"voxels of type {data.dtype} are not intensities")
    affine = np.eye(4)
    directions = header.get("space directions")
    if directions is not None:
        directions = np.asarray(directions, dtype=np.float64)
        if directions.shape != (3, 3) or not np.all(np.isfinite(directions)):
            raise FormatError(path, message="'space directions' is not three 3-D vectors")
        affine[:3, :3] = directions.T  # row a of the field is axis a's step: column a here
        origin = header.get("space origin")
        if origin is not None:
            affine[:3, 3] = np.asarray(origin, dtype=np.float64)
    else:
        spacings = np.asarray(header.get("spacings", [1.0, 1.0, 1.0]), dtype=np.float64)
        spacings = np.where(np.isfinite(spacings), spacings, 1.0)
        affine[:3, :3] = np.diag(spacings)
    space = str(header.get("space", ""))
    space = NRRD_SPACES.get(space, space)
    with np.errstate(over="ignore"):
        volume = np.ascontiguousarray(data, dtype=np.float32)
    return Volume(data=volume, spacing=spacing_of(affine), affine=affine, space=space,
                  path=path, format="nrrd", header=header)


def _write_nrrd(volume: Volume, labels: np.ndarray, path: Path) -> None:
    nrrd = _require("nrrd", "pynrrd")
    if volume.format == "nrrd":
        header = {key: value for key, value in volume.header.items()
                  if key in ("space", "space directions", "space origin", "spacings",
                             "kinds", "space units", "measurement frame")}
        if "space directions" not in header and "spacings" not in header:
            header["spacings"] = np.diag(volume.affine[:3, :3])
    else:
        affine = _affine_in(volume, "LPS")  # the space ITK and 3D Slicer write
        header = {
            "space": "left-posterior-superior",
            "space directions": affine[:3, :3].T,
            "space origin": affine[:3, 3],
        }
    header["kinds"] = ["domain"] * 3
    header["encoding"] = "gzip"
    nrrd.write(str(path), labels, header, index_order="C")


def _affine_in(volume: Volume, space: str) -> np.ndarray:
    if volume.space == space or {volume.space, space} != {"LPS", "RAS"}:
        return volume.affine
    return LPS_TO_RAS @ volume.affine


# ---- DICOM series --------------------------------------------------------------------------


def _read_dicom(folder: Path) -> Volume:
    pydicom = _require("pydicom", "pydicom")
    slices = []
    for file in sorted(p for p in folder.rglob("*") if p.is_file()):
        try:
            ds = pydicom.dcmread(file)
        except pydicom.errors.InvalidDicomError:
            continue  # not DICOM (DICOMDIR's neighbours, notes): skipped
        except Exception as exc:
            raise FormatError(file, message=f"not a readable DICOM file ({exc})") from None
        if "PixelData" not in ds:
            continue  # DICOMDIR, reports, structure sets
        if int(ds.get("NumberOfFrames", 1) or 1) > 1:
            raise FormatError(file, message=f"a multi-frame image ({ds.NumberOfFrames} "
                              "frames); gpuseq reads series of one image per file")
        slices.append((file, ds))
    if not slices:
        raise FormatError(folder, message="no DICOM images in this folder")
    series = sorted({str(ds.get("SeriesInstanceUID", "")) for _, ds in slices})
    if len(series) > 1:
        raise FormatError(folder, message=f"{len(series)} DICOM series in one folder "
                          f"({', '.join(series[:3])}{', ...' if len(series) > 3 else ''}); "
                          "give the folder of one series")
    if len(slices) < 2:
        raise FormatError(slices[0][0], message="a DICOM series of one image is 2-D; "
                          "segmentation needs a 3-D volume")

    def vector(file, ds, keyword, length):
        value = ds.get(keyword)
        try:
            numbers = np.asarray([float(v) for v in value], dtype=np.float64)
        except (TypeError, ValueError):
            numbers = np.zeros(0)
        if numbers.shape != (length,) or not np.all(np.isfinite(numbers)):
            raise FormatError(file, message=f"{keyword} is missing or not {length} numbers")
        return numbers

    first_file, first = slices[0]
    orientation = vector(first_file, first, "ImageOrientationPatient", 6)
    row_direction, column_direction = orientation[:3], orientation[3:]  # x grows, y grows
    normal = np.cross(row_direction, column_direction)
    pixel_spacing = vector(first_file, first, "PixelSpacing", 2)  # (between rows, columns)
    size = (int(first.Rows), int(first.Columns))
    positions = []
    for file, ds in slices:
        if not np.allclose(vector(file, ds, "ImageOrientationPatient", 6), orientation,
                           atol=1e-4):
            raise FormatError(file, message="ImageOrientationPatient differs from "
                              f"{first_file.name}'s: not one volume")
        if (int(ds.Rows), int(ds.Columns)) != size:
            raise FormatError(file, message=f"image of {ds.Rows} x {ds.Columns} pixels, "
                              f"{first_file.name} has {size[0]} x {size[1]}")
        if not np.allclose(vector(file, ds, "PixelSpacing", 2), pixel_spacing, rtol=1e-4):
            raise FormatError(file, message=f"PixelSpacing differs from {first_file.name}'s")
        positions.append(vector(file, ds, "ImagePositionPatient", 3))
    # Slices in order along the normal (row direction x column direction), the way DICOM
    # viewers stack them; the gap between neighbours must be one value.
    along = np.array([p @ normal for p in positions])
    order = np.argsort(along, kind="stable")
    gaps = np.diff(along[order])
    if np.any(gaps <= 1e-6 * max(1.0, float(np.abs(along).max()))):
        i = int(np.argmin(gaps))
        raise FormatError(slices[order[i + 1]][0], message="two images at the same position "
                          f"(as {slices[order[i]][0].name}): several volumes or series mixed")
    if gaps.max() - gaps.min() > SLICE_GAP_TOLERANCE * gaps.mean():
        raise FormatError(folder, message=f"slice gaps vary from {gaps.min():.4g} to "
                          f"{gaps.max():.4g} mm (missing or extra slices?); gpuseq needs "
                          "evenly spaced slices")
    images = []
    for i in order:
        file, ds = slices[i]
        try:
            pixels = ds.pixel_array
        except Exception as exc:  # compressed without a decoder, truncated data, ...
            raise FormatError(file, message=f"cannot decode the pixel data ({exc})") from None
        if pixels.shape != size:
            raise FormatError(file, message=f"pixel data of shape {pixels.shape}, not "
                              f"{size}: one frame per file expected")
        slope = float(ds.get("RescaleSlope", 1.0) or 1.0)
        intercept = float(ds.get("RescaleIntercept", 0.0) or 0.0)
        images.append(pixels.astype(np.float64) * slope + intercept)
    data = np.stack(images).astype(np.float32)
    first_position = positions[order[0]]
    step = (positions[order[-1]] - first_position) / (len(order) - 1)
    affine = np.eye(4)
    affine[:3, 0] = row_direction * pixel_spacing[1]   # x: along a row, column spacing
    affine[:3, 1] = column_direction * pixel_spacing[0]  # y: down a column, row spacing
    affine[:3, 2] = step
    affine[:3, 3] = first_position
    return Volume(data=data, spacing=spacing_of(affine), affine=affine, space="LPS",
                  path=folder, format="dicom", header=slices[order[0]][1])


# ---- a start from a seed voxel and an intensity window -------------------------------------


def seed_window_labels(volume, classes: int, seed_voxel, window, means=None) -> np.ndarray:
    """Initial labels from a seed voxel and an intensity window (the paper's user seed point).

    The voxels with intensity in [lo, hi] that are 6-connected to the seed through such voxels
    make one class; the other classes - 1 means are ``means`` (given) or K-means of the voxels
    outside that region, and every other voxel starts at its nearest of them. Labels are in
    the order of the class means (0 the darkest), the seed's class placed by its region's
    mean. Returns uint8 labels for segment_mrf's ``init``.

    Raises:
        InvalidDataError: a seed voxel outside the volume, or whose intensity is outside the
            window; a window that is not lo <= hi; no voxel outside the region.
    """
    from . import _core
    from .errors import InvalidDataError
    from .mrf import kmeans_means, nearest_mean_labels

    data = np.asarray(volume, dtype=np.float32)
    lo, hi = (float(v) for v in window)
    if not lo <= hi:
        raise InvalidDataError(f"window ({lo}, {hi}) must be lo <= hi")
    seed = tuple(int(p) for p in seed_voxel)
    if len(seed) != 3 or not all(0 <= p < n for p, n in zip(seed, data.shape)):
        raise InvalidDataError(f"seed_voxel {tuple(seed_voxel)} is outside the volume of "
                               f"shape {data.shape}")
    if not lo <= data[seed] <= hi:
        raise InvalidDataError(f"the seed voxel's intensity {data[seed]} is outside the "
                               f"window [{lo}, {hi}]")
    inside = ((data >= lo) & (data <= hi)).astype(np.uint8)
    region = _core.mrf_connected_component(inside, *seed).astype(bool)
    rest = data[~region]
    if rest.size < classes - 1:
        raise InvalidDataError(f"only {rest.size} voxels lie outside the seed's region, fewer "
                               f"than the other {classes - 1} classes")
    if means is None:
        others = kmeans_means(rest, classes - 1)
    else:
        others = np.asarray(means, dtype=np.float64)
        if others.shape != (classes - 1,):
            raise ValueError(f"with a seed window, means gives the other {classes - 1} classes")
        others = np.sort(others)
    region_mean = float(data[region].astype(np.float64).mean())
    position = int(np.searchsorted(others, region_mean))  # the seed class's label
    labels = nearest_mean_labels(data, others)
    labels[labels >= position] += 1
    labels[region] = position
    return labels
