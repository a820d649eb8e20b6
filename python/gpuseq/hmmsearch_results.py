"""What gpuseq.hmmsearch returns: :class:`HmmsearchResult`, with HMMER's result objects, pandas
tables of them, and writers of hmmsearch's output files (``--tblout``, ``--domtblout``,
``--pfamtblout``, ``-A``, the text report).

pyhmmer computes E-values from lnP whenever they are read or written; every method here that
produces values runs as hmmsearch's threads run (flush-to-zero, see _as_hmmsearch_computes).
"""

from __future__ import annotations

import functools
import io
import os
from functools import cached_property
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:  # pandas is imported when a DataFrame is asked for: the CLI's files need
    import pandas as pd  # none, and importing it takes longer than a small search

from . import _pyhmmer
from ._output import OutputFile
from ._pyhmmer_state import pipeline_state
from .hmmer_text import named_hits, tabular_rows
from .hmmsearch_options import HmmsearchOptions

__all__ = ["HmmsearchResult", "HmmsearchWriter"]


def _as_hmmsearch_computes(method):
    """Run `method` with flush-to-zero and denormals-are-zero on the calling thread, as every
    hmmsearch thread runs (HMMER's impl_Init). pyhmmer computes E-values (exp(lnP) * Z) when
    they are read or written, on the thread that asks: without this an E-value whose
    exp(lnP) is below DBL_MIN (lnP < -708) prints as e.g. 3.6e-318 or 2e-306 where hmmsearch
    prints 0. Every output of HmmsearchResult goes through here; the thread's mode is restored
    afterwards."""

    @functools.wraps(method)
    def run_flushing_denormals(*args, **kwargs):
        from . import _core

        with _core.flush_denormals():
            return method(*args, **kwargs)

    return run_flushing_denormals


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
            the pipeline counters of the whole search). Their E-values, read directly, are
            computed without hmmsearch's flush-to-zero (``_core.flush_denormals()`` gives it).
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
    @_as_hmmsearch_computes
    def hits(self) -> pd.DataFrame:
        """Reported targets, one row per (query, target), with ``--tblout``'s columns."""
        rows = []
        for top in self.top_hits:
            qname, qacc = _query_ids(top)
            extra = tabular_rows(top, "targets")
            for hit, cols in zip(_reported(top), extra, strict=True):
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
        return _frame(rows, _HIT_COLUMNS)

    @cached_property
    @_as_hmmsearch_computes
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
        return _frame(rows, _DOMAIN_COLUMNS)

    @cached_property
    def pipeline(self) -> pd.DataFrame:
        """Per-query pipeline counters (the "Passed ... filter" lines of hmmsearch)."""
        rows = []
        for top in self.top_hits:
            p = pipeline_state(top)
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
        import pandas as pd

        return pd.DataFrame(rows)

    # -- HMMER's file formats -------------------------------------------------------------
    def write_tblout(self, out: str | os.PathLike | IO, command: str | None = None) -> None:
        """Per-target table, as ``hmmsearch --tblout``."""
        self._write(HmmsearchWriter(tblout=out, command=command))

    def write_domtblout(self, out: str | os.PathLike | IO, command: str | None = None) -> None:
        """Per-domain table, as ``hmmsearch --domtblout``."""
        self._write(HmmsearchWriter(domtblout=out, command=command))

    def write_pfamtblout(self, out: str | os.PathLike | IO, command: str | None = None) -> None:
        """Hits and domains in Pfam's table format, as ``hmmsearch --pfamtblout``."""
        self._write(HmmsearchWriter(pfamtblout=out, command=command))

    @cached_property
    def alignments(self) -> list:
        """Per query, the multiple alignment of its included domains (a ``pyhmmer.easel.
        TextMSA`` named after the query, as ``hmmsearch -A`` makes it), or None where no
        domain is included."""
        return [_alignment(top) for top in self.top_hits]

    def write_alignments(self, out: str | os.PathLike | IO, *, textw: int = 120) -> None:
        """The alignments of included domains, one Stockholm record per query that has any,
        as ``hmmsearch -A`` (``textw=0``, i.e. ``--notextw``: Pfam's one-block format)."""
        self._write(HmmsearchWriter(alignments=out, textw=textw))

    def write_text(
        self,
        out: str | os.PathLike | IO,
        *,
        noali: bool = False,
        acc: bool = False,
        textw: int = 120,
        options: dict[str, str] | None = None,
        cpus: int | None = None,
        alignment_file: str | os.PathLike | None = None,
    ) -> None:
        """The human-readable report hmmsearch prints (``-o``), with the filter counters.

        ``options`` are the header's option lines as hmmsearch flags and the values typed
        ({"-E": "1e-5", "--nobias": ""}); None shows those of :attr:`options` that are not
        hmmsearch's defaults. ``alignment_file``: where :meth:`write_alignments` wrote (``-A``),
        reported after each query as hmmsearch reports it.
        """
        self._write(HmmsearchWriter(text=out, noali=noali, acc=acc, textw=textw, options=options,
                                    cpus=cpus, alignment_note=alignment_file))

    def _write(self, writer: HmmsearchWriter) -> None:
        writer.start(self)
        for q in range(len(self.top_hits)):
            writer.add_query(self, q)
        writer.close()


class HmmsearchWriter:
    """hmmsearch's output files written a query at a time, as hmmsearch writes them: pass
    ``add`` as :func:`gpuseq.hmmsearch`'s ``on_query`` and each query's part is written as
    soon as that query is final, while later models are still searched; ``close`` ends the
    files. The same bytes as :class:`HmmsearchResult`'s ``write_*`` methods, which use it.

    Arguments (each output a path or an open text file; None: not written):
        text: the report (``-o``); noali, acc, textw, options, cpus as
            :meth:`HmmsearchResult.write_text`.
        tblout, domtblout, pfamtblout: the tables; ``command`` goes into their trailer.
        alignments: the included domains' alignments (``-A``), noted in the report.
        alignment_note: with ``alignments`` None, the file the report says they went to.
    """

    def __init__(
        self,
        *,
        text: str | os.PathLike | IO | None = None,
        tblout: str | os.PathLike | IO | None = None,
        domtblout: str | os.PathLike | IO | None = None,
        pfamtblout: str | os.PathLike | IO | None = None,
        alignments: str | os.PathLike | IO | None = None,
        noali: bool = False,
        acc: bool = False,
        textw: int = 120,
        options: dict[str, str] | None = None,
        cpus: int | None = None,
        command: str | None = None,
        alignment_note: str | os.PathLike | None = None,
    ) -> None:
        self.noali, self.acc, self.textw = noali, acc, textw
        self.options, self.cpus, self.command = options, cpus, command
        note = alignments if alignments is not None else alignment_note
        if note is not None and not isinstance(note, (str, os.PathLike)):
            note = getattr(note, "name", "<stream>")  # an open file: its name
        self.alignment_note = None if note is None else os.fspath(note)
        self.text = _open_text(text) if text is not None else None
        self.alignments = _open_text(alignments) if alignments is not None else None
        self.tables = [(_open_text(out), fmt) for out, fmt in
                       ((tblout, "targets"), (domtblout, "domains"), (pfamtblout, "pfam"))
                       if out is not None]
        self.sources: tuple[str, str] | None = None

    def start(self, result: HmmsearchResult) -> None:
        """The report's header, from the first result (add calls it)."""
        if self.sources is not None:
            return
        self.sources = (result.query_source, result.target_source)
        if self.text is not None:
            from . import hmmer_text

            options = self.options if self.options is not None else result.options.as_arguments()
            hmmer_text.write_header(self.text.fh, *self.sources, options, self.cpus)

    def add(self, result: HmmsearchResult) -> None:
        """Every query of ``result`` (one, as hmmsearch's ``on_query`` gives it)."""
        self.start(result)
        for q in range(len(result.top_hits)):
            self.add_query(result, q)

    @_as_hmmsearch_computes
    def add_query(self, result: HmmsearchResult, q: int) -> None:
        top = result.top_hits[q]
        msa = None
        if self.alignments is not None:
            msa = _alignment(top)
            if msa is not None:
                buf = io.BytesIO()
                msa.write(buf, "stockholm" if self.textw > 0 else "pfam")
                self.alignments.fh.write(buf.getvalue().decode("utf-8", "surrogateescape"))
        elif self.alignment_note is not None and self.text is not None:
            msa = result.alignments[q]
        if self.text is not None:
            from . import hmmer_text

            fh = self.text.fh
            hmmer_text.write_query_report(fh, top, textw=self.textw, noali=self.noali,
                                          acc=self.acc)
            if self.alignment_note is not None:
                if msa is None:
                    fh.write("# No hits satisfy inclusion thresholds; no alignment saved\n")
                else:
                    fh.write(
                        f"# Alignment of {len(msa.sequences)} hits satisfying inclusion "
                        f"thresholds saved to: {self.alignment_note}\n"
                    )
        for out, fmt in self.tables:
            buf = io.BytesIO()
            top.write(buf, format=fmt, header=out.written == 0)
            out.fh.write(buf.getvalue().decode("utf-8", "surrogateescape"))  # names are bytes
            out.written += 1

    def close(self, complete: bool = True) -> None:
        """The report's footer and the tables' trailers (complete), then the files closed."""
        if complete and self.sources is not None:
            if self.text is not None:
                from . import hmmer_text

                hmmer_text.write_footer(self.text.fh)
            for out, _fmt in self.tables:
                out.fh.write(_tabular_trailer(*self.sources, self.command))
        for out in [self.text, self.alignments, *(o for o, _ in self.tables)]:
            if out is not None:
                out.close()

    def __enter__(self) -> HmmsearchWriter:
        return self

    def __exit__(self, exc_type, *exc) -> None:
        self.close(complete=exc_type is None)


def _alignment(top):
    """The multiple alignment of a query's included domains, as hmmsearch -A makes it, or
    None."""
    _pyhmmer.load()
    from pyhmmer.easel import Alphabet

    from ._version import __version__

    if not any(hit.included and any(d.included for d in hit.domains) for hit in top):
        return None
    # Every consensus column, untrimmed: p7_ALL_CONSENSUS_COLS as hmmsearch asks.
    msa = top.to_msa(Alphabet.amino(), all_consensus_cols=True)
    query = top.query
    msa.name = query.name
    if query.accession is not None:
        msa.accession = query.accession
    if query.description is not None:
        msa.description = query.description
    msa.author = f"gpuseq {__version__} hmmsearch (HMMER 3.4 via pyhmmer)".encode()
    return msa


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
    """An output: a path is opened for writing (and closed by close), a file object is used
    as is; `written` counts the queries written to it."""

    def __init__(self, out) -> None:
        self.written = 0
        self.owned = isinstance(out, (str, os.PathLike))
        self.fh = OutputFile(out) if self.owned else out

    def close(self) -> None:
        if self.owned:
            self.fh.close()


_TEXT_COLUMNS = {"target_name", "target_accession", "query_name", "query_accession", "description"}


def _frame(rows: list, columns: list[str]):
    """A DataFrame whose name columns hold Python str objects: names are bytes in FASTA and
    reach us decoded with surrogateescape, which pandas' Arrow-backed strings (the default
    with pyarrow installed) cannot hold."""
    import pandas as pd

    values = list(zip(*rows)) if rows else [()] * len(columns)
    return pd.DataFrame(
        {
            name: pd.Series(list(col), dtype=object) if name in _TEXT_COLUMNS else list(col)
            for name, col in zip(columns, values)
        }
    )


def _reported(top):
    return [hit for hit in named_hits(top) if hit.reported]


def _query_ids(top) -> tuple[str, str]:
    return _s(top.query.name), _s(top.query.accession) or "-"


def _s(value: Any) -> str | None:
    if value is None:
        return None
    return value.decode("utf-8", "surrogateescape") if isinstance(value, bytes) else str(value)
