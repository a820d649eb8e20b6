"""BLASTP on the CPU, equal to NCBI blastp 2.12 (composition-based statistics 0 to 3).

The C++ stages live in ``cpp/blast`` (spec: ``shared/specs/blastp.md``); each one can be
called on its own here, as the GPU stages will be compared against them:

- :func:`query_statistics`: the query's ungapped Karlin-Altschul block, the effective search
  space, the X-drop and the cutoffs; :func:`gapped_statistics` and :func:`gapped_scores`:
  gapped blastp's search space, E-values (Spouge's finite-size correction) and bit scores;
- :func:`word_hits`: the neighbourhood-word lookup table (w = 3, T = 11, BLOSUM62) and subject
  scanning, as (subject, query offset, subject offset) hits;
- :func:`ungapped_hsps`: the two-hit rule (window 40) with the ungapped X-drop extension;
- :func:`blastp_ungapped`: ``blastp -ungapped -comp_based_stats 0 -seg no`` end to end, as
  a DataFrame of blastp's ``-outfmt "6 std qlen slen score nident gaps positive qcovs"``
  columns;
  :func:`blastp_gapped`: ``blastp -seg no`` (the preliminary score-only X-drop extension,
  the traceback or, with ``comp_based_stats`` 1 or 2, blastp's composition stage, Spouge's
  E-values); :func:`outfmt6_lines` prints either as blastp does.

Sequences are given as FASTA paths, :class:`~gpuseq.SequenceDatabase` objects or records
(``(name, sequence)`` pairs, Biopython ``SeqRecord``), read with the project's FASTA reader
(Easel's letters). They are turned into NCBIstdaa codes as blastp does: ``.`` and ``~`` are
dropped; in queries ``O`` is searched as ``X`` (identities still compare the letter ``O``).
"""

from __future__ import annotations

import copy
import math
import os
import re
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

import numpy as np

from . import _checks as checks
from . import _core
from ._output import OutputFile
from .backend import worker_threads
from .errors import EmptyInputError, FormatError, UnsupportedOptionError
from .sequences import (
    SequenceDatabase,
    SequenceSource,
    iter_sequence_chunks,
    kept_device_copy,
)

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "OUTFMT6_COLUMNS",
    "ALIGNED_COLUMNS",
    "TITLE_COLUMNS",
    "BLASTP_QUERY_BATCH",
    "blastp",
    "write_tabular",
    "query_titles",
    "blastp_ungapped",
    "blastp_gapped",
    "query_statistics",
    "gapped_statistics",
    "gapped_scores",
    "gap_cost_rows",
    "word_hits",
    "ungapped_hsps",
    "encode",
    "outfmt6_lines",
    "format_evalue",
    "format_bitscore",
]

#: The DataFrame's columns: outfmt 6 ``std`` plus ``qlen slen score nident gaps positive
#: qcovs`` (qcovs: the percent of the query all the subject's HSPs cover, on each of its rows).
OUTFMT6_COLUMNS = [
    "qseqid",
    "sseqid",
    "pident",
    "length",
    "mismatch",
    "gapopen",
    "qstart",
    "qend",
    "sstart",
    "send",
    "evalue",
    "bitscore",
    "qlen",
    "slen",
    "score",
    "nident",
    "gaps",
    "positive",
    "qcovs",
]
#: The columns ``aligned_sequences=True`` adds: blastp's qseq and sseq, each row's aligned query
#: and subject residues with '-' for gaps (what the fields qseq, sseq and btop print).
ALIGNED_COLUMNS = ["qseq", "sseq"]
#: The columns ``subject_titles=True`` adds: blastp's stitle, the title makeblastdb stores for
#: the subject's header line (what the fields stitle and salltitles print), and soid, the
#: subject's number in the database (makeblastdb's OID: empty records are not counted).
TITLE_COLUMNS = ["stitle", "soid"]

_EASEL_TO_NCBI = np.asarray(_core.blast_easel_to_ncbi, dtype=np.uint8)
_DROPPED = 255
_NCBI_O, _NCBI_X = _core.blast_letters.index("O"), _core.blast_letters.index("X")


def _translated(residues: np.ndarray, table: np.ndarray) -> np.ndarray:
    """table[residues], by blocks on all cores (NumPy's indexing releases the GIL): 75
    million residues took 0.23 s as one call, 0.04 s by blocks on 2 cores."""
    block = 1 << 22
    if len(residues) <= block:
        return table[residues]
    out = np.empty(len(residues), dtype=table.dtype)

    def one(start: int) -> None:
        out[start : start + block] = table[residues[start : start + block]]

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        list(pool.map(one, range(0, len(residues), block)))
    return out


class _Encoded:
    """Sequences as NCBIstdaa codes back to back, with their names."""

    def __init__(self, db: SequenceDatabase) -> None:
        codes = _translated(db.residues, _EASEL_TO_NCBI)
        offsets = np.asarray(db.offsets, dtype=np.int64) - db.offsets[0]
        keep = codes != _DROPPED
        if keep.all():  # the usual case: nothing to drop
            self.codes, self.offsets = codes, offsets
        else:
            # Gaps are dropped; a code that is no residue at all (a damaged database) is an
            # error, not one more gap.
            invalid = np.flatnonzero(np.asarray(db.residues) >= len(_core.alphabet_symbols))
            if invalid.size:
                at = int(invalid[0])
                i = int(np.searchsorted(offsets, at, side="right")) - 1
                raise FormatError(
                    db.source, None,
                    f"residue code {int(db.residues[at])} at position {at - offsets[i]} is not "
                    f"an amino-acid code (0..{len(_core.alphabet_symbols) - 1})",
                    record=db.name(i),
                )
            # Offsets after dropping: count the kept residues before each sequence start.
            kept_before = np.concatenate([[0], np.cumsum(keep, dtype=np.int64)])
            self.codes = np.ascontiguousarray(codes[keep])
            self.offsets = kept_before[offsets]
        # Names are read from the database when asked for, for the hits alone (a list of all
        # 200,000 subjects' names took 0.37 s of a 1.6 s search).
        self._db, self._index = db, None  # _index: this one's sequence i is db's _index[i]
        self.source = db.source
        self.held = False  # kept by a database the caller holds (_subjects)

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def name(self, i: int) -> str:
        return self._db.name(self.record(i))

    def description(self, i: int) -> str:
        return self._db.description(self.record(i))

    def record(self, i: int) -> int:
        """The number of sequence i in the database it was read from (empty ones counted)."""
        return int(i) if self._index is None else int(self._index[i])

    @property
    def names(self) -> list[str]:
        return [self.name(i) for i in range(len(self))]

    def without_empty(self) -> _Encoded:
        """The sequences that have residues: makeblastdb leaves empty records out of a
        database (they count neither as sequences nor as letters)."""
        lengths = np.diff(self.offsets)
        if (lengths > 0).all():
            return self
        kept = copy.copy(self)
        kept.offsets = np.concatenate([[0], np.cumsum(lengths[lengths > 0])]).astype(np.int64)
        kept._index = np.flatnonzero(lengths > 0)
        if self._index is not None:
            kept._index = self._index[kept._index]
        return kept

    def sequence(self, i: int) -> np.ndarray:
        return self.codes[self.offsets[i] : self.offsets[i + 1]]


def encode(sequences: SequenceSource) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """NCBIstdaa codes, offsets and names of sequences as blastp stores a database."""
    enc = _read(sequences)
    return enc.codes, enc.offsets, enc.names


def _read(sequences: SequenceSource | _Encoded) -> _Encoded:
    if isinstance(sequences, _Encoded):
        return sequences
    if isinstance(sequences, SequenceDatabase):
        return _Encoded(sequences)
    if isinstance(sequences, (str, os.PathLike)) or isinstance(sequences, Iterable):
        label, _, chunks = iter_sequence_chunks(sequences, line_start_headers=True)
        return _Encoded(SequenceDatabase.concatenate(list(chunks), label))
    raise TypeError(f"cannot read sequences from {type(sequences).__name__}")


def _query_buffers(codes: np.ndarray, name: str, source: str) -> tuple[np.ndarray, np.ndarray]:
    """(search buffer, letters) of one query: blastp searches O as X (GetSequenceProtein)."""
    if len(codes) == 0:
        raise EmptyInputError(source, None, "query has no residues", name)
    letters = np.ascontiguousarray(codes)
    search = letters.copy()
    search[search == _NCBI_O] = _NCBI_X
    return search, letters


# blastp -seg yes on queries: SEG with window 12, locut 2.2, hicut 2.5 (blast_seg.c defaults).
_QUERY_SEG = (12, 2.2, 2.5)


def _queries(
    query_db: _Encoded, seg: bool | tuple = False,
    lower_case: list[list[tuple[int, int]]] | None = None,
    located: _QueryLocation | None = None,
) -> tuple[list[np.ndarray], list[np.ndarray], list[str], list[list[tuple[int, int]]],
           list[list[tuple[int, int]]]]:
    """(search buffers, letters, ids as blastp prints them, lookup segments, masks) of every
    query, all searched together (masks: SEG's and the lower-case ranges, (start, end) from 0
    and inclusive, joined as blastp joins them, BlastSeqLocCombine). With ``seg`` (True:
    blastp's defaults; or SEG's (window, locut, hicut)) each query is masked as blastp -seg
    masks it (BlastSetUp_MaskQuery): SEG runs on the search buffer (O already X), its
    segments become X there (so the Karlin-Altschul block, the extensions and the
    composition stage all see X) and the lookup table takes only words wholly outside them;
    identities still compare the original letters. ``lower_case`` (-lcase_masking: each
    query's runs of lower-case letters, :func:`_lower_case_ranges`) masks those runs too.
    ``located`` (-query_loc): each query's part alone, the coordinates the part's."""
    searches, letters, segments, masks = [], [], [], []
    for qi in range(len(query_db)):
        search, original = _query_buffers(
            query_db.sequence(qi), query_db.name(qi), query_db.source
        )
        ranges = list(lower_case[qi]) if lower_case else []
        if located is not None:
            part = located.part(qi)
            search, original = search[part].copy(), original[part].copy()
            ranges = [(max(a, part.start) - part.start, min(b, part.stop - 1) - part.start)
                      for a, b in ranges if b >= part.start and a < part.stop]
        if seg:  # (SEG runs before the lower-case runs are masked: s_GetFilteringLocations...)
            ranges += _core.blast_seg(search, *(_QUERY_SEG if seg is True else seg))
        unmasked, joined = [(0, len(search))], []
        if ranges:
            unmasked, start = [], 0
            for begin, end in sorted(ranges):  # inclusive
                search[begin : end + 1] = _NCBI_X
                if begin > start:
                    unmasked.append((start, begin))
                start = max(start, end + 1)
                if joined and joined[-1][1] > begin:  # (overlapping, not touching)
                    joined[-1] = (joined[-1][0], max(joined[-1][1], end))
                else:
                    joined.append((begin, end))
            if start < len(search):
                unmasked.append((start, len(search)))
        searches.append(search)
        letters.append(original)
        segments.append(unmasked)
        masks.append(joined)
    ids = [_query_id(query_db.name(i), query_db.description(i)) for i in range(len(query_db))]
    return searches, letters, ids, segments, masks


def _single_query(query: Any) -> tuple[np.ndarray, np.ndarray, str]:
    """A query given as a code array, a string of letters, or anything _read takes."""
    if isinstance(query, np.ndarray):
        codes = np.ascontiguousarray(query, dtype=np.uint8)
        return codes, codes, "<query>"
    if isinstance(query, str) and not os.path.exists(query):
        query = [("query", query)]
    enc = _read(query)
    search, letters = _query_buffers(enc.sequence(0), enc.name(0), enc.source)
    return search, letters, enc.name(0)


def query_statistics(
    query: Any,
    db_length: int,
    db_sequences: int,
    evalue: float = 10.0,
    xdrop_ungap: float = 7.0,
    average_subject_length: int | None = None,
) -> dict:
    """What blastp -ungapped derives from a query and the database size.

    ``db_length`` is the database's total residues (or ``-dbsize``);
    ``average_subject_length`` its real total over ``db_sequences`` (the default, which
    ``-dbsize`` does not change).

    Returns a dict: ``lambda``, ``K``, ``logK``, ``H`` (the query's ungapped Karlin-Altschul
    block, the first "Lambda K H" line of blastp's report), ``valid``, ``length_adjustment``,
    ``search_space`` (the report's "Effective search space used"), ``x_drop``,
    ``gap_trigger``, ``evalue_cutoff`` and ``word_cutoff`` (raw scores).
    """
    search, _, _ = _single_query(query)
    return _core.blast_ungapped_query_statistics(
        search,
        int(db_length),
        int(db_sequences),
        float(evalue),
        float(xdrop_ungap),
        -1 if average_subject_length is None else int(average_subject_length),
    )


def gapped_statistics(query_length: int, db_length: int, db_sequences: int,
                      gapopen: int | None = None, gapextend: int | None = None,
                      matrix: str = "BLOSUM62") -> dict:
    """Gapped blastp's block (the matrix's row of the gap costs, :func:`gap_cost_rows`; None
    its defaults) ``lambda``, ``K``, ``logK``, ``H``, ``length_adjustment`` and
    ``search_space`` (the report's "Effective search space used")."""
    row = _gap_costs(gapopen, gapextend, matrix=matrix)
    return _core.blast_gapped_statistics(int(query_length), int(db_length), int(db_sequences),
                                         row["gap_open"], row["gap_extend"], _matrix(matrix))


def gapped_scores(
    scores: Any, query_length: int, subject_lengths: Any, db_length: int,
    gapopen: int | None = None, gapextend: int | None = None, matrix: str = "BLOSUM62",
) -> tuple[np.ndarray, np.ndarray]:
    """(E-values, bit scores) gapped blastp gives raw scores: Spouge's finite-size corrected
    E-value with the real query and subject lengths and the database length (the matrix
    with gap costs gapopen/gapextend, None its defaults)."""
    row = _gap_costs(gapopen, gapextend, matrix=matrix)
    scores = np.asarray(scores, dtype=np.int32)
    lengths = np.broadcast_to(np.asarray(subject_lengths, dtype=np.int32), scores.shape)
    r = _core.blast_gapped_scores(scores, int(query_length), lengths, int(db_length),
                                  row["gap_open"], row["gap_extend"], _matrix(matrix))
    return r["evalue"], r["bit_score"]


def word_hits(query: Any, subjects: SequenceSource, threshold: int = 11) -> pd.DataFrame:
    """Every word hit of the subjects in blastp's scan order: columns ``subject`` (index),
    ``query_offset``, ``subject_offset`` (0-based starts of the 3-residue words)."""
    import pandas as pd

    search, _, _ = _single_query(query)
    db = _read(subjects)
    return pd.DataFrame(_core.blast_word_hits(search, db.codes, db.offsets, int(threshold)))


def ungapped_hsps(
    query: Any,
    subjects: SequenceSource,
    x_drop: int,
    cutoff: int,
    window: int = 40,
    threshold: int = 11,
    backend: str = "cpu",
    **gpu_options: int | str,
) -> pd.DataFrame:
    """The two-hit ungapped extensions scoring at least ``cutoff`` (raw X-drop ``x_drop``),
    each subject's in blastp's HSP order: columns ``subject``, ``q_start``, ``s_start``
    (0-based), ``length``, ``score``, ``seed_q``, ``seed_s`` (the second word hit).

    ``backend="cuda"`` runs the stage on the GPU (``cuda/blast``; the same rows);
    ``gpu_options``: ``sort`` (how the word hits are sorted by diagonal: ``"tiles"``, the
    default and the faster on the H100: counted, then gathered and sorted a tile of diagonals
    at a time in shared memory; ``"bins"``, the paper's: appended to diagonal bins, then CUB's
    segmented sort), for ``"bins"`` ``bins`` (diagonal bins per subject, a power of two; 0,
    the default: from each subject's expected hits, about ``hits_per_bin`` (24) a bin) and
    ``bin_capacity`` (hit slots per bin, 0: estimated; overflowing bins are redone),
    ``batch_hits`` (hit slots per batch of subjects; 0: from the GPU's free memory; a failed
    allocation halves it), ``extension`` (``"diagonal"``: a thread per diagonal; ``"hit"``,
    the default and the fastest on the H100: a thread per pair, then each diagonal replayed to
    keep the extensions blastp runs; ``"window"``: a warp per diagonal, 32 cells a step),
    ``scoring`` (``"pssm"``: a query PSSM in shared memory, at most 4,000 residues;
    ``"blosum62"``; ``"auto"``: the PSSM for short queries).
    """
    search, _, _ = _single_query(query)
    db = _read(subjects)
    args = (search, db.codes, db.offsets, int(x_drop), int(cutoff), int(window), int(threshold))
    if _use_gpu(backend):
        rows, _ = _core.gpu_blast_ungapped_hsps(*args, **gpu_options)
    else:
        rows, _ = _core.blast_ungapped_hsps(*args)
    import pandas as pd

    return pd.DataFrame(rows)


def _use_gpu(backend: str) -> bool:
    """Whether blastp's two-hit stage runs on the GPU: backend "cuda" (BackendError where it
    cannot) or "auto" with a usable GPU (the CPU otherwise, with one BackendFallbackWarning
    where a GPU build finds none)."""
    from .backend import resolve_backend

    return resolve_backend(backend, "blastp") == "cuda"


# The GPU stage's hit keys hold query and subject offsets in 21 bits: the concatenated queries
# plus the longest subject must stay under this (cuda/blast/gpu_ungapped.cu, kOffsetBits).
_GPU_STAGE_RESIDUES = 1 << 21


def _stage(backend: str, gpu_options: dict | None) -> tuple[str, dict]:
    """The searches' two-hit stage and its options (_core.blast_*_search's stage,
    stage_options): the GPU's with gpu_options, or the CPU's. For the GPU's, the CUDA context
    is made on a thread meanwhile (0.1-0.3 s), while the inputs are read."""
    if _use_gpu(backend):
        from .backend import start_cuda

        start_cuda("gpuseq-cuda-init")
        return "cuda", dict(gpu_options or {})
    return "cpu", {}


def _fitted_stage(stage: tuple[str, dict], backend: str, searches, db) -> tuple[str, dict]:
    """stage, or for backend "auto" the CPU's where the inputs pass the GPU stage's limit on
    residues (with a BackendFallbackWarning saying so); "cuda" keeps the GPU's, which then
    refuses them."""
    if stage[0] != "cuda" or backend != "auto":
        return stage
    queries = sum(len(s) for s in searches) + len(searches)  # with the separators
    longest = int(np.diff(db.offsets).max())
    if queries + longest < _GPU_STAGE_RESIDUES:
        return stage
    import warnings

    from .backend import BackendFallbackWarning

    warnings.warn(
        f"blastp: running on the CPU (the queries' {queries:,} residues plus the longest "
        f"subject's {longest:,} reach the GPU stage's limit of {_GPU_STAGE_RESIDUES:,}; "
        "search fewer queries at a time to use the GPU)",
        BackendFallbackWarning,
        stacklevel=3,
    )
    return "cpu", {}


def blastp_ungapped(
    queries: SequenceSource,
    subjects: SequenceSource,
    evalue: float = 10.0,
    max_target_seqs: int = 500,
    threshold: int = 11,
    window_size: int = 40,
    xdrop_ungap: float = 7.0,
    dbsize: int | None = None,
    threads: int = 0,
    seg: bool | tuple = False,
    max_hsps: int | None = None,
    searchsp: int | None = None,
    qcov_hsp_perc: float | None = None,
    backend: str = "auto",
    as_frame: bool = True,
    aligned_sequences: bool = False,
    subject_titles: bool = False,
    gpu_options: dict | None = None,
    counters: dict | None = None,
    named_as_queries: bool = False,
    lcase_masking: bool = False,
    query_loc: tuple[int, int] | str | None = None,
    matrix: str = "BLOSUM62",
) -> pd.DataFrame | dict[str, np.ndarray]:
    """``blastp -ungapped -comp_based_stats 0 -seg no`` of every query against the subjects
    (``matrix``: one of :func:`matrices`).

    Arguments are blastp's flags of the same names (``dbsize``: ``-dbsize``, the database
    length used for statistics; default the subjects' total residues; ``seg``: ``-seg yes``,
    SEG on the queries; ``max_hsps``: ``-max_hsps``, each subject's first N HSPs, None for
    all; ``searchsp``: ``-searchsp``, the search space of the E-values, None or 0 for the
    computed one; ``qcov_hsp_perc``: ``-qcov_hsp_perc``, the least percent of the query an
    HSP covers, None or 0 for any). ``backend="cuda"`` runs the two-hit stage (hit
    detection, ungapped extension) on the GPU, the same rows; ``"auto"`` (the default) and
    ``"cpu"`` run it on the CPU. ``gpu_options``: the GPU stage's ``sort``, ``bins``,
    ``bin_capacity``, ``batch_hits``, ``extension`` and ``scoring``, as :func:`ungapped_hsps`
    takes them (the rows do not change).
    ``counters``: a dict to fill with the search's ``word_hits``, ``extensions``,
    ``ungapped_hsps`` and ``seconds`` by stage (``lookup``; ``scan``: the two-hit stage and,
    gapped, the preliminary gapped extension; ``wait``: the CPU threads' mean wait for the GPU's
    batches; ``traceback``; ``lists``; the GPU stage's ``gpu_detect``, ``gpu_sort``, ...;
    ``resident_upload_s``: the seconds a held database's first GPU search took to upload it;
    ``query_hsps``: each query's number of rows, in input order, which ``-outfmt 7`` prints;
    ``query_searched``: whether blastp's command searches each query: not those of a batch
    of :data:`BLASTP_QUERY_BATCH` residues none of which has Karlin-Altschul statistics).

    Returns:
        A DataFrame with :data:`OUTFMT6_COLUMNS` (``evalue``, ``bitscore`` and ``pident`` as
        numbers; :func:`outfmt6_lines` prints them as blastp does), rows in blastp's order:
        queries in input order, subjects by best E-value, each subject's HSPs by score. With
        ``as_frame=False`` the same columns as a dict of NumPy arrays, and pandas is not
        imported (the command line's way: the import takes a quarter of a second).
        ``aligned_sequences=True`` adds :data:`ALIGNED_COLUMNS`, qseq and sseq, each row's
        aligned residues as strings (what ``-outfmt`` fields qseq, sseq and btop print).
        ``subject_titles=True`` adds :data:`TITLE_COLUMNS`: stitle, the subject's title as
        makeblastdb stores its header line (the fields stitle and salltitles; the line as
        a FASTA file of subjects has it, else the name and description joined by a space),
        and soid, its number in the database (makeblastdb's OID).
        ``named_as_queries=True`` names the subjects as ``blastp -subject`` does
        (:func:`blastp`'s ``subject``); ``lcase_masking=True`` masks the queries' lower-case
        letters as ``-lcase_masking`` does.

    Raises:
        EmptyInputError: no queries or subjects, or a query without residues.
        AlphabetError, FormatError: unreadable sequences (file, line and record named).
    """
    stage = _stage(backend, gpu_options)
    hsps_kept, space = _max_hsps(max_hsps), _searchsp(searchsp, given=0)
    db, db_length, searches, letters, query_ids, segments, masks, located = _search_inputs(
        queries, subjects, dbsize, seg, lcase_masking, _query_loc(query_loc)
    )
    stage = _fitted_stage(stage, backend, searches, db)
    codes, subject_letters = _as_queries_are(db, named_as_queries)
    if not subject_letters:  # (a held GPU copy has the letters as read)
        stage = _resident_stage(stage, db, counters)
    results, found = _core.blast_ungapped_search(
        searches,
        letters,
        codes,
        db.offsets,
        db_length,
        float(evalue),
        int(max_target_seqs),
        int(threshold),
        int(window_size),
        float(xdrop_ungap),
        worker_threads(threads),
        segments,
        *stage,
        max_hsps=hsps_kept,
        searchsp=space,
        qcov_hsp_perc=_qcov_hsp_perc(qcov_hsp_perc),
        db_sequences=_statistics_sequences(db, named_as_queries),
        matrix=_matrix(matrix),
        **subject_letters,
    )
    if counters is not None:
        counters.update(found, query_hsps=_query_hsps(results),
                        query_searched=_query_searched(searches, results),
                        **_report_statistics(results, searches, letters, db, masks,
                                             db_sequences=_statistics_sequences(
                                                 db, named_as_queries)))
    if counters is not None and located is not None:
        located.moved(counters)
    return _hits(db, query_ids, searches, results, as_frame,
                 letters if aligned_sequences else None, subjects if subject_titles else None,
                 named_as_queries, located.offsets if located is not None else None)


def blastp_gapped(
    queries: SequenceSource,
    subjects: SequenceSource,
    evalue: float = 10.0,
    max_target_seqs: int = 500,
    threshold: int = 11,
    window_size: int = 40,
    xdrop_ungap: float = 7.0,
    xdrop_gap: float = 15.0,
    xdrop_gap_final: float = 25.0,
    dbsize: int | None = None,
    threads: int = 0,
    comp_based_stats: int = 0,
    seg: bool | tuple = False,
    max_hsps: int | None = None,
    searchsp: int | None = None,
    qcov_hsp_perc: float | None = None,
    backend: str = "auto",
    as_frame: bool = True,
    aligned_sequences: bool = False,
    subject_titles: bool = False,
    gpu_options: dict | None = None,
    counters: dict | None = None,
    named_as_queries: bool = False,
    lcase_masking: bool = False,
    query_loc: tuple[int, int] | str | None = None,
    gapopen: int | None = None,
    gapextend: int | None = None,
    matrix: str = "BLOSUM62",
) -> pd.DataFrame | dict[str, np.ndarray]:
    """``blastp -seg no`` (gapped; the matrix, :func:`matrices`, with gap costs
    gapopen/gapextend, a pair of its :func:`gap_cost_rows`, None its defaults) of every query
    against the subjects: the preliminary score-only X-drop extension, the traceback,
    Spouge's E-values.
    Arguments and the returned DataFrame as :func:`blastp_ungapped` (``xdrop_gap``,
    ``xdrop_gap_final``: blastp's flags of those names, in bits; ``searchsp`` given, even as
    0, makes every E-value and cutoff the classic formula's, as blastp's does).
    ``comp_based_stats`` 1, 2 or 3 replaces the traceback by blastp's composition stage
    (each subject SEG-masked, its own adjusted matrix, realigned in 1/32 units); see
    docs/architecture.md for what of it is still approximate. ``seg``: ``-seg yes`` (SEG on
    the queries). ``backend``, ``as_frame``, ``aligned_sequences``, ``gpu_options`` and
    ``counters`` as :func:`blastp_ungapped` (the gapped stages stay on the CPU, taking each
    batch of subjects as the GPU finishes it).
    """
    stage = _stage(backend, gpu_options)
    hsps_kept, space = _max_hsps(max_hsps), _searchsp(searchsp, given=-1)
    matrix = _matrix(matrix)
    gap_costs = _gap_costs(gapopen, gapextend, matrix=matrix)
    db, db_length, searches, letters, query_ids, segments, masks, located = _search_inputs(
        queries, subjects, dbsize, seg, lcase_masking, _query_loc(query_loc)
    )
    stage = _fitted_stage(stage, backend, searches, db)
    codes, subject_letters = _as_queries_are(db, named_as_queries)
    if not subject_letters:  # (a held GPU copy has the letters as read)
        stage = _resident_stage(stage, db, counters)
    results, found = _core.blast_gapped_search(
        searches,
        letters,
        codes,
        db.offsets,
        db_length,
        float(evalue),
        int(max_target_seqs),
        int(threshold),
        int(window_size),
        float(xdrop_ungap),
        float(xdrop_gap),
        float(xdrop_gap_final),
        worker_threads(threads),
        int(comp_based_stats),
        segments,
        *stage,
        max_hsps=hsps_kept,
        searchsp=space,
        qcov_hsp_perc=_qcov_hsp_perc(qcov_hsp_perc),
        db_sequences=_statistics_sequences(db, named_as_queries),
        gap_open=gap_costs["gap_open"],
        gap_extend=gap_costs["gap_extend"],
        matrix=matrix,
        **subject_letters,
    )
    if counters is not None:
        counters.update(found, query_hsps=_query_hsps(results),
                        query_searched=_query_searched(searches, results),
                        gap_costs=gap_costs,
                        **_report_statistics(results, searches, letters, db, masks,
                                             gapped=(db_length, space, gap_costs, matrix),
                                             db_sequences=_statistics_sequences(
                                                 db, named_as_queries)))
    if counters is not None and located is not None:
        located.moved(counters)
    return _hits(db, query_ids, searches, results, as_frame,
                 letters if aligned_sequences else None, subjects if subject_titles else None,
                 named_as_queries, located.offsets if located is not None else None)


def _as_queries_are(db: _Encoded, named_as_queries: bool) -> tuple[np.ndarray, dict]:
    """(the subjects' codes to search, the searches' subject_letters keyword): blastp
    -subject searches a subject's O as X, as a query's (GetSequenceProtein), and counts
    identities on the letters as read; a database's O is searched as it is."""
    if not named_as_queries or not (db.codes == _NCBI_O).any():
        return db.codes, {}
    codes = db.codes.copy()
    codes[codes == _NCBI_O] = _NCBI_X
    return codes, dict(subject_letters=db.codes)


def _statistics_sequences(db: _Encoded, named_as_queries: bool) -> int:
    """The number of subjects blastp's statistics count: 0 for the database's own (its
    sequences with residues, as makeblastdb stores them), or -subject's records, empty ones
    too (its BlastSeqSrc keeps them, to be skipped)."""
    return len(db._db) if named_as_queries else 0


def _search_inputs(queries, subjects, dbsize, seg=False, lcase_masking=False, query_loc=None):
    """(subjects without empty records, database length for the statistics, the queries'
    search buffers, letters, ids, lookup segments and masks: SEG's, and the lower-case runs
    with ``lcase_masking``; and with ``query_loc``, (start, stop) from 1, the part of each
    query searched: its :class:`_QueryLocation`, else None), or EmptyInputError naming the
    source."""
    query_db = _read(queries)
    db = _subjects(subjects)
    if len(query_db) == 0:
        raise EmptyInputError(query_db.source, None, "no query sequences")
    if len(db) == 0:
        raise EmptyInputError(db.source, None, "no subject sequences")
    db_length = int(dbsize) if dbsize else int(db.offsets[-1])
    lower = _lower_case_ranges(queries, len(query_db)) if lcase_masking else None
    located = None if query_loc is None else _QueryLocation(query_db, query_loc)
    return (db, db_length, *_queries(query_db, seg, lower, located), located)


class _QueryLocation:
    """-query_loc start-stop: blastp searches that part of every query (SEG and the
    lower-case runs on it alone) and reports the rows in the whole query's coordinates; the
    pairwise report prints each query's whole length, the other reports the part's.
    ``offsets``: each part's start from 0; ``lengths``: each whole query's length. A query
    shorter than stop is refused: blastp then cuts the part at the query's end but reports
    the requested length as its qlen and qcovs (and past its end skips it)."""

    def __init__(self, query_db: _Encoded, query_loc: tuple[int, int]):
        start, stop = query_loc
        self.lengths = [len(query_db.sequence(i)) for i in range(len(query_db))]
        for i, length in enumerate(self.lengths):
            if stop > length:
                raise UnsupportedOptionError(
                    f"blastp -query_loc {start}-{stop}: query {query_db.name(i)!r} of "
                    f"{query_db.source} has {length} residues; gpuseq implements ranges that "
                    "end inside every query so far (blastp cuts the range at the query's end "
                    "but prints the range's length as qlen)")
        self.start, self.stop = start, stop
        self.offsets = [start - 1] * len(query_db)

    def part(self, i: int) -> slice:
        return slice(self.offsets[i], self.stop)

    def moved(self, counters: dict) -> None:
        """The counters' query masks in the whole queries' coordinates, and
        ``query_full_lengths`` (the pairwise report's Length). The O positions stay the
        part's, which blastp's warning names."""
        counters["query_masks"] = [[(a + d, b + d) for a, b in masks] for masks, d in
                                   zip(counters["query_masks"], self.offsets)]
        counters["query_full_lengths"] = list(self.lengths)


def _query_loc(query_loc) -> tuple[int, int] | None:
    """-query_loc read as blastp reads it: "start-stop" (two integers split at the first
    '-', a '+' allowed), 1 <= start < stop; or a (start, stop) pair. ValueError with
    blastp's reason otherwise."""
    if query_loc is None:
        return None
    if isinstance(query_loc, str):
        first, dash, second = query_loc.partition("-")
        if not dash or not first or not second:
            raise ValueError(f"-query_loc {query_loc!r}: invalid specification of query "
                             "location (Format: start-stop)")
        numbers = []
        for text in (first, second):
            if not re.fullmatch(r"[+-]?[0-9]+", text) or not -2**63 <= int(text) < 2**63:
                raise ValueError(f"-query_loc {query_loc!r}: cannot convert {text!r} to an "
                                 "integer (blastp: Cannot convert string to Int8)")
            numbers.append(int(text))
        start, stop = numbers
    else:
        try:
            start, stop = (checks.integer(v, "query_loc") for v in query_loc)
        except (TypeError, ValueError):
            raise ValueError(f"query_loc must be 'start-stop' or (start, stop), not "
                             f"{query_loc!r}") from None
    if start <= 0 or stop <= 0:
        reason = "range elements cannot be less than or equal to 0"
    elif start > stop:
        reason = "start cannot be larger than stop"
    elif start == stop:
        reason = "range cannot be empty"
    else:
        return start, stop
    raise ValueError(f"-query_loc {start}-{stop}: invalid specification of query location "
                     f"({reason})")


def _subjects(subjects: SequenceSource) -> _Encoded:
    """The subjects as the searches take them: encoded, without empty records. A
    SequenceDatabase the caller holds keeps them in its ``device_copies`` (under the key
    ``("blastp", device_key)``; the GPU copy a search makes under ``("blastp-gpu",
    device_key)``): later searches of it skip the encoding and the upload
    (``free_device_memory()`` drops both)."""
    if not isinstance(subjects, SequenceDatabase):
        return _read(subjects).without_empty()
    if subjects.device_copies is None:
        subjects.device_copies = {}
    key = ("blastp", subjects.device_key)
    held = subjects.device_copies.get(key)
    if held is None:
        held = _read(subjects).without_empty()
        held.held = True
        subjects.device_copies[key] = held
    return held


def _resident_stage(stage: tuple[str, dict], db: _Encoded,
                    counters: dict | None) -> tuple[str, dict]:
    """The GPU stage given the subjects' GPU copy where the database is held (_subjects),
    kept beside its encoding: made by the first GPU search (its seconds in the counters'
    ``resident_upload_s``). Where it does not fit, even with the other kept copies dropped
    (kept_device_copy), the search uploads the subjects itself, for itself alone."""
    if stage[0] != "cuda" or not db.held:
        return stage
    copies, device_key = db._db.device_copies, db._db.device_key
    key = ("blastp-gpu", device_key)
    uploading, started = key not in copies, time.perf_counter()
    device = kept_device_copy(copies, key, lambda: _core.GpuBlastSubjects(db.codes, db.offsets),
                              keep=("blastp", device_key))  # fmt: skip
    if device is None:
        return stage
    if uploading and counters is not None:
        counters["resident_upload_s"] = time.perf_counter() - started
    return stage[0], {**stage[1], "subjects": device}


def _query_id(name: str, description: str) -> str:
    """The id blastp prints for a query: the first word of its title (:func:`_blast_title`:
    ">na\x01me" is na, ">\x02ab" keeps its \x02). Bytes outside ASCII are kept."""
    title = _blast_title(f"{name} {description}".encode("utf-8", "surrogateescape"))
    return next((word for word in title.split(" ") if word), name)


def _subject_id(name: str, description: str, oid: int) -> str:
    """The id blastp prints for a subject of makeblastdb's database: the first word of the
    title makeblastdb stores (:func:`_database_title`), or its own id where the title has
    none (">\x01" is gnl|BL_ORD_ID|0 for the first subject)."""
    title = _database_title(f"{name} {description}".encode("utf-8", "surrogateescape"))
    return next((word for word in title.split(" ") if word), f"gnl|BL_ORD_ID|{oid}")


#: makeblastdb's title of a header line: ctrl-A a space, a tab three, '#' for every other
#: control character and every byte outside ASCII (its "Bad char" errors).
_DATABASE_TITLE_BYTES = bytes(c if 32 <= c < 127 else 32 if c == 1 else 35 for c in range(256))


def _database_title(header: bytes) -> str:
    """The title makeblastdb stores for a header line (the text after '>'), as blastp prints
    it (stitle); spaces at its ends kept."""
    return header.replace(b"\t", b"   ").translate(_DATABASE_TITLE_BYTES).decode("ascii")


def _subject_titles(subjects, db: _Encoded, found: list[int]) -> dict[int, str]:
    """blastp's stitle of the subjects ``found`` (db's numbers): makeblastdb's title of each
    one's header line as a FASTA file ``subjects`` has it; for other sources (a packed
    database, records, a SequenceDatabase), of its name and description joined by a space,
    as they keep no more of the line. "N/A" for an empty title, as blastp prints it."""
    if isinstance(subjects, (str, os.PathLike)) and os.path.isfile(subjects):
        wanted = {db.record(i): i for i in found}
        headers, count = {}, 0
        for count, header in enumerate(_fasta_headers(subjects), start=1):
            if count - 1 in wanted:
                headers[wanted[count - 1]] = header
        if count == len(db._db):  # (else not FASTA: Easel read it)
            return {i: _database_title(header) or "N/A" for i, header in headers.items()}
    return {i: _database_title(" ".join(filter(None, (db.name(i), db.description(i))))
                               .encode("utf-8", "surrogateescape")) or "N/A" for i in found}


#: Residues of queries blastp's command reads for one search (GetQueryBatchSize: blastp's
#: batches end at the first query that brings them to 10,000 or more).
BLASTP_QUERY_BATCH = 10000


def _query_searched(searches, results) -> list[bool]:
    """Whether blastp's command searches each query's batch (BLASTP_QUERY_BATCH): not when no
    query of it has Karlin-Altschul statistics (all X, or masked whole; "Could not calculate
    ungapped Karlin-Altschul parameters"). Such a batch's queries get no "# N hits found" line
    in -outfmt 7, where a query without statistics beside one that has them gets "# 0 hits
    found"."""
    searched: list[bool] = []
    while len(searched) < len(searches):
        first, residues = len(searched), 0
        end = first
        while end < len(searches) and residues < BLASTP_QUERY_BATCH:
            residues += len(searches[end])
            end += 1
        valid = any(bool(r["statistics"]["valid"]) for r in results[first:end])
        searched += [valid] * (end - first)
    return searched


def _report_statistics(results, searches, letters, db, masks, gapped=None,
                       db_sequences: int = 0) -> dict:
    """What blastp's reports print of each query's search beside the rows (-outfmt 5's
    Statistics): ``query_statistics``, each query's ``kappa``, ``lambda``, ``entropy`` (the
    gapped block's in a gapped search, else the query's own), ``length_adjustment`` and
    ``search_space`` (0 and -1 for a query without statistics); ``query_masks``, the
    residues SEG masked, as (start, end) ranges from 0, inclusive; ``query_o_positions``,
    where each query has an O (searched as X, which blastp warns of); ``query_lengths``;
    ``db_sequences`` and ``db_letters``; ``query_ungapped_statistics``, each query's own
    ``kappa``, ``lambda_`` and ``entropy`` (None without statistics: the text report's first
    "Lambda K H" line); ``hsp_composition_methods``, each row's composition-based method as
    the text report names it (0 none, 1 "Composition-based stats.", 2 "Compositional matrix
    adjust.").
    ``gapped``: (the database length of the statistics, -searchsp as the search took it, the
    row of its gap costs, :func:`gap_cost_rows`, and the matrix);
    ``db_sequences``: the subjects the statistics count (0: db's, :func:`_statistics_sequences`)."""
    db_sequences = db_sequences or len(db)
    statistics = []
    for search, r in zip(searches, results):
        st = r["statistics"]
        if not st["valid"]:
            statistics.append(dict(kappa=-1.0, lambda_=-1.0, entropy=-1.0, length_adjustment=0,
                                   search_space=0))
        elif gapped is None:
            statistics.append(dict(kappa=st["K"], lambda_=st["lambda"], entropy=st["H"],
                                   length_adjustment=st["length_adjustment"],
                                   search_space=st["search_space"]))
        else:
            db_length, searchsp, row, matrix = gapped
            g = _core.blast_gapped_statistics(len(search), db_length, db_sequences,
                                              row["gap_open"], row["gap_extend"], matrix)
            statistics.append(dict(kappa=g["K"], lambda_=g["lambda"], entropy=g["H"],
                                   length_adjustment=g["length_adjustment"],
                                   search_space=searchsp if searchsp > 0 else g["search_space"]))
    own = [dict(kappa=r["statistics"]["K"], lambda_=r["statistics"]["lambda"],
                entropy=r["statistics"]["H"]) if r["statistics"]["valid"] else None
           for r in results]
    methods = [np.asarray(r.get("composition_method", np.zeros(_query_hsps([r])[0])),
                          dtype=np.int8) for r in results]  # (none in an ungapped search)
    return dict(query_statistics=statistics, query_masks=masks, db_sequences=db_sequences,
                query_ungapped_statistics=own,
                hsp_composition_methods=np.concatenate(methods).tolist() if methods else [],
                db_letters=int(db.offsets[-1]), query_lengths=[len(s) for s in searches],
                query_o_positions=[np.flatnonzero(q == _NCBI_O).tolist() for q in letters])


def _query_hsps(results) -> list[int]:
    """Each query's number of rows (its HSPs), in input order."""
    return [len(np.asarray(r["subject"]).reshape(-1)) for r in results]


def _hits(db, query_ids, searches, results, as_frame: bool, letters=None, subjects=None,
          named_as_queries: bool = False, query_offsets: list[int] | None = None):
    """The rows of every query's HSPs (the C++ search's arrays) with OUTFMT6_COLUMNS, as a
    DataFrame or a dict of arrays; the ungapped search gives no gaps and no ends (its HSPs
    have one length on both). With each query's ``letters``, the columns qseq and sseq too;
    with ``subjects`` (the source db was read from), the columns stitle and soid.
    ``named_as_queries``: the subjects named as blastp -subject names them (sseqid as a
    query's id, stitle "N/A", soid the record's number with empty records counted).
    ``query_offsets`` (-query_loc): where each query's searched part starts in it, added to
    qstart and qend."""
    slen = np.diff(db.offsets)
    names_out = [*OUTFMT6_COLUMNS, *(ALIGNED_COLUMNS if letters is not None else ()),
                 *(TITLE_COLUMNS if subjects is not None else ())]
    parts: dict[str, list] = {name: [] for name in names_out}
    found = np.unique(np.concatenate([np.asarray(r["subject"]).reshape(-1) for r in results]))
    if named_as_queries:
        subject_ids = {i: _query_id(db.name(i), db.description(i)) for i in found.tolist()}
        titles = {i: "N/A" for i in found.tolist()} if subjects is not None else None
    else:
        subject_ids = {i: _subject_id(db.name(i), db.description(i), i) for i in found.tolist()}
        titles = _subject_titles(subjects, db, found.tolist()) if subjects is not None else None
    for k, (query_id, search, r) in enumerate(zip(query_ids, searches, results)):
        length, subject = np.asarray(r["length"]), np.asarray(r["subject"])
        n = len(subject)

        def each(value, n=n):  # a per-hit column: the search's array, or a number for all
            value = np.asarray(value)
            return value if value.ndim else np.full(n, value)

        q_start, s_start = each(r["q_start"]), each(r["s_start"])
        identities = each(r["identities"])
        columns = {
            "qseqid": np.full(n, query_id, dtype=object),
            "sseqid": np.array([subject_ids[i] for i in subject.tolist()],
                               dtype=object).reshape(n),
            # As blastp computes it, the division first: 181 of 320 is 56.56250000000001,
            # printed 56.563, where 100 * 181 / 320 is 56.5625, printed 56.562.
            "pident": identities / np.maximum(length, 1) * 100.0,
            "length": length,
            "mismatch": length - identities - r.get("gaps", 0),
            "gapopen": each(r.get("gap_opens", 0)),
            "qstart": q_start + 1,
            "qend": each(r["q_end"]) if "q_end" in r else q_start + length,
            "sstart": s_start + 1,
            "send": each(r["s_end"]) if "s_end" in r else s_start + length,
            "evalue": each(r["evalue"]),
            "bitscore": each(r["bit_score"]),
            "qlen": each(len(search)),
            "slen": slen[subject],
            "score": each(r["score"]),
            "nident": identities,
            "gaps": each(r.get("gaps", 0)),
            "positive": each(r["positives"]),
        }
        columns["qcovs"] = _query_coverage_per_subject(subject, columns["qstart"],
                                                       columns["qend"], len(search))
        if query_offsets:  # (after qcovs, whose ranges need no moving)
            columns["qstart"] = columns["qstart"] + query_offsets[k]
            columns["qend"] = columns["qend"] + query_offsets[k]
        if letters is not None:
            columns["qseq"], columns["sseq"] = _aligned_sequences(db, letters[k], r, n)
        if titles is not None:
            columns["stitle"] = np.array([titles[i] for i in subject.tolist()],
                                         dtype=object).reshape(n)
            oids = subject.astype(np.int64).reshape(n)
            columns["soid"] = np.array([db.record(i) for i in oids.tolist()], dtype=np.int64) \
                if named_as_queries else oids
        for key, column in columns.items():
            parts[key].append(column)
    hits = {key: np.concatenate(columns) for key, columns in parts.items()}
    if not as_frame:
        return hits
    import pandas as pd

    # Names as lists: pandas gives them its string dtype, as it does for any list of str.
    columns = {k: (v.tolist() or np.array([], str)) if v.dtype == object else v
               for k, v in hits.items()}
    return pd.DataFrame(columns, columns=names_out)


def _query_coverage_per_subject(subject: np.ndarray, qstart: np.ndarray, qend: np.ndarray,
                                qlen: int) -> np.ndarray:
    """blastp's qcovs of one query's rows: the percent of the query that the union of each
    subject's HSPs covers (CBlastFormatUtil::InsertSubjectScores over a subject's rows, which
    come one after another), rounded as qcovhsp is; the same on every row of the subject."""
    n = len(subject)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    first = np.flatnonzero(np.concatenate([[True], subject[1:] != subject[:-1]]))
    group = np.repeat(np.arange(len(first)), np.diff(np.append(first, n)))
    # Each group's ranges by start; a range covers what lies past the ends before it in its
    # group (the group number in the high bits keeps the running maximum within it).
    order = np.lexsort((qstart, group))
    g, start, end = group[order], qstart[order].astype(np.int64), qend[order].astype(np.int64)
    key = g << 32
    reach = np.maximum.accumulate(key + end) - key  # the furthest end so far in the group
    before = np.concatenate([[-1], reach[:-1]])
    before[np.flatnonzero(np.concatenate([[True], g[1:] != g[:-1]]))] = -1
    covered = np.bincount(g, weights=np.maximum(0, end - np.maximum(start, before + 1) + 1),
                          minlength=len(first))
    percent = 100.0 * covered / qlen
    percent = np.where(percent < 99, percent + 0.5, percent).astype(np.int64)
    return percent[group]


_LETTERS = np.frombuffer(_core.blast_letters.encode("ascii"), dtype=np.uint8)
_GAP, _QUERY_GAP, _SUBJECT_GAP = ord("-"), ord("D"), ord("I")  # ('D': a gap in the query)


def _aligned_sequences(db, letters: np.ndarray, r: dict, n: int) -> tuple[np.ndarray, ...]:
    """The rows' aligned query and subject residues as blastp's qseq and sseq print them: the
    query's own letters (O, not the X it is searched as), '-' against a gap. All rows of a
    query at once: each column's residue is its row's start plus the residues before it."""
    columns = np.asarray(r["length"], dtype=np.int64).reshape(n)
    ops = np.frombuffer(r["ops"], dtype=np.uint8) if "ops" in r else \
        np.full(int(columns.sum()), ord("M"), dtype=np.uint8)  # (ungapped: pairs only)
    row = np.repeat(np.arange(n), columns)
    first = np.cumsum(columns) - columns  # each row's first column

    def residues(advances: np.ndarray, start: np.ndarray, codes: np.ndarray) -> str:
        before = np.cumsum(advances) - advances  # residues of earlier columns
        at = start[row] + before - before[first][row]
        shown = _LETTERS[codes[np.where(advances, at, 0)]]
        return np.where(advances, shown, _GAP).astype(np.uint8).tobytes().decode("ascii")

    subject_start = np.asarray(db.offsets)[np.asarray(r["subject"]).reshape(n)]
    query = residues(ops != _QUERY_GAP, np.asarray(r["q_start"]).reshape(n), letters)
    subject = residues(ops != _SUBJECT_GAP, subject_start + np.asarray(r["s_start"]).reshape(n),
                       db.codes)
    ends = first + columns
    return (np.array([query[a:b] for a, b in zip(first, ends)], dtype=object).reshape(n),
            np.array([subject[a:b] for a, b in zip(first, ends)], dtype=object).reshape(n))


def format_evalue(evalue: float) -> str:
    """An E-value as blastp's tabular output prints it (CAlignFormatUtil::GetScoreString)."""
    if evalue < 1.0e-180:
        return "0.0"
    if evalue < 0.0009:
        return f"{evalue:.2e}"
    if evalue < 0.1:
        return f"{evalue:4.3f}"
    if evalue < 1.0:
        return f"{evalue:3.2f}"
    if evalue < 10.0:
        return f"{evalue:2.1f}"
    return f"{evalue:2.0f}"


def format_bitscore(bits: float) -> str:
    """A bit score as blastp's tabular output prints it: above 99.9 the integer part."""
    if bits > 99999:
        return f"{bits:5.3e}"
    if bits > 99.9:
        return f"{int(bits):3d}"
    return f"{bits:4.1f}"


def outfmt6_lines(hits: pd.DataFrame) -> list[str]:
    """The rows as blastp ``-outfmt "6 std qlen slen score"`` prints them (no newlines)."""
    lines = []
    for row in hits.itertuples(index=False):
        fields = [
            row.qseqid,
            row.sseqid,
            f"{row.pident:.3f}",
            row.length,
            row.mismatch,
            row.gapopen,
            row.qstart,
            row.qend,
            row.sstart,
            row.send,
            format_evalue(row.evalue),
            format_bitscore(row.bitscore),
            row.qlen,
            row.slen,
            row.score,
        ]
        lines.append("\t".join(str(f) for f in fields))
    return lines


# ---- the search as blastp's users call it -------------------------------------------------

#: blastp's ``-outfmt 6`` id fields that print the columns qseqid and sseqid hold. blastp 2.12's
#: ``std`` names the ids qaccver and saccver; for FASTA (as gpuseq reads it, and makeblastdb
#: without -parse_seqids) these and qacc, sacc print the id as qseqid and sseqid do, yet they
#: are other fields: "6 sseqid std" writes the subject's id twice.
_ID_FIELDS = {"qaccver": "qseqid", "qacc": "qseqid", "saccver": "sseqid", "sacc": "sseqid"}
#: blastp's ``-outfmt 6`` field names that we write, and ``std`` in its order.
STD_FIELDS = ["qaccver", "saccver", *OUTFMT6_COLUMNS[2:12]]
#: Fields blastp computes from the columns: ``qcovhsp``, the share of the query an HSP covers,
#: ``ppos``, the percent of its columns that are positive, ``btop``, the alignment as
#: blastp's traceback operations (from qseq and sseq), and ``salltitles`` (stitle).
_DERIVED_FIELDS = ["qcovhsp", "ppos", "btop", "salltitles"]
#: Fields of data a FASTA or makeblastdb database without -parse_seqids and -taxid does not
#: hold, printed as blastp 2.12 prints them then: gis 0, taxonomy N/A (staxids 0, but N/A for
#: -subject's sequences), the subject's strand N/A, qcovus N/A; sallseqid and sallacc are the
#: subject's one id, as sseqid and sacc.
NO_DATA_FIELDS = {"qgi": "0", "sgi": "0", "sallgi": "0", "sallseqid": None, "sallacc": None,
                  "staxid": "N/A", "ssciname": "N/A", "scomname": "N/A", "sblastname": "N/A",
                  "sskingdom": "N/A", "staxids": "0", "sscinames": "N/A", "scomnames": "N/A",
                  "sblastnames": "N/A", "sskingdoms": "N/A", "sstrand": "N/A", "qcovus": "N/A"}
TABULAR_FIELDS = [*OUTFMT6_COLUMNS, *_ID_FIELDS, *_DERIVED_FIELDS, *ALIGNED_COLUMNS,
                  "stitle", *NO_DATA_FIELDS]
_BLAST_DB_SUFFIXES = (".pin", ".psq", ".phr", ".pal", ".pdb", ".pot")


def blastp(
    query: SequenceSource,
    db: SequenceSource | None = None,
    *,
    subject: SequenceSource | None = None,
    evalue: float = 10.0,
    max_target_seqs: int = 500,
    num_threads: int = 0,
    matrix: str = "BLOSUM62",
    gapopen: int | None = None,
    gapextend: int | None = None,
    word_size: int = 3,
    threshold: float | None = None,
    comp_based_stats: int | str = 2,
    seg: str = "no",
    lcase_masking: bool = False,
    query_loc: str | tuple[int, int] | None = None,
    ungapped: bool = False,
    window_size: int | None = None,
    xdrop_ungap: float = 7.0,
    xdrop_gap: float = 15.0,
    xdrop_gap_final: float = 25.0,
    dbsize: int | None = None,
    max_hsps: int | None = None,
    searchsp: int | None = None,
    qcov_hsp_perc: float | None = None,
    backend: str = "auto",
    as_frame: bool = True,
    aligned_sequences: bool = False,
    subject_titles: bool = False,
    gpu_options: dict | None = None,
    counters: dict | None = None,
) -> pd.DataFrame | dict[str, np.ndarray]:
    """Protein search with NCBI blastp's results (BLAST+ 2.12), its flags as keywords.

    Arguments:
        query: the queries: a FASTA path (plain or gzip; several records allowed), a
            :class:`~gpuseq.SequenceDatabase`, or records (``(name, sequence)`` pairs,
            Biopython ``SeqRecord``).
        db: the subjects, the same ways, or a database made by :func:`gpuseq.makedb`. A
            BLAST-format database (``makeblastdb``'s files) is refused with the command that
            turns it into FASTA. A :class:`~gpuseq.SequenceDatabase` you hold (e.g.
            ``SequenceDatabase.open("db.gsdb")``) stays encoded and, after the first GPU
            search, on the GPU for the next searches (``db.free_device_memory()`` lets go).
        subject: instead of ``db``, subjects as ``blastp -subject`` reads them (a FASTA path
            or records). blastp 2.12 searches them as one database, so the rows are
            ``db``'s, but for what it does as for queries: O is searched as X, and the
            statistics count empty records too. Each subject is named as a query is: sseqid
            is the first word of its header line as NCBI's FASTA reader keeps it, stitle is
            "N/A" (what blastp prints for stitle and salltitles), and soid is the record's
            number in the file, empty records counted (blastp's "Subject_N" is soid + 1).
        evalue, max_target_seqs, num_threads (0: all cores), matrix, gapopen, gapextend,
        word_size, threshold, comp_based_stats, seg, ungapped, window_size, xdrop_ungap,
        xdrop_gap, xdrop_gap_final, dbsize, max_hsps, searchsp, qcov_hsp_perc: blastp's flags
            of the same names, with its defaults (``max_hsps``: each subject's first N HSPs,
            cut where blastp cuts them, None keeping them all; ``searchsp``: the search space
            of every E-value, and, given, even as 0, blastp's classic E-values without
            Spouge's finite-size correction; ``qcov_hsp_perc``: the HSPs covering less of the
            query than this percent are left out where blastp leaves them out, None or 0
            keeping them all; ``matrix``: one of :func:`matrices`, any case; ``gapopen``,
            ``gapextend``, ``threshold``, ``window_size``: None for the matrix's, as blastp
            takes them (:func:`gap_costs`, :func:`search_defaults`), the gap costs a pair of
            its :func:`gap_cost_rows`, any in an ungapped search). Implemented so far: words
            of 3, ``comp_based_stats`` 0, 1, 2 (blastp's default,
            the conditional composition-based score adjustment) and 3 (the full adjustment
            for every subject); a string is read as blastp reads the flag, by its first letter
            (``"D"``, ``"T"``: 2; ``"F"``: 0; a letter blastp does not know: 0), ``seg``
            ``"no"`` (blastp's default), ``"yes"`` (SEG on the queries, window 12, cutoffs 2.2
            and 2.5) or ``"window locut hicut"`` (SEG with those; as in blastp, one not above
            0 is the default, and a hicut below the locut is raised to it).
        query_loc: ``-query_loc``: "start-stop" (or a pair), from 1, inclusive: every query's
            part that is searched (SEG and the lower-case runs on it alone), its rows in the
            whole query's coordinates and its length as qlen; a query shorter than stop is
            refused so far.
        lcase_masking: ``-lcase_masking``: the queries' lower-case letters are masked as
            SEG's segments are (X in the search, out of the lookup table, lower case in the
            reports); the queries must keep their case (a FASTA file or records).
        backend: ``"cuda"``: hit detection and the ungapped extension on the GPU
            (``cuda/blast``, with the preliminary gapped extension of every ungapped HSP),
            the rest on the CPU, the same rows; ``"cpu"``: all on the CPU; ``"auto"``
            (default): the GPU where one is usable (12.6x blastp -num_threads 16 on an H100
            host, 99 queries x 500 M residues) and the queries plus the longest subject
            stay under 2^21 residues, else the CPU with a ``BackendFallbackWarning``. The
            CPU's threads take each batch of subjects while the GPU runs the next.
        gpu_options: the GPU stage's settings (:func:`ungapped_hsps`: ``sort``,
            ``extension``, ``scoring``, ``bins``, ``bin_capacity``, ``batch_hits``;
            ``extend_seeds``: the
            preliminary gapped extensions on the GPU, default True, with ``seed_ring_columns``
            and ``seed_max_rows``); the rows do not change.
        counters: a dict to fill with the search's counters and seconds by stage
            (:func:`blastp_ungapped`).

    Returns:
        A DataFrame of blastp's ``-outfmt "6 std qlen slen score nident gaps positive
        qcovs"`` columns (:data:`OUTFMT6_COLUMNS`; E-values and bit scores as numbers), rows
        in blastp's order; :func:`write_tabular` writes it as blastp does. ``as_frame=False``:
        the same columns as a dict of NumPy arrays, without importing pandas.
        ``aligned_sequences=True`` adds the columns qseq and sseq (:data:`ALIGNED_COLUMNS`:
        each row's aligned residues, '-' for gaps), which the fields qseq, sseq and btop need;
        ``subject_titles=True`` the columns stitle and soid (:data:`TITLE_COLUMNS`: the
        title makeblastdb stores for the subject's header line, which stitle and salltitles
        need, and the subject's number in the database).

    Raises:
        UnsupportedOptionError: an option value blastp takes that gpuseq does not implement.
        ValueError: a value blastp rejects (e.g. a negative E-value).
        InputError, FormatError, AlphabetError, EmptyInputError: bad inputs, naming the file
            and record.
    """
    _check_blastp_options(locals())
    if (db is None) == (subject is None):
        raise ValueError("blastp needs db (a database) or subject (subject sequences) "
                         "(blastp: Either a BLAST database or subject sequence(s) must be "
                         "specified)" if db is None else
                         "blastp takes db or subject, not both (blastp: Argument \"subject\". "
                         "Incompatible with argument: `db')")
    db = _refuse_blast_database(db if subject is None else subject)
    threshold, window_size = search_defaults(matrix, threshold, window_size)
    common = dict(evalue=float(evalue), max_target_seqs=int(max_target_seqs),
                  threshold=_lookup_threshold(threshold), window_size=int(window_size),
                  xdrop_ungap=float(xdrop_ungap), dbsize=dbsize, threads=num_threads,
                  seg=_seg_parameters(seg), max_hsps=max_hsps, searchsp=searchsp,
                  qcov_hsp_perc=qcov_hsp_perc,
                  backend=backend, as_frame=as_frame, aligned_sequences=aligned_sequences,
                  subject_titles=subject_titles, gpu_options=gpu_options, counters=counters,
                  named_as_queries=subject is not None,
                  lcase_masking=checks.flag(lcase_masking, "lcase_masking"),
                  query_loc=query_loc, matrix=_matrix(matrix))
    if ungapped:
        return blastp_ungapped(query, db, **common)
    return blastp_gapped(query, db, xdrop_gap=float(xdrop_gap),
                         xdrop_gap_final=float(xdrop_gap_final), gapopen=gapopen,
                         gapextend=gapextend,
                         comp_based_stats=_comp_based_stats_mode(comp_based_stats),
                         **common)


# blastp's -comp_based_stats by the value's first letter -> mode (D and T: the default,
# conditional adjustment; 3: the full adjustment for every subject). blastp reads no more than
# that letter, and any other (4, x, a space, an empty value) is mode 0: "2x" is 2, "02" is 0.
_COMP_BASED_STATS = {"0": 0, "F": 0, "1": 1, "2": 2, "D": 2, "T": 2, "3": 3}


def _comp_based_stats_mode(value: int | str) -> int:
    """The composition-based statistics mode of a comp_based_stats value: a string as blastp
    reads its flag's text, an integer from 0 to 3 as it is (ValueError otherwise)."""
    if isinstance(value, str):
        return _COMP_BASED_STATS.get(value[:1].upper(), 0)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise ValueError(f"comp_based_stats must be 0, 1, 2 or 3 (or blastp's flag text), "
                         f"not {value!r}")
    return value


def _lookup_threshold(threshold: float) -> int:
    """The word score threshold blastp's lookup table uses for -threshold (a real): truncated
    to an integer, and 0 (from 0 < t < 1) meaning the query's own words only
    (BlastAaLookupIndexQuery). The lookup always holds the query's words, so that is a
    threshold no word reaches (3 x 17 at most with blastp's matrices): 1 << 20, which larger values
    are too."""
    words = int(threshold)
    return 1 << 20 if words == 0 else min(words, 1 << 20)


def _max_hsps(max_hsps: int | None) -> int:
    """-max_hsps as the search takes it: 0 for None (every HSP), else an integer of 1 or more
    (blastp refuses 0: "Illegal value, expected >=1")."""
    if max_hsps is None:
        return 0
    value = checks.integer(max_hsps, "max_hsps")
    if not 1 <= value < 2**31:
        raise ValueError(f"-max_hsps must be from 1 to {2**31 - 1}, not {max_hsps!r}")
    return value


def _qcov_hsp_perc(qcov_hsp_perc: float | None) -> float:
    """-qcov_hsp_perc as the search takes it: 0 for None (every HSP), else a real from 0 to
    100 (blastp's bounds; 0 keeps every HSP, as blastp's does)."""
    if qcov_hsp_perc is None:
        return 0.0
    value = checks.real(qcov_hsp_perc, "qcov_hsp_perc")
    if not 0 <= value <= 100:
        raise ValueError(f"-qcov_hsp_perc must be from 0 to 100, not {qcov_hsp_perc!r}")
    return float(value)


def _searchsp(searchsp: int | None, given: int) -> int:
    """-searchsp as the search takes it: ``given`` for None (-1 in the gapped search: not
    given; 0 in the ungapped one, whose E-values are the classic formula's anyway), else an
    integer from 0 (the computed space) to 2**63 - 1."""
    if searchsp is None:
        return given
    value = checks.integer(searchsp, "searchsp")
    if not 0 <= value < 2**63:
        raise ValueError(f"-searchsp must be from 0 to {2**63 - 1}, not {searchsp!r}")
    return value


def _check_blastp_options(o: dict) -> None:
    from .errors import UnsupportedOptionError

    def unsupported(flag: str, value, supported: str) -> None:
        raise UnsupportedOptionError(f"blastp -{flag} {value}: gpuseq implements {supported} "
                                     "so far")

    for name in ("ungapped", "as_frame", "aligned_sequences"):
        checks.flag(o[name], name)
    for name in ("evalue", "xdrop_ungap", "xdrop_gap", "xdrop_gap_final"):
        checks.real(o[name], name)
    if not 0 < o["evalue"] < math.inf:
        raise ValueError(f"-evalue must be a positive number, not {o['evalue']!r}")
    # (Integers as blastp's own parser bounds them: 32-bit, -dbsize 64-bit.)
    threshold = 11 if o["threshold"] is None else checks.real(o["threshold"], "threshold")
    if not 0 < threshold < 2**31:  # (blastp: >= 0, "Non-zero threshold required"; a C int)
        raise ValueError(f"-threshold must be above 0 and below 2**31, not {o['threshold']!r}")
    for flag, least, most in (("max_target_seqs", 1, 2**31 - 1),
                              ("window_size", 0, 2**31 - 1), ("dbsize", 0, 2**63 - 1)):
        if o[flag] is None:  # (dbsize: the database's)
            continue
        value = checks.integer(o[flag], flag)
        if value < least or (most is not None and value > most):
            raise ValueError(f"-{flag} must be from {least} to {most or 'any'}, not {o[flag]!r}")
    if o["window_size"] is not None and int(o["window_size"]) == 0:
        unsupported("window_size", 0, "two-hit seeding (a window of 1 or more)")
    if not float(o["xdrop_ungap"]) > 0:
        raise ValueError(f"-xdrop_ungap must be greater than zero, not {o['xdrop_ungap']!r}")
    worker_threads(o["num_threads"], "-num_threads")  # (checked)
    _max_hsps(o["max_hsps"])
    _searchsp(o["searchsp"], given=-1)
    _qcov_hsp_perc(o["qcov_hsp_perc"])
    _query_loc(o["query_loc"])
    _gap_costs(o["gapopen"], o["gapextend"], gapped=not o["ungapped"], matrix=o["matrix"])
    if checks.integer(o["word_size"], "word_size") != 3:
        unsupported("word_size", o["word_size"], "3")
    if o["ungapped"] and _comp_based_stats_mode(o["comp_based_stats"]) != 0:
        raise ValueError("-ungapped needs -comp_based_stats 0 (blastp's own rule)")
    _seg_parameters(o["seg"])


def matrices() -> list[str]:
    """The matrices blastp takes with -matrix that gpuseq searches with: BLOSUM45, BLOSUM50,
    BLOSUM62, BLOSUM80, BLOSUM90, PAM30, PAM70 and PAM250 (blastp's IDENTITY is not
    implemented)."""
    return list(_core.blast_matrix_names())


def gap_cost_rows(matrix: str = "BLOSUM62") -> list[dict]:
    """The gap costs blastp takes with a matrix, each with its row of NCBI's table
    (blast_stat.c): ``gap_open``, ``gap_extend`` (32767 and 32767: the ungapped row, first),
    the gapped block's ``lambda``, ``K``, ``H``, the length adjustment's ``alpha`` and
    ``beta``, and Spouge's ``C``, ``alpha_v`` and ``sigma``."""
    return _core.blast_gap_cost_rows(_matrix(matrix))


def gap_costs(matrix: str = "BLOSUM62", gapopen: int | None = None,
              gapextend: int | None = None) -> tuple[int, int]:
    """(-gapopen, -gapextend) as blastp takes them with a matrix: each one not given is the
    matrix's default (BLOSUM62 11/1, BLOSUM45 14/2, BLOSUM50 13/2, BLOSUM80 and BLOSUM90 10/1,
    PAM30 9/1, PAM70 10/1, PAM250 14/2). Checked as 32-bit integers, not against the rows."""
    defaults = _core.blast_matrix_defaults(_matrix(matrix))
    default_open, default_extend = defaults["gap_open"], defaults["gap_extend"]
    costs = []
    for name, value, default in (("gapopen", gapopen, default_open),
                                 ("gapextend", gapextend, default_extend)):
        value = default if value is None else checks.integer(value, name)
        if not -2**31 <= value < 2**31:
            raise ValueError(f"-{name} must be a 32-bit integer, not {value!r} (blastp: "
                             "Integer value is out of range)")
        costs.append(int(value))
    return costs[0], costs[1]


def search_defaults(matrix: str = "BLOSUM62", threshold: float | None = None,
                    window_size: int | None = None) -> tuple[float, int]:
    """(-threshold, -window_size) as blastp takes them with a matrix: each one not given is
    the matrix's (BLAST_GetSuggestedThreshold and ...WindowSize: 11 and 40, BLOSUM45 14 and
    60, BLOSUM80 12 and 25, PAM30 16 and 15, PAM70 14 and 20)."""
    defaults = _core.blast_matrix_defaults(_matrix(matrix))
    return (defaults["threshold"] if threshold is None else threshold,
            defaults["window_size"] if window_size is None else window_size)


def _matrix(matrix) -> str:
    """-matrix checked as blastp checks it: one of :func:`matrices` in any case (blastp's
    search takes "pam30"; its XML and JSON reports do not, :func:`check_report_matrix`), as
    the name in upper case."""
    from .errors import UnsupportedOptionError

    names = _core.blast_matrix_names()
    name = matrix.upper() if isinstance(matrix, str) else matrix
    if name in names:
        return name
    if name == "IDENTITY":
        raise UnsupportedOptionError(f"blastp -matrix {matrix}: gpuseq implements "
                                     f"{', '.join(names)} so far")
    raise ValueError(f"-matrix {matrix!r} is not a matrix blastp takes (its matrices: "
                     f"{', '.join(names)}, IDENTITY)")


def check_report_matrix(matrix: str) -> None:
    """ValueError for a -matrix name blastp's XML and JSON reports cannot write: one not in
    upper case, which its search takes ("BLAST engine error: unsupported score matrix")."""
    if _matrix(matrix) != matrix:
        raise ValueError(f"-matrix {matrix}: blastp's XML and JSON reports take the name in "
                         f"upper case, {matrix.upper()} (blastp: unsupported score matrix)")


def _gap_costs(gapopen, gapextend, gapped: bool = True, matrix: str = "BLOSUM62") -> dict | None:
    """-gapopen and -gapextend (None: the matrix's defaults, :func:`gap_costs`) checked as
    blastp checks them: 32-bit integers, and for a gapped search a pair of the matrix's
    :func:`gap_cost_rows`, whose row it returns (an ungapped search takes any pair, and its
    XML report prints them)."""
    costs = gap_costs(matrix, gapopen, gapextend)
    if not gapped:
        return None
    rows = gap_cost_rows(matrix)
    for row in rows:
        if (row["gap_open"], row["gap_extend"]) == costs:
            return row
    supported = "; ".join(f"{r['gap_open']}, {r['gap_extend']}" for r in rows)
    raise ValueError(f"-gapopen {costs[0]} -gapextend {costs[1]}: gap existence and extension "
                     f"values of {costs[0]} and {costs[1]} not supported for {matrix} "
                     f"(blastp's values: {supported})")


def _seg_parameters(seg) -> bool | tuple[int, float, float]:
    """blastp's -seg value: False ("no"), True ("yes": window 12, cutoffs 2.2 and 2.5) or
    (window, locut, hicut) from "window locut hicut", read as blastp reads them: "yes" and
    "no" as written, three words split at single spaces, an integer window. A window or cutoff
    that is not above 0 is SEG's default (BlastSetUp_Filter: "12 0 0" is "yes"), and SEG raises
    a hicut below the locut to it (seg_segments)."""
    given = _seg_given(seg)
    if isinstance(given, bool):
        return given
    window, locut, hicut = given
    default_window, default_locut, default_hicut = _QUERY_SEG
    return (window if window > 0 else default_window, locut if locut > 0 else default_locut,
            hicut if hicut > 0 else default_hicut)


def seg_filter_string(seg) -> str:
    """blastp's filter string of a -seg value, as its XML's Parameters_filter prints it: "F"
    (no), "L;" (SEG's defaults) or "S window locut hicut;" (the values as given)."""
    given = _seg_given(seg)
    if isinstance(given, bool):
        return "L;" if given else "F"
    window, locut, hicut = given
    if (window, locut, hicut) == _QUERY_SEG:
        return "L;"
    return f"S {window} {locut:.1f} {hicut:.1f};"


def _seg_given(seg) -> bool | tuple[int, float, float]:
    """A -seg value as given: True, False, or the three numbers before SEG's defaults."""
    if isinstance(seg, bool):
        return seg
    text = str(seg)
    if text in ("yes", "no"):
        return text == "yes"
    fields = text.split(" ")
    if len(fields) != 3:
        raise ValueError(f"-seg must be 'yes', 'no' or 'window locut hicut', not {seg!r} "
                         "(blastp: invalid number of arguments to filtering option)")
    try:
        number = r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"  # (no nan or inf)
        if not (re.fullmatch(r"[+-]?[0-9]+", fields[0]) and re.fullmatch(number, fields[1])
                and re.fullmatch(number, fields[2])):
            raise ValueError
        window, locut, hicut = int(fields[0]), float(fields[1]), float(fields[2])
    except ValueError:
        raise ValueError(f"-seg {seg!r}: the window must be an integer and the cutoffs numbers "
                         "(blastp: invalid input for filtering parameters)") from None
    return window, locut, hicut


def _refuse_blast_database(db):
    """db, unless it names a BLAST-format database: then an error saying how to convert it."""
    if isinstance(db, (str, os.PathLike)):
        path = os.fspath(db)
        if not os.path.exists(path) and any(
            os.path.exists(path + suffix) for suffix in _BLAST_DB_SUFFIXES
        ):
            raise FormatError(path, None, "is a BLAST-format database (makeblastdb's files); "
                              f"gpuseq reads FASTA or its own databases: convert it with "
                              f"'blastdbcmd -db {path} -entry all -out {path}.fa' (then "
                              f"'gpuseq makedb {path}.fa {path}.gsdb' for a packed database)")
    return db


#: blastp's names of the tabular fields, as ``-outfmt 7`` lists them on its ``# Fields:`` line.
FIELD_TITLES = {
    "qseqid": "query id", "sseqid": "subject id", "qacc": "query acc.",
    "sacc": "subject acc.", "qaccver": "query acc.ver", "saccver": "subject acc.ver",
    "pident": "% identity", "length": "alignment length", "mismatch": "mismatches",
    "gapopen": "gap opens", "qstart": "q. start", "qend": "q. end", "sstart": "s. start",
    "send": "s. end", "evalue": "evalue", "bitscore": "bit score", "qlen": "query length",
    "slen": "subject length", "score": "score", "nident": "identical", "gaps": "gaps",
    "positive": "positives", "qcovs": "% query coverage per subject",
    "qcovhsp": "% query coverage per hsp", "ppos": "% positives",
    "qseq": "query seq", "sseq": "subject seq", "btop": "BTOP", "stitle": "subject title",
    "salltitles": "subject titles", "qgi": "query gi", "sgi": "subject gi",
    "sallgi": "subject gis", "sallseqid": "subject ids", "sallacc": "subject accs.",
    "staxid": "subject tax id", "ssciname": "subject sci name", "scomname": "subject com names",
    "sblastname": "subject blast name", "sskingdom": "subject super kingdom",
    "staxids": "subject tax ids", "sscinames": "subject sci names",
    "scomnames": "subject com names", "sblastnames": "subject blast names",
    "sskingdoms": "subject super kingdoms", "sstrand": "subject strand",
    "qcovus": "% query coverage per uniq subject",
}
#: The program line of each query's comment block in ``-outfmt 7``: the blastp we equal.
BLASTP_VERSION_LINE = "# BLASTP 2.12.0+"
#: The tabular formats blastp's ``-outfmt`` names that gpuseq writes: 6 (tabs), 7 (tabs, with
#: each query's comment lines) and 10 (commas, no quoting, as blastp writes it).
TABULAR_FORMATS = (6, 7, 10)


def write_tabular(
    hits: pd.DataFrame | dict[str, np.ndarray],
    out,
    fields: list[str] | None = None,
    *,
    outfmt: int = 6,
    queries: list[tuple] | None = None,
    database: str = "",
    subject_file: bool = False,
) -> None:
    """Rows as blastp ``-outfmt "6 FIELDS"`` writes them (or ``7``, ``10``: see ``outfmt``), to
    a path or a text stream (fields: None or ``["std"]`` for the 12 standard columns; ``std``
    may be combined with any of :data:`TABULAR_FIELDS`). ``hits``: :func:`blastp`'s result,
    a DataFrame or (``as_frame=False``) a dict of columns.

    ``outfmt``: 6 separates the fields by tabs, 10 by commas (unquoted, as blastp); 7 writes
    tabs under each query's comment lines (program, ``# Query:``, ``# Database:``, the
    ``# Fields:`` when it has rows, ``# N hits found``) and ends with ``# BLAST processed N
    queries``. For 7, ``queries`` gives every query's (title, number of rows) in input order
    (:func:`query_titles`; the numbers are the ``query_hsps`` that :func:`blastp`'s
    ``counters`` receives), or (title, number of rows, searched), where searched False (the
    counters' ``query_searched``) leaves out the ``# N hits found`` line as blastp does for
    queries it did not search; ``database`` is the name on the ``# Database:`` lines.
    ``subject_file``: the rows of :func:`blastp`'s ``subject`` (blastp -subject), whose ids
    are all their own (no BL_ORD_ID accessions) and whose staxids is N/A
    (:data:`NO_DATA_FIELDS`)."""
    if outfmt not in TABULAR_FORMATS:
        raise ValueError(f"-outfmt {outfmt}: gpuseq writes the tabular formats 6, 7 and 10")
    names = tabular_fields(fields, outfmt)
    formatters = {"pident": lambda v: f"{v:.3f}", "ppos": lambda v: f"{v:.2f}",
                  "evalue": format_evalue, "bitscore": format_bitscore}
    accessions = (lambda hits: np.asarray(hits["sseqid"], dtype=object)) if subject_file \
        else _subject_accessions
    derived = {"qcovhsp": _qcovhsp, "ppos": _ppos, "btop": _btop,
               "sacc": accessions, "saccver": accessions, "sallacc": accessions,
               "sallseqid": lambda hits: np.asarray(hits["sseqid"], dtype=object),
               # makeblastdb's database holds one title a subject (no -parse_seqids' merged
               # deflines), which salltitles prints alone.
               "salltitles": lambda hits: np.asarray(hits["stitle"], dtype=object)}
    for name, value in NO_DATA_FIELDS.items():
        if value is not None:
            value = "N/A" if name == "staxids" and subject_file else value
            derived[name] = lambda hits, value=value: np.full(len(hits["qseqid"]), value,
                                                              dtype=object)
    if any(name in names for name in ("qseq", "sseq", "btop")) and "qseq" not in hits:
        raise ValueError("the fields qseq, sseq and btop need the aligned sequences: search "
                         "with aligned_sequences=True")
    if any(name in names for name in ("stitle", "salltitles")) and "stitle" not in hits:
        raise ValueError("the fields stitle and salltitles need the subjects' titles: search "
                         "with subject_titles=True")
    columns = [(derived[name](hits) if name in derived else hits[_ID_FIELDS.get(name, name)])
               .tolist() for name in names]
    separator = "," if outfmt == 10 else "\t"
    lines = [separator.join(formatters.get(name, str)(value) for name, value in zip(names, row))
             for row in zip(*columns)]
    if outfmt == 7:
        lines = _commented(lines, names, queries, database)
    text = "".join(line + "\n" for line in lines)
    if isinstance(out, (str, os.PathLike)):
        f = OutputFile(out)
        try:
            f.write(text)
        finally:
            f.close()
    else:
        out.write(text)


_ORDINAL_ID = re.compile(r"gnl\|BL_ORD_ID\|(\d+)")


def _subject_accessions(hits) -> np.ndarray:
    """sacc and saccver: the subject's id, but BL_ORD_ID:N where makeblastdb's title had no
    word and the id is the database's own (gnl|BL_ORD_ID|N; a subject whose title starts with
    such a word is taken for one)."""
    ids = np.asarray(hits["sseqid"], dtype=object)
    if not any(i.startswith("gnl|BL_ORD_ID|") for i in ids.tolist()):  # (the usual case)
        return ids
    return np.array([f"BL_ORD_ID:{m[1]}" if (m := _ORDINAL_ID.fullmatch(i)) else i
                     for i in ids.tolist()], dtype=object)


def _qcovhsp(hits) -> np.ndarray:
    """blastp's percent of the query each HSP covers (Blast_HSPGetQueryCoverage): below 99
    rounded half up, from 99 on cut, so that only a whole query prints 100."""
    covered = np.asarray(hits["qend"]) - np.asarray(hits["qstart"]) + 1
    percent = 100.0 * covered / np.asarray(hits["qlen"])
    return np.where(percent < 99, percent + 0.5, percent).astype(np.int64)


def _ppos(hits) -> np.ndarray:
    """blastp's percent of positive columns, the division first as for pident."""
    return np.asarray(hits["positive"]) / np.maximum(np.asarray(hits["length"]), 1) * 100.0


def _btop(hits) -> np.ndarray:
    """blastp's BTOP of each row: the number of identical columns in a run, and each other
    column as its query and subject letters ('-' a gap)."""
    out = []
    for query, subject in zip(hits["qseq"], hits["sseq"]):
        a, b = np.frombuffer(query.encode(), np.uint8), np.frombuffer(subject.encode(), np.uint8)
        text, done = [], 0
        for at in np.flatnonzero(a != b).tolist():
            text += [str(at - done)] if at > done else []
            text.append(query[at] + subject[at])
            done = at + 1
        text += [str(len(a) - done)] if len(a) > done else []
        out.append("".join(text))
    return np.array(out, dtype=object)


def _commented(rows: list[str], names: list[str], queries, database: str) -> list[str]:
    """``-outfmt 7``: each query's rows under its comment lines (blastp's
    CBlastTabularInfo), then the count of queries."""
    if queries is None:
        raise ValueError("-outfmt 7 needs every query's title and number of rows (queries=)")
    if sum(query[1] for query in queries) != len(rows):
        raise ValueError(f"queries= counts {sum(query[1] for query in queries)} rows; "
                         f"the hits have {len(rows)}")
    fields = "# Fields: " + ", ".join(FIELD_TITLES[name] for name in names)
    lines, at = [], 0
    for title, n, *searched in queries:
        lines += [BLASTP_VERSION_LINE, f"# Query: {title}", f"# Database: {database}"]
        lines += [fields] if n else []
        if searched and not searched[0]:
            if n:
                raise ValueError(f"queries=: {title!r} has {n} rows but was not searched")
            continue
        lines += [f"# {n} hits found", *rows[at:at + n]]
        at += n
    return [*lines, f"# BLAST processed {len(queries)} queries"]


# NCBI's FASTA reader drops the blanks that start a header line (isspace) and ends its title
# at the first control character after the first; blastp prints it without the spaces at its
# end.
_CONTROL = re.compile(r"[\x00-\x1f]")
_TITLE_END = re.compile(rb"[\x00-\x1f]")


def _blast_title(header: bytes) -> str:
    header = header.lstrip(b" \t\n\v\f\r")
    end = _TITLE_END.search(header, 1)
    title = header if end is None else header[: end.start()]
    return title.rstrip(b" ").decode("utf-8", "surrogateescape")


def query_titles(query: SequenceSource) -> list[str]:
    """Every query's title as blastp's ``-outfmt 7`` prints it (``# Query:``): the header line
    after '>', up to its first control character, without the spaces around it.

    A FASTA path (plain or gzip) is read for its header lines as they are, since blastp keeps
    the blanks between the name and the description. Records and a
    :class:`~gpuseq.SequenceDatabase` (a packed one included) keep only the name and the
    description, so their titles join the two with one space."""
    if isinstance(query, (str, os.PathLike)) and os.path.isfile(query):
        titles = _fasta_titles(query)
        if titles:  # (none: another format, read below as the search reads it)
            return titles
    if isinstance(query, SequenceDatabase):
        db = query
    else:
        label, _, chunks = iter_sequence_chunks(query, line_start_headers=True)
        db = SequenceDatabase.concatenate(list(chunks), label)
    return [_blast_title(f"{db.name(i)} {db.description(i)}".encode("utf-8", "surrogateescape"))
            for i in range(len(db))]


def _fasta_titles(path) -> list[str]:
    return [_blast_title(header) for header in _fasta_headers(path)]


def _fasta_headers(path) -> Iterator[bytes]:
    """Each record's header line (after the '>', up to CR or LF) as the FASTA file (plain or
    gzip) has it. A record starts at a '>' that begins a line (blastp's FASTA, the reader's
    ``line_start_headers``); a CR alone ends a line too."""
    for part in _fasta_lines(path):
        if part[:1] == b">":
            yield part[1:]


def _lower_case_ranges(query, count: int) -> list[list[tuple[int, int]]]:
    """Each query's runs of lower-case letters, (start, end) from 0 and inclusive, which
    blastp -lcase_masking masks: of a FASTA file's sequence lines (plain or gzip) or of
    records' letters. ValueError where the queries keep no case (a SequenceDatabase, a
    packed database) or the records counted differ from the ``count`` read."""
    if isinstance(query, (str, os.PathLike)) and os.path.isfile(query):  # (packed: a folder)
        records: list[bytearray] = []
        for part in _fasta_lines(query):
            if part[:1] == b">":
                records.append(bytearray())
            elif records:
                records[-1] += part
        texts = [bytes(r) for r in records]
    elif isinstance(query, (str, os.PathLike, SequenceDatabase)):
        raise ValueError("-lcase_masking needs the queries' letters as written (a FASTA file or "
                         "records): a database keeps no lower case")
    else:
        # ((name, letters) pairs or Biopython SeqRecords, as the search reads them)
        texts = [str(r[1] if isinstance(r, tuple) else r.seq).encode() for r in query]
    if len(texts) != count:
        raise ValueError(f"-lcase_masking: {len(texts)} records with letters for {count} "
                         "queries read")
    out = []
    for text in texts:
        residues = re.sub(rb"[^A-Za-z*]", b"", text)  # (the letters the reader counts)
        lower = np.frombuffer(residues, np.uint8) >= ord("a")
        edges = np.flatnonzero(np.diff(np.concatenate([[0], lower.view(np.int8), [0]])))
        out.append([(int(a), int(b) - 1) for a, b in zip(edges[::2], edges[1::2])])
    return out


def _fasta_lines(path) -> Iterator[bytes]:
    """The lines of a FASTA file (plain or gzip) from its first record on, without their ends
    (a CR alone ends a line too)."""
    with open(path, "rb") as f:
        gzipped = f.read(2) == b"\x1f\x8b"
    if gzipped:
        import gzip

        opened = gzip.open(path, "rb")
    else:
        opened = open(path, "rb")
    started = False
    with opened as f:
        for line in f:
            if not started:  # (blank text may come before the first record)
                line = line.lstrip()
            for part in line.split(b"\r") if b"\r" in line else (line,):
                started = started or part[:1] == b">"
                if started:
                    yield part.rstrip(b"\n")


def tabular_fields(fields: list[str] | None, outfmt: int = 6) -> list[str]:
    """The column names of an ``-outfmt 6`` (7, 10) field list (``std`` expanded; a field
    named again, alone or within ``std``, is written once, where it first came, as blastp
    writes it)."""
    names: list[str] = []
    for field in fields or ["std"]:
        if field != "std" and field not in TABULAR_FIELDS:
            raise ValueError(f"-outfmt {outfmt} field {field!r}: gpuseq writes std, "
                             f"{', '.join(TABULAR_FIELDS)}")
        names += [name for name in (STD_FIELDS if field == "std" else [field])
                  if name not in names]
    return names
