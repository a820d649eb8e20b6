"""hmmsearch's options, defined once.

Each option is one :class:`Flag`: hmmsearch's spelling, help line and group, how the text
report's header echoes it and hmmsearch's default string. The search options are the fields of
:class:`HmmsearchOptions` (keyword names and defaults of :func:`gpuseq.hmmsearch`), each
carrying its flag(s); the output options (``-o``, ``--tblout`` ...) and the run options
(``--cpu``) are plain flags. The API (``hmmsearch(**options)``), the CLI (``gpuseq
hmmsearch``) and the report header (``hmmer_text.write_header``) all read them from here.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, fields
from typing import Any

from . import _checks as checks

__all__ = ["Flag", "HmmsearchOptions", "OUTPUT_FLAGS", "RUN_FLAGS", "all_flags"]

_OUTPUT = "options directing output"
_REPORTING = "options controlling reporting thresholds"
_INCLUSION = "options controlling inclusion (significance) thresholds"
_CUTOFFS = "options controlling model-specific thresholding"
_FILTERS = "options controlling acceleration heuristics"
_EXPERT = "other expert options"


# How Easel reads an option's value (esl_str_IsReal, esl_str_IsInteger: strtod and strtol
# base 10 over the whole string, spaces around allowed), so that gpuseq takes and refuses the
# values hmmsearch does: "1e-5", " +3", "inf", "nan" and "0x1p-4" (a real) are values; "1_000",
# "0x10" (an integer) and "1e" are not.
_C_DECIMAL = re.compile(r"\s*[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf(?:inity)?"
                        r"|nan(?:\(\w*\))?)\s*", re.IGNORECASE | re.ASCII)
_C_HEX = re.compile(r"\s*[+-]?0x(?:[0-9a-f]+\.?[0-9a-f]*|\.[0-9a-f]+)(?:p[+-]?\d+)?\s*",
                    re.IGNORECASE | re.ASCII)
_C_INTEGER = re.compile(r"\s*[+-]?\d+\s*", re.ASCII)
_INT_MAX = 2**31 - 1  # hmmsearch's integer options are C ints


def real(text: str) -> float:
    """A real option value, as strtod reads it (hmmsearch's eslARG_REAL)."""
    if _C_DECIMAL.fullmatch(text):
        return float(text.strip().split("(")[0])
    if _C_HEX.fullmatch(text):
        return float.fromhex(text.strip())
    raise argparse.ArgumentTypeError(f"takes a real number, not {text!r}")


def positive_float(text: str) -> float:
    """An option value that must be > 0 (hmmsearch's ``(x>0)``)."""
    value = real(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be > 0: {text}")
    return value


def integer_at_least(least: int) -> Callable[[str], int]:
    """Parser of an integer option value in hmmsearch's range ``n>=least``. hmmsearch keeps
    such a value in a C int: beyond 2**31 - 1 it wraps (--seed 4294967296 became 0, its
    "one-time arbitrary seed"), where gpuseq says so instead."""

    def parse(text: str) -> int:
        if not _C_INTEGER.fullmatch(text):
            raise argparse.ArgumentTypeError(f"takes an integer, not {text!r}")
        value = int(text)
        if not least <= value <= _INT_MAX:
            raise argparse.ArgumentTypeError(f"must be an integer from {least} to {_INT_MAX}: "
                                             f"{text}")
        return value

    parse.__name__ = f"integer_at_least_{least}"
    return parse


text_width = integer_at_least(120)  # --textw: hmmsearch's n>=120
natural = integer_at_least(0)  # --cpu, --seed: n>=0


def esl_min(a: float, b: float) -> float:
    """Easel's ESL_MIN(a, b), ``a < b ? a : b``: b where either is NaN (min() gives a)."""
    return a if a < b else b


@dataclass(frozen=True)
class Flag:
    """One hmmsearch command-line option.

    Attributes:
        flag: hmmsearch's spelling (``"-E"``, ``"--nobias"``).
        help: hmmsearch's help line.
        group: hmmsearch's help section.
        header: the label the report's header echoes it with ("" for none).
        echo: how the header shows the value: ``"str"``, ``"int"``, ``"real"`` (``%g``),
            ``"zreal"`` (``%.0f``), ``"seed"``, or ``"=TEXT"`` for a flag without a value
            (TEXT is printed).
        hmmer_default: hmmsearch's default *string*: a value typed exactly so is not echoed
            (Easel's esl_opt_IsUsed), ``-E 10`` is.
        type: parser of the value (value options).
        const: what the option's field becomes when a flag without a value is given.
        dest: the CLI's attribute for an option that is not a HmmsearchOptions field.
        default: the CLI's default for such an option (a field's default is the field's).
    """

    flag: str
    help: str
    group: str
    header: str = ""
    echo: str = "str"
    hmmer_default: str | None = None
    type: Callable[[str], Any] | None = None
    const: Any = None
    dest: str | None = None
    default: Any = None

    @property
    def takes_value(self) -> bool:
        return not self.echo.startswith("=")


def _option(default: Any, *flags: Flag) -> Any:
    """A HmmsearchOptions field with its default and its hmmsearch flag(s)."""
    return field(default=default, metadata={"flags": flags})


def _threshold(flag: str, help: str, group: str, header: str, default: str | None,
               kind: Callable[[str], float] = positive_float) -> Flag:
    """An E-value (x>0), a score (any real: its default is None) or a filter's P (any real)."""
    kind = kind if default is not None else real
    return Flag(flag, help, group, header, "real", hmmer_default=default, type=kind)


@dataclass(frozen=True, kw_only=True)
class HmmsearchOptions:
    """hmmsearch's search options: reporting and inclusion thresholds, model cutoffs,
    filters, score corrections, search space sizes and the random seed, with hmmsearch's
    defaults. Fields are in the order hmmsearch's report header lists them; each field's
    metadata ``"flags"`` holds its hmmsearch :class:`Flag` (three for ``bit_cutoffs``)."""

    E: float = _option(
        10.0,
        _threshold("-E", "report sequences <= this E-value threshold in output", _REPORTING,
                   "# sequence reporting threshold:    E-value <= ", "10.0"),
    )
    T: float | None = _option(
        None,
        _threshold("-T", "report sequences >= this score threshold in output", _REPORTING,
                   "# sequence reporting threshold:    score >= ", None),
    )
    domE: float = _option(
        10.0,
        _threshold("--domE", "report domains <= this E-value threshold in output", _REPORTING,
                   "# domain reporting threshold:      E-value <= ", "10.0"),
    )
    domT: float | None = _option(
        None,
        _threshold("--domT", "report domains >= this score cutoff in output", _REPORTING,
                   "# domain reporting threshold:      score >= ", None),
    )
    incE: float = _option(
        0.01,
        _threshold("--incE", "consider sequences <= this E-value threshold as significant",
                   _INCLUSION, "# sequence inclusion threshold:    E-value <= ", "0.01"),
    )
    incT: float | None = _option(
        None,
        _threshold("--incT", "consider sequences >= this score threshold as significant",
                   _INCLUSION, "# sequence inclusion threshold:    score >= ", None),
    )
    incdomE: float = _option(
        0.01,
        _threshold("--incdomE", "consider domains <= this E-value threshold as significant",
                   _INCLUSION, "# domain inclusion threshold:      E-value <= ", "0.01"),
    )
    incdomT: float | None = _option(
        None,
        _threshold("--incdomT", "consider domains >= this score threshold as significant",
                   _INCLUSION, "# domain inclusion threshold:      score >= ", None),
    )
    bit_cutoffs: str | None = _option(
        None,
        *(
            Flag(f"--cut_{short.lower()}",
                 f"use profile's {short} {word} cutoffs to set all thresholding", _CUTOFFS,
                 "# model-specific thresholding:     ", f"={short} cutoffs", const=value)
            for short, word, value in (
                ("GA", "gathering", "gathering"),
                ("NC", "noise", "noise"),
                ("TC", "trusted", "trusted"),
            )
        ),
    )
    max: bool = _option(
        False,
        Flag("--max", "Turn all heuristic filters off (less speed, more power)", _FILTERS,
             "# Max sensitivity mode:            ", "=on [all heuristic filters off]",
             const=True),
    )
    F1: float = _option(
        0.02,
        _threshold("--F1", "Stage 1 (MSV) threshold: promote hits w/ P <= F1", _FILTERS,
                   "# MSV filter P threshold:       <= ", "0.02", kind=real),
    )
    F2: float = _option(
        1e-3,
        _threshold("--F2", "Stage 2 (Vit) threshold: promote hits w/ P <= F2", _FILTERS,
                   "# Vit filter P threshold:       <= ", "1e-3", kind=real),
    )
    F3: float = _option(
        1e-5,
        _threshold("--F3", "Stage 3 (Fwd) threshold: promote hits w/ P <= F3", _FILTERS,
                   "# Fwd filter P threshold:       <= ", "1e-5", kind=real),
    )
    bias_filter: bool = _option(
        True,
        Flag("--nobias", "turn off composition bias filter", _FILTERS,
             "# biased composition HMM filter:   ", "=off", const=False),
    )
    null2: bool = _option(
        True,
        Flag("--nonull2", "turn off biased composition score corrections", _EXPERT,
             "# null2 bias corrections:          ", "=off", const=False),
    )
    Z: float | None = _option(
        None,
        Flag("-Z", "set # of comparisons done, for E-value calculation", _EXPERT,
             "# sequence search space set to:    ", "zreal", type=positive_float),
    )
    domZ: float | None = _option(
        None,
        Flag("--domZ", "set # of significant seqs, for domain E-value calculation", _EXPERT,
             "# domain search space set to:      ", "zreal", type=positive_float),
    )
    seed: int = _option(
        42,
        Flag("--seed", "set RNG seed to <n> (if 0: one-time arbitrary seed)", _EXPERT,
             "", "seed", hmmer_default="42", type=natural),
    )

    def __post_init__(self) -> None:
        # Types first: a string would fail a comparison with an obscure TypeError, and a
        # truthy string (null2="no") or a bool for a number (E=True) would be taken silently.
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in ("max", "bias_filter", "null2"):
                checks.flag(value, f.name)
            elif f.name not in ("bit_cutoffs", "seed") and (value is not None
                                                            or f.default is not None):
                checks.real(value, f.name)
        # (F1-F3 take any real, as hmmsearch's: a target passes a filter unless P > F, so 0
        # passes only a P that underflowed, an overflowing MSV score's, and NaN passes all.)
        for name in ("E", "domE", "incE", "incdomE"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be > 0, not {getattr(self, name)!r}")
        for name in ("Z", "domZ"):
            value = getattr(self, name)
            if value is not None and not value > 0:
                raise ValueError(f"{name} must be > 0, not {value!r}")
        if self.max and ((self.F1, self.F2, self.F3) != (0.02, 1e-3, 1e-5) or not self.bias_filter):
            raise ValueError("max=True (--max) cannot be combined with F1/F2/F3 or nobias")
        if self.bit_cutoffs is not None:
            if self.bit_cutoffs not in ("gathering", "noise", "trusted"):
                raise ValueError("bit_cutoffs must be 'gathering', 'noise' or 'trusted'")
            given = [n for n in ("T", "domT", "incT", "incdomT") if getattr(self, n) is not None]
            if given:
                raise ValueError(f"bit_cutoffs cannot be combined with {', '.join(given)}")
        if not isinstance(self.seed, int) or not 0 <= self.seed < 2**32:
            raise ValueError(f"seed must be an integer from 0 to 2**32 - 1, not {self.seed!r}")

    @property
    def filter_thresholds(self) -> tuple[float, float, float, bool]:
        """(F1, F2, F3, bias filter on) as the pipeline applies them (``--max`` opens all)."""
        if self.max:
            return 1.0, 1.0, 1.0, False
        return (esl_min(1.0, self.F1), esl_min(1.0, self.F2), esl_min(1.0, self.F3),
                self.bias_filter)  # (p7_pipeline_Create's ESL_MIN(1.0, F))

    @classmethod
    def flags(cls) -> Iterator[tuple[str, Flag]]:
        """(field name, Flag) of every search option, in hmmsearch's header order."""
        for f in fields(cls):
            for flag in f.metadata["flags"]:
                yield f.name, flag

    def as_arguments(self) -> dict[str, str]:
        """The hmmsearch options that give these settings, as {flag: value string} (flags
        without a value map to ""): only those that differ from hmmsearch's defaults."""
        out: dict[str, str] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if value == f.default:
                continue
            for flag in f.metadata["flags"]:
                if not flag.takes_value:
                    if value == flag.const:
                        out[flag.flag] = ""
                elif flag.echo == "real":
                    out[flag.flag] = repr(float(value))
                else:
                    out[flag.flag] = str(value)
        return out


# Output options: their values go to HmmsearchResult's writers, not into the search.
OUTPUT_FLAGS: tuple[Flag, ...] = (
    Flag("-o", "direct output to file <f>, not stdout", _OUTPUT,
         "# output directed to file:         ", dest="output"),
    Flag("-A", "save multiple alignment of all hits to file <f>", _OUTPUT,
         "# MSA of all hits saved to file:   ", dest="alignment"),
    Flag("--tblout", "save parseable table of per-sequence hits to file <f>", _OUTPUT,
         "# per-seq hits tabular output:     ", dest="tblout"),
    Flag("--domtblout", "save parseable table of per-domain hits to file <f>", _OUTPUT,
         "# per-dom hits tabular output:     ", dest="domtblout"),
    Flag("--pfamtblout", "save table of hits and domains to file, in Pfam format <f>", _OUTPUT,
         "# pfam-style tabular hit output:   ", dest="pfamtblout"),
    Flag("--acc", "prefer accessions over names in output", _OUTPUT,
         "# prefer accessions over names:    ", "=yes", const=True, dest="acc"),
    Flag("--noali", "don't output alignments, so output is smaller", _OUTPUT,
         "# show alignments in output:       ", "=no", const=True, dest="noali"),
    Flag("--notextw", "unlimit ASCII text output line width", _OUTPUT,
         "# max ASCII text line length:      ", "=unlimited", const=True, dest="notextw"),
    Flag("--textw", "set max width of ASCII text output lines", _OUTPUT,
         "# max ASCII text line length:      ", "int", hmmer_default="120", type=text_width,
         dest="textw", default=120),
)

# Options of the run itself, echoed after the search options. --tformat is hmmsearch's; the
# header knows it, the CLI does not take it yet.
RUN_FLAGS: tuple[Flag, ...] = (
    Flag("--tformat", "assert target <seqfile> is in format <s>: no autodetection", _EXPERT,
         "# targ <seqfile> format asserted:  ", dest="tformat"),
    Flag("--cpu", "number of parallel CPU workers to use for multithreads (0: all cores)",
         _EXPERT, "# number of worker threads:        ", "int", hmmer_default="2", type=natural,
         dest="cpu", default=0),
)


def all_flags() -> list[Flag]:
    """Every option hmmsearch's report header can echo, in hmmsearch's order."""
    return [*OUTPUT_FLAGS, *(flag for _, flag in HmmsearchOptions.flags()), *RUN_FLAGS]
