"""blastp's reports beside its tabular rows, as blastp 2.12 writes them from
:func:`gpuseq.blastp`'s rows: ``-outfmt 5``, the BLAST XML (NCBI_BlastOutput.dtd,
``blastxml_format.cpp``), and ``-outfmt 15``, the single-file BLAST JSON (BlastOutput2,
``blastxml2_format.cpp``'s JSON sibling).

What blastp computes for them apart from its tabular fields, and so here too:

- each HSP's identities and positives are counted again from the aligned letters: a column
  is identical when its two letters are (X with X too), positive when identical or scoring
  above 0 in NCBI's BLOSUM62 (J's row included; U and O never); the midline shows the letter,
  '+' or a blank; the query's letters are then written with SEG's residues as X;
- bit scores and E-values are cut to 6 significant digits, then written as every double is,
  with 15 (``%.15g``); an E-value below 1e-180 is 0 (the Seq-align's SMALLEST_EVALUE);
- each query's message joins blastp's warnings (no statistics; O replaced by X) after its
  id and title, and "No hits found";
- titles: XML escapes them, a control character written as '#', and writes UTF-8 text in
  Latin-1 (text with bytes that are not UTF-8 as it came); JSON escapes them (\\uXXXX for a
  control character) and writes UTF-8 text as it is, other text read as Latin-1. A
  character beyond Latin-1 (XML), or one outside ASCII at a title's end (both: blastp's
  decoder reads past the end), makes blastp fail or garble the query's report, which gpuseq
  refuses instead (ValueError naming the query).
"""

from __future__ import annotations

import functools

import numpy as np

from . import _core
from .blast_text import description_title, midline, title_ends_outside_ascii

#: The Altschul et al. (1997) reference blastp cites (its "&auml;" is in the text).
REFERENCE = ("Stephen F. Altschul, Thomas L. Madden, Alejandro A. Sch&auml;ffer, Jinghui Zhang, "
             "Zheng Zhang, Webb Miller, and David J. Lipman (1997), \"Gapped BLAST and PSI-BLAST: "
             "a new generation of protein database search programs\", Nucleic Acids Res. "
             "25:3389-3402.")
_NO_STATISTICS = ("Could not calculate ungapped Karlin-Altschul parameters due to an invalid "
                  "query sequence or its translation. Please verify the query sequence(s) and/or "
                  "filtering options")

_LETTERS = _core.blast_letters
_IN_MATRIX = set(_LETTERS) - set("-UO")


@functools.lru_cache(maxsize=None)
def _positive_pairs(matrix: str) -> frozenset[tuple[str, str]]:
    """The XML formatter's positive pairs of letters: the search's matrix above 0, J's row
    included, U and O outside it (measured on every pair of blastp's 27 letters with
    BLOSUM62; the tabular formatter's differ: there U is C and J is never positive)."""
    scores = np.asarray(_core.blast_matrix_scores(matrix)).reshape(len(_LETTERS), -1)
    return frozenset((a, b) for a in _IN_MATRIX for b in _IN_MATRIX
                     if scores[_LETTERS.index(a), _LETTERS.index(b)] > 0)


def _double(value: float) -> str:
    return f"{value:.15g}"


def _six_digits(value: float) -> str:
    return _double(float(f"{value:.6g}"))


def _evalue(value: float) -> str:
    return _six_digits(0.0 if value < 1.0e-180 else value)


def _query_def(value: str) -> str:
    """A query's title as the XML and JSON give it, NCBI's defline generator's
    (:func:`gpuseq.blast_text.description_title`: trailing periods and spaces dropped,
    TPA:-like prefixes removed, HTML entities decoded, blanks compressed), or ValueError where
    blastp's writers fail or garble it: one that ends in a character outside ASCII (the
    generator drops its last byte; the XML's UTF-8 decoder then reads past the end: "Source
    string is not in UTF8 format"; the JSON keeps the character's first bytes)."""
    if title_ends_outside_ascii(value):
        raise ValueError(f"{value!r}: blastp cannot write a title that ends in a character "
                         "outside ASCII in its XML or JSON, and drops or garbles the query's "
                         "results")
    return description_title(value)


def _text(value: str, query: str = "") -> str:
    """XML text as blastp writes it: escaped, a control character as '#'; text that is UTF-8
    in Latin-1, other text (bytes that were not UTF-8 somewhere in it) as it came. Bytes
    0x80-0xFF are returned as the surrogates that write them back raw."""
    raw = any(0xDC80 <= ord(c) <= 0xDCFF for c in value)
    out = []
    for c in value:
        code = ord(c)
        if c in _ESCAPES:
            out.append(_ESCAPES[c])
        elif code < 32:
            out.append("#")
        elif code < 128:
            out.append(c)
        elif raw:
            out.extend(chr(0xDC00 + b) for b in c.encode("utf-8", "surrogateescape"))
        elif code <= 0xFF:
            out.append(chr(0xDC00 + code))
        else:
            raise ValueError(f"{query or value!r}: blastp cannot write {c!r} (U+{code:04X}) in "
                             "its XML, which is Latin-1, and drops the query's results: -outfmt "
                             "5 needs titles of Latin-1 characters")
    return "".join(out)


def _json_text(value: str) -> str:
    """A JSON string's text as blastp writes it: quotes and backslashes escaped, a control
    character as \\u00XX; UTF-8 text as it is, other text (bytes that were not UTF-8
    somewhere in it) read as Latin-1, each byte a character."""
    if any(0xDC80 <= ord(c) <= 0xDCFF for c in value):
        value = value.encode("utf-8", "surrogateescape").decode("latin-1")
    out = []
    for c in value:
        if c in '"\\':
            out.append("\\" + c)
        elif ord(c) < 32:
            out.append(f"\\u{ord(c):04X}")
        else:
            out.append(c)
    return "".join(out)


_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;"}


def _message(query: str, no_statistics: bool, o_positions: list[int], hits: bool) -> str:
    """An iteration's message: the query's warnings, each after the query's id and title,
    as blastp's XML data joins them (an empty error list, then the warnings), and "No hits
    found" where it has none."""
    warnings = [_NO_STATISTICS] if no_statistics else []
    if o_positions:
        shown = ", ".join(map(str, o_positions[:20]))
        more = ",... (only first 20 shown)" if len(o_positions) > 20 else ""
        warnings.append("One or more O characters replaced by X for alignment score "
                        f"calculations at positions {shown}{more}")
    if not warnings:
        return "" if hits else "No hits found"
    text = f"{query}:  {query}: " + "".join(w + " " for w in warnings)
    return text if hits else text + " No hits found"


def _masked(qseq: str, sseq: str, qstart: int, masks: list[tuple[int, int]],
            lower: bool = False) -> str:
    """The aligned query letters with SEG's residues as X, or in lower case, as the XML and
    JSON writers mask them (s_MaskQuerySeq): a SEG range that starts before the HSP's first
    query residue is left out whole, one that ends past its last reaches the end, and each is
    laid over the alignment's segments (runs of one kind of column) in turn.
    ``qstart``: the first residue, 1-based; ``masks``: (start, end) from 0, inclusive."""
    if not masks:
        return qseq
    columns = [i for i, c in enumerate(qseq) if c != "-"]  # each query residue's column
    first, last = qstart - 1, qstart - 2 + len(columns)
    ranges = sorted((columns[a - first], columns[b - first] if b <= last else len(qseq) - 1)
                    for a, b in masks if first <= a <= last)
    kinds = [(q == "-", s == "-") for q, s in zip(qseq, sseq)]
    segments, start = [], 0
    for i in range(1, len(kinds) + 1):
        if i == len(kinds) or kinds[i] != kinds[start]:
            segments.append((start, i - 1))
            start = i
    letters, m = list(qseq), 0
    for seg_start, seg_stop in segments:
        while m < len(ranges):
            at = max(seg_start, ranges[m][0])
            if at > seg_stop:
                break
            stop = min(seg_stop, ranges[m][1])
            while at <= stop:
                if letters[at] != "-":
                    letters[at] = letters[at].lower() if lower else "X"
                at += 1
            if at < seg_stop:  # (this range is done: the next; else it goes on past here)
                m += 1
            else:
                break
    return "".join(letters)


def _subject_names(columns: dict, i: int, subject_titles: list[str] | None):
    """Row i's subject as the reports name it: (id, accession, title). A database's subject
    has its own id, gnl|BL_ORD_ID|OID, and makeblastdb's title; a -subject one
    (``subject_titles``: each record's title) the title of its record as a query's (the
    defline generator's), that title's first word for id, and "Subject_N" (its record's
    number)."""
    if subject_titles is None:
        oid = columns["soid"][i]
        return f"gnl|BL_ORD_ID|{oid}", str(oid), columns["stitle"][i]
    record = columns["soid"][i]
    title = _query_def(subject_titles[record])
    return title.split(" ", 1)[0], f"Subject_{record + 1}", title


def _searches(hits, queries, counters: dict, lower_case_masks: bool = False,
              subject_titles: list[str] | None = None, matrix: str = "BLOSUM62"):
    """Each query's report data, in input order: (query id, title, length, statistics,
    message, hits), each hit (id, accession, title, length, hsps; :func:`_subject_names`),
    each HSP a dict of the reports' numbers and letters (the query's with SEG's residues as
    X, or in lower case)."""
    columns = {name: np.asarray(hits[name]).tolist() for name in (
        "soid", "stitle", "slen", "bitscore", "score", "evalue", "qstart", "qend",
        "sstart", "send", "gaps", "length", "qseq", "sseq")}  # fmt: skip
    rows = counters["query_hsps"]
    if len(rows) != len(queries):
        raise ValueError(f"{len(queries)} query titles for {len(rows)} queries searched")
    at = 0
    for k, ((title, length), n) in enumerate(zip(queries, rows)):
        query_id = f"Query_{k + 1}"
        masks, found = counters["query_masks"][k], []
        for i in range(at, at + n):
            if i == at or columns["soid"][i] != columns["soid"][i - 1]:
                found.append((*_subject_names(columns, i, subject_titles),
                              columns["slen"][i], []))
            middle, identities, positives = midline(columns["qseq"][i], columns["sseq"][i],
                                                    _positive_pairs(matrix))
            found[-1][4].append(dict(
                bit_score=_six_digits(columns["bitscore"][i]), score=columns["score"][i],
                evalue=_evalue(columns["evalue"][i]), query_from=columns["qstart"][i],
                query_to=columns["qend"][i], hit_from=columns["sstart"][i],
                hit_to=columns["send"][i], identity=identities, positive=positives,
                gaps=columns["gaps"][i], align_len=columns["length"][i],
                qseq=_masked(columns["qseq"][i], columns["sseq"][i], columns["qstart"][i],
                             masks, lower_case_masks),
                hseq=columns["sseq"][i], midline=middle))
        at += n
        st = counters["query_statistics"][k]
        message = _message(f"{query_id} {title}", st["kappa"] < 0,
                           counters["query_o_positions"][k], n > 0)
        yield query_id, _query_def(title), length, st, message, found


def xml_report(hits, queries, database: str, counters: dict, evalue: float,
               filter_string: str, subject_titles: list[str] | None = None,
               gap_costs: tuple[int, int] = (11, 1), matrix: str = "BLOSUM62") -> str:
    """blastp's ``-outfmt 5`` (str; Latin-1 bytes as surrogates: write it with
    surrogateescape).

    ``hits``: :func:`gpuseq.blastp`'s rows with ``aligned_sequences=True`` and
    ``subject_titles=True`` (a DataFrame or a dict of columns); ``queries``: each query's
    (title, length) in input order (titles as :func:`gpuseq.blast.query_titles` gives them);
    ``database``: the -db name; ``counters``: the search's (``query_hsps``,
    ``query_statistics``, ``query_masks``, ``query_o_positions``, ``db_sequences``,
    ``db_letters``); ``evalue``: -evalue; ``filter_string``:
    :func:`gpuseq.blast.seg_filter_string` of -seg; ``subject_titles``: with -subject, each
    subject record's title as a query's (:func:`gpuseq.blast.query_titles` of the file): its
    report then names the subjects as blastp's does, with no database (``database`` "");
    ``gap_costs``: -gapopen and -gapextend (:func:`gpuseq.blast.gap_costs`); ``matrix``:
    -matrix."""
    searches = list(_searches(hits, queries, counters, subject_titles=subject_titles,
                              matrix=matrix))
    db_sequences, db_letters = (counters["db_sequences"], counters["db_letters"]) \
        if subject_titles is None else (0, 0)
    first_title, first_length = searches[0][1:3] if searches else ("", 0)
    lines = [
        '<?xml version="1.0"?>',
        '<!DOCTYPE BlastOutput PUBLIC "-//NCBI//NCBI BlastOutput/EN" '
        '"http://www.ncbi.nlm.nih.gov/dtd/NCBI_BlastOutput.dtd">',
        "<BlastOutput>",
        "  <BlastOutput_program>blastp</BlastOutput_program>",
        "  <BlastOutput_version>BLASTP 2.12.0+</BlastOutput_version>",
        f"  <BlastOutput_reference>{_text(REFERENCE)}</BlastOutput_reference>",
        f"  <BlastOutput_db>{_text(database)}</BlastOutput_db>",
        "  <BlastOutput_query-ID>Query_1</BlastOutput_query-ID>",
        f"  <BlastOutput_query-def>{_text(first_title, first_title)}</BlastOutput_query-def>",
        f"  <BlastOutput_query-len>{first_length}</BlastOutput_query-len>",
        "  <BlastOutput_param>",
        "    <Parameters>",
        f"      <Parameters_matrix>{matrix}</Parameters_matrix>",
        f"      <Parameters_expect>{_double(evalue)}</Parameters_expect>",
        f"      <Parameters_gap-open>{int(gap_costs[0])}</Parameters_gap-open>",
        f"      <Parameters_gap-extend>{int(gap_costs[1])}</Parameters_gap-extend>",
        f"      <Parameters_filter>{filter_string}</Parameters_filter>",
        "    </Parameters>",
        "  </BlastOutput_param>",
        "<BlastOutput_iterations>",
    ]
    for k, (query_id, title, length, st, message, found) in enumerate(searches):
        lines += ["<Iteration>", f"  <Iteration_iter-num>{k + 1}</Iteration_iter-num>",
                  f"  <Iteration_query-ID>{query_id}</Iteration_query-ID>",
                  f"  <Iteration_query-def>{_text(title, title)}</Iteration_query-def>",
                  f"  <Iteration_query-len>{length}</Iteration_query-len>", "<Iteration_hits>"]
        for number, (hit_id, accession, subject_title, subject_length, hsps) in enumerate(
                found, start=1):
            lines += ["<Hit>", f"  <Hit_num>{number}</Hit_num>",
                      f"  <Hit_id>{_text(hit_id)}</Hit_id>",
                      f"  <Hit_def>{_text(subject_title)}</Hit_def>",
                      f"  <Hit_accession>{accession}</Hit_accession>",
                      f"  <Hit_len>{subject_length}</Hit_len>", "  <Hit_hsps>"]
            for h, hsp in enumerate(hsps, start=1):
                lines += [
                    "    <Hsp>",
                    f"      <Hsp_num>{h}</Hsp_num>",
                    f"      <Hsp_bit-score>{hsp['bit_score']}</Hsp_bit-score>",
                    f"      <Hsp_score>{hsp['score']}</Hsp_score>",
                    f"      <Hsp_evalue>{hsp['evalue']}</Hsp_evalue>",
                    f"      <Hsp_query-from>{hsp['query_from']}</Hsp_query-from>",
                    f"      <Hsp_query-to>{hsp['query_to']}</Hsp_query-to>",
                    f"      <Hsp_hit-from>{hsp['hit_from']}</Hsp_hit-from>",
                    f"      <Hsp_hit-to>{hsp['hit_to']}</Hsp_hit-to>",
                    "      <Hsp_query-frame>0</Hsp_query-frame>",
                    "      <Hsp_hit-frame>0</Hsp_hit-frame>",
                    f"      <Hsp_identity>{hsp['identity']}</Hsp_identity>",
                    f"      <Hsp_positive>{hsp['positive']}</Hsp_positive>",
                    f"      <Hsp_gaps>{hsp['gaps']}</Hsp_gaps>",
                    f"      <Hsp_align-len>{hsp['align_len']}</Hsp_align-len>",
                    f"      <Hsp_qseq>{hsp['qseq']}</Hsp_qseq>",
                    f"      <Hsp_hseq>{hsp['hseq']}</Hsp_hseq>",
                    f"      <Hsp_midline>{hsp['midline']}</Hsp_midline>",
                    "    </Hsp>",
                ]
            lines += ["  </Hit_hsps>", "</Hit>"]
        lines += ["</Iteration_hits>", "  <Iteration_stat>", "    <Statistics>",
                  f"      <Statistics_db-num>{db_sequences}</Statistics_db-num>",
                  f"      <Statistics_db-len>{db_letters}</Statistics_db-len>",
                  f"      <Statistics_hsp-len>{st['length_adjustment']}</Statistics_hsp-len>",
                  f"      <Statistics_eff-space>{_double(st['search_space'])}"
                  "</Statistics_eff-space>",
                  f"      <Statistics_kappa>{_double(st['kappa'])}</Statistics_kappa>",
                  f"      <Statistics_lambda>{_double(st['lambda_'])}</Statistics_lambda>",
                  f"      <Statistics_entropy>{_double(st['entropy'])}</Statistics_entropy>",
                  "    </Statistics>", "  </Iteration_stat>"]
        if message:
            lines.append(f"  <Iteration_message>{_text(message, title)}</Iteration_message>")
        lines.append("</Iteration>")
    lines += ["</BlastOutput_iterations>", "</BlastOutput>", ""]  # (a blank line ends it)
    return "".join(line + "\n" for line in lines)


def json_report(hits, queries, database: str, counters: dict, evalue: float,
                filter_string: str, comp_based_stats: int, ungapped: bool = False,
                subject_titles: list[str] | None = None,
                gap_costs: tuple[int, int] = (11, 1), matrix: str = "BLOSUM62") -> str:
    """blastp's ``-outfmt 15``, one report a query (str; write it with surrogateescape).
    Arguments as :func:`xml_report`'s, and ``comp_based_stats``, the mode (its "cbs"
    parameter, left out for 0), and ``ungapped`` (no gap costs among the parameters); the
    counters' ``query_searched`` leaves out the hits of a batch blastp does not search. SEG's
    residues are in lower case in the query's letters, and listed as each searched query's
    "query_masking" (from and to, 0-based and inclusive). With ``subject_titles`` (as
    :func:`xml_report`'s), the report of -subject: the subjects listed as the target, each
    query's search in a "bl2seq" list, no database numbers."""
    reports = []
    searched = counters.get("query_searched") or [True] * len(queries)
    named = subject_titles is not None
    if named:
        target = ['        "subjects": [',
                  *(f'          "Subject_{i + 1}"' + ("," if i < len(subject_titles) - 1 else "")
                    for i in range(len(subject_titles))),
                  "        ]"]
    else:
        target = [f'        "db": "{_json_text(database)}"']
    for k, (query_id, title, length, st, message, found) in enumerate(
            _searches(hits, queries, counters, lower_case_masks=True, matrix=matrix,
                      subject_titles=subject_titles)):
        if not searched[k]:  # (a batch without statistics: blastp writes no hits, and says so
            message += " \nNo hits found"  # again)
        masks = counters["query_masks"][k] if st["kappa"] >= 0 else []  # (searched ones)
        masking = ['          "query_masking": [',
                   *",\n".join(f'            {{\n              "from": {a},\n'
                               f'              "to": {b}\n            }}'
                               for a, b in masks).split("\n"),
                   "          ],"] if masks else []
        lines = [
            "{",
            '    "report": {',
            '      "program": "blastp",',
            '      "version": "BLASTP 2.12.0+",',
            f'      "reference": "{_json_text(REFERENCE)}",',
            '      "search_target": {',
            *target,
            "      },",
            '      "params": {',
            f'        "matrix": "{matrix}",',
            f'        "expect": {_double(evalue)},',
            *([] if ungapped else [f'        "gap_open": {int(gap_costs[0])},',
                                   f'        "gap_extend": {int(gap_costs[1])},']),
            f'        "filter": "{filter_string}"' + ("," if comp_based_stats else ""),
            *([f'        "cbs": {comp_based_stats}'] if comp_based_stats else []),
            "      },",
        ]
        search = [
            f'          "query_id": "{query_id}",',
            f'          "query_title": "{_json_text(title)}",',
            f'          "query_len": {length},',
            *masking,
            *(['          "hits": ['] if searched[k] else []),
        ]
        for number, (hit_id, accession, subject_title, subject_length, hsps) in enumerate(
                found, start=1):
            search += [
                "            {",
                f'              "num": {number},',
                '              "description": [',
                "                {",
                f'                  "id": "{_json_text(hit_id)}",',
                *([] if named else [f'                  "accession": "{accession}",']),
                f'                  "title": "{_json_text(subject_title)}"',
                "                }",
                "              ],",
                f'              "len": {subject_length},',
                '              "hsps": [',
            ]
            for h, hsp in enumerate(hsps, start=1):
                search += ["                {", f'                  "num": {h},']
                fields = [(name, hsp[name]) for name in (
                    "bit_score", "score", "evalue", "identity", "positive", "query_from",
                    "query_to", "hit_from", "hit_to", "align_len", "gaps")]  # fmt: skip
                fields += [(name, f'"{hsp[name]}"') for name in ("qseq", "hseq", "midline")]
                search += [f'                  "{name}": {value}' +
                           ("," if j < len(fields) - 1 else "")
                           for j, (name, value) in enumerate(fields)]
                search.append("                }" + ("," if h < len(hsps) else ""))
            search += ["              ]", "            }" + ("," if number < len(found) else "")]
        search += [
            *(["          ],"] if searched[k] else []),
            '          "stat": {',
            *([] if named else [f'            "db_num": {counters["db_sequences"]},',
                                f'            "db_len": {counters["db_letters"]},']),
            f'            "hsp_len": {st["length_adjustment"]},',
            f'            "eff_space": {int(st["search_space"])},',
            f'            "kappa": {_double(st["kappa"])},',
            f'            "lambda": {_double(st["lambda_"])},',
            f'            "entropy": {_double(st["entropy"])}',
            "          }" + ("," if message else ""),
            *([f'          "message": "{_json_text(message)}"'] if message else []),
        ]
        if named:  # (one search in a list, two columns further in)
            lines += ['      "results": {', '        "bl2seq": [', "          {",
                      *("  " + line for line in search), "          }", "        ]"]
        else:
            lines += ['      "results": {', '        "search": {', *search, "        }"]
        lines += ["      }", "    }", "  }"]
        reports.append("\n".join(lines))
    return "{\n\"BlastOutput2\": [\n" + "\n,\n".join(reports) + "\n]\n}\n"
