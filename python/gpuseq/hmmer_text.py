"""hmmsearch-style human-readable report (HMMER 3.3.2 / 3.4 `-o` layout) from pyhmmer results.

The layout follows HMMER's own printers (banner/option header of ``hmmsearch``,
the per-sequence hit list, the per-domain tables and alignments, and the
pipeline statistics summary) so that everything from ``Query:`` down to the
``Domain search space`` line is byte-identical to ``hmmsearch`` for the same hits.

The numbers of the hit list and the domain tables are the tokens of pyhmmer's own
``TopHits.write(format="targets")`` and ``TopHits.write(format="domains")`` rows (HMMER's
tabular writers), right-aligned to the report's widths. Those writers print the same values
with the same conversions (``%9.2g`` E-values, ``%6.1f`` scores, ``%5.1f`` biases and ``exp``,
``%4.2f`` ``acc``, ``%d`` coordinates and counts), so no rounding is redone, and two of them
are not exposed as attributes by pyhmmer 0.12.3 at all: ``exp`` (``P7_HIT.nexpected``) and
``acc`` (a domain's mean posterior accuracy, ``oasc / (1 + |jenv - ienv|)``). Reading the
tokens is also cheaper than reading the attributes (a 100-model report's time is spent here).

The ``CS`` / ``RF`` annotation lines of an alignment are rebuilt from the
query model's ``consensus_structure`` / ``reference`` strings: HMMER fills
them with the model's annotation at match/delete columns and ``.`` at insert
columns, and insert columns are exactly the ``.`` characters of the model
line. HMMER 3.3.2 / 3.4 never print the ``MM`` line (its creation is disabled).

Pipeline counters and filter thresholds come from pyhmmer's TopHits state, read through
:mod:`gpuseq._pyhmmer_state`.
"""

# printf-style formats are kept on purpose: each mirrors the C format string HMMER uses.
# ruff: noqa: UP031

from __future__ import annotations

import io
import math
import re
from collections.abc import Iterable, Mapping
from typing import Any, TextIO

from . import _pyhmmer
from ._pyhmmer_state import pipeline_state
from .hmmsearch_options import all_flags, real

__all__ = ["write_header", "write_query_report", "write_footer", "write_report"]

_RULE = "# - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - -\n"

# HMMER's p7_ZSETBY_OPTION: Z / domZ forced on the command line.
_ZSETBY_OPTION = 1


# --------------------------------------------------------------------------- helpers
# HMMER measures and truncates strings in bytes (strlen, %-.*s); these helpers do
# the same so that non-ASCII names/descriptions get the same column layout.


def _blen(s: str) -> int:
    return len(s) if s.isascii() else len(s.encode("utf-8", "surrogateescape"))


def _btrunc(s: str, n: int) -> str:
    if s.isascii():
        return s[:n]
    b = s.encode("utf-8", "surrogateescape")
    if len(b) <= n:
        return s
    return b[:n].decode("utf-8", "ignore")


def _ljust(s: str, w: int) -> str:
    return s + " " * max(0, w - _blen(s))


def _rjust(s: str, w: int) -> str:
    return " " * max(0, w - _blen(s)) + s


def _text(x: Any) -> str | None:
    """pyhmmer may hand back str, bytes or None for names/accessions/descriptions."""
    if x is None:
        return None
    if isinstance(x, (bytes, bytearray)):
        return bytes(x).decode("utf-8", "surrogateescape")
    return str(x)


class NamedHit:
    """A pyhmmer ``Hit`` whose ``name``, ``accession`` and ``description`` are always str.

    pyhmmer decodes those as strict UTF-8 and raises on any other byte, but FASTA names are
    bytes (hmmsearch prints them as they are). Other attributes are the hit's own (``hit``:
    the pyhmmer object, read directly where the report reads many of them)."""

    __slots__ = ("hit", "name", "accession", "description", "_shown_domains")

    def __init__(self, hit: Any, name: str, accession: str | None, description: str | None):
        self.hit = hit
        self.name, self.accession, self.description = name, accession, description
        self._shown_domains: list[tuple[int, Any]] | None = None

    def shown_domains(self) -> list[tuple[int, Any]]:
        """(index, domain) of the hit's reported domains, read once (pyhmmer makes a new
        object at every access, and three sections of the report read them)."""
        if self._shown_domains is None:
            self._shown_domains = [(d, dom) for d, dom in enumerate(self.hit.domains)
                                   if dom.reported]
        return self._shown_domains

    def __getattr__(self, attr: str) -> Any:
        return getattr(self.hit, attr)


def named_hits(hits: Any) -> list[NamedHit]:
    """Every hit of a ``TopHits``, in order, as ``NamedHit``. A field that is not UTF-8 is
    read from HMMER's own tblout writer instead (on a copy with every hit marked reported, so
    all are written), decoded with surrogateescape: lossless, and written back byte for byte
    by the tabular and text writers."""
    out = []
    table = None
    for i, hit in enumerate(hits):
        try:
            fields = (_text(hit.name), _text(hit.accession), _text(hit.description))
        except UnicodeDecodeError:
            if table is None:
                table = _all_target_ids(hits)
            fields = table[i]
        out.append(NamedHit(hit, *fields))
    return out


def _all_target_ids(hits: Any) -> list[tuple[str, str | None, str | None]]:
    every = hits.copy()
    for hit in every:
        hit.reported = True
    ids = []
    for row in tabular_lines(every, "targets"):
        # name, accession ("-" if none), 16 numbers, then the description ("-" if none)
        cols = split_row(row, 18)
        desc = cols[18] if len(cols) > 18 else "-"
        ids.append((cols[0], None if cols[1] == "-" else cols[1], None if desc == "-" else desc))
    return ids


def _real(v: str | float) -> float:
    """An option's value as hmmsearch read it (strtod: "0x1p-4" too)."""
    return real(v) if isinstance(v, str) else float(v)


def _fmt_real(v: str | float) -> str:
    """C ``%g`` of an option value (how hmmsearch echoes real-valued options)."""
    return "%g" % _real(v)


def _gpuseq_version() -> str:
    try:
        from ._version import __version__  # sibling module; avoids importing the compiled core

        return str(__version__)
    except Exception:  # loaded outside the package (e.g. by file path)
        pass
    try:
        from importlib.metadata import version

        return version("gpuseq")
    except Exception:
        return "unknown"


def _pyhmmer_version() -> str:
    try:
        _pyhmmer.load()
        import pyhmmer

        return str(pyhmmer.__version__)
    except Exception:  # pragma: no cover
        return "unknown"


# --------------------------------------------------------------------------- header


def write_header(
    fh: TextIO,
    query_path: str,
    target_path: str,
    options: Mapping[str, str] | None = None,
    cpus: int | None = None,
) -> None:
    """Write hmmsearch's banner and option block.

    ``options`` maps hmmsearch option names (``"-o"``, ``"--tblout"``, ``"-E"``,
    ``"--textw"``, ``"--acc"`` ...) to their command-line values; flag options
    take any value. Options present are echoed in hmmsearch's order and format
    (reals via ``%g``, ``-Z``/``--domZ`` via ``%.0f``), except, as in hmmsearch,
    those whose value string equals HMMER's default string (``"-E": "10.0"``,
    ``"--cpu": "2"``...). ``cpus`` stands for ``--cpu`` (it wins over
    ``options["--cpu"]``). The options, their order, labels and default strings are
    those of :mod:`gpuseq.hmmsearch_options`.
    """
    opts: dict[str, str] = dict(options or {})
    if cpus is not None:
        opts["--cpu"] = str(cpus)

    w = fh.write
    w("# hmmsearch :: search profile(s) against a sequence database\n")
    # HMMER's version/copyright lines name the C program; this report comes from gpuseq.
    w(f"# gpuseq {_gpuseq_version()} (HMMER 3.4 downstream via pyhmmer {_pyhmmer_version()})\n")
    w("# HMMER: Copyright (C) 2023 Howard Hughes Medical Institute.\n")
    w("# Freely distributed under the BSD open source license.\n")
    w(_RULE)
    w(f"# query HMM file:                  {query_path}\n")
    w(f"# target sequence database:        {target_path}\n")
    for flag in all_flags():
        name, label, kind = flag.flag, flag.header, flag.echo
        if name not in opts:
            continue
        value = str(opts[name])
        if flag.hmmer_default == value:
            continue
        if kind.startswith("="):
            w(f"{label}{kind[1:]}\n")
        elif kind == "str":
            w(f"{label}{value}\n")
        elif kind == "int":
            w(f"{label}{int(value)}\n")
        elif kind == "real":
            w(f"{label}{_fmt_real(value)}\n")
        elif kind == "zreal":
            w("%s%.0f\n" % (label, _real(value)))
        elif kind == "seed":
            seed = int(value)
            # hmmsearch's if/else here falls through for seed 0 (the first fprintf
            # succeeds, so the else branch runs too): both lines appear.
            if seed == 0:
                w("# random number seed:              one-time arbitrary\n")
            w(f"# random number seed set to:       {seed}\n")
    w(_RULE)
    w("\n")


def write_footer(fh: TextIO) -> None:
    """Write hmmsearch's closing ``[ok]`` line."""
    fh.write("[ok]\n")


# --------------------------------------------------------------------------- tabular side data


def tabular_rows(hits: Any, fmt: str) -> list[list[str]]:
    """The rows of pyhmmer's own tblout/domtblout writer (HMMER's C code), split into
    fields (split_row): the source of the few values pyhmmer's Python API does not expose
    (exp, reg, clu, ov, env, acc)."""
    return [split_row(line) for line in tabular_lines(hits, fmt)]


_FIELD_GAP = re.compile(" +")


def split_row(line: str, maxsplit: int = 0) -> list[str]:
    """A tblout/domtblout row's fields (with maxsplit, the rest of the line last: the
    description). HMMER pads fields with spaces, and a name holds no C whitespace but may
    hold what str.split also splits at (NBSP, FS, U+2028) and may be empty (Easel ends a name
    at a NUL: '>\\0x'), which leaves the row starting with padding: the first field is ''."""
    return _FIELD_GAP.split(line, maxsplit)


def tabular_lines(hits: Any, fmt: str) -> list[str]:
    """The rows of pyhmmer's tblout/domtblout writer, decoded with surrogateescape. Without
    its header it writes rows only, and a row may start with '#' (a target named '#x'), so
    none is taken for a comment. Split at LF only: a description may hold VT, FF, U+0085 or
    U+2028, which str.splitlines takes for line ends (Easel ends a header at CR or LF only)."""
    buf = io.BytesIO()
    hits.write(buf, format=fmt, header=False)
    text = buf.getvalue().decode("utf-8", "surrogateescape")
    return [line for line in text.split("\n") if line]


def _target_rows(hits: Any, reported: list[Any]) -> list[list[str]]:
    """Per reported hit, its tblout row (HMMER's p7_tophits_TabularTargets) in 19 tokens:
    the hit list's numbers are these tokens, which HMMER printed with the conversions of the
    report (``%9.2g`` E-values, ``%6.1f`` scores, ``%5.1f`` biases and exp, ``%d`` counts)."""
    rows = [split_row(line, 18) for line in tabular_lines(hits, "targets")]
    if len(rows) != len(reported):
        raise RuntimeError(
            f"tblout gave {len(rows)} rows for {len(reported)} reported hits; cannot align them"
        )
    for row, hit in zip(rows, reported, strict=True):
        if row[0] != hit.name:
            raise RuntimeError(f"tblout row {row[0]!r} does not match hit {hit.name!r}")
    return rows


def _domain_rows(hits: Any, reported: list[Any]) -> list[list[list[str]]]:
    """Per reported hit, the domtblout rows (p7_tophits_TabularDomains, 23 tokens) of its
    reported domains, in the order of ``shown_domains``: the domain tables' numbers and
    ``acc`` (``%4.2f`` of a value pyhmmer does not expose)."""
    rows = iter(tabular_lines(hits, "domains"))
    out: list[list[list[str]]] = []
    for hit in reported:
        mine = []
        for _d, dom in hit.shown_domains():
            line = next(rows, None)
            row = split_row(line, 22) if line is not None else None
            # Cross-check name and envelope so a mismatch can never go unnoticed.
            if (
                row is None
                or row[0] != hit.name
                or int(row[19]) != dom.env_from
                or int(row[20]) != dom.env_to
            ):
                raise RuntimeError("domtblout rows do not line up with reported domains")
            mine.append(row)
        out.append(mine)
    if next(rows, None) is not None:
        raise RuntimeError("domtblout has more rows than reported domains")
    return out


# --------------------------------------------------------------------------- sections


def _shown_name(name: str, acc: str | None, use_acc: bool) -> str:
    return acc if (use_acc and acc) else name


_TARGETS_HEAD = "  %9s %6s %5s  %9s %6s %5s  %5s %2s  %s %s\n"
_DOMAINS_HEAD = (
    " %3s   %6s %5s %9s %9s %7s %7s %2s %7s %7s %2s %7s %7s %2s %4s\n"
    % ("#", "score", "bias", "c-Evalue", "i-Evalue", "hmmfrom", "hmm to", "  ", "alifrom",
       "ali to", "  ", "envfrom", "env to", "  ", "acc")
    + " %3s   %6s %5s %9s %9s %7s %7s %2s %7s %7s %2s %7s %7s %2s %4s\n"
    % ("---", "------", "-----", "---------", "---------", "-------", "-------", "  ",
       "-------", "-------", "  ", "-------", "-------", "  ", "----")
)


def _write_targets(
    fh: TextIO, all_hits: list[Any], reported: list[Any], rows: list[list[str]], textw: int,
    acc: bool,
) -> None:
    w = fh.write
    # Width is taken over every hit the pipeline kept, reported or not, as HMMER does.
    namew = 8
    for hit in all_hits:
        namew = max(namew, _blen(_shown_name(hit.name or "", hit.accession, acc)))
    descw = max(32, textw - namew - 61) if textw > 0 else 0

    w("Scores for complete sequences (score includes all domains):\n")
    w("  %22s  %22s  %8s\n" % (" --- full sequence ---", " --- best 1 domain ---", "-#dom-"))
    w(_TARGETS_HEAD % ("E-value", " score", " bias", "E-value", " score", " bias", "  exp", "N",
                       _ljust("Sequence", namew), "Description"))
    w(_TARGETS_HEAD % ("-------", "------", "-----", "-------", "------", "-----", " ----", "--",
                       _ljust("--------", namew), "-----------"))

    printed_incthresh = False
    for named, row in zip(reported, rows, strict=True):
        hit = named.hit
        if not hit.included and not printed_incthresh:
            w("  ------ inclusion threshold ------\n")
            printed_incthresh = True
        newness = "+" if hit.new else ("-" if hit.dropped else " ")
        name = _shown_name(named.name or "", named.accession, acc)
        desc = named.description or ""
        if textw > 0:
            desc = _btrunc(desc, descw)
        # p7_tophits_Targets' "%c %9.2g %6.1f %5.1f  %9.2g %6.1f %5.1f  %5.1f %2d  %-*s  %s":
        # the tblout tokens of the same values (E-value, score, bias; the best domain's
        # i-Evalue, score, bias; exp; rep, the reported domains), right-aligned as printf
        # pads them.
        w(f"{newness} {row[4]:>9} {row[5]:>6} {row[6]:>5}  {row[7]:>9} {row[8]:>6} {row[9]:>5}"
          f"  {row[10]:>5} {row[16]:>2}  {_ljust(name, namew)}  {desc}\n")

    if not reported:
        w("\n   [No hits detected that satisfy reporting thresholds]\n")


_INSERT_RUNS = re.compile(r"\.+|[^.]+")


def _write_alignment(
    fh: TextIO,
    ali: Any,
    seq_name: str,
    seq_acc: str | None,
    cs: str | None,
    rf: str | None,
    textw: int,
    acc: bool,
) -> None:
    """One domain's alignment display, split into blocks as p7_alidisplay_Print does."""
    w = fh.write
    hmmname = _shown_name(_text(ali.hmm_name) or "", _text(ali.hmm_accession), acc)
    seqname = _shown_name(seq_name, seq_acc, acc)  # the hit's name (bytes, see NamedHit)
    model = _text(ali.hmm_sequence) or ""
    mline = _text(ali.identity_sequence) or ""
    aseq = _text(ali.target_sequence) or ""
    pp = _text(ali.posterior_probabilities)
    n = len(model)

    # Annotation lines: model annotation at match/delete columns, '.' at inserts (runs of
    # each copied as slices: per-character loops took most of a 100-model report's time).
    def annot(line: str) -> str:
        out, k = [], ali.hmm_from - 1
        for run in _INSERT_RUNS.findall(model):
            if run[0] == ".":
                out.append(run)
            else:
                out.append(line[k : k + len(run)])
                k += len(run)
        return "".join(out)

    csline = annot(cs) if cs else None
    rfline = annot(rf) if rf else None

    namewidth = max(_blen(hmmname), _blen(seqname))
    coordwidth = max(
        len(str(ali.hmm_from)),
        len(str(ali.hmm_to)),
        len(str(ali.target_from)),
        len(str(ali.target_to)),
    )
    aliwidth = textw - namewidth - 2 * coordwidth - 5 if textw > 0 else n
    if aliwidth < n and aliwidth < 40:
        aliwidth = 40  # HMMER never narrows alignment blocks below 40 columns
    pad = " " * (namewidth + coordwidth + 1)
    forward = ali.target_from <= ali.target_to

    i1, k1 = ali.target_from, ali.hmm_from
    for pos in range(0, n, aliwidth):
        if pos > 0:
            w("\n")
        end = pos + aliwidth
        mblk = model[pos:end]
        sblk = aseq[pos:end]
        nk = len(mblk) - mblk.count(".")
        ni = len(sblk) - sblk.count("-")
        k2 = k1 + nk - 1
        i2 = i1 + ni - 1 if forward else i1 - ni + 1

        if csline is not None:
            w(f"  {pad} {csline[pos:end]} CS\n")
        if rfline is not None:
            w(f"  {pad} {rfline[pos:end]} RF\n")
        w(
            f"  {_rjust(hmmname, namewidth)} {str(k1).rjust(coordwidth)} {mblk} "
            f"{str(k2).ljust(coordwidth)}\n"
        )
        w(f"  {pad} {mline[pos:end]}\n")
        if ni > 0:
            w(
                f"  {_rjust(seqname, namewidth)} {str(i1).rjust(coordwidth)} {sblk} "
                f"{str(i2).ljust(coordwidth)}\n"
            )
        else:
            # A block made only of deletions has no sequence coordinates to show.
            w(
                f"  {_rjust(seqname, namewidth)} {'-'.rjust(coordwidth)} {sblk} "
                f"{'-'.rjust(coordwidth)}\n"
            )
        if pp is not None:
            w(f"  {pad} {pp[pos:end]} PP\n")

        k1 += nk
        i1 = i1 + ni if forward else i1 - ni


def _write_domains(
    fh: TextIO,
    hits: Any,
    reported: list[Any],
    rows: list[list[list[str]]],
    textw: int,
    noali: bool,
    acc: bool,
) -> None:
    w = fh.write
    w("Domain annotation for each sequence%s:\n" % ("" if noali else " (and alignments)"))
    query = hits.query
    cs = _text(getattr(query, "consensus_structure", None))
    rf = _text(getattr(query, "reference", None))

    for h, named in enumerate(reported):
        name = _shown_name(named.name or "", named.accession, acc)
        desc = named.description or ""
        if textw > 0:
            desc = _btrunc(desc, max(32, textw - _blen(name) - 5))
        w(f">> {name}  {desc}\n")

        doms = named.shown_domains()
        if not doms:
            w(
                "   [No individual domains that satisfy reporting thresholds "
                "(although complete target did)]\n\n"
            )
            continue

        w(_DOMAINS_HEAD)
        # p7_tophits_Domains' " %3d %c %6.1f %5.1f %9.2g %9.2g %7d %7d %c%c ... %4.2f": the
        # domtblout tokens of the same values (score, bias, c- and i-Evalue, the hmm,
        # alignment and envelope coordinates, acc), right-aligned as printf pads them; "[" and
        # "]" where a range starts at 1 or ends at the model's (qlen) or target's (tlen) end.
        for nd, ((_d, dom), row) in enumerate(zip(doms, rows[h], strict=True), start=1):
            tlen, qlen = row[2], row[5]
            hf, ht, af, at, ef, et = row[15:21]
            w(f" {nd:>3} {'!' if dom.included else '?'} {row[13]:>6} {row[14]:>5} {row[11]:>9}"
              f" {row[12]:>9} {hf:>7} {ht:>7} {'[' if hf == '1' else '.'}"
              f"{']' if ht == qlen else '.'} {af:>7} {at:>7} {'[' if af == '1' else '.'}"
              f"{']' if at == tlen else '.'} {ef:>7} {et:>7} {'[' if ef == '1' else '.'}"
              f"{']' if et == tlen else '.'} {row[21]:>4}\n")

        if noali:
            w("\n")
            continue
        w("\n  Alignments for each domain:\n")
        for nd, (_d, dom) in enumerate(doms, start=1):
            w(
                "  == domain %d  score: %.1f bits;  conditional E-value: %.2g\n"
                % (nd, dom.score, dom.c_evalue)
            )
            _write_alignment(fh, dom.alignment, named.name, named.accession, cs, rf, textw, acc)
            w("\n")

    if not reported:
        w("\n   [No targets detected that satisfy reporting thresholds]\n")


def _write_statistics(
    fh: TextIO, pli: Mapping[str, Any], timing: tuple[float, float, float] | None
) -> None:
    w = fh.write
    ntargets = float(pli["nseqs"])
    w("Internal pipeline statistics summary:\n")
    w("-------------------------------------\n")
    w("Query model(s):              %15d  (%d nodes)\n" % (pli["nmodels"], pli["nnodes"]))
    w("Target sequences:            %15d  (%d residues searched)\n" % (pli["nseqs"], pli["nres"]))

    def ratio(n: int) -> float:
        # HMMER divides by zero here for an empty database (prints nan/inf); mirror that.
        return n / ntargets if ntargets else (math.nan if n == 0 else math.inf)

    for label, key, f in (
        ("Passed MSV filter:   ", "n_past_msv", "F1"),
        ("Passed bias filter:  ", "n_past_bias", "F1"),
        ("Passed Vit filter:   ", "n_past_vit", "F2"),
        ("Passed Fwd filter:   ", "n_past_fwd", "F3"),
    ):
        n = int(pli[key])
        w(
            "%s        %15d  (%.6g); expected %.1f (%.6g)\n"
            % (label, n, ratio(n), float(pli[f]) * ntargets, float(pli[f]))
        )
    w(
        "Initial search space (Z):    %15.0f  %s\n"
        % (
            float(pli["Z"]),
            "[as set by --Z on cmdline]"
            if pli["Z_setby"] == _ZSETBY_OPTION
            else "[actual number of targets]",
        )
    )
    w(
        "Domain search space  (domZ): %15.0f  %s\n"
        % (
            float(pli["domZ"]),
            "[as set by --domZ on cmdline]"
            if pli["domZ_setby"] == _ZSETBY_OPTION
            else "[number of targets reported over threshold]",
        )
    )
    if timing is not None:
        user, sys_, elapsed = timing
        w(
            "# CPU time: %.2fu %.2fs %s Elapsed: %s\n"
            % (user, sys_, _clock(user + sys_), _clock(elapsed))
        )
        mcs = pli["nres"] * pli["nnodes"] / (elapsed * 1.0e6) if elapsed > 0 else math.inf
        w("# Mc/sec: %.2f\n" % mcs)


def _clock(sec: float) -> str:
    """hh:mm:ss.hh with truncation, as Easel's stopwatch prints it."""
    h = int(sec / 3600.0)
    m = int(sec / 60.0) - h * 60
    s = int(sec) - h * 3600 - m * 60
    hs = int(sec * 100.0) - h * 360000 - m * 6000 - s * 100
    return "%02d:%02d:%02d.%02d" % (h, m, s, hs)


# --------------------------------------------------------------------------- public entry points


def write_query_report(
    fh: TextIO,
    hits: Any,
    *,
    textw: int = 120,
    noali: bool = False,
    acc: bool = False,
    timing: tuple[float, float, float] | None = None,
    pipeline: Mapping[str, Any] | None = None,
) -> None:
    """Write one query's block, from ``Query:`` through ``//``.

    ``hits`` is a pyhmmer ``TopHits`` from ``Pipeline.search_hmm`` (sorted, thresholded).
    ``textw`` <= 0 means unlimited line length (``--notextw``). ``acc`` prefers
    accessions over names (``--acc``). ``timing`` = (user s, system s, elapsed s)
    adds the ``# CPU time`` / ``# Mc/sec`` lines; omitted by default. ``pipeline``
    overrides the counters/thresholds dict (default: the pipeline state of ``hits``).
    """
    pli = pipeline if pipeline is not None else pipeline_state(hits)
    if pli.get("long_targets"):
        raise ValueError("nhmmer-style (long target) hits are not supported by this writer")
    if pli.get("mode", 0) != 0:
        # hmmscan mode swaps the labels and column meanings; only hmmsearch is laid out here.
        raise ValueError("only hmmsearch-mode (search_hmm) hits are supported by this writer")
    query = hits.query
    out, fh = fh, io.StringIO()  # the block is written whole, in one call
    w = fh.write

    w("Query:       %s  [M=%d]\n" % (_text(query.name), query.M))
    qacc = _text(getattr(query, "accession", None))
    qdesc = _text(getattr(query, "description", None))
    if qacc is not None:
        w(f"Accession:   {qacc}\n")
    if qdesc is not None:
        w(f"Description: {qdesc}\n")

    all_hits = named_hits(hits)
    reported = [hit for hit in all_hits if hit.reported]
    target_rows = _target_rows(hits, reported) if reported else []
    domain_rows = _domain_rows(hits, reported) if reported else []

    _write_targets(fh, all_hits, reported, target_rows, textw, acc)
    w("\n\n")
    _write_domains(fh, hits, reported, domain_rows, textw, noali, acc)
    w("\n\n")
    _write_statistics(fh, pli, timing)
    w("//\n")
    out.write(fh.getvalue())


def write_report(
    fh: TextIO,
    query_path: str,
    target_path: str,
    all_hits: Iterable[Any],
    *,
    options: Mapping[str, str] | None = None,
    cpus: int | None = None,
    textw: int = 120,
    noali: bool = False,
    acc: bool = False,
) -> None:
    """Header, one block per query's ``TopHits``, and the ``[ok]`` footer."""
    write_header(fh, query_path, target_path, options, cpus)
    for hits in all_hits:
        write_query_report(fh, hits, textw=textw, noali=noali, acc=acc)
    write_footer(fh)
