"""Query models: read with pyhmmer (HMMER's own parser), checked, and compiled by the C++ core."""

from __future__ import annotations

import gzip
import io
import mmap
import os
import re
import sys
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np

from . import _core, _pyhmmer
from .errors import EmptyInputError, HmmFormatError, InputError

__all__ = ["read_hmms", "search_profile", "HmmSource"]

#: Everything :func:`gpuseq.hmmsearch` accepts as queries.
HmmSource = str | os.PathLike | Any | Iterable[Any]

_EVPARAM_UNSET = -99999.0  # HMMER's p7_EVPARAM_UNSET: the model was never calibrated
# A model file without a COMPO line leaves HMMER's composition at 0 (p7_hmm_CreateBody zeroes
# the model while reading), and hmmsearch runs its bias filter with that; so do we.
_COMPO_MISSING = 0.0


def read_hmms(source: HmmSource) -> list:
    """All models of an HMM file (HMMER3 ASCII or binary, gzip allowed) or of pyhmmer objects.

    The path ``"-"`` reads the models from standard input, as hmmsearch does.

    Returns:
        A list of ``pyhmmer.plan7.HMM``, each checked to be a calibrated protein model.

    Raises:
        InputError: the file cannot be opened.
        EmptyInputError: no model in the input.
        HmmFormatError: a malformed model, or one unusable for hmmsearch (nucleotide
            alphabet, no STATS calibration lines).
    """
    return list(iter_hmms(source))


def iter_hmms(source: HmmSource) -> Iterator:
    """The models of :func:`read_hmms` one at a time, each checked as it is read (a search
    can start on the first while the rest are parsed). The file's own checks come first;
    the errors are read_hmms', raised where the model would have come."""
    _pyhmmer.load()
    from pyhmmer.plan7 import HMM, HMMFile

    label = "<models>"
    if isinstance(source, (str, os.PathLike)):
        label = os.fspath(source)
        if label != "-" and not os.path.exists(label):
            raise InputError(label, None, "no such file")
        if label == "-":  # read whole, so that it can be checked before HMMER parses it
            stream = io.BytesIO(sys.stdin.buffer.read())
            _check_mandatory_tags(stream.getbuffer(), label)
        else:
            _check_mandatory_lines(label)
        hmms = _parsed(HMMFile, stream if label == "-" else label, label)
    elif isinstance(source, HMM):
        hmms = iter([source])
    elif isinstance(source, HMMFile):
        hmms = iter(source)
    elif isinstance(source, Iterable):
        hmms = _only_hmms(list(source), HMM)
    else:
        raise TypeError(f"cannot read query models from {type(source).__name__}")
    return _checked(hmms, label)


def _parsed(HMMFile, source, label: str) -> Iterator:
    """The models as HMMER's parser reads them, its errors as ours, naming the model that
    could not be read by its place in the file and the last one read (HMMER's parser gives
    no line)."""
    count, last = 0, None
    try:
        with HMMFile(source) as hmm_file:
            # Not `yield from`: closing this generator early would close the file twice
            # (yield from closes the iterator, then the with block), and pyhmmer's HMMFile
            # on a file object (standard input) frees its buffer twice: "double free".
            for hmm in hmm_file:  # noqa: UP028
                count, last = count + 1, _name_or_none(hmm)
                yield hmm
    except EOFError:
        raise EmptyInputError(label, None, "HMM file is empty") from None
    except ValueError as exc:
        where = f"model {count + 1}" + (f" (after {last!r})" if last else "")
        message = _clean_pyhmmer_message(exc)
        if message.startswith("Expected ") and message.endswith(" alphabet"):
            message = f"its alphabet is not the earlier models' ({message})"
        raise HmmFormatError(label, None, f"{where}: {message}") from None
    except OSError as exc:
        raise InputError(label, None, str(exc)) from None


def _model_name(hmm) -> str:
    """The model's NAME (bytes or str by pyhmmer's version); UnicodeDecodeError if not UTF-8."""
    return hmm.name if isinstance(hmm.name, str) else hmm.name.decode()


def _name_or_none(hmm) -> str | None:
    try:  # (a name that is not UTF-8 is reported by _check_searchable)
        return _model_name(hmm)
    except UnicodeDecodeError:
        return None


def _only_hmms(items: list, HMM) -> Iterator:
    for i, h in enumerate(items):
        if not isinstance(h, HMM):
            raise TypeError(f"query {i + 1} is a {type(h).__name__}, not a pyhmmer HMM")
    return iter(items)


def _checked(hmms: Iterator, label: str) -> Iterator:
    count = 0
    for hmm in hmms:
        _check_searchable(hmm, label)
        count += 1
        yield hmm
    if not count:
        raise EmptyInputError(label, None, "no HMM in the input")


def search_profile(hmm) -> _core.SearchProfile:
    """Compile a pyhmmer HMM into the core's search profile (MSV, Viterbi, bias tables)."""
    composition = hmm.composition
    if composition is None:
        composition = np.full(20, _COMPO_MISSING, dtype=np.float32)
    return _core.SearchProfile(
        _model_name(hmm),
        np.asarray(hmm.match_emissions, dtype=np.float32),
        np.asarray(hmm.transition_probabilities, dtype=np.float32),
        np.asarray(composition, dtype=np.float32),
        [float(v) for v in hmm.evalue_parameters.as_vector()],
    )


def _check_searchable(hmm, label: str) -> None:
    try:  # pyhmmer decodes these as strict UTF-8; the query's are written in every output
        name = _model_name(hmm)
        hmm.accession, hmm.description  # noqa: B018 - read to check they decode
    except UnicodeDecodeError:
        raise HmmFormatError(label, None, "a model's NAME, ACC or DESC line is not UTF-8 text "
                             "(gpuseq cannot report such a query)") from None
    if hmm.alphabet.K != 20:
        raise HmmFormatError(
            label, None, "is a nucleotide model; gpuseq hmmsearch searches protein targets", name
        )
    if any(v == _EVPARAM_UNSET for v in hmm.evalue_parameters.as_vector()):
        raise HmmFormatError(
            label, None, "has no STATS lines (E-value calibration); run hmmbuild on it again", name
        )
    if hmm.M < 1:
        raise HmmFormatError(label, None, "has no match states", name)
    for what, values in (("match emission", hmm.match_emissions),
                         ("insert emission", hmm.insert_emissions),
                         ("transition", hmm.transition_probabilities)):
        if np.isnan(np.asarray(values)).any():  # hmmsearch dies on it ("score is NaN")
            raise HmmFormatError(label, None, f"has a {what} probability that is NaN", name)
    try:  # pyhmmer decodes the per-node annotation as ASCII; it is written in the alignments
        consensus = hmm.consensus
        hmm.reference, hmm.consensus_structure, hmm.model_mask  # noqa: B018 - read to check
    except UnicodeDecodeError:  # hmmsearch prints the byte as it is
        raise HmmFormatError(label, None, "has a byte that is not ASCII in a node's consensus, "
                             "RF, CS or MM column (gpuseq cannot report such a query)",
                             name) from None
    if consensus is None:  # hmmsearch aborts on it ("HMM must have a consensus")
        raise HmmFormatError(label, None, "has no consensus residues (CONS no)", name)


# A tag is its line's first whitespace-delimited word ("ALPHe amino" has no ALPH tag).
# Tags at the start of a line. The pattern begins with a newline, a literal that re finds
# fast (four times the speed of a ^ in MULTILINE mode); the first line is looked at apart.
_HEADER_TAGS = re.compile(rb"\n[ \t]*(HMMER|(?:NAME|LENG|ALPH)(?=\s)|HMM\s|//)")
_FIRST_LINE_HMMER = re.compile(rb"[ \t]*HMMER")
_MANDATORY_TAGS = (b"NAME", b"LENG", b"ALPH")


def _check_mandatory_lines(path: str) -> None:
    """Every model of a text HMM file must have its NAME, LENG and ALPH lines before the
    ``HMM`` line, as the format requires: HMMER's parser (hmmsearch 3.3 and 3.4 alike) crashes
    on some files without them (no ALPH; no NAME and LENG after a NUL byte in the first line),
    and holds no NUL byte (it crashes on one after the LENG value)."""
    with open(path, "rb") as f:
        magic = f.read(2)
    if magic == b"\x1f\x8b":
        with gzip.open(path, "rb") as f:
            text = f.read()
    else:
        with open(path, "rb") as f:
            if not f.read(256).lstrip().startswith(b"HMMER"):
                return  # binary (hmmpress) files, or not HMMER text: pyhmmer decides
            f.seek(0)
            try:
                text = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
            except ValueError:  # empty file
                return
    _check_mandatory_tags(text, path)


def _check_mandatory_tags(text, path: str) -> None:
    """The check of _check_mandatory_lines on the text of an HMM file (bytes-like)."""
    if not bytes(text[:256]).lstrip().startswith(b"HMMER"):
        return  # binary (hmmpress) files, or not HMMER text: pyhmmer decides
    model, seen = (1 if _FIRST_LINE_HMMER.match(text) else 0), set()
    for m in _HEADER_TAGS.finditer(text):
        tag = m.group(1)
        if tag == b"HMMER":
            model, seen = model + 1, set()
        elif tag in _MANDATORY_TAGS:
            seen.add(tag)
        elif tag != b"//" and model and len(seen) < len(_MANDATORY_TAGS):
            line = bytes(text[: m.start(1)]).count(b"\n") + 1
            missing = [t.decode() for t in _MANDATORY_TAGS if t not in seen]
            raise HmmFormatError(path, line, f"model {model} has no {', '.join(missing)} "
                                 f"line{'s' if len(missing) > 1 else ''} before its HMM section")
    # HMMER's parser crashes on a NUL byte after the LENG value, rejects most others and stops
    # reading at some: a text model file holds none.
    nul = text.find(b"\0") if hasattr(text, "find") else bytes(text).find(b"\0")
    if nul >= 0:
        line = bytes(text[:nul]).count(b"\n") + 1
        raise HmmFormatError(path, line, "holds a NUL byte: a damaged HMMER text file")


def _clean_pyhmmer_message(exc: Exception) -> str:
    text = str(exc).strip()
    for prefix in ("Invalid format in file: ", "Could not parse file: "):
        if text.startswith(prefix):
            text = text[len(prefix) :]
    return text or "malformed HMM file"
