"""Packed sequence databases: a folder of ``.npy`` arrays that later searches memory-map.

Layout of ``NAME.gsdb/`` (plain NumPy files, readable with ``numpy.load`` by anyone)::

    manifest.json            format name and version, alphabet, counts, source file
    residues.npy             uint8   Easel amino codes of all sequences, back to back
    offsets.npy              int64   n + 1 start offsets into residues
    names.npy                uint8   sequence names (UTF-8 bytes), back to back
    name_offsets.npy         int64   n + 1
    descriptions.npy         uint8   descriptions, back to back
    description_offsets.npy  int64   n + 1
    accessions.npy           uint8   accessions (EMBL, Stockholm ...), back to back; optional
    accession_offsets.npy    int64   n + 1; optional (databases without them: no accessions)

Opening parses nothing: the arrays are memory-mapped and searched in place.

This module knows only the on-disk layout: it writes chunks that carry these arrays and reads
the arrays back. :mod:`gpuseq.sequences` builds :class:`~gpuseq.SequenceDatabase` objects on
top of it (and ``makedb`` there streams any readable input into :func:`write_database`).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import tokenize
from collections.abc import Iterable
from pathlib import Path
from typing import Protocol

import numpy as np

from . import _core
from ._version import __version__
from .errors import EmptyInputError, FormatError, InputError

__all__ = ["is_database", "write_database", "read_database_arrays", "ARRAY_NAMES"]

FORMAT_NAME = "gpuseq-sequence-db"
FORMAT_VERSION = 1
_ARRAYS = {
    "residues": np.uint8,
    "offsets": np.int64,
    "names": np.uint8,
    "name_offsets": np.int64,
    "descriptions": np.uint8,
    "description_offsets": np.int64,
    "accessions": np.uint8,
    "accession_offsets": np.int64,
}
_OPTIONAL = ("accessions", "accession_offsets")  # absent from databases of gpuseq <= 0.1
#: (data, offsets) array pairs: one entry per sequence in each.
_FIELDS = (
    ("residues", "offsets"),
    ("names", "name_offsets"),
    ("descriptions", "description_offsets"),
    ("accessions", "accession_offsets"),
)
ARRAY_NAMES = tuple(_ARRAYS)


class Chunk(Protocol):
    """What write_database needs of a chunk (a SequenceDatabase is one)."""

    def __len__(self) -> int: ...

    def arrays(self) -> dict[str, np.ndarray]: ...


def is_database(path: str | os.PathLike) -> bool:
    return (Path(path) / "manifest.json").is_file()


def check_output(output: str | os.PathLike) -> Path:
    """The folder a new database can be written to: it does not exist, its parent does."""
    out = Path(output)
    if out.exists():
        raise FileExistsError(f"{out}: already exists")
    if not out.parent.is_dir():
        raise InputError(out.parent, None, "no such folder to write the database in")
    return out


def write_database(output: str | os.PathLike, chunks: Iterable[Chunk], source: str) -> Path:
    """Stream chunks (``SequenceDatabase`` objects) into a new database folder."""
    out = check_output(output)
    # Staged beside the output, which it becomes by a rename.
    staging = Path(tempfile.mkdtemp(prefix=out.name + ".", dir=out.parent))
    try:
        raw = {name: open(staging / f"{name}.raw", "wb") for name in _ARRAYS}
        totals = dict.fromkeys((data for data, _ in _FIELDS), 0)
        count = 0
        for _, off_name in _FIELDS:
            raw[off_name].write(np.zeros(1, np.int64).tobytes())
        for chunk in chunks:
            n = len(chunk)
            if n == 0:
                continue
            arrays = chunk.arrays()
            # Offsets continue from the running totals of the data already written.
            for data_name, off_name in _FIELDS:
                data, offsets = arrays[data_name], arrays[off_name]
                base = offsets[0]
                raw[data_name].write(np.ascontiguousarray(data).tobytes())
                raw[off_name].write(
                    (np.asarray(offsets[1:], np.int64) - base + totals[data_name]).tobytes()
                )
                totals[data_name] += int(offsets[-1] - base)
            count += n
        for f in raw.values():
            f.close()
        if count == 0:
            raise FormatError(source, None, "no sequences to write")
        for name, dtype in _ARRAYS.items():
            _raw_to_npy(staging / f"{name}.raw", staging / f"{name}.npy", dtype)
        manifest = {
            "format": FORMAT_NAME,
            "version": FORMAT_VERSION,
            "alphabet": "amino",
            "symbols": _core.alphabet_symbols,
            "sequences": count,
            "residues": totals["residues"],
            "source": source,
            "created_by": f"gpuseq {__version__}",
        }
        (staging / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
        staging.rename(out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return out


def _raw_to_npy(raw: Path, npy: Path, dtype) -> None:
    """Copy a raw binary file into a proper .npy file (NumPy's own writer), then drop it."""
    n = raw.stat().st_size // np.dtype(dtype).itemsize
    arr = np.lib.format.open_memmap(npy, mode="w+", dtype=dtype, shape=(n,))
    with open(raw, "rb") as f:
        step = max(1, (64 << 20) // np.dtype(dtype).itemsize)
        for start in range(0, n, step):
            block = np.frombuffer(f.read(step * np.dtype(dtype).itemsize), dtype=dtype)
            arr[start : start + len(block)] = block
    arr.flush()
    del arr
    raw.unlink()


def read_database_arrays(path: str | os.PathLike) -> dict[str, np.ndarray]:
    """Memory-map a packed database's arrays (keys: ARRAY_NAMES).

    Raises:
        InputError: not a database folder.
        FormatError: an unsupported version, or missing or damaged arrays (EmptyInputError:
            no sequences).
    """
    folder = Path(path)
    manifest_path = folder / "manifest.json"
    try:
        manifest = json.loads(manifest_path.read_bytes().decode("utf-8"))
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        raise InputError(folder, None, "not a gpuseq database (no manifest.json)") from None
    except json.JSONDecodeError as exc:
        raise FormatError(manifest_path, exc.lineno, f"invalid JSON: {exc.msg}") from None
    except (UnicodeDecodeError, OSError) as exc:
        raise FormatError(manifest_path, None, f"unreadable: {exc}") from None
    if not isinstance(manifest, dict):
        raise FormatError(manifest_path, None, "not a JSON object")
    if manifest.get("format") != FORMAT_NAME or manifest.get("version") != FORMAT_VERSION:
        raise FormatError(
            folder,
            None,
            f"unsupported database format {manifest.get('format')!r} "
            f"version {manifest.get('version')!r}",
        )
    if manifest.get("symbols") != _core.alphabet_symbols:
        raise FormatError(folder, None, "database was written with a different alphabet")
    n = manifest.get("sequences")
    if type(n) is not int or n < 0:
        raise FormatError(manifest_path, None, f"'sequences' is not a count: {n!r}")
    if n == 0:  # (makedb writes none such: an empty input has nothing to search)
        raise EmptyInputError(folder, None, "no sequences")
    arrays = {}
    for name, dtype in _ARRAYS.items():
        npy = folder / f"{name}.npy"
        try:
            arr = np.load(npy, mmap_mode="r")
        except FileNotFoundError:
            if name not in _OPTIONAL:
                raise FormatError(folder, None, f"missing {name}.npy") from None
            # (Sized from offsets.npy, checked against n below, not from n itself.)
            arr = np.zeros(len(arrays["offsets"]) if name.endswith("offsets") else 0, dtype)
        # (NumPy's errors for a damaged file: an empty one, a header that does not parse or
        # claims an impossible shape, a folder in its place.)
        except (ValueError, EOFError, OverflowError, SyntaxError, OSError,
                tokenize.TokenError) as exc:
            raise FormatError(npy, None, f"unreadable array: {exc}") from None
        if arr.dtype != dtype or arr.ndim != 1:
            raise FormatError(npy, None, f"expected 1-D {np.dtype(dtype)}")
        # A plain ndarray over the mapping (which it keeps open): np.memmap indexes through a
        # Python __getitem__, 1.5 us an index, 12 of them per sequence handed to pyhmmer.
        arrays[name] = arr.view(np.ndarray)
    for data_name, off_name in _FIELDS:
        off = arrays[off_name]
        if len(off) != n + 1 or off[0] != 0 or off[-1] != len(arrays[data_name]):
            raise FormatError(folder / f"{off_name}.npy", None, "offsets do not match the data")
        # Every record's entry within the data (a sequence may be empty, and so may a name:
        # Easel ends one at a NUL, so ">\0x" is a record without a name, which hmmsearch
        # searches): ~1 ms a million records, where a damaged entry would give another
        # record's bytes.
        wrong = off[1:] < off[:-1]
        if wrong.any():
            i = int(np.argmax(wrong))
            raise FormatError(folder / f"{off_name}.npy", None,
                              f"sequence {i} (0-based) has offsets that decrease")
    return arrays
