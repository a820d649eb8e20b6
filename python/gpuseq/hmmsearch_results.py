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

from ._pyhmmer_state import pipeline_state
from .hmmer_text import named_hits, tabular_rows
from .hmmsearch_options import HmmsearchOptions

__all__ = ["HmmsearchResult"]


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
    @_as_hmmsearch_computes
    def write_tblout(self, out: str | os.PathLike | IO, command: str | None = None) -> None:
        """Per-target table, as ``hmmsearch --tblout``."""
        self._write_tabular(out, "targets", command)

    @_as_hmmsearch_computes
    def write_domtblout(self, out: str | os.PathLike | IO, command: str | None = None) -> None:
        """Per-domain table, as ``hmmsearch --domtblout``."""
        self._write_tabular(out, "domains", command)

    @_as_hmmsearch_computes
    def write_pfamtblout(self, out: str | os.PathLike | IO, command: str | None = None) -> None:
        """Hits and domains in Pfam's table format, as ``hmmsearch --pfamtblout``."""
        self._write_tabular(out, "pfam", command)

    @cached_property
    def alignments(self) -> list:
        """Per query, the multiple alignment of its included domains (a ``pyhmmer.easel.
        TextMSA`` named after the query, as ``hmmsearch -A`` makes it), or None where no
        domain is included."""
        from pyhmmer.easel import Alphabet

        from ._version import __version__

        out = []
        for top in self.top_hits:
            if not any(hit.included and any(d.included for d in hit.domains) for hit in top):
                out.append(None)
                continue
            # Every consensus column, untrimmed: p7_ALL_CONSENSUS_COLS as hmmsearch asks.
            msa = top.to_msa(Alphabet.amino(), all_consensus_cols=True)
            query = top.query
            msa.name = query.name
            if query.accession is not None:
                msa.accession = query.accession
            if query.description is not None:
                msa.description = query.description
            msa.author = f"gpuseq {__version__} hmmsearch (HMMER 3.4 via pyhmmer)".encode()
            out.append(msa)
        return out

    @_as_hmmsearch_computes
    def write_alignments(self, out: str | os.PathLike | IO, *, textw: int = 120) -> None:
        """The alignments of included domains, one Stockholm record per query that has any,
        as ``hmmsearch -A`` (``textw=0``, i.e. ``--notextw``: Pfam's one-block format)."""
        buf = io.BytesIO()
        for msa in self.alignments:
            if msa is not None:
                msa.write(buf, "stockholm" if textw > 0 else "pfam")
        with _open_text(out) as fh:
            fh.write(buf.getvalue().decode("utf-8", "surrogateescape"))  # names are bytes

    @_as_hmmsearch_computes
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
        from . import hmmer_text

        if options is None:
            options = self.options.as_arguments()
        msas = self.alignments if alignment_file is not None else [None] * len(self.top_hits)
        with _open_text(out) as fh:
            hmmer_text.write_header(fh, self.query_source, self.target_source, options, cpus)
            for top, msa in zip(self.top_hits, msas):
                hmmer_text.write_query_report(fh, top, textw=textw, noali=noali, acc=acc)
                if alignment_file is None:
                    continue
                if msa is None:
                    fh.write("# No hits satisfy inclusion thresholds; no alignment saved\n")
                else:
                    fh.write(
                        f"# Alignment of {len(msa.sequences)} hits satisfying inclusion "
                        f"thresholds saved to: {os.fspath(alignment_file)}\n"
                    )
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
