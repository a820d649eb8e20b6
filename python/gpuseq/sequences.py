"""Target sequences: digitized, contiguous, and readable from every input users have.

A :class:`SequenceDatabase` holds sequences as alphabet codes in one ``uint8`` array with
``int64`` offsets (what every filter, CPU or GPU, consumes), plus names, accessions and
descriptions as bytes with offsets. It is built from FASTA files (plain or gzip, read by the
native multi-threaded reader), from every other format hmmsearch reads (EMBL/UniProt, GenBank,
Stockholm, aligned FASTA, NCBI BLAST databases ...: Easel's own parsers through pyhmmer), from
Biopython ``SeqRecord`` objects, pyhmmer sequences or ``(name, sequence)`` pairs, or opened
from a packed database written by :func:`makedb` (its on-disk layout is :mod:`gpuseq.database`).
"""

from __future__ import annotations

import atexit
import gzip
import io
import os
import queue
import re
import sys
import threading
from collections.abc import Iterable, Iterator
from concurrent.futures import Executor
from pathlib import Path
from typing import Any, TypeVar, Union

import numpy as np

from . import _core, _pyhmmer, database
from .backend import worker_threads
from .errors import EmptyInputError, FormatError, InputError

__all__ = [
    "SequenceDatabase",
    "read_fasta",
    "read_sequences",
    "iter_sequence_chunks",
    "makedb",
    "open_database",
    "SequenceSource",
    "TARGET_FORMATS",
]

#: Everything :func:`gpuseq.hmmsearch` accepts as targets.
SequenceSource = Union[str, os.PathLike, "SequenceDatabase", Iterable[Any]]

DEFAULT_BLOCK_BYTES = 64 << 20  # FASTA text per parsed block; also residues per chunk
#: Residues per chunk of a packed or in-memory database searched on the GPU: each model's
#: cascade runs once per chunk, so larger chunks mean fewer, fuller launches and fewer passes
#: of the host's per-call work. Measured on the H100 (490 M residues, packed; phases in
#: benchmarks/results/gpu-h100-80gb-hbm3-20261123-e/blocks.log), 6 models / 100 models:
#: 64 Mi residues 1.86 / 10.8 s, 256 Mi 1.60 / 7.75 s, 512 Mi 1.55 / 7.21 s.
GPU_DATABASE_CHUNK_RESIDUES = 512 << 20

#: Target formats, as hmmsearch's ``--tformat`` names them (Easel's names, any case). FASTA
#: is read by our native reader; every other format by Easel's own parser through pyhmmer.
TARGET_FORMATS = (
    "fasta",
    "embl",
    "uniprot",
    "genbank",
    "ddbj",
    "ncbi",
    "daemon",
    "hmmpgmd",
    "stockholm",
    "pfam",
    "a2m",
    "psiblast",
    "selex",
    "afa",
    "clustal",
    "clustallike",
    "phylip",
    "phylips",
)


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
        accessions: np.ndarray | None = None,
        accession_offsets: np.ndarray | None = None,
    ) -> None:
        self.residues = residues
        self.offsets = offsets
        self._names = names
        self._name_offsets = name_offsets
        self._descriptions = descriptions
        self._description_offsets = description_offsets
        if accessions is None:  # FASTA has none: every accession empty
            accessions = np.zeros(0, np.uint8)
            accession_offsets = np.zeros(len(offsets), np.int64)
        self._accessions = accessions
        self._accession_offsets = accession_offsets
        self.source = source
        # GPU copies of this database's chunks ({(start, stop): GpuTargets}; blastp's encoding
        # under ("blastp", device_key), its GPU copy under ("blastp-gpu", device_key)), kept by
        # a database the caller holds so that later searches find it resident; a chunk view
        # shares its parent's dict (see chunks(resident=True) and free_device_memory()).
        self.device_copies: dict | None = None
        self.device_key: tuple[int, int] | None = None
        # A view from chunks() that ends its database (a search's queries are final after it).
        self.ends_database = False

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
    def _from_arrays(cls, arrays: dict[str, np.ndarray], source: str) -> SequenceDatabase:
        return cls(
            arrays["residues"],
            arrays["offsets"],
            arrays["names"],
            arrays["name_offsets"],
            arrays["descriptions"],
            arrays["description_offsets"],
            source,
            arrays["accessions"],
            arrays["accession_offsets"],
        )

    def arrays(self) -> dict[str, np.ndarray]:
        """The contiguous arrays, by the names of the packed database's files."""
        return {
            "residues": self.residues,
            "offsets": self.offsets,
            "names": self._names,
            "name_offsets": self._name_offsets,
            "descriptions": self._descriptions,
            "description_offsets": self._description_offsets,
            "accessions": self._accessions,
            "accession_offsets": self._accession_offsets,
        }

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

        fields = [p.arrays() for p in parts]
        arrays = {}
        for data_name, off_name in _FIELDS:
            arrays[data_name], arrays[off_name] = joined(
                [f[data_name] for f in fields], [f[off_name] for f in fields]
            )
        return cls._from_arrays(arrays, source)

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

    def accession(self, i: int) -> str:
        a, b = self._accession_offsets[i], self._accession_offsets[i + 1]
        return self._accessions[a:b].tobytes().decode("utf-8", "replace")

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
        arrays = self.arrays()
        for data_name, off_name in _FIELDS:
            off = arrays[off_name][start : stop + 1]
            arrays[data_name] = arrays[data_name][off[0] : off[-1]]
            arrays[off_name] = np.asarray(off - off[0], dtype=np.int64)
        return SequenceDatabase._from_arrays(arrays, self.source)

    def chunks(
        self, residues_per_chunk: int = DEFAULT_BLOCK_BYTES, *, resident: bool = False
    ) -> Iterator[SequenceDatabase]:
        """Consecutive views of about ``residues_per_chunk`` residues each. With ``resident``
        the views share this database's ``device_copies``: a GPU search stores its copy of
        each chunk there and the next search reuses it."""
        n = len(self)
        if resident and self.device_copies is None:
            self.device_copies = {}
        start = 0
        while start < n:
            target = self.offsets[start] + residues_per_chunk
            stop = int(np.searchsorted(self.offsets, target, side="right")) - 1
            stop = min(n, max(stop, start + 1))
            view = self.slice(start, stop)
            view.ends_database = stop == n
            if resident:
                view.device_copies, view.device_key = self.device_copies, (start, stop)
            yield view
            start = stop

    def free_device_memory(self) -> None:
        """Drop the GPU copies that searches left resident, and blastp's encoding of the
        sequences (the next search encodes and uploads them again)."""
        if self.device_copies:
            self.device_copies.clear()

    def to_pyhmmer(self, indices: Iterable[int], alphabet=None) -> list:
        """The given sequences as ``pyhmmer.easel.DigitalSequence`` objects."""
        _pyhmmer.load()
        from pyhmmer.easel import Alphabet, DigitalSequence

        abc = alphabet or Alphabet.amino()
        out = []
        for i in indices:
            i = int(i)
            out.append(
                DigitalSequence(
                    abc,
                    name=self._names[self._name_offsets[i] : self._name_offsets[i + 1]].tobytes(),
                    accession=self._accessions[
                        self._accession_offsets[i] : self._accession_offsets[i + 1]
                    ].tobytes(),
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
        return database.write_database(path, [self], source=self.source)

    @classmethod
    def open(cls, path: str | os.PathLike) -> SequenceDatabase:
        """Open a database written by :func:`gpuseq.makedb` (memory-mapped, no parsing)."""
        return cls._from_arrays(database.read_database_arrays(path), os.fspath(path))


_FIELDS = (
    ("residues", "offsets"),
    ("names", "name_offsets"),
    ("descriptions", "description_offsets"),
    ("accessions", "accession_offsets"),
)


def kept_device_copy(copies: dict | None, key, upload, keep=None, evict: bool = True):
    """``copies[key]``, or ``upload()``'s new GPU copy, kept there for later searches
    (``copies`` None: a database nobody holds, nothing kept). Out of GPU memory the kept
    copies are dropped (all but ``keep``'s entry; not with ``evict`` False) and the upload
    tried once more; then None, and the caller shrinks its work or uploads for itself."""
    if copies is not None and key in copies:
        return copies[key]
    for attempt in range(2):
        try:
            made = upload()
            break
        except _core.DeviceOutOfMemory:
            if attempt or not copies or not evict:
                return None
            kept = {keep: copies[keep]} if keep in copies else {}
            copies.clear()
            copies.update(kept)
    if copies is not None:
        copies[key] = made
    return made


def open_database(path: str | os.PathLike) -> SequenceDatabase:
    """Memory-map a packed database. Raises FormatError if it is not one or is damaged."""
    return SequenceDatabase.open(path)


def makedb(
    sequences,
    output: str | os.PathLike,
    *,
    threads: int = 0,
    block_bytes: int = 64 << 20,
    format: str | None = None,
) -> Path:
    """Pack target sequences (FASTA path, records, ...) into a memory-mappable database.

    Arguments:
        sequences: anything :func:`gpuseq.hmmsearch` accepts as targets.
        output: folder to create (conventionally ``NAME.gsdb``); must not exist yet.
        threads: FASTA parsing threads (0: all cores).
        format: the file's format as hmmsearch's ``--tformat`` names it (None: detect).

    Returns:
        The database folder.

    Raises:
        FileExistsError: ``output`` exists.
        FormatError, AlphabetError, EmptyInputError: bad input, as for searches.

    Example:
        >>> gpuseq.makedb("uniprot_sprot.fasta.gz", "sprot.gsdb")  # doctest: +SKIP
    """
    database.check_output(output)  # before the input is read
    label, _, chunks = iter_sequence_chunks(sequences, threads, block_bytes, format=format)
    try:
        return database.write_database(output, chunks, source=label)
    finally:
        if isinstance(chunks, ReadAhead):
            chunks.close()


def read_fasta(path: str | os.PathLike, threads: int = 0) -> SequenceDatabase:
    """Read a whole FASTA file (plain or gzip) into memory with Easel's rules.

    Raises:
        InputError: the file cannot be opened or read.
        EmptyInputError: the file holds no sequence.
        FormatError, AlphabetError: malformed text (file, line and record in the message).
    """
    parts = list(_fasta_chunks(path, threads, DEFAULT_BLOCK_BYTES))
    return SequenceDatabase.concatenate(parts, os.fspath(path))


def read_sequences(
    path: str | os.PathLike, format: str | None = None, threads: int = 0
) -> SequenceDatabase:
    """Read a whole sequence file of any format hmmsearch reads into memory.

    Arguments:
        format: as hmmsearch's ``--tformat`` (``"embl"``, ``"stockholm"``, ``"ncbi"`` ...);
            None detects it as hmmsearch does (see :func:`iter_sequence_chunks`).
    """
    label, _, chunks = iter_sequence_chunks(path, threads, format=format)
    return SequenceDatabase.concatenate(list(chunks), label)


def iter_sequence_chunks(
    source: SequenceSource,
    threads: int = 0,
    block_bytes: int = DEFAULT_BLOCK_BYTES,
    format: str | None = None,
    database_residues: int | None = None,
    line_start_headers: bool = False,
) -> tuple[str, int | None, Iterator[SequenceDatabase]]:
    """Open any supported target source as a stream of chunks.

    A path is a packed database, or a sequence file in ``format`` (hmmsearch's ``--tformat``
    names). Without a format the file's format is found as hmmsearch finds it: a ``.fa``
    suffix or a first non-blank line starting with ``>`` is FASTA (read natively); anything
    else is left to Easel's detection (EMBL/UniProt, GenBank, then alignment formats).
    Standard input (``"-"``) is found the same way, by its first line, as hmmsearch finds it:
    FASTA, EMBL/UniProt or GenBank (alignment formats need ``format``). Sequence files are
    read in blocks of ``block_bytes``; a packed or in-memory database goes in chunks of
    ``database_residues`` residues (default ``block_bytes``).

    ``line_start_headers``: FASTA as blastp reads it, where a record starts only at a '>'
    that begins its line; a '>' inside a line is then a FormatError (Easel starts a record
    there, blastp drops it as a residue).

    Returns:
        ``(label, total_residues_or_None, chunks)``; the total is known for in-memory and
        packed databases, not for sequence files.

    Raises:
        ValueError: ``format`` is not a format name hmmsearch knows.
    """
    fmt = _checked_format(format)
    residues = database_residues or block_bytes
    if isinstance(source, SequenceDatabase):  # the caller holds it: keep it on the GPU
        return source.source, source.total_residues, source.chunks(residues, resident=True)
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        label = os.fspath(source)
        if database.is_database(path):
            if fmt is not None:  # (else a folder that is no sequence file, in other words)
                raise InputError(label, None, f"is a gpuseq database, which has no format to "
                                 f"assert: give it without a target format ({format})")
            db = SequenceDatabase.open(path)
            return db.source, db.total_residues, db.chunks(residues)
        if label == "-" and fmt not in ("fasta", "ncbi"):
            return label, None, ReadAhead(_stdin_chunks(threads, block_bytes, fmt,
                                                        line_start_headers))
        if fmt is None:
            fmt = "fasta" if _detected_as_fasta(label) else None
        if fmt == "fasta":
            return label, None, ReadAhead(_fasta_chunks(label, threads, block_bytes,
                                                        line_start_headers=line_start_headers))
        return label, None, _easel_chunks(label, fmt, block_bytes)
    if isinstance(source, (bytes, bytearray)):
        raise TypeError("pass sequence text as a file path, or records as (name, sequence) pairs")
    if isinstance(source, Iterable):
        return "<records>", None, _record_chunks(source, block_bytes)
    raise TypeError(f"cannot read target sequences from {type(source).__name__}")


# ---- implementation --------------------------------------------------------------------


_END = object()
T = TypeVar("T")


# ReadAhead objects still reading: (set when its reading has ended, its stop event). At exit
# they are stopped and waited for: the interpreter ends a daemon thread that is inside the
# native FASTA reader by unwinding its C++ frames, which aborts the process (`gpuseq makedb`
# into an existing folder did, after its error message).
_LIVE_READ_AHEADS: set[tuple[threading.Event, threading.Event]] = set()


@atexit.register
def _stop_read_aheads() -> None:
    live = list(_LIVE_READ_AHEADS)
    for _ended, stop in live:
        stop.set()
    for ended, _stop in live:
        ended.wait(timeout=10)  # a block's parse; not a pipe that never ends


class ReadAhead(Iterator[T]):
    """The same items, made on a thread of its own from the moment of the call (so that the
    first one is under way while the caller sets up) and then one ahead of the caller (the
    FASTA parser and the GPU upload release the GIL). At most two items wait; errors are
    raised to the caller where the item would have come; close() stops the thread. Once
    closed, from any thread, it is at its end: a caller waiting for an item (another
    ReadAhead's thread reading this one) stops waiting. With `threads` (a pool), the items
    are made there instead of on a thread of their own: the GPU uploads run on a kept thread
    (backend.cuda_threads)."""

    def __init__(self, chunks: Iterator[T], threads: Executor | None = None) -> None:
        ready: queue.Queue = queue.Queue(maxsize=1)
        stop, ended = threading.Event(), threading.Event()
        producer: list[threading.Thread] = []

        def put(item) -> bool:
            while not stop.is_set():
                try:
                    ready.put(item, timeout=0.1)
                    return True
                except queue.Full:
                    continue
            return False

        def produce() -> None:  # (holds no reference to self: an unused one is collected)
            producer.append(threading.current_thread())
            try:
                for chunk in chunks:
                    if not put((chunk, None)):
                        return
                put((None, _END))
            except BaseException as exc:  # handed to the caller's thread
                put((None, exc))
            finally:
                _LIVE_READ_AHEADS.discard(live)
                ended.set()

        self._ready, self._stop, self._finished = ready, stop, False
        self._ended, self._producer = ended, producer
        live = (ended, stop)
        _LIVE_READ_AHEADS.add(live)
        if threads is None:
            threading.Thread(target=produce, name="gpuseq-read-ahead", daemon=True).start()
        else:
            threads.submit(produce)

    def __iter__(self) -> ReadAhead[T]:
        return self

    def __next__(self) -> T:
        while True:
            if self._finished:
                raise StopIteration
            try:
                chunk, signal = self._ready.get(timeout=0.1)
                break
            except queue.Empty:
                continue
        if signal is _END:
            self.close()
            raise StopIteration
        if signal is not None:
            self.close()
            raise signal
        return chunk

    def close(self, wait: bool = True) -> None:
        """Stop the thread; with `wait`, wait for it to end (a thread inside a read of a pipe
        ends only when the pipe gives more, so an error on the way out does not wait)."""
        self._finished = True
        self._stop.set()
        if wait and threading.current_thread() not in self._producer:
            self._ended.wait()

    def __del__(self) -> None:
        self._stop.set()


def _fasta_chunks(
    path, threads: int, block_bytes: int, reader: _core.FastaReader | None = None,
    line_start_headers: bool = False,
) -> Iterator[SequenceDatabase]:
    label = os.fspath(path)
    if reader is None:
        reader = _fasta_reader(label, threads, line_start_headers)
    any_record = False
    while True:
        chunk = reader.read_chunk(label, block_bytes)
        if chunk is None:
            break
        any_record = True
        yield SequenceDatabase._from_core(chunk, label)
    if not any_record:
        raise EmptyInputError(label, None, "no sequences found")


def _fasta_reader(label: str, threads: int, line_start_headers: bool = False
                  ) -> _core.FastaReader:
    if not os.path.exists(label) and label != "-":
        raise InputError(label, None, "no such file")
    if os.path.isdir(label):
        raise InputError(label, None, "is a directory, not a FASTA file or gpuseq database")
    return _core.FastaReader(label, worker_threads(threads), line_start_headers)


def _stdin_chunks(
    threads: int, block_bytes: int, fmt: str | None = None, line_start_headers: bool = False
) -> Iterator[SequenceDatabase]:
    """Standard input in the format its first line shows, as hmmsearch reads it: FASTA by
    the native reader, anything else by Easel's detection (EMBL/UniProt, GenBank) over the
    same reader's bytes, since a pipe cannot be read twice; or in the format ``fmt`` asserts,
    by Easel's parser over those bytes. Either way gzip is read as the native reader reads it.
    On the read-ahead thread from its first block: a search checks its models meanwhile,
    however slow the pipe."""
    # (Reads the first block, as Easel's detection does.)
    reader = _fasta_reader("-", threads, line_start_headers)
    if fmt is None and reader.first_text_char("-") in (ord(">"), -1):  # -1: blank only
        yield from _fasta_chunks("-", threads, block_bytes, reader)
    else:
        yield from _easel_chunks("-", fmt, block_bytes, handle=_RawStream(reader, "-"))


class _RawStream(io.RawIOBase):
    """The bytes a FastaReader has not parsed, then the rest of its input, as a binary file
    for Easel's parsers (pyhmmer's SequenceFile reads file objects)."""

    def __init__(self, reader: _core.FastaReader, label: str) -> None:
        self.reader, self.label = reader, label

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        data = self.reader.read_raw(self.label, len(buffer))
        buffer[: len(data)] = data
        return len(data)


def _checked_format(format: str | None) -> str | None:
    if format is None:
        return None
    name = str(format).lower()
    if name not in TARGET_FORMATS:
        raise ValueError(
            f"{format} is not a recognized sequence database file format "
            f"(known: {', '.join(TARGET_FORMATS)})"
        )
    return name


def _detected_as_fasta(label: str) -> bool:
    """Easel's first guess for a sequence file: a ``.fa`` suffix (``.gz`` aside), else a first
    non-blank line starting with '>'. Files that cannot be read go to the FASTA reader too,
    which names the problem (missing file, directory, empty file)."""
    stem = label[:-3] if label.endswith(".gz") else label
    if stem.endswith(".fa"):
        return True
    try:
        opener = gzip.open if label.endswith(".gz") else open
        with opener(label, "rb") as fh:
            while line := fh.readline(1 << 16):
                if line.strip():
                    return line.startswith(b">")
    except (OSError, EOFError):
        pass
    return True


def _easel_chunks(
    label: str, fmt: str | None, block_residues: int, handle: Any = None
) -> Iterator[SequenceDatabase]:
    """Any format but FASTA, through Easel's own parser (pyhmmer's SequenceFile): ``fmt`` None
    is Easel's format detection, as hmmsearch runs it without --tformat. ``handle``: a binary
    file object to read instead of ``label`` (standard input already begun)."""
    _pyhmmer.load()
    from pyhmmer.easel import Alphabet, SequenceFile
    from pyhmmer.errors import UnexpectedError

    if label == "-" and fmt == "ncbi":
        raise InputError(label, None, "an NCBI BLAST database cannot be read from standard input")
    if label != "-" and fmt != "ncbi" and not os.path.exists(label):
        raise InputError(label, None, "no such file")
    if os.path.isdir(label):
        raise InputError(label, None, "is a directory, not a sequence file or gpuseq database")
    if handle is None:
        handle = sys.stdin.buffer if label == "-" else label
    undetected = "empty, or of a format Easel does not detect"
    try:
        seqfile = SequenceFile(handle, fmt, digital=True, alphabet=Alphabet.amino())
    except FileNotFoundError:
        raise InputError(label, None, f"no such file ({fmt or 'format detection'})") from None
    except EOFError:
        raise EmptyInputError(label, None, f"no sequences found ({fmt or 'no format'})") from None
    except (ValueError, OSError) as exc:
        what = f"not readable as {fmt}" if fmt else undetected
        raise FormatError(label, None, f"{what}: {_easel_message(exc)}") from None
    except (UnexpectedError, SystemError):
        # Easel's detection over a stream knows only the line-based formats: pyhmmer then
        # says eslEINVAL, at times as a SystemError wrapping it (hmmsearch: "Sequence file -
        # is empty or misformatted").
        if fmt is not None or not isinstance(handle, io.IOBase):
            raise
        raise FormatError(
            label, None, f"{undetected} (on a stream: FASTA, EMBL/UniProt or GenBank; "
            "give the format of anything else)"
        ) from None
    builder = _Builder(label)
    count = 0
    last = None
    with seqfile:
        while True:
            try:
                seq = seqfile.read()
            except (ValueError, OSError) as exc:
                # Easel's line-based parsers say "Line N: ..."; its alignment parsers do not.
                message = _easel_message(exc)
                line = re.match(r"Line (\d+): (.*)", message, re.S)
                if line:
                    message = line.group(2)
                after = f" after record {count} ({last!r})" if count else " in the first record"
                raise FormatError(
                    label, int(line.group(1)) if line else None, message + after
                ) from None
            if seq is None:
                break
            count += 1
            name, accession, description, codes = _record_fields(seq, count - 1, label)
            last = name.decode("utf-8", "replace")
            builder.add(name, accession, description, codes)
            if builder.residue_count >= block_residues:
                yield builder.build()
                builder = _Builder(label)
    if count == 0:
        raise EmptyInputError(label, None, "no sequences found")
    if builder.count:
        yield builder.build()


def _easel_message(exc: Exception) -> str:
    text = str(exc).strip()
    for prefix in ("Could not parse file: ", "Invalid format in file: "):
        text = text.removeprefix(prefix)
    return text or type(exc).__name__


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


def _record_fields(record: Any, index: int, source: str) -> tuple[bytes, bytes, bytes, np.ndarray]:
    """(name, accession, description, codes) of one record of a supported type."""
    # pyhmmer digital sequences: already Easel codes.
    try:
        _pyhmmer.load()
        from pyhmmer.easel import DigitalSequence, TextSequence
    except ImportError:  # pragma: no cover - pyhmmer is a dependency
        DigitalSequence = TextSequence = ()
    if isinstance(record, DigitalSequence):
        if record.alphabet.K != 20:
            raise FormatError(source, None, "not an amino-acid sequence", _as_str(record.name))
        name = _as_bytes(record.name)
        codes = np.asarray(record.sequence, dtype=np.uint8).copy()
        name = _checked_name(name, index, source)
        return name, _as_bytes(record.accession), _as_bytes(record.description), codes
    if isinstance(record, TextSequence):
        name = _checked_name(_as_bytes(record.name), index, source)
        codes = _digitize(record.sequence, name, source)
        return name, _as_bytes(record.accession), _as_bytes(record.description), codes
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
        return name, b"", desc.encode(), _digitize(str(record.seq), name, source)
    if isinstance(record, tuple) and len(record) == 2:
        name = _checked_name(_as_bytes(record[0]), index, source)
        return name, b"", b"", _digitize(record[1], name, source)
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
        self.accessions: list[bytes] = []
        self.descriptions: list[bytes] = []
        self.residue_count = 0

    @property
    def count(self) -> int:
        return len(self.names)

    def add(self, name: bytes, accession: bytes, description: bytes, codes: np.ndarray) -> None:
        self.names.append(name)
        self.accessions.append(accession)
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
        accs, acc_offsets = packed(self.accessions)
        return SequenceDatabase(
            residues.astype(np.uint8, copy=False),
            offsets,
            names,
            name_offsets,
            descs,
            desc_offsets,
            self.source,
            accs,
            acc_offsets,
        )
