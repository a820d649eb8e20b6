"""blastp's ``-outfmt 5``: the BLAST XML report (NCBI_BlastOutput.dtd) as blastp 2.12 writes it
(``CBlastFormat``'s XML path, ``blastxml_format.cpp``), from :func:`gpuseq.blastp`'s rows.

What blastp computes there apart from its tabular fields, and so here too:

- each HSP's identities and positives are counted again from the aligned letters: a column
  is identical when its two letters are (X with X too), positive when identical or scoring
  above 0 in NCBI's BLOSUM62 (J's row included; U and O never); the midline shows the letter,
  '+' or a blank; the query's letters are then written with SEG's residues as X;
- bit scores and E-values are cut to 6 significant digits, then written as every double is,
  with 15 (``%.15g``); an E-value below 1e-180 is 0 (the Seq-align's SMALLEST_EVALUE);
- titles are escaped for XML, a control character written as '#', and UTF-8 text written in
  Latin-1 (text with bytes that are not UTF-8 is written as it came): a UTF-8 character
  beyond Latin-1, or one outside ASCII at a title's end, makes blastp fail the query's whole
  iteration, which gpuseq refuses instead (ValueError naming the query).
"""

from __future__ import annotations

import numpy as np

from . import _core

#: The Altschul et al. (1997) reference blastp cites, already escaped as blastp writes it.
REFERENCE = ("Stephen F. Altschul, Thomas L. Madden, Alejandro A. Sch&amp;auml;ffer, Jinghui "
             "Zhang, Zheng Zhang, Webb Miller, and David J. Lipman (1997), &quot;Gapped BLAST "
             "and PSI-BLAST: a new generation of protein database search programs&quot;, Nucleic "
             "Acids Res. 25:3389-3402.")
_NO_STATISTICS = ("Could not calculate ungapped Karlin-Altschul parameters due to an invalid "
                  "query sequence or its translation. Please verify the query sequence(s) and/or "
                  "filtering options")

# The XML formatter's positive pairs of letters: NCBI's BLOSUM62 above 0, J's row included, U
# and O outside it (measured on every pair of blastp's 27 letters; the tabular formatter's
# differ: there U is C and J is never positive).
_LETTERS = _core.blast_letters
_BLOSUM62 = np.asarray(_core.blast_blosum62, dtype=np.int64).reshape(len(_LETTERS), -1)
_IN_MATRIX = set(_LETTERS) - set("-UO")
_POSITIVE = {(a, b) for a in _IN_MATRIX for b in _IN_MATRIX
             if _BLOSUM62[_LETTERS.index(a), _LETTERS.index(b)] > 0}


def _double(value: float) -> str:
    return f"{value:.15g}"


def _six_digits(value: float) -> str:
    return _double(float(f"{value:.6g}"))


def _evalue(value: float) -> str:
    return _six_digits(0.0 if value < 1.0e-180 else value)


def _title(value: str) -> str:
    """A query's title as XML text (:func:`_text`), or ValueError where blastp's XML writer
    fails the query's iteration: a character beyond Latin-1, or one outside ASCII at the
    title's end (its UTF-8 decoder then reads past the end: "Source string is not in UTF8
    format")."""
    if value and ord(value[-1]) >= 128:
        raise ValueError(f"{value!r}: blastp cannot write a title that ends in a character "
                         "outside ASCII in its XML, and drops the query's results")
    return _text(value, value)


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


_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;"}


def _midline(query: str, subject: str) -> tuple[str, int, int]:
    """The midline, identities and positives of an HSP's aligned letters."""
    line, identities, positives = [], 0, 0
    for a, b in zip(query, subject):
        if a == b:
            line.append(a)
            identities += 1
            positives += 1
        elif (a, b) in _POSITIVE:
            line.append("+")
            positives += 1
        else:
            line.append(" ")
    return "".join(line), identities, positives


def _message(query: str, no_statistics: bool, o_positions: list[int], hits: bool) -> str:
    """An iteration's message: the query's warnings, each after the query's id and title,
    as blastp's XML data joins them (an empty error list, then the warnings), and "No hits
    found" where it has none."""
    warnings = [_NO_STATISTICS] if no_statistics else []
    if o_positions:
        warnings.append("One or more O characters replaced by X for alignment score "
                        f"calculations at positions {', '.join(map(str, o_positions))}")
    if not warnings:
        return "" if hits else "No hits found"
    text = f"{query}:  {query}: " + "".join(w + " " for w in warnings)
    return text if hits else text + " No hits found"


def _masked(qseq: str, qstart: int, masks: list[tuple[int, int]]) -> str:
    """The aligned query letters with SEG's residues as X (qstart: the first residue, 1-based)."""
    if not masks:
        return qseq
    letters, at = list(qseq), qstart - 1
    for i, c in enumerate(letters):
        if c == "-":
            continue
        if any(a <= at < b for a, b in masks):
            letters[i] = "X"
        at += 1
    return "".join(letters)


def xml_report(hits, queries, database: str, counters: dict, evalue: float,
               filter_string: str) -> str:
    """The XML document (str; Latin-1 bytes as surrogates: write it with surrogateescape).

    ``hits``: :func:`gpuseq.blastp`'s rows with ``aligned_sequences=True`` and
    ``subject_titles=True`` (a DataFrame or a dict of columns); ``queries``: each query's
    (title, length) in input order (titles as :func:`gpuseq.blast.query_titles` gives them);
    ``database``: the -db name; ``counters``: the search's (``query_hsps``,
    ``query_statistics``, ``query_masks``, ``db_sequences``, ``db_letters``); ``evalue``:
    -evalue; ``filter_string``: :func:`gpuseq.blast.seg_filter_string` of -seg."""
    columns = {name: np.asarray(hits[name]).tolist() for name in (
        "soid", "stitle", "slen", "bitscore", "score", "evalue", "qstart", "qend", "sstart",
        "send", "gaps", "length", "qseq", "sseq")}  # fmt: skip
    rows = counters["query_hsps"]
    if len(rows) != len(queries):
        raise ValueError(f"{len(queries)} query titles for {len(rows)} queries searched")
    first_title, first_length = queries[0] if queries else ("", 0)
    lines = [
        '<?xml version="1.0"?>',
        '<!DOCTYPE BlastOutput PUBLIC "-//NCBI//NCBI BlastOutput/EN" '
        '"http://www.ncbi.nlm.nih.gov/dtd/NCBI_BlastOutput.dtd">',
        "<BlastOutput>",
        "  <BlastOutput_program>blastp</BlastOutput_program>",
        "  <BlastOutput_version>BLASTP 2.12.0+</BlastOutput_version>",
        f"  <BlastOutput_reference>{REFERENCE}</BlastOutput_reference>",
        f"  <BlastOutput_db>{_text(database)}</BlastOutput_db>",
        "  <BlastOutput_query-ID>Query_1</BlastOutput_query-ID>",
        f"  <BlastOutput_query-def>{_title(first_title)}</BlastOutput_query-def>",
        f"  <BlastOutput_query-len>{first_length}</BlastOutput_query-len>",
        "  <BlastOutput_param>",
        "    <Parameters>",
        "      <Parameters_matrix>BLOSUM62</Parameters_matrix>",
        f"      <Parameters_expect>{_double(evalue)}</Parameters_expect>",
        "      <Parameters_gap-open>11</Parameters_gap-open>",
        "      <Parameters_gap-extend>1</Parameters_gap-extend>",
        f"      <Parameters_filter>{filter_string}</Parameters_filter>",
        "    </Parameters>",
        "  </BlastOutput_param>",
        "<BlastOutput_iterations>",
    ]
    at = 0
    for k, ((title, length), n) in enumerate(zip(queries, rows)):
        query_id = f"Query_{k + 1}"
        definition = _title(title)
        lines += ["<Iteration>", f"  <Iteration_iter-num>{k + 1}</Iteration_iter-num>",
                  f"  <Iteration_query-ID>{query_id}</Iteration_query-ID>",
                  f"  <Iteration_query-def>{definition}</Iteration_query-def>",
                  f"  <Iteration_query-len>{length}</Iteration_query-len>", "<Iteration_hits>"]
        masks = counters["query_masks"][k]
        hit = 0
        for i in range(at, at + n):
            if i == at or columns["soid"][i] != columns["soid"][i - 1]:
                if i > at:
                    lines += ["  </Hit_hsps>", "</Hit>"]
                hit, hsp = hit + 1, 0
                oid = columns["soid"][i]
                lines += ["<Hit>", f"  <Hit_num>{hit}</Hit_num>",
                          f"  <Hit_id>gnl|BL_ORD_ID|{oid}</Hit_id>",
                          f"  <Hit_def>{_text(columns['stitle'][i])}</Hit_def>",
                          f"  <Hit_accession>{oid}</Hit_accession>",
                          f"  <Hit_len>{columns['slen'][i]}</Hit_len>", "  <Hit_hsps>"]
            hsp += 1
            midline, identities, positives = _midline(columns["qseq"][i], columns["sseq"][i])
            qseq = _masked(columns["qseq"][i], columns["qstart"][i], masks)
            lines += [
                "    <Hsp>",
                f"      <Hsp_num>{hsp}</Hsp_num>",
                f"      <Hsp_bit-score>{_six_digits(columns['bitscore'][i])}</Hsp_bit-score>",
                f"      <Hsp_score>{columns['score'][i]}</Hsp_score>",
                f"      <Hsp_evalue>{_evalue(columns['evalue'][i])}</Hsp_evalue>",
                f"      <Hsp_query-from>{columns['qstart'][i]}</Hsp_query-from>",
                f"      <Hsp_query-to>{columns['qend'][i]}</Hsp_query-to>",
                f"      <Hsp_hit-from>{columns['sstart'][i]}</Hsp_hit-from>",
                f"      <Hsp_hit-to>{columns['send'][i]}</Hsp_hit-to>",
                "      <Hsp_query-frame>0</Hsp_query-frame>",
                "      <Hsp_hit-frame>0</Hsp_hit-frame>",
                f"      <Hsp_identity>{identities}</Hsp_identity>",
                f"      <Hsp_positive>{positives}</Hsp_positive>",
                f"      <Hsp_gaps>{columns['gaps'][i]}</Hsp_gaps>",
                f"      <Hsp_align-len>{columns['length'][i]}</Hsp_align-len>",
                f"      <Hsp_qseq>{qseq}</Hsp_qseq>",
                f"      <Hsp_hseq>{columns['sseq'][i]}</Hsp_hseq>",
                f"      <Hsp_midline>{midline}</Hsp_midline>",
                "    </Hsp>",
            ]
        if n:
            lines += ["  </Hit_hsps>", "</Hit>"]
        at += n
        st = counters["query_statistics"][k]
        lines += ["</Iteration_hits>", "  <Iteration_stat>", "    <Statistics>",
                  f"      <Statistics_db-num>{counters['db_sequences']}</Statistics_db-num>",
                  f"      <Statistics_db-len>{counters['db_letters']}</Statistics_db-len>",
                  f"      <Statistics_hsp-len>{st['length_adjustment']}</Statistics_hsp-len>",
                  f"      <Statistics_eff-space>{_double(st['search_space'])}"
                  "</Statistics_eff-space>",
                  f"      <Statistics_kappa>{_double(st['kappa'])}</Statistics_kappa>",
                  f"      <Statistics_lambda>{_double(st['lambda_'])}</Statistics_lambda>",
                  f"      <Statistics_entropy>{_double(st['entropy'])}</Statistics_entropy>",
                  "    </Statistics>", "  </Iteration_stat>"]
        message = _message(f"{query_id} {title}", st["kappa"] < 0,
                           counters["query_o_positions"][k], n > 0)
        if message:
            lines.append(f"  <Iteration_message>{_text(message, title)}</Iteration_message>")
        lines.append("</Iteration>")
    lines += ["</BlastOutput_iterations>", "</BlastOutput>", ""]  # (a blank line ends it)
    return "".join(line + "\n" for line in lines)
