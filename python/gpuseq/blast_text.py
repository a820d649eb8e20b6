"""blastp's pairwise text report, ``-outfmt 0`` (blastp's default output), as blastp 2.12
writes it from :func:`gpuseq.blastp`'s rows: the prolog with its references, each query's
table of one-line descriptions and its alignments, each query's Karlin-Altschul parameters,
and the database and search parameters at the end (CBlastFormat, CShowBlastDefline and
CDisplaySeqalign of NCBI's align_format library).

What the text formatter computes apart from blastp's tabular fields, and so here too:

- identities and positives are counted again from the aligned letters: identical letters,
  or a pair scoring above 0 in BLOSUM62's 23 letters (ARNDCQEGHILKMFPSTWYVBZX; U as C; J and
  O never), which also gives the midline's letter, '+' or blank; percentages are rounded
  half up and below 100 stay at most 99;
- bit scores above 99.9 are cut to an integer, others written with one decimal; E-values go
  from "0.0" (below 1e-180) through "3e-66" and "0.25" to "852";
- the descriptions' titles are the ones NCBI's defline generator makes of the stored titles
  (trailing periods, commas and spaces dropped, TPA:-like prefixes removed, HTML entities
  decoded, blanks compressed), cut to 65 bytes and "..." beyond 68; the alignments show the
  stored titles, wrapped after the first blank past each 60th character;
- the query's SEG residues are in lower case in the alignments' Query rows;
- each HSP says which composition-based method realigned it.
"""

from __future__ import annotations

import functools
import html.entities
from dataclasses import dataclass

import numpy as np

from . import _core

REFERENCE = ("Stephen F. Altschul, Thomas L. Madden, Alejandro A. Schaffer, Jinghui Zhang, "
             "Zheng Zhang, Webb Miller, and David J. Lipman (1997), \"Gapped BLAST and PSI-BLAST: "
             "a new generation of protein database search programs\", Nucleic Acids Res. "
             "25:3389-3402.")
COMPOSITION_REFERENCE = (
    "Alejandro A. Schaffer, L. Aravind, Thomas L. Madden, Sergei Shavirin, John L. Spouge, "
    "Yuri I. Wolf, Eugene V. Koonin, and Stephen F. Altschul (2001), \"Improving the accuracy "
    "of PSI-BLAST protein database searches with composition-based statistics and other "
    "refinements\", Nucleic Acids Res. 29:2994-3005.")

_METHODS = {1: ", Method: Composition-based stats.", 2: ", Method: Compositional matrix adjust."}
_FORMAT_WIDTH = 68  # (kFormatLineLength: the wrapped titles and the description column)
_TITLE_WIDTH = 60  # (the alignments' subject titles)
_NO_TITLE = "unnamed protein product"

# The letters the formatter's matrix holds (U is read as C); any other pair is never positive.
_LETTERS = _core.blast_letters
_IN_MATRIX = "ARNDCQEGHILKMFPSTWYVBZX"


@functools.lru_cache(maxsize=None)
def _text_positive_pairs(matrix: str) -> frozenset[tuple[str, str]]:
    """The pairs the pairwise report's midline marks '+': above 0 in the search's matrix."""
    scores = np.asarray(_core.blast_matrix_scores(matrix)).reshape(len(_LETTERS), -1)

    def matrix_letter(c: str) -> str:
        return "C" if c == "U" else c

    letters = _IN_MATRIX + "U"
    return frozenset((a, b) for a in letters for b in letters
                     if scores[_LETTERS.index(matrix_letter(a)),
                               _LETTERS.index(matrix_letter(b))] > 0)


def wrap(text: str, width: int = _FORMAT_WIDTH) -> list[str]:
    """NCBI's NStr::Wrap of flat files, as the report wraps titles and references: each line
    at most ``width`` bytes, broken before the last blank that leaves it so (the blanks after
    it dropped), else after the last comma, else after the last hyphen, else at ``width``
    bytes. Counted in bytes (UTF-8; non-UTF-8 bytes as surrogates); "" gives no line."""
    data = text.encode("utf-8", "surrogateescape")
    lines, pos, n = [], 0, len(data)
    blanks = b" \t\n\v\f\r"
    while pos < n:
        newline = data.find(b"\n", pos)
        newline = n if newline < 0 else newline
        if newline == n and n - pos <= width:
            lines.append(data[pos:])
            break
        scan = newline if newline - pos <= width else pos
        best, kind, column, p = pos, 0, 0, scan  # kind: 0 forced, 1 '-', 2 ',', 3 blank, 4 LF
        while p < n and column <= width:
            c = data[p : p + 1]
            if c == b"\n":
                best, kind = p, 4
                break
            at, this = p, 0
            if c in blanks:
                this = 3
            elif c == b"," and column < width and p < n - 1:
                this, at = 2, p + 1
            elif c == b"-" and column < width and p < n - 1:
                this, at = 1, p + 1
            if this >= kind and at > scan:
                best, kind = at, this
            p += 1
            column += 1
        if kind != 4 and column <= width:
            best = n
        lines.append(data[pos:best])
        pos = best
        if kind == 3:
            while pos < n and data[pos] == 0x20:
                pos += 1
            if pos < n and data[pos] == 0x0A:
                pos += 1
        elif kind == 4:
            pos += 1
    return [line.decode("utf-8", "surrogateescape") for line in lines]


def _wrapped(text: str) -> str:
    return "".join(line + "\n" for line in wrap(text))


def evalue_text(value: float) -> str:
    """An E-value as the report writes it (CAlignFormatUtil::GetScoreString)."""
    if value < 1.0e-180:
        return "0.0"
    if value < 1.0e-99:
        return "%2.0e" % value
    if value < 0.0009:
        return "%3.0e" % value
    if value < 0.1:
        return "%4.3f" % value
    if value < 1.0:
        return "%3.2f" % value
    if value < 10.0:
        return "%2.1f" % value
    return "%2.0f" % value


def bit_score_text(value: float) -> str:
    """A bit score as the report writes it: above 99.9 cut to an integer."""
    if value > 99999:
        return "%5.3e" % value
    if value > 99.9:
        return "%3d" % int(value)
    return "%4.1f" % value


def _percent(count: int, length: int) -> int:
    """CAlignFormatUtil::GetPercentMatch: rounded half up, 99 at most unless all."""
    if count == length:
        return 100
    return min(99, int(0.5 + 100.0 * count / length)) if length else 0


def _commas(value: int) -> str:
    return f"{value:,}"


# HTML4's entities and the others NCBI's NStr::HtmlDecode knows (its s_HtmlEntities).
_ENTITIES = {**html.entities.name2codepoint, "Tab": 9, "NewLine": 10, "excl": 33, "num": 35,
             "dollar": 36, "percnt": 37, "apos": 39, "lpar": 40, "rpar": 41, "ast": 42,
             "plus": 43, "comma": 44, "period": 46, "sol": 47, "colon": 58, "semi": 59,
             "equals": 61, "quest": 63, "commat": 64, "lsqb": 91, "bsol": 92, "rsqb": 93,
             "Hat": 94, "lowbar": 95, "grave": 96, "lcub": 123, "verbar": 124, "rcub": 125}
# The prefixes the defline generator removes, in its order (s_tpaPrefixList).
_TITLE_PREFIXES = ("MAG ", "MAG:", "TPA:", "TPA_exp:", "TPA_inf:", "TPA_reasm:", "TPA_asm:",
                   "TSA:", "UNVERIFIED_ORG:", "UNVERIFIED_ASMBLY:", "UNVERIFIED_CONTAM:",
                   "UNVERIFIED:")


# Bytes Windows-1252 leaves undefined: a title holding them that is not UTF-8 has an encoding
# CUtf8::GuessEncoding cannot name.
_NOT_CP1252 = frozenset(b"\x81\x8d\x8f\x90\x9d")


def _latin_title(data: bytes) -> bool:
    """Whether HtmlDecode converts a title's bytes to UTF-8 (CUtf8::GuessEncoding finds it
    neither ASCII nor UTF-8, but Windows-1252 or ISO 8859-1, which agree on the bytes both
    define); ValueError where it finds no encoding, and blastp shows "Unknown" (its XML "No
    definition line") and skips the alignment."""
    if data.isascii():
        return False
    try:
        data.decode("utf-8")
        return False
    except UnicodeDecodeError:
        pass
    if _NOT_CP1252.intersection(data):
        raise ValueError(f"title {data.decode('latin-1')!r}: its bytes are neither UTF-8 nor "
                         "Windows-1252, which blastp's defline generator cannot decode (it "
                         "shows \"Unknown\" or \"No definition line\" and drops the "
                         "alignment)")
    return True


def _html_decoded(data: bytes) -> bytes:
    """NStr::HtmlDecode of a title, as blastp 2.12 has it: "&name;" of a name it knows,
    "&#123;" and "&#x7b;" (at most 16 characters to the ';') become the character's UTF-8;
    anything else stays, but a title in Windows-1252 or Latin-1 has its other bytes turned to
    UTF-8 (:func:`_latin_title`). (Its scan steps past an 'x' after '&' before it reads a
    name, so "&xi;" stays too.)"""
    latin = _latin_title(data)
    alpha = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    digits, xdigits = b"0123456789", b"0123456789abcdefABCDEF"
    out, i, n = bytearray(), 0, len(data)
    while i < n:
        c = data[i]
        i += 1
        if c != 0x26 or i == n:  # '&'
            out += bytes((c,)).decode("cp1252").encode() if latin and c >= 0x80 else bytes((c,))
            continue
        t = i
        named, decimal, hexadecimal = data[t] in alpha, False, False
        if not named and data[t] == 0x23:  # '#'
            t += 1
            decimal = t < n and data[t] in digits
        if not decimal and t < n and data[t] in b"xX":
            t += 1
            hexadecimal = t < n and data[t] in xdigits
        start, end = t, None
        if t < n and (named or decimal or hexadecimal):
            for _ in range(16):
                if t >= n or data[t] in b"&#":
                    break
                if data[t] == 0x3B:  # ';'
                    end = t
                    break
                named = named and data[t] in alpha + digits
                decimal = decimal and data[t] in digits
                hexadecimal = hexadecimal and data[t] in xdigits
                t += 1
        code = None
        if end is not None and named:
            code = _ENTITIES.get(data[start:end].decode("ascii"))
        elif end is not None and (decimal or hexadecimal):
            code = 0
            for d in data[start:end].decode("ascii"):
                code = (code * (10 if decimal else 16) + int(d, 16)) & 0xFFFFFFFF
        if code is not None and code <= 0x10FFFF:
            out += chr(code).encode("utf-8", "surrogatepass")
            i = end + 1
        else:
            out.append(c)
    return bytes(out)


def _clean_and_compress(data: bytes) -> bytes:
    """The defline generator's x_CleanAndCompress of a protein title: blank runs as one,
    no blank after '(' or before ')', " ," and " ;" swapped, ",," as ", ", the blanks and
    repeats after ", " and "; " dropped; ". [" and ", [" as " [". A last byte outside ASCII
    is dropped (a signed char's test)."""
    data = data.strip(b" ")
    if not data:
        return b""
    out = bytearray()
    at, curr, two = 1, data[0], data[0]
    while at < len(data):
        nxt = data[at]
        at += 1
        two = ((two << 8) | nxt) & 0xFFFF
        if two == 0x2C2C:  # ",,"
            out.append(curr)
            nxt = 0x20
        elif two == 0x2020:  # "  "
            pass
        elif two == 0x2820:  # "( "
            nxt = two = curr
        elif two == 0x2029:  # " )"
            pass
        elif two in (0x202C, 0x203B):  # " ," " ;"
            out.append(nxt)
            nxt = two = curr
        elif two in (0x2C20, 0x3B20):  # ", " "; "
            punctuation = curr
            out += bytes((curr, 0x20))
            while nxt in (0x20, punctuation):
                nxt = data[at] if at < len(data) else 0
                at += 1
            two = nxt
        else:
            out.append(curr)
        curr = nxt
    if 0 < curr < 0x80 and curr != 0x20:
        out.append(curr)
    return bytes(out).replace(b". [", b" [").replace(b", [", b" [")


def _generated_title(title: str) -> bytes | None:
    """CDeflineGenerator's title before its last step, x_CleanAndCompress (None: empty)."""
    data = title.encode("utf-8", "surrogateescape")
    kept = data.rstrip(b".,;~ ")
    data = kept if kept else data
    if not data:
        return None
    for prefix in _TITLE_PREFIXES:
        if data[: len(prefix)].lower() == prefix.lower().encode():
            data = data[len(prefix):].lstrip(b" ")
    data = _html_decoded(data.lstrip(b" "))
    kept = data.rstrip(b",;~ ")
    return kept if kept else data


def description_title(title: str) -> str:
    """A title as NCBI's defline generator makes it (GenerateDefline of a protein without a
    source, blastp 2.12's steps): what the one-line descriptions show of a stored subject
    title, and the XML and JSON of a query's."""
    data = _generated_title(title)
    if data is None:
        return _NO_TITLE
    return _clean_and_compress(data).decode("utf-8", "surrogateescape")


def title_ends_outside_ascii(title: str) -> bool:
    """Whether the defline generator's title ends in a byte outside ASCII, which its last step
    drops (the rest of a UTF-8 character stays, and blastp's XML writer fails on it)."""
    data = _generated_title(title)
    data = data.rstrip(b" ") if data is not None else b""
    return bool(data) and data[-1] >= 0x80


def _subject_title_lines(title: str, named_as_query: bool = False) -> str:
    """'>' and the stored title, wrapped after the first blank past each 60th character
    (s_WrapOutputLine), then a line end. A subject of -subject (``named_as_query``), which
    has no stored title, shows "> " and the defline generator's title (x_PrintDefLine)."""
    prefix = ">"
    if named_as_query:
        prefix, title = "> ", description_title(title)
    title = title or _NO_TITLE
    data = title.encode("utf-8", "surrogateescape")
    if len(data) <= _TITLE_WIDTH:
        return prefix + title + "\n"
    out, due = bytearray(prefix.encode()), False
    for i, c in enumerate(data):
        if i > 0 and i % _TITLE_WIDTH == 0:
            due = True
        out.append(c)
        if due and c in b" \t\n\v\f\r":
            out += b"\n"
            due = False
    return out.decode("utf-8", "surrogateescape") + "\n"


@dataclass
class _Hsp:
    bits: float
    score: int
    evalue: float
    method: int
    qstart: int
    qend: int
    sstart: int
    send: int
    gaps: int
    qseq: str  # (the query's letters, SEG's residues in lower case)
    sseq: str


def midline(query: str, subject: str, positive_pairs: set) -> tuple[str, int, int]:
    """An HSP's midline (the letter where the two are identical, '+' where the pair is
    one of ``positive_pairs``, else a blank), its identities and its positives (identities
    included), from its aligned letters."""
    line, identities, positives = [], 0, 0
    for a, b in zip(query, subject):
        if a == b:
            line.append(a)
            identities += 1
        elif (a, b) in positive_pairs:
            line.append("+")
            positives += 1
        else:
            line.append(" ")
    return "".join(line), identities, identities + positives


def _alignment(hsp: _Hsp, line_length: int, matrix: str = "BLOSUM62") -> str:
    """One HSP's Score and Identities lines and its blocks of rows (x_DisplayAlignInfo,
    s_DisplayIdentityInfo, x_DisplayRowDataSet)."""
    columns = len(hsp.qseq)
    middle, identities, positives = midline(hsp.qseq.upper(), hsp.sseq,
                                            _text_positive_pairs(matrix))
    out = [f" Score = {bit_score_text(hsp.bits)} bits ({hsp.score}),  Expect = "
           f"{evalue_text(hsp.evalue)}{_METHODS.get(hsp.method, '')}\n",
           f" Identities = {identities}/{columns} ({_percent(identities, columns)}%), "
           f"Positives = {positives}/{columns} ({_percent(positives, columns)}%), "
           f"Gaps = {hsp.gaps}/{columns} ({_percent(hsp.gaps, columns)}%)\n", "\n"]
    width = len(str(max(hsp.qend, hsp.send) - 1))  # (the largest end, from 0)
    last = {"Query": hsp.qstart - 1, "Sbjct": hsp.sstart - 1}  # (the last residue written)
    for j in range(0, columns, line_length):
        for name, letters in (("Query", hsp.qseq), ("Sbjct", hsp.sseq)):
            piece = letters[j : j + line_length]
            start, end = last[name] + 1, last[name] + len(piece) - piece.count("-")
            # (no numbers on a row of gaps alone, nor on a first one holding residue 1 alone)
            numbered = not ((j > 0 and end < start) or (j == 0 and start == end == 1))
            number = str(start) if numbered else ""
            out.append(f"{name}  {number}{' ' * (width - len(number) + 2)}{piece}  "
                       f"{end if numbered else ''}\n")
            if name == "Query":
                out.append(" " * (5 + 2 + width + 2) + middle[j : j + line_length] + "\n")
            last[name] = end
        out.append("\n")
    out.append("\n")
    return "".join(out)


def _ka_lines(values, header: str) -> str:
    return header + "\n" + "".join("%#8.3g " % v for v in values) + "\n"


def _query_footer(stats: dict, own: dict | None, ungapped: bool, gumbel: bool,
                  searched: bool, gap_costs: dict | None, ungapped_row: dict) -> str:
    """Each query's Karlin-Altschul blocks (x_PrintOneQueryFooter): its own Lambda, K and H,
    then the gapped search's; a and alpha (and sigma) beside them where its E-values are
    Spouge's (a gapped search without -searchsp: blastp's Gumbel block). A query without
    statistics has none, unless no query of its batch has them (blastp does not search it):
    both blocks then, of -1 (the gapped one in an ungapped search too). gap_costs: the
    gapped search's row of gpuseq.blast.gap_cost_rows(matrix); ungapped_row: the matrix's
    ungapped row, whose a and alpha the first block shows."""
    out = ["\n"]
    header = "Lambda      K        H"
    if not searched:
        unknown = _ka_lines((-1.0, -1.0, -1.0), header)
        return "".join(["\n", unknown, "\n", "Gapped\n", unknown, "\n",
                        "Effective search space used: 0\n"])
    if own is not None:
        ka = (own["lambda_"], own["kappa"], own["entropy"])
        a_alpha = (ungapped_row["alpha"], ungapped_row["alpha_v"])
        out.append(_ka_lines(ka + a_alpha, header + "        a         alpha")
                   if gumbel else _ka_lines(ka, header))
    out.append("\n")
    if own is not None and not ungapped:
        row = gap_costs
        gapped = (row["lambda"], row["K"], row["H"], row["alpha"], row["alpha_v"], row["sigma"])
        gapped = gapped if gumbel else gapped[:3]
        out.append("Gapped\n" + _ka_lines(gapped, header + "        a         alpha    sigma"
                                          if gumbel else header))
    out.append("\n")
    space = int(stats["search_space"]) if own is not None else 0
    out.append(f"Effective search space used: {space}\n")
    return "".join(out)


def _descriptions(found: list, count: int) -> str:
    """The table of one-line descriptions: each subject's title, its best bit score and that
    HSP's E-value (the first to reach it), columns as wide as the widest (x_DisplayDefline)."""
    rows = []
    for title, _, hsps in found[:count]:
        best = hsps[0]
        for hsp in hsps[1:]:
            if hsp.bits > best.bits:
                best = hsp
        text = description_title(title).encode("utf-8", "surrogateescape")
        if len(text) > _FORMAT_WIDTH:
            text = text[: _FORMAT_WIDTH - 3] + b"..."
        rows.append((text, bit_score_text(best.bits), evalue_text(best.evalue)))
    if not rows:
        return ""
    score_width = max(6, *(len(b) for _, b, _ in rows))
    evalue_width = max(5, *(len(e) for _, _, e in rows))
    out = [" " * (_FORMAT_WIDTH + 2) + "Score" + " " * (score_width - 5) + "    E\n",
           "Sequences producing significant alignments:" + " " * (_FORMAT_WIDTH - 43) + " (Bits)"
           + " " * (score_width - 6) + "  Value\n", "\n"]
    for text, bits, evalue in rows:
        title = text.decode("utf-8", "surrogateescape")
        out.append(title + " " * (_FORMAT_WIDTH - len(text)) + "  " + bits
                   + " " * (score_width - len(bits)) + "  " + evalue
                   + " " * (evalue_width - len(evalue)) + "\n")
    return "".join(out)


def _lower_case_masked(qseq: str, qstart: int, masks: list[tuple[int, int]]) -> str:
    """The aligned query letters with SEG's residues in lower case: every residue of the
    HSP inside a range (x_FillLocList clips a range to the alignment, where the XML's and
    JSON's writer leave out one that starts before it). ``qstart``: the first residue,
    1-based; ``masks``: (start, end) from 0, inclusive."""
    if not masks:
        return qseq
    letters, at = list(qseq), qstart - 1
    for i, c in enumerate(letters):
        if c == "-":
            continue
        if any(a <= at <= b for a, b in masks):
            letters[i] = c.lower()
        at += 1
    return "".join(letters)


def _found(hits, counters: dict, subject_titles: list[str] | None = None) -> list[list]:
    """Each query's subjects in report order: (stored title, length, HSPs); with
    ``subject_titles`` (-subject's), the title of the subject's record (its soid)."""
    columns = {name: np.asarray(hits[name]).tolist() for name in (
        "soid", "stitle", "slen", "bitscore", "score", "evalue", "qstart", "qend", "sstart",
        "send", "gaps", "qseq", "sseq")}  # fmt: skip
    methods = counters["hsp_composition_methods"]
    out, at = [], 0
    for k, n in enumerate(counters["query_hsps"]):
        masks, found = counters["query_masks"][k], []
        for i in range(at, at + n):
            if i == at or columns["soid"][i] != columns["soid"][i - 1]:
                title = columns["stitle"][i] if subject_titles is None else \
                    subject_titles[columns["soid"][i]]
                found.append((title, columns["slen"][i], []))
            found[-1][2].append(_Hsp(
                bits=columns["bitscore"][i], score=columns["score"][i],
                evalue=columns["evalue"][i], method=methods[i], qstart=columns["qstart"][i],
                qend=columns["qend"][i], sstart=columns["sstart"][i], send=columns["send"][i],
                gaps=columns["gaps"][i],
                qseq=_lower_case_masked(columns["qseq"][i], columns["qstart"][i], masks),
                sseq=columns["sseq"][i]))
        at += n
        out.append(found)
    return out


def text_report(hits, queries, database: tuple[str, str], counters: dict, *,
                matrix: str = "BLOSUM62", threshold: float = 11.0, window_size: int = 40,
                ungapped: bool = False, searchsp_given: bool = False,
                num_descriptions: int = 500, num_alignments: int = 250,
                line_length: int = 60, subject_titles: list[str] | None = None,
                gap_costs: tuple[int, int] = (11, 1)) -> str:
    """blastp's ``-outfmt 0`` (str; bytes that were not UTF-8 as surrogates: write it with
    surrogateescape).

    ``hits``: :func:`gpuseq.blastp`'s rows with ``aligned_sequences=True`` and
    ``subject_titles=True``; ``queries``: each query's (title, length) in input order
    (:func:`gpuseq.blast.query_titles`); ``database``: its title and posted date;
    ``counters``: the search's (``query_hsps``, ``query_searched``, ``query_statistics``,
    ``query_ungapped_statistics``, ``query_masks``, ``hsp_composition_methods``,
    ``db_sequences``, ``db_letters``); ``matrix`` (the name as given), ``threshold``,
    ``window_size``, ``ungapped``: the search's; ``searchsp_given``: whether -searchsp was
    (its E-values are then Karlin and Altschul's, and the report shows no Gumbel parameters,
    a, alpha and sigma); ``num_descriptions``, ``num_alignments``,
    ``line_length``: blastp's flags of the same names; ``subject_titles``: with -subject,
    each subject record's title as a query's (:func:`gpuseq.blast.query_titles` of the
    file), and ``database`` then blastp's name of them and "Unknown"; ``gap_costs``:
    -gapopen and -gapextend (a gapped search's: a pair of gpuseq.blast.gap_cost_rows())."""
    from .blast import _gap_costs, _matrix, gap_cost_rows

    given, matrix = matrix, _matrix(matrix)  # (the footer prints the name as given)
    row = None if ungapped else _gap_costs(*gap_costs, matrix=matrix)
    ungapped_row = gap_cost_rows(matrix)[0]
    if len(counters["query_hsps"]) != len(queries):
        raise ValueError(f"{len(queries)} query titles for {len(counters['query_hsps'])} "
                         "queries searched")
    title, date = database
    sequences, letters = _commas(counters["db_sequences"]), _commas(counters["db_letters"])
    out = ["BLASTP 2.12.0+\n", "\n\n", _wrapped("Reference: " + REFERENCE), "\n", "\n",
           _wrapped("Reference for composition-based statistics: " + COMPOSITION_REFERENCE),
           "\n", "\n\n", "Database: ", _wrapped(title),
           f"           {sequences} sequences; {letters} total letters\n\n"]
    for k, ((query_title, length), found) in enumerate(zip(queries, _found(hits, counters,
                                                                         subject_titles))):
        out += ["\n\n", "Query= ", _wrapped(query_title), f"\nLength={length}\n"]
        if found:
            out += [_descriptions(found, num_descriptions), "\n", "\n"]
            for subject_title, subject_length, hsps in found[:num_alignments]:
                out += [_subject_title_lines(subject_title, subject_titles is not None),
                        f"Length={subject_length}\n", "\n"]
                out += [_alignment(hsp, line_length, matrix) for hsp in hsps]
        else:
            out.append("\n\n***** No hits found *****\n\n\n")
        out.append(_query_footer(counters["query_statistics"][k],
                                 counters["query_ungapped_statistics"][k], ungapped,
                                 gumbel=not ungapped and not searchsp_given,
                                 searched=counters["query_searched"][k], gap_costs=row,
                                 ungapped_row=ungapped_row))
    out += ["\n\n", "  Database: ", _wrapped(title), f"    Posted date:  {date}\n",
            f"  Number of letters in database: {letters}\n",
            f"  Number of sequences in database:  {sequences}\n", "\n",
            f"\n\nMatrix: {given}\n"]
    if not ungapped:
        out.append(f"Gap Penalties: Existence: {gap_costs[0]}, Extension: {gap_costs[1]}\n")
    out.append(f"Neighboring words threshold: {threshold:g}\n")
    if window_size:
        out.append(f"Window for multiple hits: {window_size}\n")
    return "".join(out)


_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def posted_date(seconds: float) -> str:
    """A time as makeblastdb stores a database's date, in local time: "Dec 3, 2026  1:25 PM"."""
    import time

    t = time.localtime(seconds)
    hour = t.tm_hour % 12 or 12
    return (f"{_MONTHS[t.tm_mon - 1]} {t.tm_mday}, {t.tm_year}  {hour}:{t.tm_min:02d} "
            f"{'PM' if t.tm_hour >= 12 else 'AM'}")


def database_title_and_date(db) -> tuple[str, str]:
    """The report's database title and posted date for a -db path: a FASTA's path as given (the
    title makeblastdb gives a database of it) and its modification time; a packed database's
    source, as 'gpuseq makedb' was given it, and the time it was made."""
    import json
    import os

    manifest = os.path.join(db, "manifest.json")
    if os.path.isdir(db) and os.path.isfile(manifest):
        with open(manifest, encoding="utf-8") as f:
            source = json.load(f).get("source") or str(db)
        return str(source), posted_date(os.stat(manifest).st_mtime)
    return os.fsdecode(db), posted_date(os.stat(db).st_mtime)
