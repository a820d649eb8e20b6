"""Profile-HMM search with results equal to HMMER3's ``hmmsearch``.

Data flow (see docs/architecture.md)::

    queries --read_hmms--> pyhmmer HMM --search_profile--> SearchProfile (C++ tables)
    targets --iter_sequence_chunks--> SequenceDatabase chunks
    chunk x query --_core.run_cascade--> MSV -> bias -> Viterbi filter stages (ours, bit-equal)
    survivors (about 0.1%) --pyhmmer Pipeline, Z = all targets--> Forward, domains, E-values
    TopHits (HMMER's own objects, with the full pipeline counters) --> DataFrames and files

The filters that take nearly all of hmmsearch's time are ours; everything after them is
HMMER 3.4's own code through pyhmmer, so scores, E-values and domains are HMMER's.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cached_property
from typing import IO, Any

import numpy as np
import pandas as pd

from . import _core
from .backend import resolve_backend
from .errors import HmmFormatError, SequenceTooLongError
from .hmm import HmmSource, read_hmms, search_profile
from .hmmer_text import named_hits, tabular_rows
from .sequences import DEFAULT_BLOCK_BYTES, SequenceSource, iter_sequence_chunks

__all__ = ["hmmsearch", "HmmsearchOptions", "HmmsearchResult"]

_STAGE_PASSED = 4  # CascadeStage::kStagePassed in cpp/hmm/cascade.hpp
_BIT_CUTOFFS = {"gathering": "GA", "noise": "NC", "trusted": "TC"}


@dataclass(frozen=True)
class HmmsearchOptions:
    """hmmsearch's reporting, inclusion and acceleration options (same names and defaults)."""

    E: float = 10.0
    T: float | None = None
    domE: float = 10.0
    domT: float | None = None
    incE: float = 0.01
    incT: float | None = None
    incdomE: float = 0.01
    incdomT: float | None = None
    Z: float | None = None
    domZ: float | None = None
    F1: float = 0.02
    F2: float = 1e-3
    F3: float = 1e-5
    max: bool = False
    bias_filter: bool = True
    bit_cutoffs: str | None = None

    def __post_init__(self) -> None:
        for name in ("E", "domE", "incE", "incdomE", "F1", "F2", "F3"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be > 0, not {getattr(self, name)!r}")
        for name in ("Z", "domZ"):
            value = getattr(self, name)
            if value is not None and not value > 0:
                raise ValueError(f"{name} must be > 0, not {value!r}")
        if self.max and ((self.F1, self.F2, self.F3) != (0.02, 1e-3, 1e-5) or not self.bias_filter):
            raise ValueError("max=True (--max) cannot be combined with F1/F2/F3 or nobias")
        if self.bit_cutoffs is not None:
            if self.bit_cutoffs not in _BIT_CUTOFFS:
                raise ValueError("bit_cutoffs must be 'gathering', 'noise' or 'trusted'")
            given = [n for n in ("T", "domT", "incT", "incdomT") if getattr(self, n) is not None]
            if given:
                raise ValueError(f"bit_cutoffs cannot be combined with {', '.join(given)}")

    @property
    def filter_thresholds(self) -> tuple[float, float, float, bool]:
        """(F1, F2, F3, bias filter on) as the pipeline applies them (``--max`` opens all)."""
        if self.max:
            return 1.0, 1.0, 1.0, False
        return min(1.0, self.F1), min(1.0, self.F2), min(1.0, self.F3), self.bias_filter


def hmmsearch(
    hmms: HmmSource,
    sequences: SequenceSource,
    *,
    E: float = 10.0,
    T: float | None = None,
    domE: float = 10.0,
    domT: float | None = None,
    incE: float = 0.01,
    incT: float | None = None,
    incdomE: float = 0.01,
    incdomT: float | None = None,
    Z: float | None = None,
    domZ: float | None = None,
    F1: float = 0.02,
    F2: float = 1e-3,
    F3: float = 1e-5,
    max: bool = False,
    bias_filter: bool = True,
    bit_cutoffs: str | None = None,
    cpus: int = 0,
    backend: str = "auto",
    progress: bool | None = None,
    callback: Callable[[int, int | None], None] | None = None,
    block_bytes: int = DEFAULT_BLOCK_BYTES,
) -> HmmsearchResult:
    """Search profile HMMs against protein sequences, with hmmsearch's results.

    Arguments:
        hmms: an HMM file path (several models allowed), a ``pyhmmer.plan7.HMM``, or a list
            of them.
        sequences: a FASTA path (plain or gzip), a database made by :func:`gpuseq.makedb`,
            a :class:`~gpuseq.SequenceDatabase`, or an iterable of Biopython ``SeqRecord``,
            pyhmmer sequences or ``(name, sequence)`` pairs.
        E, T, domE, domT, incE, incT, incdomE, incdomT, Z, domZ, F1, F2, F3: as hmmsearch's
            options of the same names.
        max: turn all heuristic filters off (``--max``).
        bias_filter: False is hmmsearch's ``--nobias``.
        bit_cutoffs: ``"gathering"``, ``"noise"`` or ``"trusted"`` (``--cut_ga`` ...).
        cpus: threads (0: all cores).
        backend: ``"auto"``, ``"cpu"`` or ``"cuda"``.
        progress: show a progress bar (None: when stderr is a terminal).
        callback: called as ``callback(residues_done, residues_total_or_None)`` after each chunk.

    Returns:
        An :class:`HmmsearchResult`: DataFrames of hits and domains, per-query pipeline
        counters, and HMMER's own ``TopHits`` objects.

    Raises:
        InputError, FormatError, AlphabetError, EmptyInputError, HmmFormatError: bad input,
            naming the file and the record or line.
        SequenceTooLongError: a target longer than 100,000 residues (HMMER's limit).
        BackendError: ``backend="cuda"`` cannot be used.

    Example:
        >>> res = gpuseq.hmmsearch("globins4.hmm", "globins45.fa")  # doctest: +SKIP
        >>> res.hits[["target_name", "evalue", "score"]].head()  # doctest: +SKIP
    """
    options = HmmsearchOptions(
        E=E,
        T=T,
        domE=domE,
        domT=domT,
        incE=incE,
        incT=incT,
        incdomE=incdomE,
        incdomT=incdomT,
        Z=Z,
        domZ=domZ,
        F1=F1,
        F2=F2,
        F3=F3,
        max=max,
        bias_filter=bias_filter,
        bit_cutoffs=bit_cutoffs,
    )
    threads = cpus if cpus and cpus > 0 else (os.cpu_count() or 1)
    resolve_backend(backend, "hmm_filters")  # raises if 'cuda' cannot be honoured
    hmm_list = read_hmms(hmms)
    if options.bit_cutoffs:
        _check_cutoffs(hmm_list, options.bit_cutoffs, hmms)
    queries = [(hmm, search_profile(hmm)) for hmm in hmm_list]
    F1_, F2_, _, bias_on = options.filter_thresholds

    label, total, chunks = iter_sequence_chunks(sequences, threads, block_bytes)
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
            for q, (_, profile) in enumerate(queries):
                r = _core.run_cascade(
                    profile, chunk.residues, chunk.offsets, F1_, F2_, bias_on, threads
                )
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
    for q in range(len(queries)):
        mine = [hits for (tq, _), hits in zip(tasks, parts) if tq == q]
        hits = mine[0].merge(*mine[1:]) if len(mine) > 1 else mine[0]
        _set_pipeline_counts(hits, options, nseqs=nseqs, nres=nres, **counts[q])
        top_hits.append(hits)
    return HmmsearchResult(top_hits, options, query_source=_label(hmms), target_source=label)


_DOWNSTREAM_PART = 32  # fewest survivors worth a task of their own


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
    state = hits.__getstate__()
    pli = state["pipeline"]
    F1, F2, F3, bias_on = options.filter_thresholds
    pli.update(
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
        pli["Z_setby"] = 0  # p7_ZSETBY_NTARGETS: "[actual number of targets]"
    hits.__setstate__(state)


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


# ---- results ----------------------------------------------------------------------------

_HIT_COLUMNS = [
    "target_name",
    "target_accession",
    "query_name",
    "query_accession",
    "evalue",
    "score",
    "bias",
    "best_domain_evalue",
    "best_domain_score",
    "best_domain_bias",
    "exp",
    "reg",
    "clu",
    "ov",
    "env",
    "dom",
    "rep",
    "inc",
    "description",
    "included",
]
_DOMAIN_COLUMNS = [
    "target_name",
    "target_accession",
    "tlen",
    "query_name",
    "query_accession",
    "qlen",
    "evalue",
    "score",
    "bias",
    "domain",
    "ndom",
    "c_evalue",
    "i_evalue",
    "domain_score",
    "domain_bias",
    "hmm_from",
    "hmm_to",
    "ali_from",
    "ali_to",
    "env_from",
    "env_to",
    "acc",
    "description",
    "included",
]


class HmmsearchResult:
    """What a search found, per query, as HMMER reports it.

    Attributes:
        top_hits: one ``pyhmmer.plan7.TopHits`` per query (HMMER's own result objects, with
            the pipeline counters of the whole search).
        options: the :class:`HmmsearchOptions` used.
    """

    def __init__(
        self, top_hits: list, options: HmmsearchOptions, query_source: str, target_source: str
    ) -> None:
        self.top_hits = top_hits
        self.options = options
        self.query_source = query_source
        self.target_source = target_source

    def __len__(self) -> int:
        return len(self.hits)

    def __repr__(self) -> str:
        return (
            f"<HmmsearchResult: {len(self.top_hits)} queries, {len(self.hits)} reported "
            f"hits, {len(self.domains)} reported domains>"
        )

    @cached_property
    def hits(self) -> pd.DataFrame:
        """Reported targets, one row per (query, target), with ``--tblout``'s columns."""
        rows = []
        for top in self.top_hits:
            qname, qacc = _query_ids(top)
            extra = tabular_rows(top, "targets")
            for hit, cols in zip(_reported(top), extra):
                best = hit.best_domain
                rows.append(
                    [
                        _s(hit.name),
                        _s(hit.accession) or "-",
                        qname,
                        qacc,
                        hit.evalue,
                        hit.score,
                        hit.bias,
                        best.i_evalue,
                        best.score,
                        best.bias,
                        float(cols[10]),
                        int(cols[11]),
                        int(cols[12]),
                        int(cols[13]),
                        int(cols[14]),
                        len(hit.domains),
                        int(cols[16]),
                        int(cols[17]),
                        _s(hit.description) or "",
                        bool(hit.included),
                    ]
                )
        return pd.DataFrame(rows, columns=_HIT_COLUMNS)

    @cached_property
    def domains(self) -> pd.DataFrame:
        """Reported domains of reported targets, with ``--domtblout``'s columns."""
        rows = []
        for top in self.top_hits:
            qname, qacc = _query_ids(top)
            qlen = top.query.M
            extra = iter(tabular_rows(top, "domains"))
            for hit in _reported(top):
                reported = [d for d in hit.domains if d.reported]
                for j, dom in enumerate(reported, 1):
                    cols = next(extra)
                    ali = dom.alignment
                    rows.append(
                        [
                            _s(hit.name),
                            _s(hit.accession) or "-",
                            hit.length,
                            qname,
                            qacc,
                            qlen,
                            hit.evalue,
                            hit.score,
                            hit.bias,
                            j,
                            len(reported),
                            dom.c_evalue,
                            dom.i_evalue,
                            dom.score,
                            dom.bias,
                            ali.hmm_from,
                            ali.hmm_to,
                            ali.target_from,
                            ali.target_to,
                            dom.env_from,
                            dom.env_to,
                            float(cols[21]),
                            _s(hit.description) or "",
                            bool(dom.included),
                        ]
                    )
        return pd.DataFrame(rows, columns=_DOMAIN_COLUMNS)

    @cached_property
    def pipeline(self) -> pd.DataFrame:
        """Per-query pipeline counters (the "Passed ... filter" lines of hmmsearch)."""
        rows = []
        for top in self.top_hits:
            p = top.__getstate__()["pipeline"]
            qname, _ = _query_ids(top)
            rows.append(
                dict(
                    query_name=qname,
                    M=top.query.M,
                    nseqs=p["nseqs"],
                    nres=p["nres"],
                    n_past_msv=p["n_past_msv"],
                    n_past_bias=p["n_past_bias"],
                    n_past_vit=p["n_past_vit"],
                    n_past_fwd=p["n_past_fwd"],
                    Z=p["Z"],
                    domZ=p["domZ"],
                    n_reported=len(top.reported),
                    n_included=len(top.included),
                )
            )
        return pd.DataFrame(rows)

    # -- HMMER's file formats -------------------------------------------------------------
    def write_tblout(self, out: str | os.PathLike | IO, command: str | None = None) -> None:
        """Per-target table, as ``hmmsearch --tblout``."""
        self._write_tabular(out, "targets", command)

    def write_domtblout(self, out: str | os.PathLike | IO, command: str | None = None) -> None:
        """Per-domain table, as ``hmmsearch --domtblout``."""
        self._write_tabular(out, "domains", command)

    def write_text(
        self,
        out: str | os.PathLike | IO,
        *,
        noali: bool = False,
        acc: bool = False,
        textw: int = 120,
        options: dict[str, str] | None = None,
        cpus: int | None = None,
    ) -> None:
        """The human-readable report hmmsearch prints (``-o``), with the filter counters."""
        from . import hmmer_text

        with _open_text(out) as fh:
            hmmer_text.write_header(fh, self.query_source, self.target_source, options, cpus)
            for top in self.top_hits:
                hmmer_text.write_query_report(fh, top, textw=textw, noali=noali, acc=acc)
            hmmer_text.write_footer(fh)

    def _write_tabular(self, out, fmt: str, command: str | None) -> None:
        buf = io.BytesIO()
        for i, top in enumerate(self.top_hits):
            top.write(buf, format=fmt, header=(i == 0))
        text = buf.getvalue().decode("utf-8", "surrogateescape")  # target names are bytes
        text += _tabular_trailer(self.query_source, self.target_source, command)
        with _open_text(out) as fh:
            fh.write(text)


def _tabular_trailer(query_source: str, target_source: str, command: str | None) -> str:
    import datetime

    from ._version import __version__

    lines = [
        "#",
        "# Program:         gpuseq hmmsearch",
        f"# Version:         gpuseq {__version__} (downstream of the filters: HMMER 3.4, pyhmmer)",
        "# Pipeline mode:   SEARCH",
        f"# Query file:      {query_source}",
        f"# Target file:     {target_source}",
        f"# Option settings: {command or 'gpuseq.hmmsearch()'}",
        f"# Current dir:     {os.getcwd()}",
        f"# Date:            {datetime.datetime.now().strftime('%a %b %d %H:%M:%S %Y')}",
        "# [ok]",
    ]
    return "\n".join(lines) + "\n"


class _open_text:
    """Context manager: a path is opened for writing, a file object is used as is."""

    def __init__(self, out) -> None:
        self.out = out
        self.fh = None

    def __enter__(self):
        if isinstance(self.out, (str, os.PathLike)):
            # surrogateescape: target names decoded from non-UTF-8 bytes are written back as is
            self.fh = open(self.out, "w", encoding="utf-8", errors="surrogateescape")
            return self.fh
        return self.out

    def __exit__(self, *exc) -> None:
        if self.fh is not None:
            self.fh.close()


def _reported(top):
    return [hit for hit in named_hits(top) if hit.reported]


def _query_ids(top) -> tuple[str, str]:
    return _s(top.query.name), _s(top.query.accession) or "-"


def _s(value: Any) -> str | None:
    if value is None:
        return None
    return value.decode() if isinstance(value, bytes) else str(value)
