"""Typed exceptions: every bad input names the file, the record or line, and what is wrong."""

from __future__ import annotations

import os

__all__ = [
    "GpuseqError",
    "InputError",
    "FormatError",
    "AlphabetError",
    "EmptyInputError",
    "HmmFormatError",
    "SequenceTooLongError",
    "BackendError",
    "GpuError",
    "GpuOutOfMemoryError",
    "InvalidDataError",
    "OutputTooLargeError",
    "UnsupportedOptionError",
    "MissingDependencyError",
]


class GpuseqError(Exception):
    """Base class of gpuseq's own errors."""


class InputError(GpuseqError, OSError):
    """An input could not be opened or read."""

    def __init__(self, path, line=None, message="", record=None):
        self.path = os.fspath(path) if path is not None else None
        self.line = line
        self.record = record
        self.message = message
        super().__init__(f"{self.path}: {message}" if self.path else message)


class FormatError(GpuseqError, ValueError):
    """A file or record is malformed.

    Attributes:
        path: the file (or a label such as ``<records>`` for in-memory input).
        line: 1-based line number, or None when not known.
        record: name of the sequence or model being read, or None.
        message: what is wrong.
    """

    def __init__(self, path, line=None, message="", record=None):
        self.path = os.fspath(path) if path is not None else None
        self.line = line
        self.record = record
        self.message = message
        where = [self.path or "<input>"]
        if line is not None:
            where.append(f"line {line}")
        if record:
            where.append(f"record {record!r}")
        super().__init__(f"{', '.join(where)}: {message}")


class AlphabetError(FormatError):
    """A sequence holds a character that is not an amino-acid symbol."""


class EmptyInputError(FormatError):
    """A sequence or HMM input holds no records."""


class HmmFormatError(FormatError):
    """An HMM file is malformed or unusable for search (no STATS, wrong alphabet, ...)."""


class SequenceTooLongError(GpuseqError, ValueError):
    """A target is longer than HMMER's comparison pipeline accepts (100,000 residues)."""

    def __init__(self, path, record, length, limit):
        self.path = os.fspath(path) if path is not None else None
        self.record = record
        self.length = length
        self.limit = limit
        super().__init__(
            f"{self.path or '<input>'}, record {record!r}: sequence of {length} residues is "
            f"longer than the {limit}-residue limit of HMMER's comparison pipeline"
        )


class BackendError(GpuseqError, RuntimeError):
    """The requested compute backend is not available."""


class GpuError(BackendError):
    """A CUDA call failed on the GPU; the message names the call, the CUDA error and where."""


class GpuOutOfMemoryError(GpuError, MemoryError):
    """The GPU had no memory for a buffer. The library shrinks its work and retries first;
    this reaches the caller only when even the smallest piece does not fit."""


class InvalidDataError(GpuseqError, ValueError):
    """A data matrix is ragged, empty, non-integer, or has values outside its alphabet."""


class OutputTooLargeError(GpuseqError, MemoryError):
    """A result does not fit in memory; write it to a file or ask for less."""


class UnsupportedOptionError(GpuseqError, ValueError):
    """An option value the reference tool accepts that gpuseq does not implement yet."""


class MissingDependencyError(GpuseqError, ImportError):
    """An optional library a feature needs is not installed; the message names the pip
    package (e.g. the volume readers' nibabel, pynrrd, pydicom: pip install gpuseq[mrf])."""
