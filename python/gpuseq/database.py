"""Packed sequence databases: a folder of ``.npy`` arrays that later searches memory-map.

Layout of ``NAME.gsdb/`` (plain NumPy files, readable with ``numpy.load`` by anyone)::

    manifest.json            format name and version, alphabet, counts, source file
    residues.npy             uint8   Easel amino codes of all sequences, back to back
    offsets.npy              int64   n + 1 start offsets into residues
    names.npy                uint8   sequence names (UTF-8 bytes), back to back
    name_offsets.npy         int64   n + 1
    descriptions.npy         uint8   descriptions, back to back
    description_offsets.npy  int64   n + 1

Opening parses nothing: the arrays are memory-mapped and searched in place.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from . import _core
from ._version import __version__
from .errors import FormatError, InputError

__all__ = ["makedb", "open_database", "is_database", "write_database"]

FORMAT_NAME = "gpuseq-sequence-db"
FORMAT_VERSION = 1
_ARRAYS = {
    "residues": np.uint8,
    "offsets": np.int64,
    "names": np.uint8,
    "name_offsets": np.int64,
    "descriptions": np.uint8,
    "description_offsets": np.int64,
}


def is_database(path: str | os.PathLike) -> bool:
    return (Path(path) / "manifest.json").is_file()


def makedb(
    sequences, output: str | os.PathLike, *, threads: int = 0, block_bytes: int = 64 << 20
) -> Path:
    """Pack target sequences (FASTA path, records, ...) into a memory-mappable database.

    Arguments:
        sequences: anything :func:`gpuseq.hmmsearch` accepts as targets.
        output: folder to create (conventionally ``NAME.gsdb``); must not exist yet.
        threads: FASTA parsing threads (0: all cores).

    Returns:
        The database folder.

    Raises:
        FileExistsError: ``output`` exists.
        FormatError, AlphabetError, EmptyInputError: bad input, as for searches.

    Example:
        >>> gpuseq.makedb("uniprot_sprot.fasta.gz", "sprot.gsdb")  # doctest: +SKIP
    """
    from .sequences import iter_sequence_chunks

    label, _, chunks = iter_sequence_chunks(sequences, threads, block_bytes)
    return write_database(output, chunks, source=label)


def write_database(output: str | os.PathLike, chunks: Iterable, source: str) -> Path:
    """Stream chunks (``SequenceDatabase`` objects) into a new database folder."""
    out = Path(output)
    if out.exists():
        raise FileExistsError(f"{out}: already exists")
    staging = Path(
        tempfile.mkdtemp(prefix=out.name + ".", dir=out.parent if out.parent.exists() else None)
    )
    try:
        raw = {name: open(staging / f"{name}.raw", "wb") for name in _ARRAYS}
        totals = dict.fromkeys(("residues", "names", "descriptions"), 0)
        count = 0
        for name in ("offsets", "name_offsets", "description_offsets"):
            raw[name].write(np.zeros(1, np.int64).tobytes())
        for chunk in chunks:
            n = len(chunk)
            if n == 0:
                continue
            # Offsets continue from the running totals of the data already written.
            for data_name, off_name, data, offsets in (
                ("residues", "offsets", chunk.residues, chunk.offsets),
                ("names", "name_offsets", chunk._names, chunk._name_offsets),
                (
                    "descriptions",
                    "description_offsets",
                    chunk._descriptions,
                    chunk._description_offsets,
                ),
            ):
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


def open_database(path: str | os.PathLike):
    """Memory-map a packed database. Raises FormatError if it is not one or is damaged."""
    from .sequences import SequenceDatabase

    folder = Path(path)
    try:
        manifest = json.loads((folder / "manifest.json").read_text())
    except FileNotFoundError:
        raise InputError(folder, None, "not a gpuseq database (no manifest.json)") from None
    except json.JSONDecodeError as exc:
        raise FormatError(
            folder / "manifest.json", exc.lineno, f"invalid JSON: {exc.msg}"
        ) from None
    if manifest.get("format") != FORMAT_NAME or manifest.get("version") != FORMAT_VERSION:
        raise FormatError(
            folder,
            None,
            f"unsupported database format {manifest.get('format')!r} "
            f"version {manifest.get('version')!r}",
        )
    if manifest.get("symbols") != _core.alphabet_symbols:
        raise FormatError(folder, None, "database was written with a different alphabet")
    arrays = {}
    for name, dtype in _ARRAYS.items():
        try:
            arr = np.load(folder / f"{name}.npy", mmap_mode="r")
        except FileNotFoundError:
            raise FormatError(folder, None, f"missing {name}.npy") from None
        except ValueError as exc:
            raise FormatError(folder / f"{name}.npy", None, f"unreadable array: {exc}") from None
        if arr.dtype != dtype or arr.ndim != 1:
            raise FormatError(folder / f"{name}.npy", None, f"expected 1-D {np.dtype(dtype)}")
        arrays[name] = arr
    n = int(manifest["sequences"])
    for off_name, data_name in (
        ("offsets", "residues"),
        ("name_offsets", "names"),
        ("description_offsets", "descriptions"),
    ):
        off = arrays[off_name]
        if len(off) != n + 1 or off[0] != 0 or off[-1] != len(arrays[data_name]):
            raise FormatError(folder / f"{off_name}.npy", None, "offsets do not match the data")
    return SequenceDatabase(
        arrays["residues"],
        arrays["offsets"],
        arrays["names"],
        arrays["name_offsets"],
        arrays["descriptions"],
        arrays["description_offsets"],
        os.fspath(folder),
    )
