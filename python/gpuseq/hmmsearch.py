"""Profile-HMM search with results equal to HMMER3's ``hmmsearch``.

Data flow (see docs/architecture.md)::

    queries --iter_hmms, on a thread--> pyhmmer HMM --search_profile--> SearchProfile (C++ tables)
    targets --iter_sequence_chunks--> SequenceDatabase chunks
    chunk x query --_core.run_cascade (CPU) or _core.gpu_run_cascade (GPU)--> MSV -> bias ->
        Viterbi filter stages (ours, bit-equal)
    survivors (about 0.1%), chunk by chunk --pyhmmer Pipeline, on a thread pool while the
        filters go on--> Forward, domains; parts merged with the final Z --> E-values
    TopHits (HMMER's own objects, with the full pipeline counters) --> DataFrames and files

The filters that take nearly all of hmmsearch's time are ours; everything after them is
HMMER 3.4's own code through pyhmmer, so scores, E-values and domains are HMMER's.
"""

from __future__ import annotations

import inspect
import os
import queue
import sys
import threading
import weakref
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ThreadPoolExecutor, wait
from dataclasses import fields
from typing import Any

import numpy as np

from . import _checks as checks
from . import _core, _pyhmmer
from ._pyhmmer_state import found_order, set_pipeline_state, without_hits
from .backend import cuda_threads, resolve_backend, start_cuda, worker_threads
from .errors import HmmFormatError, SequenceTooLongError
from .hmm import HmmSource, iter_hmms, search_profile
from .hmmsearch_options import HmmsearchOptions
from .hmmsearch_results import HmmsearchResult
from .sequences import (
    DEFAULT_BLOCK_BYTES,
    GPU_DATABASE_CHUNK_RESIDUES,
    ReadAhead,
    SequenceSource,
    iter_sequence_chunks,
    kept_device_copy,
)

__all__ = ["hmmsearch", "HmmsearchOptions", "HmmsearchResult"]

_STAGE_PASSED = 4  # CascadeStage::kStagePassed in cpp/hmm/cascade.hpp
#: Models of one search that share a targets-per-warp count S before their SSV runs on the
#: S-lane kernels (sequence blocks planned per chunk and S). The plan runs on a host thread
#: (GpuProfile.ssv_blocks_background: ~145 ms for the search's chunks of 1.4 M targets, the
#: first models' SSVs a warp per target meanwhile), and each model after saves ~9 ms (M = 149:
#: 5 ms against 14). Whole commands on an H200 host, blocks in the background from 4 models /
#: waited for from 16 (972ac26) / never, medians of 3: 4 models 0.99 / - / 1.01 s, 8 models
#: 1.04 / - / 1.11, 16 models 1.14 / 1.24 / 1.28, 32 models 1.22 / 1.40 / 1.58
#: (benchmarks/results/gpu-h200-20261129-d, section 1).
SSV_BLOCKS_MIN_MODELS = 4
# GPU cascades of one chunk run at once, for consecutive models, each thread's launches on
# its own stream: the host's part of one (decisions between the launches, ~half of its time)
# overlaps the others' kernels, and their kernels overlap each other (a Viterbi filter or
# Forward bound of a few thousand targets fills a fraction of the GPU). Measured on the H100,
# 100 models at M 149 against 490 M residues, in process: 3.13 s with 2, 2.71 s with 3,
# 2.52-2.59 s with 4, 2.41 s with 6, 2.27 s with 8, 2.19 s with 12; 6 models from FASTA:
# 2.07 s with 2, 2.16 s with 4, 1.87 s with 8
# (benchmarks/results/gpu-h100-80gb-hbm3-20261124/in-flight-*.log).
GPU_CASCADES_IN_FLIGHT = 8
# Models whose GPU tables are made at once, as they are read (_gpu_tables): with a cold disk
# cache NVRTC compiles each new Viterbi kernel for seconds (one program a thread, ~125 MB
# each), so the search's models compile side by side, beside the CUDA start-up and the upload.
GPU_TABLE_THREADS = 16
# Searches under way that may upload at once (kept threads, backend.cuda_threads: each search
# holds one for its targets' uploads until its end; more wait for one).
GPU_UPLOAD_THREADS = 32
_BIT_CUTOFFS = {"gathering": "GA", "noise": "NC", "trusted": "TC"}


def _option_keywords(func: Callable) -> Callable:
    """Show HmmsearchOptions' fields as keyword parameters of func's ``**options`` (for
    help(), IDEs and inspect): the fields are the one definition of names and defaults."""
    signature = inspect.signature(func)
    own = [p for p in signature.parameters.values() if p.kind is not p.VAR_KEYWORD]
    keyword = inspect.Parameter.KEYWORD_ONLY
    options = [
        inspect.Parameter(f.name, keyword, default=f.default, annotation=f.type)
        for f in fields(HmmsearchOptions)
    ]
    func.__signature__ = signature.replace(parameters=own + options)
    return func


@_option_keywords
def hmmsearch(
    hmms: HmmSource,
    sequences: SequenceSource,
    *,
    cpus: int = 0,
    backend: str = "auto",
    progress: bool | None = None,
    callback: Callable[[int, int | None], None] | None = None,
    block_bytes: int | None = None,
    tformat: str | None = None,
    on_query: Callable[[HmmsearchResult], None] | None = None,
    **options: Any,
) -> HmmsearchResult:
    """Search profile HMMs against protein sequences, with hmmsearch's results.

    Arguments:
        hmms: an HMM file path (several models allowed), a ``pyhmmer.plan7.HMM``, or a list
            of them.
        sequences: a sequence file path (FASTA plain or gzip, or any format hmmsearch reads:
            EMBL/UniProt, GenBank, Stockholm, aligned FASTA, NCBI BLAST database ...), ``"-"``
            for standard input, a database made by :func:`gpuseq.makedb`, a
            :class:`~gpuseq.SequenceDatabase`, or an iterable of Biopython ``SeqRecord``,
            pyhmmer sequences or ``(name, sequence)`` pairs. ``hmms`` may be ``"-"`` too,
            but not both. Several models may be searched against standard input (hmmsearch
            refuses that: it rereads the targets for each model; we read them once). A
            ``SequenceDatabase`` you hold stays on the GPU after the first search, so that
            later searches skip the upload (``db.free_device_memory()`` drops it).
        cpus: threads (0: all cores).
        backend: ``"auto"`` (the GPU when there is one), ``"cpu"`` or ``"cuda"``.
        progress: show a progress bar (None: when stderr is a terminal).
        callback: called as ``callback(residues_done, residues_total_or_None)`` after each chunk.
        block_bytes: FASTA text per parsed block (default 64 MiB; on the GPU, blocks that
            doubled up to 256 MiB were slower: parsing, not filtering, bounds FASTA input)
            and, when given, residues per chunk of a packed or in-memory database (default:
            64 Mi on the CPU, ``GPU_DATABASE_CHUNK_RESIDUES`` on the GPU).
        tformat: the target file's format, as hmmsearch's ``--tformat`` (``"fasta"``,
            ``"embl"``, ``"stockholm"``, ``"afa"``, ``"ncbi"`` ...); None detects it as
            hmmsearch does.
        on_query: called with each query's result (an :class:`HmmsearchResult` of that one
            query) in query order as soon as it is final, on a thread of its own: while later
            models are still searched when the targets are a database (packed or in memory),
            at the end for a sequence file (E-values need the number of targets).
            ``HmmsearchWriter(...).add`` writes hmmsearch's files so, as hmmsearch does.
        **options: hmmsearch's options by the names of :class:`HmmsearchOptions`' fields,
            with hmmsearch's defaults: ``E``, ``T``, ``domE`` ... as the flags of the same
            names, ``bit_cutoffs="gathering"`` for ``--cut_ga``, ``max=True`` for ``--max``,
            ``bias_filter=False`` for ``--nobias``, ``null2=False`` for ``--nonull2``,
            ``seed`` for ``--seed`` (0: a one-time arbitrary seed).

    Returns:
        An :class:`HmmsearchResult`: DataFrames of hits and domains, per-query pipeline
        counters, and HMMER's own ``TopHits`` objects.

    Raises:
        InputError, FormatError, AlphabetError, EmptyInputError, HmmFormatError: bad input,
            naming the file and the record or line.
        SequenceTooLongError: a target longer than 100,000 residues (HMMER's limit).
        BackendError: ``backend="cuda"`` cannot be used.
        TypeError, ValueError: an option that hmmsearch does not have, or a bad value.

    Example:
        >>> res = gpuseq.hmmsearch("globins4.hmm", "globins45.fa")  # doctest: +SKIP
        >>> res.hits[["target_name", "evalue", "score"]].head()  # doctest: +SKIP
    """
    unknown = sorted(set(options) - {f.name for f in fields(HmmsearchOptions)})
    if unknown:
        raise TypeError(f"hmmsearch() got an unexpected keyword argument {unknown[0]!r}")
    options = HmmsearchOptions(**options)
    if _is_stdin(hmms) and _is_stdin(sequences):
        raise ValueError(BOTH_STDIN_MESSAGE)
    threads = worker_threads(cpus, "cpus")
    if block_bytes is not None and checks.integer(block_bytes, "block_bytes") < 1:
        raise ValueError(f"block_bytes must be 1 or more (or None: the default), not {block_bytes}")
    if progress is not None:
        checks.flag(progress, "progress")
    for name, function in (("callback", callback), ("on_query", on_query)):
        if function is not None and not callable(function):
            raise TypeError(f"{name} must be a function, not {function!r}")
    where = resolve_backend(backend, "hmm_filters")  # raises if 'cuda' cannot be honoured
    # Sequence files in blocks of block_bytes; a packed or in-memory database on the GPU in
    # larger chunks (fewer cascade calls), unless block_bytes says otherwise.
    database_residues = block_bytes or (
        GPU_DATABASE_CHUNK_RESIDUES if where == "cuda" else DEFAULT_BLOCK_BYTES
    )

    def open_targets():
        return iter_sequence_chunks(
            sequences, threads, block_bytes or DEFAULT_BLOCK_BYTES, tformat, database_residues
        )

    uploaded = chunks = opening_error = gpu_chunks = None
    if where == "cuda":
        # The CUDA context is made; the targets are read on a thread and uploaded on a kept
        # one (backend.cuda_threads), which waits only on the reader and so can always be
        # stopped (the reader may wait on a pipe, or on the caller's records): the first chunk
        # while the models are read and compiled, each next one while the one before is
        # filtered; unused if every model is longer than the GPU kernels take.
        start_cuda("gpuseq-cuda-init")
        try:
            label, total, chunks = open_targets()
            if not isinstance(chunks, ReadAhead):
                chunks = ReadAhead(chunks)
            gpu_chunks = _GpuChunks()
            uploaded = ReadAhead(
                gpu_chunks(chunks), cuda_threads("gpuseq-upload", GPU_UPLOAD_THREADS)
            )
        except Exception as exc:
            opening_error = exc
    # The models are read and compiled on a thread of their own (their GPU tables on a pool
    # from there); the first chunk's filters start on those read by the time its targets are
    # there. Errors come in hmmsearch's order: the first model's, the targets', then a later
    # model's once the models before it are searched and reported.
    tables = None
    if where == "cuda":
        tables = cuda_threads("gpuseq-tables", min(threads, GPU_TABLE_THREADS))
    models = _ModelStream(hmms, options.bit_cutoffs, tables)
    try:
        ready = models.first()
        if opening_error is not None:
            raise opening_error
    except BaseException:
        models.close()
        _stop_reading(uploaded, chunks)
        raise
    if uploaded is None:  # the CPU filters
        try:
            label, total, chunks = open_targets()
        except BaseException:
            models.close()
            raise
        uploaded = ((chunk, None) for chunk in chunks)
    bar = downstream = None
    try:
        F1_, F2_, F3_, bias_on = options.filter_thresholds
        filters = _Filters(where, F1_, F2_, bias_on, F3_)
        counts: list[dict] = []
        query_source = _label(hmms)

        def report(top) -> None:
            on_query(HmmsearchResult([top], options, query_source, label))

        downstream = _Downstream(options, threads, report if on_query is not None else None)

        def added(batch: list) -> list[int]:
            """New models: their tables, counters and downstream; their query indices."""
            for hmm, profile, gpu_tables in batch:
                filters.add(profile, gpu_tables)
                counts.append(dict(n_past_msv=0, n_past_bias=0, n_past_vit=0))
                downstream.add(hmm)
            return list(range(len(counts) - len(batch), len(counts)))

        # A later model that cannot be searched (malformed, no cutoffs for --cut_ga, another
        # alphabet) ends the models read; the search of those before it runs to its end and
        # reports them, then its error is raised, as hmmsearch writes a model's results before
        # it reads the next one.
        model_error: Exception | None = None

        def first_chunk_batches():
            nonlocal model_error
            taken = models.batches(ready)
            while True:
                try:
                    batch = next(taken)
                except StopIteration:
                    return
                except Exception as exc:
                    model_error = exc
                    return
                yield added(batch)

        nseqs = nres = 0
        first_chunk = True
        bar = _progress_bar(progress, total)
        for chunk, targets in uploaded:
            lengths = chunk.lengths
            too_long = np.flatnonzero(lengths > _core.max_target_length)
            if len(too_long):
                i = int(too_long[0])
                raise SequenceTooLongError(
                    label, chunk.name(i), int(lengths[i]), _core.max_target_length
                )
            nseqs += len(chunk)
            nres += chunk.total_residues
            # A database's last chunk: each query is final once its survivors are submitted.
            last_chunk = chunk.ends_database  # (not the residues: empty records may follow)
            # The first chunk takes the models as they are read; the others, all of them.
            batches = first_chunk_batches() if first_chunk else [range(len(counts))]
            first_alone, first_chunk = first_chunk, False
            shrink = gpu_chunks.shrink if gpu_chunks is not None else None
            results = filters.run(chunk, targets, threads, batches, first_alone, shrink)
            del targets  # (run drops the chunk's GPU copy if a model's buffers do not fit)
            for q, r in results:
                for key in counts[q]:
                    counts[q][key] += r[key]
                if "survivors" in r:  # the GPU's (after its Forward bound, if it ran)
                    passed = r["survivors"]
                else:
                    passed = np.flatnonzero(r["stage"] == _STAGE_PASSED)
                bounded = r.get("forward_bound", False)
                first = nseqs - len(chunk) + 1  # the chunk's first target's place, from 1
                downstream.submit(q, chunk.to_pyhmmer(passed), nseqs, bounded,
                                  (first + np.asarray(passed, dtype=np.int64)).tolist())
                if last_chunk:
                    downstream.finalize(q, nseqs, dict(nres=nres, **counts[q]))
            downstream.end_chunk(nseqs)
            if bar is not None:
                bar.update(chunk.total_residues)
            if callback is not None:
                callback(nres, total)
        if first_chunk:  # no target at all: the models are still read, checked and reported
            for _batch in first_chunk_batches():
                pass
        top_hits = downstream.finish(nseqs, lambda q: dict(nres=nres, **counts[q]))
        if model_error is not None:
            raise model_error
    finally:
        models.close()
        _stop_reading(uploaded, chunks)
        if downstream is not None:
            downstream.close()
        if bar is not None:
            bar.close()
    return HmmsearchResult(top_hits, options, query_source=query_source, target_source=label)


class _Downstream:
    """HMMER's downstream (Forward onwards, through pyhmmer) on a pool of threads, fed with
    each chunk's survivors while the filters go on with the next model or chunk.

    Memory stays bounded whatever the database size: the survivors of at most two chunks
    are held at a time (end_chunk waits for the one before), and each query's finished
    parts, which hold only the hits, are merged as they pile up.

    E-values need Z, the number of targets, known only at the end for a sequence file. Each
    part keeps the hits hmmsearch keeps, by each target's place (_run_hmmer_downstream): all
    that the final Z reports and more (a smaller Z only gives smaller E-values), and
    finish() sets the final Z and lets TopHits.merge apply the thresholds again. The worker
    threads run with flush-to-zero as hmmsearch's do (impl_Init): E-values below ~1e-307
    print as 0 as in hmmsearch (spec section 8), and Forward/Backward avoid denormal slow
    paths.
    """

    # Fewest survivors worth a task of their own: most Viterbi survivors fail HMMER's Forward
    # filter at once (~0.1 ms each).
    MIN_PART = 32
    # Those the GPU's Forward bound lets through are nearly all hits, each a domain definition
    # of HIT_SECONDS + CELL_SECONDS x M x L (fitted on an H200 host's hits: 2.3 ms for RRM_1's,
    # M = 71, to 57 ms for SMC_N's, M = 1142), so they go in parts of about equal work, at most
    # one a thread and at least PART_SECONDS of it: each part costs ~2.5 ms more, much of it
    # holding the GIL, which the thread reporting the queries in order then waits for. Over
    # 490 M residues, against a part a thread of four or more targets: 100 models of M = 149
    # 1.95 -> 1.72 s, six of M 71-1142 1.42 -> 1.32 s (benchmarks/results/gpu-h200-20261129-c).
    HIT_SECONDS = 1.7e-3
    CELL_SECONDS = 37e-9
    PART_SECONDS = 0.05
    MERGE_AFTER = 64  # finished parts of one query merged into one beyond this many

    def __init__(
        self, options: HmmsearchOptions, threads: int, report: Callable | None = None
    ) -> None:
        self.hmms: list = []
        self.options, self.threads = options, threads
        self.pool = ThreadPoolExecutor(
            max_workers=threads, initializer=_core.set_flush_denormals, initargs=(True,)
        )
        self.parts: list[list] = []  # per query: futures, then TopHits, in target order
        self.chunk_futures: list = []
        self.previous_chunk: list = []
        # Final queries are merged and reported (in query order) on a thread of their own.
        self.reporter = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gpuseq-report")
        self.report = report
        self.final: list[Future | None] = []  # per query: its final TopHits, once final
        self.done: dict[int, Any] = {}  # final TopHits not reported yet
        self.next_report = 0
        self.report_error: BaseException | None = None

    def add(self, hmm) -> None:
        """One more query (models join while the first chunk is filtered)."""
        self.hmms.append(hmm)
        self.parts.append([])
        self.final.append(None)

    def submit(
        self, q: int, survivors: list, nseqs_so_far: int, bounded: bool = False,
        positions: list[int] | None = None,
    ) -> None:
        """Query q's survivors of a chunk (``positions``: each one's place among all the
        targets, from 1, which decides the hits HMMER keeps; see _run_hmmer_downstream)."""
        order = list(range(len(survivors)))
        if bounded:
            M = self.hmms[q].M
            costs = [self.HIT_SECONDS + self.CELL_SECONDS * M * len(s) for s in survivors]
            pieces = _split_by_cost(order, costs, self.PART_SECONDS, self.threads)
        else:  # by count
            pieces = _split_by_cost(order, [1.0] * len(survivors), self.MIN_PART, self.threads)
        for piece in pieces:
            start, stop = piece[0], piece[-1] + 1
            future = self.pool.submit(
                _run_hmmer_downstream, self.hmms[q], survivors[start:stop], self.options,
                nseqs_so_far, None if positions is None else positions[start:stop],
            )
            self.parts[q].append(future)
            self.chunk_futures.append(future)

    def end_chunk(self, nseqs_so_far: int) -> None:
        """Wait for the previous chunk's tasks (this one's run on while the next chunk is
        filtered); merge piled-up parts."""
        for future in self.previous_chunk:
            future.result()
        self.previous_chunk, self.chunk_futures = self.chunk_futures, []
        Z = nseqs_so_far if self.options.Z is None else None
        for q, parts in enumerate(self.parts):
            if self.final[q] is not None:  # the reporting thread merges it
                continue
            # One look at each part: a part that ended between two looks would be in neither
            # list, and its hits lost (api_fuzz.py found it, session 69).
            done, pending = [], []
            for p in parts:
                (pending if isinstance(p, Future) and not p.done() else done).append(p)
            if len(done) > self.MERGE_AFTER:  # (hits sort by key, then name: order is free)
                merged = _merged([p.result() if isinstance(p, Future) else p for p in done], Z)
                self.parts[q] = [merged, *pending]

    def finalize(self, q: int, nseqs: int, counters: dict) -> None:
        """Query q has all its survivors (the search's nseqs and its counters are final):
        its TopHits are made and reported on the reporting thread."""
        self.final[q] = self.reporter.submit(self._final, q, self.parts[q], nseqs, counters)

    def _final(self, q: int, parts: list, nseqs: int, counters: dict):
        """HMMER's TopHits over all of query q's survivors, with the final Z and the
        search's counters; then every final query not yet reported, in query order."""
        hits = [p.result() if isinstance(p, Future) else p for p in parts]
        if not hits:  # no survivor at all: HMMER's empty result, with its settings
            hits = [_run_hmmer_downstream(self.hmms[q], [], self.options, nseqs)]
        top = _merged(hits, nseqs if self.options.Z is None else None)
        _set_pipeline_counts(top, self.options, nseqs=nseqs, **counters)
        self.done[q] = top
        while self.next_report in self.done:
            ready = self.done.pop(self.next_report)
            self.next_report += 1
            if self.report is not None and self.report_error is None:
                try:
                    self.report(ready)
                except BaseException as exc:  # raised to hmmsearch's caller by finish()
                    self.report_error = exc
        return top

    def finish(self, nseqs: int, counters: Callable[[int], dict]) -> list:
        """Per query, HMMER's TopHits over all its survivors, with the final Z and
        counters(q); every query reported."""
        for q, final in enumerate(self.final):
            if final is None:
                self.finalize(q, nseqs, counters(q))
        tops = [final.result() for final in self.final]
        if self.report_error is not None:
            raise self.report_error
        return tops

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)
        self.reporter.shutdown(wait=True, cancel_futures=True)


def _merged(parts: list, Z: float | None):
    """One TopHits from parts of one query's search, thresholds applied again with Z (None:
    the Z the parts share, set by -Z)."""
    if Z is not None:
        for part in parts:
            set_pipeline_state(part, Z=float(Z))
    with _core.flush_denormals():  # merge thresholds on E-values, computed as hmmsearch does
        return parts[0].merge(*parts[1:])


#: hmmsearch's own words when both inputs are standard input (its test suite checks them).
BOTH_STDIN_MESSAGE = "Either <hmmfile> or <seqdb> may be '-' (to read from stdin), but not both."


def _is_stdin(source: Any) -> bool:
    return isinstance(source, (str, os.PathLike)) and os.fspath(source) == "-"


def _stop_reading(uploaded, chunks) -> None:
    """Stop the targets' readers. Read-ahead threads (the GPU path has two, one reading the
    other) are told to stop and not waited for: one may be inside a read of a pipe that
    gives nothing more for now, and each ends at its next item. The CPU path's generator is
    closed here."""
    for reader in (uploaded, chunks):
        if isinstance(reader, ReadAhead):
            reader.close(wait=False)
    if uploaded is not None and not isinstance(uploaded, ReadAhead):
        uploaded.close()


class _GpuChunks:
    """The chunks and their GPU copies, made on the upload thread: (part, copy) pairs for
    every model to filter. A chunk the GPU cannot hold is cut in halves until each part
    fits, and each part is uploaded once for all the models (a target that does not fit
    alone comes with None: the CPU filters). After a failed allocation, here or in a model's
    cascade (shrink), later chunks are cut before upload until each part is smaller than the
    smallest that failed."""

    def __init__(self) -> None:
        self.most_residues: int | None = None  # a part's residues at most, once memory ran out

    def shrink(self, residues: int) -> None:
        """An allocation failed with a part of `residues` on the GPU: later parts are smaller.
        (Called from the cascades' threads too; a race between two only keeps the larger
        limit.)"""
        smaller = max(1, residues - 1)
        if self.most_residues is None or smaller < self.most_residues:
            self.most_residues = smaller

    def __call__(self, chunks) -> Iterator[tuple]:
        for chunk in chunks:
            yield from self._parts(chunk)

    def _parts(self, chunk, evict: bool = True) -> Iterator[tuple]:
        """With a database the caller holds, an upload that fails drops the copies it keeps
        (kept_device_copy) until a part of this chunk is kept (`evict`): the parts uploaded
        since are still in use, and those of other chunks are gone."""
        most = self.most_residues
        whole = len(chunk) <= 1 or (
            (most is None or chunk.total_residues <= most) and not _held_in_parts(chunk)
        )
        if whole:
            copy = kept_device_copy(
                chunk.device_copies, chunk.device_key,
                lambda: _core.GpuTargets(chunk.residues, chunk.offsets), evict=evict,
            )
            if copy is not None or len(chunk) <= 1:
                yield chunk, copy
                return
            self.shrink(chunk.total_residues)
        first, second = _halves(chunk)
        yield from self._parts(first, evict)
        yield from self._parts(second, evict=False)


def _half_point(offsets, stop: int) -> int:
    """Where targets 0..stop-1 are cut in two of about half their residues each."""
    half = int(np.searchsorted(offsets, offsets[0] + (offsets[stop] - offsets[0]) // 2))
    return min(max(half, 1), stop - 1)


def _halves(chunk) -> tuple:
    """The chunk as two views (_half_point), which share its database's resident copies
    under their own ranges."""
    n = len(chunk)
    half = _half_point(chunk.offsets, n)
    parts = []
    for start, stop in ((0, half), (half, n)):
        part = chunk.slice(start, stop)
        part.ends_database = chunk.ends_database and stop == n
        if chunk.device_copies is not None:
            first = chunk.device_key[0]
            part.device_copies = chunk.device_copies
            part.device_key = (first + start, first + stop)
        parts.append(part)
    return tuple(parts)


def _held_in_parts(chunk) -> bool:
    """Whether a database the caller holds keeps parts that an earlier search cut from this
    chunk (the first part of each cut is uploaded first, so the first halves are looked up):
    those copies are used, where an upload of the whole would fail and drop them."""
    copies, key = chunk.device_copies, chunk.device_key
    if not copies or key in copies:
        return False
    stop = len(chunk)
    while stop > 1:
        stop = _half_point(chunk.offsets, stop)
        if (key[0], key[0] + stop) in copies:
            return True
    return False


class _ModelStream:
    """The query models, read, checked and compiled (search_profile) on a thread of their own
    from the moment of the call, each model's GPU tables then started on `tables` (a pool; the
    GPU search); the caller takes them in batches of those read so far: (hmm, profile, future
    of the GPU tables or None) triples. close() stops the reading and cancels the tables not
    started (a compilation under way at an error finishes on its own)."""

    BATCH_LIMIT: int | None = None  # at most this many models a batch (tests)

    def __init__(
        self, hmms: HmmSource, bit_cutoffs: str | None, tables: Executor | None = None
    ) -> None:
        handoff = _ModelHandoff()
        stop = threading.Event()
        # The thread holds the handoff weakly, and no model's GPU tables past handing them
        # over: the caller's thread, or the tables' kept pool, frees them. (A thread that frees
        # GPU memory and then ends may hang the driver: backend.cuda_threads. This one ends
        # when the models end, or at the next model once the search is over.)
        caller = weakref.ref(handoff)

        def hand(item) -> bool:
            """Give the caller `item`; False once it is gone (its search ended)."""
            to = caller()
            if to is None:
                return False
            if isinstance(item, tuple) and item[2] is not None:
                to.started.append(item[2])
            to.items.put(item)
            return True

        def produce() -> None:
            try:
                for hmm in iter_hmms(hmms):
                    if stop.is_set():
                        return
                    if bit_cutoffs:
                        _check_cutoffs([hmm], bit_cutoffs, hmms)
                    profile = search_profile(hmm)
                    gpu = None if tables is None else tables.submit(_gpu_tables, profile)
                    handed = hand((hmm, profile, gpu))
                    del gpu
                    if not handed:
                        return
                hand(_END_OF_MODELS)
            except BaseException as exc:  # raised on the caller's thread
                hand(exc)

        self._handoff, self._stop = handoff, stop
        self._error: BaseException | None = None  # read after the models in the last batch
        self.reading = True  # until batches() has handed out the last model
        threading.Thread(target=produce, name="gpuseq-models", daemon=True).start()

    def _take(self, wait: bool = True) -> list:
        """The models read so far; with `wait`, waiting for one if there is none. [] once
        all are taken. A model's error is raised once the models before it are taken."""
        if self._error is not None:
            error, self._error = self._error, None
            raise error
        batch: list = []
        while self.reading and (self.BATCH_LIMIT is None or len(batch) < self.BATCH_LIMIT):
            try:
                item = self._handoff.items.get(block=wait and not batch)
            except queue.Empty:
                break
            if item is _END_OF_MODELS:
                self.reading = False
            elif isinstance(item, BaseException):
                self.reading = False
                if not batch:
                    raise item
                self._error = item
            else:
                batch.append(item)
        return batch

    def close(self) -> None:
        """Stop reading models (a search that ended in an error): the thread ends at the
        next model; GPU tables not started yet are not made."""
        self._stop.set()
        for future in list(self._handoff.started):
            future.cancel()

    def first(self) -> list:
        """The first model and any read with it: (hmm, profile) pairs."""
        return self._take()

    def batches(self, taken: list) -> Iterator[list]:
        """The models, a batch of those read so far at a time: the first `taken` (from
        first()) with those read since, then the rest as they come."""
        batch = taken
        if self._error is None:
            try:
                batch = taken + self._take(wait=False)
            except Exception as exc:  # a later model's: raised once `taken` are searched
                self._error = exc
        while batch:
            yield batch
            batch = self._take()


_END_OF_MODELS = object()


class _ModelHandoff:
    """What _ModelStream's reading thread hands its caller: the models read (items: (hmm,
    profile, GPU tables future or None) triples, then _END_OF_MODELS or an error) and the
    GPU tables asked for (started)."""

    def __init__(self) -> None:
        self.items: queue.Queue = queue.Queue()
        self.started: list[Future] = []


class _Filters:
    """The MSV -> bias -> Viterbi filter cascade (and the GPU's Forward bound) of each query
    model, which join as they are read (add). run() yields (model index, cascade result)
    model by model, so that HMMER's downstream can start on a model's survivors while the next
    model runs.

    Within each batch of models, the longest run first: their survivors cost the downstream
    the most, and it works on them while the other models are filtered. A chunk that the
    GPU cannot hold comes cut (_GpuChunks); where a model's work buffers do not fit beside a
    chunk, the models cut it in halves (_ChunkCopies; a single target that does not fit, and
    a model longer than the GPU kernels take, run on the CPU filters): the results are the
    same."""

    def __init__(self, where: str, F1: float, F2: float, bias_on: bool, F3: float = 1.0):
        self.where, self.F1, self.F2, self.bias_on, self.F3 = where, F1, F2, bias_on, F3
        self.profiles: list = []
        self.gpu: list = []  # the model's GPU tables (or their future), or None (CPU filters)

    def add(self, profile, gpu: Future | None = None) -> None:
        """One more model; on the GPU, its tables (_gpu_tables), made here unless `gpu` is
        their future."""
        self.profiles.append(profile)
        if self.where == "cuda" and gpu is None:
            gpu = _gpu_tables(profile)
        self.gpu.append(gpu)

    def _tables(self, q: int):
        """Model q's GPU tables (waiting for them), or None: the CPU filters."""
        g = self.gpu[q]
        return g.result() if isinstance(g, Future) else g

    def _share_ssv_blocks(self, models) -> None:
        """The S-lane SSV's sequence blocks are planned once per chunk and S: they pay when
        enough models share them (counted over the models read so far)."""
        tables = [self._tables(q) for q in range(len(self.gpu))]
        share = Counter(g.sequences_per_warp for g in tables if g is not None)
        for q in models:
            g = tables[q]
            if g is not None and g.sequences_per_warp > 1:
                g.ssv_multi = share[g.sequences_per_warp] >= SSV_BLOCKS_MIN_MODELS
                # The first models' SSVs run a warp per target while the blocks are planned.
                g.ssv_blocks_background = True

    def _cascade(self, q: int, residues, offsets, targets, threads: int) -> dict:
        gpu = self._tables(q)
        if targets is None or gpu is None:
            return _core.run_cascade(
                self.profiles[q], residues, offsets, self.F1, self.F2, self.bias_on, threads
            )
        return _core.gpu_run_cascade(
            gpu, targets, F1=self.F1, F2=self.F2, bias_filter=self.bias_on,
            threads=threads, F3=self.F3, all_scores=False,
        )

    def _in_parts(self, q: int, copies: _ChunkCopies, start: int, stop: int,
                  threads: int) -> dict:
        """Model q's cascade over targets start..stop-1 of the chunk: on their GPU copy, or
        in halves where there is none or the model's work buffers do not fit beside it."""
        chunk = copies.chunk
        offsets = chunk.offsets[start : stop + 1]
        targets = copies.copy(start, stop)
        if targets is not None:
            try:
                return self._cascade(q, chunk.residues, offsets, targets, threads)
            except _core.DeviceOutOfMemory:  # the model's work buffers did not fit
                copies.too_large(start, stop)
                targets = None  # (dropped before its halves are uploaded)
        if stop - start <= 1:
            return self._cascade(q, chunk.residues, offsets, None, threads)
        half = start + _half_point(offsets, stop - start)
        first = self._in_parts(q, copies, start, half, threads)
        return _concatenate_cascades(first, self._in_parts(q, copies, half, stop, threads))

    def run(self, chunk, targets, threads: int, batches, first_alone: bool = False,
            shrink: Callable | None = None):
        """Results for the models of `batches` (lists of model indices, each taken when the
        one before is under way); on the GPU, GPU_CASCADES_IN_FLIGHT models at once, after
        the first alone with `first_alone` (see below). `targets` is the chunk's GPU copy
        (the caller keeps no reference: it is dropped when a model's work buffers do not fit
        beside it, and the models then share copies of its halves, _ChunkCopies; `shrink`,
        _GpuChunks.shrink, cuts later chunks smaller)."""
        on_gpu = targets is not None and self.where == "cuda"
        copies = _ChunkCopies(chunk, targets, shrink)
        del targets

        def one(q: int) -> dict:
            if self._tables(q) is None:
                return self._cascade(q, chunk.residues, chunk.offsets, None, threads)
            return self._in_parts(q, copies, 0, copies.targets, threads)

        def ordered():
            for batch in batches:
                batch = list(batch)
                self._share_ssv_blocks(batch)
                yield from sorted(batch, key=lambda q: -self.profiles[q].M)

        in_flight = GPU_CASCADES_IN_FLIGHT if on_gpu else 1
        if in_flight == 1:
            for q in ordered():
                yield q, one(q)
            return
        # The search's first chunk: its first model (the longest) runs alone, so that its
        # survivors, the downstream's largest share, reach the idle downstream while the others
        # are filtered. Run beside them, it finished with them (H100, six models over 490 M
        # residues: the command 1.52 -> 1.34 s; 100 models the same). On later chunks the
        # downstream has the chunk before's survivors. The threads are kept for the next chunk
        # and search (backend.cuda_threads: a pool per chunk, its threads ending, hung the
        # driver now and then).
        pool = cuda_threads("gpuseq-cascade", GPU_CASCADES_IN_FLIGHT)
        pending: list = []
        try:
            for i, q in enumerate(ordered()):
                pending.append((q, pool.submit(one, q)))
                if (first_alone and i == 0) or len(pending) == in_flight:
                    q0, future = pending.pop(0)
                    yield q0, future.result()
            while pending:
                q0, future = pending.pop(0)
                yield q0, future.result()
        finally:  # an error, or the caller stopped: cascades under way end before we return
            for _q, future in pending:
                future.cancel()
            wait([future for _q, future in pending])


class _ChunkCopies:
    """The GPU copies of a chunk's targets that its models filter: the whole chunk's, or,
    once a model's work buffers do not fit beside a copy, those of its halves (cut at
    _half_point), each uploaded once for the models after it. A range found too large (its
    upload, or a model's buffers beside it, ran out of memory) is not tried again, and later
    chunks are cut smaller (`shrink`). A database the caller holds drops the copies it keeps
    at the first failure, as _GpuChunks does; the halves are this search's own."""

    def __init__(self, chunk, whole, shrink: Callable | None) -> None:
        self.chunk, self._shrink = chunk, shrink
        self.targets = n = len(chunk.offsets) - 1
        self._copies: dict[tuple[int, int], Any] = {} if whole is None else {(0, n): whole}
        self._too_large: set[tuple[int, int]] = set() if whole is not None else {(0, n)}
        self._lock = threading.Lock()

    def copy(self, start: int, stop: int):
        """The GPU copy of targets start..stop-1 (uploaded now, unless made before), or None
        when the range is too large."""
        key = (start, stop)
        with self._lock:  # (one upload at a time: a range's next user waits for its copy)
            if key in self._too_large:
                return None
            if key not in self._copies:
                offsets = self.chunk.offsets[start : stop + 1]
                try:
                    self._copies[key] = _core.GpuTargets(self.chunk.residues, offsets)
                except _core.DeviceOutOfMemory:
                    self._failed(key)
                    return None
            return self._copies[key]

    def too_large(self, start: int, stop: int) -> None:
        """A model's work buffers did not fit beside the copy of targets start..stop-1: it is
        dropped (freed once the models using it end), and the models use its halves."""
        with self._lock:
            self._failed((start, stop))

    def _failed(self, key: tuple[int, int]) -> None:
        self._too_large.add(key)
        self._copies.pop(key, None)
        offsets = self.chunk.offsets
        if self._shrink is not None:
            self._shrink(int(offsets[key[1]] - offsets[key[0]]))
        if self.chunk.device_copies:
            self.chunk.device_copies.clear()


def _gpu_tables(profile):
    """A model's GPU tables (and kernels: NVRTC compiles those the disk cache lacks); None when
    the model is too long for the GPU kernels, or no GPU memory is left for its tables."""
    if profile.M > _core.gpu_max_model_length:
        return None
    try:
        return _core.GpuProfile(profile)
    except _core.DeviceOutOfMemory:
        return None


def _concatenate_cascades(a: dict, b: dict) -> dict:
    """Cascade results of two consecutive target ranges as one: arrays joined (the second
    part's survivors shifted past the first part's targets), counts and phase times added."""

    def join(key, x, y):
        if key == "survivors":
            return np.concatenate([x, y + len(a["stage"])]).astype(np.int32)
        if isinstance(x, np.ndarray):
            return np.concatenate([x, y])
        if isinstance(x, dict):
            return {k: x[k] + y.get(k, 0) for k in x}
        return x + y

    if ("downstream" in a) != ("downstream" in b):  # one part ran no Forward bound: all go
        for part in (a, b):
            part.setdefault("downstream", np.ones(len(part["stage"]), dtype=np.uint8))
    if ("survivors" in a) != ("survivors" in b):  # one part ran on the CPU filters
        for part in (a, b):
            if "survivors" not in part:
                passed = part["stage"] == _STAGE_PASSED
                if "downstream" in part:
                    passed &= part["downstream"].astype(bool)
                part["survivors"] = np.flatnonzero(passed).astype(np.int32)
    joined = {key: join(key, a[key], b[key]) for key in a if key in b}
    joined["forward_bound"] = a.get("forward_bound", False) or b.get("forward_bound", False)
    return joined


def _split_by_cost(items: list, costs: list[float], min_cost: float, parts: int) -> list[list]:
    """items in up to `parts` contiguous pieces of about equal cost, as many as give each at
    least min_cost on average (one when all cost less; none when empty). Each piece but the
    last ends at the first item that takes it to its share of the cost left (the total left
    over the pieces left), so an item costing several shares does not leave tiny pieces after
    it."""
    if not items:
        return []
    total = sum(costs)
    n = max(1, min(parts, len(items), int(total / min_cost) if min_cost > 0 else parts))
    pieces, start, piece_cost, left = [], 0, 0.0, total
    for i, cost in enumerate(costs[:-1]):
        piece_cost += cost
        if len(pieces) < n - 1 and piece_cost >= left / (n - len(pieces)):
            pieces.append(items[start : i + 1])
            start, left, piece_cost = i + 1, left - piece_cost, 0.0
    pieces.append(items[start:])
    return pieces


def _run_hmmer_downstream(
    hmm, sequences: list, options: HmmsearchOptions, Z_all: int,
    positions: list[int] | None = None,
):
    """Forward filter onwards with HMMER's own code. The filters already ran, so they are
    opened (F1 = F2 = 1) but the bias filter stays on when it was on: its score replaces the
    null score in the Forward filter's test, exactly as in a full hmmsearch run.

    The hits kept are hmmsearch's. HMMER keeps a target that passes Forward if its E-value
    with Z = the targets counted so far, itself included, meets -E (p7_pli_NewSeq sets Z,
    p7_pli_TargetReportable tests it): a longer list than is reported, and its names set the
    widths of the hit list and the tables. With ``positions`` (each target's place among all
    the targets, from 1) the part runs with the smallest, which keeps those and
    perhaps more, and the others are taken out, as hmmsearch run on one thread keeps them
    (on several, each worker counts its own targets). Without, Z_all."""
    _pyhmmer.load()
    from pyhmmer.easel import Alphabet, DigitalSequenceBlock

    pipeline = _thread_pipeline(options)
    by_E = options.Z is None and options.T is None and options.bit_cutoffs is None
    if not (positions and by_E):  # (-Z: Z is fixed; -T and cutoffs: Z plays no part)
        pipeline.Z = options.Z if options.Z is not None else float(Z_all)
        return pipeline.search_hmm(hmm, DigitalSequenceBlock(Alphabet.amino(), sequences))
    pipeline.Z = float(min(positions))  # (the GPU's survivors need not come in order)
    top = pipeline.search_hmm(hmm, DigitalSequenceBlock(Alphabet.amino(), sequences))
    last = max(positions)
    if all(hit.pvalue * last <= options.E for hit in top):
        return top  # (kept wherever in the part they are)
    # The hits in the order they were found are the targets that made them, in order.
    # (Of two targets of one name, the first is taken: at worst a hit is kept or dropped by
    # the other's place.)
    places, t = {}, 0
    for rank in found_order(top):
        name = top[rank].name
        while t < len(sequences) and sequences[t].name != name:
            t += 1
        if t == len(sequences):  # (cannot be: every hit is one of the targets)
            raise RuntimeError(f"hit {name!r} is none of the part's targets")
        places[rank], t = positions[t], t + 1
    dropped = {rank for rank, hit in enumerate(top) if hit.pvalue * places[rank] > options.E}
    return without_hits(top, dropped) if dropped else top


_thread_pipelines = threading.local()


def _thread_pipeline(options: HmmsearchOptions):
    """This thread's pyhmmer Pipeline for `options`, cleared: its counters zeroed and its
    random generator reseeded, as a new one's. It is kept for the thread's next part, as
    hmmsearch's workers keep theirs: a new Pipeline allocates and first touches its DP
    matrices again for every part (a part of one SMC_N hit, M = 1142: 30 ms with a new one,
    19-21 ms kept, on the 2-core build host). H200 host, packed 490 M residues, 8 rounds
    alternated: 100 models 1.771 -> 1.711 s median, six 1.379 -> 1.374 s
    (benchmarks/results/gpu-h200-20261129-k)."""
    _pyhmmer.load()
    from pyhmmer.easel import Alphabet
    from pyhmmer.plan7 import Pipeline

    kept = getattr(_thread_pipelines, "kept", None)
    if kept is not None and kept[0] is options:
        kept[1].clear()
        return kept[1]
    _, _, F3, bias_on = options.filter_thresholds
    pipeline = Pipeline(
        Alphabet.amino(),
        bias_filter=bias_on,
        F1=1.0,
        F2=1.0,
        F3=F3,
        null2=options.null2,
        seed=options.seed,
        domZ=options.domZ,
        E=options.E,
        T=options.T,
        domE=options.domE,
        domT=options.domT,
        incE=options.incE,
        incT=options.incT,
        incdomE=options.incdomE,
        incdomT=options.incdomT,
        bit_cutoffs=options.bit_cutoffs,
    )
    _thread_pipelines.kept = (options, pipeline)
    return pipeline


def _set_pipeline_counts(
    hits, options: HmmsearchOptions, *, nseqs, nres, n_past_msv, n_past_bias, n_past_vit
) -> None:
    """Put the whole search's counters and thresholds into HMMER's TopHits (its Forward
    count is already right: only our survivors can pass Forward)."""
    F1, F2, F3, bias_on = options.filter_thresholds
    counts = dict(
        nseqs=nseqs,
        nres=nres,
        n_past_msv=n_past_msv,
        n_past_bias=n_past_bias,
        n_past_vit=n_past_vit,
        F1=F1,
        F2=F2,
        F3=F3,
        do_biasfilter=bias_on,
        do_max=options.max,
    )
    if options.Z is None:
        counts["Z_setby"] = 0  # p7_ZSETBY_NTARGETS: "[actual number of targets]"
    set_pipeline_state(hits, **counts)


def _check_cutoffs(hmms: list, which: str, source) -> None:
    for hmm in hmms:
        cutoffs = hmm.cutoffs
        available = {
            "gathering": cutoffs.gathering_available,
            "noise": cutoffs.noise_available,
            "trusted": cutoffs.trusted_available,
        }[which]()
        if not available:
            raise HmmFormatError(
                _label(source), None, f"has no {_BIT_CUTOFFS[which]} bit score thresholds", hmm.name
            )


def _label(source: Any) -> str:
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    return f"<{type(source).__name__}>"


def _progress_bar(progress: bool | None, total: int | None):
    if progress is None:
        progress = sys.stderr.isatty()
    if not progress:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, unit="res", unit_scale=True, desc="hmmsearch", file=sys.stderr)
