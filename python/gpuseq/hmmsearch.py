"""Profile-HMM search with results equal to HMMER3's ``hmmsearch``.

Data flow (see docs/architecture.md)::

    queries --read_hmms--> pyhmmer HMM --search_profile--> SearchProfile (C++ tables)
    targets --iter_sequence_chunks--> SequenceDatabase chunks
    chunk x query --_core.run_cascade (CPU) or _core.gpu_run_cascade (GPU)--> MSV -> bias ->
        Viterbi filter stages (ours, bit-equal)
    survivors (about 0.1%) --pyhmmer Pipeline, Z = all targets--> Forward, domains, E-values
    TopHits (HMMER's own objects, with the full pipeline counters) --> DataFrames and files

The filters that take nearly all of hmmsearch's time are ours; everything after them is
HMMER 3.4's own code through pyhmmer, so scores, E-values and domains are HMMER's.
"""

from __future__ import annotations

import inspect
import os
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import fields
from typing import Any

import numpy as np

from . import _core
from ._pyhmmer_state import set_pipeline_state
from .backend import resolve_backend
from .errors import HmmFormatError, SequenceTooLongError
from .hmm import HmmSource, read_hmms, search_profile
from .hmmsearch_options import HmmsearchOptions
from .hmmsearch_results import HmmsearchResult
from .sequences import DEFAULT_BLOCK_BYTES, SequenceSource, iter_sequence_chunks

__all__ = ["hmmsearch", "HmmsearchOptions", "HmmsearchResult"]

_STAGE_PASSED = 4  # CascadeStage::kStagePassed in cpp/hmm/cascade.hpp
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
    block_bytes: int = DEFAULT_BLOCK_BYTES,
    tformat: str | None = None,
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
            refuses that: it rereads the targets for each model; we read them once).
        cpus: threads (0: all cores).
        backend: ``"auto"`` (the GPU when there is one), ``"cpu"`` or ``"cuda"``.
        progress: show a progress bar (None: when stderr is a terminal).
        callback: called as ``callback(residues_done, residues_total_or_None)`` after each chunk.
        tformat: the target file's format, as hmmsearch's ``--tformat`` (``"fasta"``,
            ``"embl"``, ``"stockholm"``, ``"afa"``, ``"ncbi"`` ...); None detects it as
            hmmsearch does.
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
    threads = cpus if cpus and cpus > 0 else (os.cpu_count() or 1)
    where = resolve_backend(backend, "hmm_filters")  # raises if 'cuda' cannot be honoured
    hmm_list = read_hmms(hmms)
    if options.bit_cutoffs:
        _check_cutoffs(hmm_list, options.bit_cutoffs, hmms)
    queries = [(hmm, search_profile(hmm)) for hmm in hmm_list]
    F1_, F2_, _, bias_on = options.filter_thresholds
    run_filters = _filter_runner(where, [profile for _, profile in queries], F1_, F2_, bias_on)

    label, total, chunks = iter_sequence_chunks(sequences, threads, block_bytes, tformat)
    survivors: list[list] = [[] for _ in queries]
    counts = [dict(n_past_msv=0, n_past_bias=0, n_past_vit=0) for _ in queries]
    nseqs = nres = 0
    bar = _progress_bar(progress, total)
    try:
        for chunk in chunks:
            lengths = chunk.lengths
            too_long = np.flatnonzero(lengths > _core.max_target_length)
            if len(too_long):
                i = int(too_long[0])
                raise SequenceTooLongError(
                    label, chunk.name(i), int(lengths[i]), _core.max_target_length
                )
            nseqs += len(chunk)
            nres += chunk.total_residues
            for q, r in enumerate(run_filters(chunk, threads)):
                for key in counts[q]:
                    counts[q][key] += r[key]
                passed = np.flatnonzero(r["stage"] == _STAGE_PASSED)
                survivors[q].extend(chunk.to_pyhmmer(passed))
            if bar is not None:
                bar.update(chunk.total_residues)
            if callback is not None:
                callback(nres, total)
    finally:
        if bar is not None:
            bar.close()

    # HMMER's downstream over (query, part of its survivors) tasks on all threads; the parts
    # of a query are merged back in order (TopHits.merge re-applies the thresholds, and Z is
    # fixed, so the result is that of one pass over all survivors). The worker threads run with
    # flush-to-zero as hmmsearch does (impl_Init): results are hmmsearch's (E-values below
    # ~1e-307 print as 0, spec section 8) and Forward/Backward avoid denormal slow paths (4x
    # faster on an Intel Xeon host, benchmarks/README.md).
    tasks = [
        (q, part)
        for q in range(len(queries))
        for part in _split(survivors[q], _DOWNSTREAM_PART, threads)
    ]
    with ThreadPoolExecutor(
        max_workers=min(threads, len(tasks)),  # (builtin max is shadowed by --max)
        initializer=_core.set_flush_denormals,
        initargs=(True,),
    ) as pool:
        parts = list(
            pool.map(
                lambda task: _run_hmmer_downstream(queries[task[0]][0], task[1], options, nseqs),
                tasks,
            )
        )
    top_hits = []
    with _core.flush_denormals():  # merge re-thresholds on E-values, as hmmsearch computes them
        for q in range(len(queries)):
            mine = [hits for (tq, _), hits in zip(tasks, parts) if tq == q]
            hits = mine[0].merge(*mine[1:]) if len(mine) > 1 else mine[0]
            _set_pipeline_counts(hits, options, nseqs=nseqs, nres=nres, **counts[q])
            top_hits.append(hits)
    return HmmsearchResult(top_hits, options, query_source=_label(hmms), target_source=label)


_DOWNSTREAM_PART = 32  # fewest survivors worth a task of their own
#: hmmsearch's own words when both inputs are standard input (its test suite checks them).
BOTH_STDIN_MESSAGE = "Either <hmmfile> or <seqdb> may be '-' (to read from stdin), but not both."


def _is_stdin(source: Any) -> bool:
    return isinstance(source, (str, os.PathLike)) and os.fspath(source) == "-"


def _filter_runner(where: str, profiles: list, F1: float, F2: float, bias_on: bool):
    """run(chunk, threads) -> one cascade result per model (MSV -> bias -> Viterbi filter).
    On the GPU each chunk is uploaded once for all models; a chunk the GPU cannot hold is
    split in halves (a single target that does not fit runs on the CPU filters), and a model
    longer than the GPU kernels take runs on the CPU filters: the results are the same."""
    if where == "cuda":
        gpu = [
            _core.GpuProfile(p) if p.M <= _core.gpu_max_model_length else None for p in profiles
        ]
    else:
        gpu = [None] * len(profiles)

    def cpu_cascade(profile, residues, offsets, threads):
        return _core.run_cascade(profile, residues, offsets, F1, F2, bias_on, threads)

    def run_all(residues, offsets, threads: int, on_gpu: bool) -> list[dict]:
        targets = None
        results = []
        for profile, gpu_profile in zip(profiles, gpu):
            if gpu_profile is None or not on_gpu:
                results.append(cpu_cascade(profile, residues, offsets, threads))
                continue
            if targets is None:
                targets = _core.GpuTargets(residues, offsets)
            results.append(
                _core.gpu_run_cascade(
                    gpu_profile, targets, F1=F1, F2=F2, bias_filter=bias_on, threads=threads
                )
            )
        return results

    def run_split(residues, offsets, threads: int) -> list[dict]:
        try:
            return run_all(residues, offsets, threads, on_gpu=True)
        except _core.DeviceOutOfMemory:
            n = len(offsets) - 1
            if n <= 1:
                return run_all(residues, offsets, threads, on_gpu=False)
            half = n // 2
            first = run_split(residues, offsets[: half + 1], threads)
            second = run_split(residues, offsets[half:], threads)
            return [_concatenate_cascades(a, b) for a, b in zip(first, second)]

    def run(chunk, threads: int) -> list[dict]:
        if where != "cuda":
            return run_all(chunk.residues, chunk.offsets, threads, on_gpu=False)
        return run_split(chunk.residues, chunk.offsets, threads)

    return run


def _concatenate_cascades(a: dict, b: dict) -> dict:
    """Cascade results of two consecutive target ranges as one: arrays joined, counts and
    phase times added."""

    def join(x, y):
        if isinstance(x, np.ndarray):
            return np.concatenate([x, y])
        if isinstance(x, dict):
            return {k: x[k] + y.get(k, 0) for k in x}
        return x + y

    return {key: join(a[key], b[key]) if key in b else a[key] for key in a}


def _split(items: list, min_part: int, parts: int) -> list[list]:
    """items in up to `parts` contiguous pieces of at least min_part (always one piece)."""
    n = max(1, min(parts, len(items) // min_part))
    size = -(-len(items) // n) if items else 0
    return [items[i : i + size] for i in range(0, len(items), size)] if items else [items]


def _run_hmmer_downstream(hmm, sequences: list, options: HmmsearchOptions, Z_all: int):
    """Forward filter onwards with HMMER's own code. The filters already ran, so they are
    opened (F1 = F2 = 1) but the bias filter stays on when it was on: its score replaces the
    null score in the Forward filter's test, exactly as in a full hmmsearch run."""
    from pyhmmer.easel import Alphabet, DigitalSequenceBlock
    from pyhmmer.plan7 import Pipeline

    abc = Alphabet.amino()
    _, _, F3, bias_on = options.filter_thresholds
    pipeline = Pipeline(
        abc,
        bias_filter=bias_on,
        F1=1.0,
        F2=1.0,
        F3=F3,
        null2=options.null2,
        seed=options.seed,
        Z=options.Z if options.Z is not None else float(Z_all),
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
    return pipeline.search_hmm(hmm, DigitalSequenceBlock(abc, sequences))


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
