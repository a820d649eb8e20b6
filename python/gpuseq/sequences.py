"""Target sequences: digitized, contiguous, and readable from every input users have.

A :class:`SequenceDatabase` holds sequences as alphabet codes in one ``uint8`` array with
``int64`` offsets (what every filter, CPU or GPU, consumes), plus names and descriptions as
bytes with offsets. It is built from FASTA files (plain or gzip, read by the native
multi-threaded reader), from Biopython ``SeqRecord`` objects, pyhmmer sequences or
``(name, sequence)`` pairs, or opened from a packed database written by :func:`gpuseq.makedb`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Union

import numpy as np

from . import _core
from .errors import EmptyInputError, FormatError, InputError

__all__ = ["SequenceDatabase", "read_fasta", "iter_sequence_chunks", "SequenceSource"]

#: Everything :func:`gpuseq.hmmsearch` accepts as targets.
SequenceSource = Union[str, os.PathLike, "SequenceDatabase", Iterable[Any]]

DEFAULT_BLOCK_BYTES = 64 << 20  # FASTA text per parsed block; also residues per chunk


class SequenceDatabase:
    """Digitized amino-acid sequences in contiguous arrays.

    Attributes:
        residues: ``uint8`` alphabet codes (0..28, Easel's amino order), all sequences
            back to back.
        offsets: ``int64`` array of ``len(self) + 1`` entries; sequence ``i`` is
            ``residues[offsets[i]:offsets[i + 1]]``.
        source: where the sequences came from (used in error messages and reports).
    """

    def __init__(
        self,
        residues: np.ndarray,
        offsets: np.ndarray,
        names: np.ndarray,
        name_offsets: np.ndarray,
        descriptions: np.ndarray,
        description_offsets: np.ndarray,
        source: str = "<sequences>",
    ) -> None:
        self.residues = residues
        self.offsets = offsets
        self._names = names
        self._name_offsets = name_offsets
        self._descriptions = descriptions
        self._description_offsets = description_offsets
        self.source = source

    # -- construction ---------------------------------------------------------------------
    @classmethod
    def _from_core(cls, chunk: dict, source: str) -> SequenceDatabase:
        return cls(
            chunk["residues"],
            chunk["offsets"],
            np.frombuffer(chunk["names"], dtype=np.uint8),
            chunk["name_offsets"],
            np.frombuffer(chunk["descriptions"], dtype=np.uint8),
            chunk["description_offsets"],
            source,
        )

    @classmethod
    def from_records(cls, records: Iterable[Any], source: str = "<records>") -> SequenceDatabase:
        """Build from Biopython ``SeqRecord``, pyhmmer sequences, or ``(name, sequence)`` pairs.

        Raises:
            AlphabetError: a sequence holds a character that is not an amino-acid symbol.
            FormatError: a record of an unsupported type, or without a name.
        """
        builder = _Builder(source)
        for index, record in enumerate(records):
            builder.add(*_record_fields(record, index, source))
        return builder.build()

    @classmethod
    def concatenate(cls, parts: list[SequenceDatabase], source: str) -> SequenceDatabase:
        if len(parts) == 1:
            part = parts[0]
            part.source = source
            return part

        def joined(arrays, offsets):
            starts = np.cumsum([0] + [len(a) for a in arrays[:-1]])
            data = np.concatenate(arrays) if arrays else np.zeros(0, np.uint8)
            offs = [np.zeros(1, np.int64)] + [o[1:] - o[0] + s for o, s in zip(offsets, starts)]
            return data, np.concatenate(offs)

        residues, offsets = joined([p.residues for p in parts], [p.offsets for p in parts])
        names, name_offsets = joined([p._names for p in parts], [p._name_offsets for p in parts])
        descs, desc_offsets = joined(
            [p._descriptions for p in parts], [p._description_offsets for p in parts]
        )
        return cls(residues, offsets, names, name_offsets, descs, desc_offsets, source)

    # -- access ---------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.offsets) - 1

    def __repr__(self) -> str:
        n, r = len(self), self.total_residues
        return f"<SequenceDatabase {self.source!r}: {n} sequences, {r} residues>"

    @property
    def total_residues(self) -> int:
        return int(self.offsets[-1] - self.offsets[0]) if len(self) else 0

    @property
    def lengths(self) -> np.ndarray:
        return np.diff(self.offsets)

    # Names and descriptions are bytes in FASTA: decoded losslessly (bytes that are not UTF-8
    # become lone surrogates, as in os.fsdecode; .encode("utf-8", "surrogateescape") undoes it).
    def name(self, i: int) -> str:
        a, b = self._name_offsets[i], self._name_offsets[i + 1]
        return self._names[a:b].tobytes().decode("utf-8", "surrogateescape")

    def description(self, i: int) -> str:
        a, b = self._description_offsets[i], self._description_offsets[i + 1]
        return self._descriptions[a:b].tobytes().decode("utf-8", "surrogateescape")

    def codes(self, i: int) -> np.ndarray:
        return self.residues[self.offsets[i] : self.offsets[i + 1]]

    def sequence(self, i: int) -> str:
        """Sequence ``i`` as text (upper case; gaps from ``.``/``_`` shown as ``-``)."""
        symbols = np.frombuffer(_core.alphabet_symbols.encode(), dtype=np.uint8)
        return symbols[self.codes(i)].tobytes().decode()

    def slice(self, start: int, stop: int) -> SequenceDatabase:
        """Sequences ``start..stop-1`` as a view (no copy of residues)."""
        off = self.offsets[start : stop + 1]
        noff = self._name_offsets[start : stop + 1]
        doff = self._description_offsets[start : stop + 1]
        return SequenceDatabase(
            self.residues[off[0] : off[-1]],
            np.asarray(off - off[0], dtype=np.int64),
            self._names[noff[0] : noff[-1]],
            np.asarray(noff - noff[0], dtype=np.int64),
            self._descriptions[doff[0] : doff[-1]],
            np.asarray(doff - doff[0], dtype=np.int64),
            self.source,
        )

    def chunks(self, residues_per_chunk: int = DEFAULT_BLOCK_BYTES) -> Iterator[SequenceDatabase]:
        """Consecutive views of about ``residues_per_chunk`` residues each."""
        n = len(self)
        start = 0
        while start < n:
            target = self.offsets[start] + residues_per_chunk
            stop = int(np.searchsorted(self.offsets, target, side="right")) - 1
            stop = min(n, max(stop, start + 1))
            yield self.slice(start, stop)
            start = stop

    def to_pyhmmer(self, indices: Iterable[int], alphabet=None) -> list:
        """The given sequences as ``pyhmmer.easel.DigitalSequence`` objects."""
        from pyhmmer.easel import Alphabet, DigitalSequence

        abc = alphabet or Alphabet.amino()
        out = []
        for i in indices:
            i = int(i)
            out.append(
                DigitalSequence(
                    abc,
                    name=self._names[self._name_offsets[i] : self._name_offsets[i + 1]].tobytes(),
                    description=self._descriptions[
                        self._description_offsets[i] : self._description_offsets[i + 1]
                    ].tobytes(),
                    sequence=np.ascontiguousarray(self.codes(i)),
                )
            )
        return out

    # -- packed database ------------------------------------------------------------------
    def save(self, path: str | os.PathLike) -> Path:
        """Write a packed, memory-mappable database (see :mod:`gpuseq.database`)."""
        from .database import write_database

        return write_database(path, [self], source=self.source)

    @classmethod
    def open(cls, path: str | os.PathLike) -> SequenceDatabase:
        """Open a database written by :func:`gpuseq.makedb` (memory-mapped, no parsing)."""
        from .database import open_database

        return open_database(path)


def read_fasta(path: str | os.PathLike, threads: int = 0) -> SequenceDatabase:
    """Read a whole FASTA file (plain or gzip) into memory with Easel's rules.

    Raises:
        InputError: the file cannot be opened or read.
        EmptyInputError: the file holds no sequence.
        FormatError, AlphabetError: malformed text (file, line and record in the message).
    """
    parts = list(_fasta_chunks(path, threads, DEFAULT_BLOCK_BYTES))
    return SequenceDatabase.concatenate(parts, os.fspath(path))


def iter_sequence_chunks(
    source: SequenceSource, threads: int = 0, block_bytes: int = DEFAULT_BLOCK_BYTES
) -> tuple[str, int | None, Iterator[SequenceDatabase]]:
    """Open any supported target source as a stream of chunks.

    Returns:
        ``(label, total_residues_or_None, chunks)``; the total is known for in-memory and
        packed databases, not for FASTA files.
    """
    if isinstance(source, SequenceDatabase):
        return source.source, source.total_residues, source.chunks(block_bytes)
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        from .database import is_database

        if is_database(path):
            db = SequenceDatabase.open(path)
            return db.source, db.total_residues, db.chunks(block_bytes)
        return os.fspath(path), None, _fasta_chunks(path, threads, block_bytes)
    if isinstance(source, (bytes, bytearray)):
        raise TypeError("pass sequence text as a file path, or records as (name, sequence) pairs")
    if isinstance(source, Iterable):
        return "<records>", None, _record_chunks(source, block_bytes)
    raise TypeError(f"cannot read target sequences from {type(source).__name__}")


# ---- implementation --------------------------------------------------------------------


def _fasta_chunks(path, threads: int, block_bytes: int) -> Iterator[SequenceDatabase]:
    label = os.fspath(path)
    if not os.path.exists(label) and label != "-":
        raise InputError(label, None, "no such file")
    if os.path.isdir(label):
        raise InputError(label, None, "is a directory, not a FASTA file or gpuseq database")
    reader = _core.FastaReader(label, threads or os.cpu_count() or 1)
    any_record = False
    while True:
        chunk = reader.read_chunk(label, block_bytes)
        if chunk is None:
            break
        any_record = True
        yield SequenceDatabase._from_core(chunk, label)
    if not any_record:
        raise EmptyInputError(label, None, "no sequences found")


def _record_chunks(records: Iterable[Any], block_residues: int) -> Iterator[SequenceDatabase]:
    builder = _Builder("<records>")
    count = 0
    for index, record in enumerate(records):
        builder.add(*_record_fields(record, index, "<records>"))
        count += 1
        if builder.residue_count >= block_residues:
            yield builder.build()
            builder = _Builder("<records>")
    if count == 0:
        raise EmptyInputError("<records>", None, "no sequences given")
    if builder.count:
        yield builder.build()


def _record_fields(record: Any, index: int, source: str) -> tuple[bytes, bytes, np.ndarray]:
    """(name, description, codes) of one record of a supported type."""
    # pyhmmer digital sequences: already Easel codes.
    try:
        from pyhmmer.easel import DigitalSequence, TextSequence
    except ImportError:  # pragma: no cover - pyhmmer is a dependency
        DigitalSequence = TextSequence = ()
    if isinstance(record, DigitalSequence):
        if record.alphabet.K != 20:
            raise FormatError(source, None, "not an amino-acid sequence", _as_str(record.name))
        name = _as_bytes(record.name)
        codes = np.asarray(record.sequence, dtype=np.uint8).copy()
        return _checked_name(name, index, source), _as_bytes(record.description), codes
    if isinstance(record, TextSequence):
        name = _checked_name(_as_bytes(record.name), index, source)
        return name, _as_bytes(record.description), _digitize(record.sequence, name, source)
    # Biopython SeqRecord (duck-typed: id, description, seq).
    if hasattr(record, "id") and hasattr(record, "seq"):
        name = _checked_name(_as_bytes(record.id), index, source)
        desc = str(getattr(record, "description", "") or "")
        # Biopython's FASTA parser puts the whole header line, name first, in description.
        rid = str(record.id)
        if desc == rid:
            desc = ""
        elif desc.startswith(rid) and desc[len(rid) : len(rid) + 1].isspace():
            desc = desc[len(rid) :].lstrip(" \t")
        return name, desc.encode(), _digitize(str(record.seq), name, source)
    if isinstance(record, tuple) and len(record) == 2:
        name = _checked_name(_as_bytes(record[0]), index, source)
        return name, b"", _digitize(record[1], name, source)
    raise FormatError(
        source,
        None,
        f"record {index + 1} is a {type(record).__name__}; expected a Biopython SeqRecord, a "
        "pyhmmer sequence or a (name, sequence) pair",
    )


def _checked_name(name: bytes, index: int, source: str) -> bytes:
    if not name or any(c in name for c in b" \t\r\n"):
        raise FormatError(
            source, None, f"record {index + 1} has no name, or a name with whitespace: {name!r}"
        )
    return name


def _digitize(text: Any, name: bytes, source: str) -> np.ndarray:
    data = text.encode() if isinstance(text, str) else bytes(text)
    return _core.digitize(data, name.decode("utf-8", "replace"), source)


def _as_bytes(value: Any) -> bytes:
    if value is None:
        return b""
    return value if isinstance(value, bytes) else str(value).encode()


def _as_str(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class _Builder:
    """Accumulates records into the contiguous layout."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.codes: list[np.ndarray] = []
        self.names: list[bytes] = []
        self.descriptions: list[bytes] = []
        self.residue_count = 0

    @property
    def count(self) -> int:
        return len(self.names)

    def add(self, name: bytes, description: bytes, codes: np.ndarray) -> None:
        self.names.append(name)
        self.descriptions.append(description)
        self.codes.append(codes)
        self.residue_count += len(codes)

    def build(self) -> SequenceDatabase:
        def packed(items: list[bytes]):
            offsets = np.zeros(len(items) + 1, dtype=np.int64)
            offsets[1:] = np.cumsum([len(x) for x in items])
            return np.frombuffer(b"".join(items), dtype=np.uint8), offsets

        offsets = np.zeros(len(self.codes) + 1, dtype=np.int64)
        offsets[1:] = np.cumsum([len(c) for c in self.codes])
        residues = np.concatenate(self.codes) if self.codes else np.zeros(0, np.uint8)
        names, name_offsets = packed(self.names)
        descs, desc_offsets = packed(self.descriptions)
        return SequenceDatabase(
            residues.astype(np.uint8, copy=False),
            offsets,
            names,
            name_offsets,
            descs,
            desc_offsets,
            self.source,
        )
