"""Command line: ``gpuseq hmmsearch`` (hmmsearch's flags and outputs), ``gpuseq blastp``
(blastp's flags, tabular output), ``gpuseq makedb``, ``gpuseq distance`` (all-pairs distances
to .npy), ``gpuseq segment`` (3-D MRF segmentation of a NIfTI/NRRD/DICOM volume),
``gpuseq info``."""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import sys
from typing import Any

from . import __version__
from .errors import GpuseqError

# Options hmmsearch refuses together (its options table): each option with any of the others
# (a threshold and the model cutoffs that replace it; --max and the filters it opens).
_CUTOFF_FLAGS = ("--cut_ga", "--cut_nc", "--cut_tc")
_INCOMPATIBLE: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("-E", ("-T", *_CUTOFF_FLAGS)),
    ("-T", _CUTOFF_FLAGS),
    ("--domE", ("--domT", *_CUTOFF_FLAGS)),
    ("--domT", _CUTOFF_FLAGS),
    ("--incE", ("--incT", *_CUTOFF_FLAGS)),
    ("--incT", _CUTOFF_FLAGS),
    ("--incdomE", ("--incdomT", *_CUTOFF_FLAGS)),
    ("--incdomT", _CUTOFF_FLAGS),
    ("--max", ("--F1", "--F2", "--F3", "--nobias")),
    ("--notextw", ("--textw",)),
)
# The CLI's own hmmsearch options, beside hmmsearch's (hmmsearch_options.all_flags()).
_OWN_FLAGS = {"--backend": True, "--progress": False, "--no-progress": False, "-h": False,
              "--help": False}


def _exit_1_on_usage_errors(p: argparse.ArgumentParser) -> None:
    """A command line the parser refuses ends with status 1, hmmsearch's and blastp's for
    one (argparse's is 2)."""

    def usage_error(message: str):
        p.print_usage(sys.stderr)
        p.exit(1, f"{p.prog}: error: {message}\n")

    p.error = usage_error  # type: ignore[method-assign]


def _hmmsearch_parser(sub) -> argparse.ArgumentParser:
    from .hmmsearch_options import OUTPUT_FLAGS, RUN_FLAGS, HmmsearchOptions

    p = sub.add_parser(
        "hmmsearch",
        help="search profile(s) against a sequence database (HMMER3 hmmsearch)",
        description="Search profile HMM(s) against a protein sequence database. Results equal "
        "HMMER3 hmmsearch's; options and output formats are hmmsearch's.",
    )
    _exit_1_on_usage_errors(p)
    p.add_argument("hmmfile", help="query HMM file (one or more models), '-' for stdin")
    p.add_argument(
        "seqdb",
        help="target sequence file (FASTA plain or gzip, or any format hmmsearch reads), "
        "'-' for stdin, or a database made by 'gpuseq makedb'",
    )
    # hmmsearch's options, in its groups and order (python/gpuseq/hmmsearch_options.py).
    groups: dict[str, Any] = {}
    exclusive: dict[str, Any] = {}

    def add(flag, dest: str, default) -> None:
        if flag.group not in groups:
            groups[flag.group] = p.add_argument_group(flag.group)
        group = groups[flag.group]
        if dest == "bit_cutoffs":  # --cut_ga / --cut_nc / --cut_tc: one of them
            if dest not in exclusive:
                exclusive[dest] = group.add_mutually_exclusive_group()
            group = exclusive[dest]
        shown = f"{flag.help} [{default}]" if flag.hmmer_default is not None else flag.help
        if flag.takes_value:
            metavar = ("S" if dest == "tformat" else "N" if flag.echo in ("int", "seed")
                       else "FILE" if flag.type is None else "X")
            group.add_argument(
                flag.flag, dest=dest, type=flag.type, default=default, help=shown, metavar=metavar
            )
        else:
            group.add_argument(
                flag.flag, dest=dest, action="store_const", const=flag.const, default=default,
                help=shown,
            )

    for flag in OUTPUT_FLAGS:
        add(flag, flag.dest, flag.default)
    defaults = HmmsearchOptions()
    for name, flag in HmmsearchOptions.flags():
        add(flag, name, getattr(defaults, name))
    for flag in RUN_FLAGS:
        add(flag, flag.dest, flag.default)
    oth = groups[RUN_FLAGS[-1].group]
    oth.add_argument(
        "--backend",
        choices=("auto", "cpu", "cuda"),
        default="auto",
        help="where the filters run [auto]",
    )
    prog = oth.add_mutually_exclusive_group()
    prog.add_argument(
        "--progress",
        dest="progress",
        action="store_true",
        default=None,
        help="always show a progress bar",
    )
    prog.add_argument(
        "--no-progress", dest="progress", action="store_false", help="never show a progress bar"
    )
    return p


def _run_hmmsearch(args, argv: list[str]) -> int:
    from dataclasses import fields

    from .hmmsearch import hmmsearch
    from .hmmsearch_options import HmmsearchOptions
    from .hmmsearch_results import HmmsearchWriter

    if args.hmmfile == "-" and args.seqdb == "-":
        from .hmmsearch import BOTH_STDIN_MESSAGE

        print(BOTH_STDIN_MESSAGE, file=sys.stderr)  # hmmsearch's words, at the start of a line
        return 1
    command = "gpuseq " + " ".join(shlex.quote(a) for a in argv)
    options = {f.name: getattr(args, f.name) for f in fields(HmmsearchOptions)}
    out = args.output if args.output else sys.stdout
    if out is sys.stdout:
        _bytes_to_stdout()
    # Each query's part of every output is written as soon as it is final, as hmmsearch
    # writes them (with a packed database, while the later models are still searched).
    with HmmsearchWriter(
        text=out,
        tblout=args.tblout,
        domtblout=args.domtblout,
        pfamtblout=args.pfamtblout,
        alignments=args.alignment,
        noali=bool(args.noali),
        acc=bool(args.acc),
        textw=0 if args.notextw else args.textw,
        options=_options_as_given(argv),
        command=command,
    ) as writer:
        hmmsearch(
            args.hmmfile,
            args.seqdb,
            cpus=args.cpu,
            backend=args.backend,
            progress=args.progress,
            tformat=args.tformat,
            on_query=writer.add,
            **options,
        )
    return 0


def _flag_name(token: str, takes_value: dict[str, bool]) -> tuple[str, str | None]:
    """(hmmsearch's full spelling of an option word, the value attached to it or None). An
    abbreviation (``--nob``) is resolved as the parser resolves it; a value is attached with
    '=' or to a short flag (``-E1e-5``)."""
    name, eq, value = token.partition("=")
    if name.startswith("--") and name not in takes_value:
        matches = [flag for flag in takes_value if flag.startswith(name)]
        name = matches[0] if len(matches) == 1 else name
    elif not name.startswith("--") and len(name) > 2 and takes_value.get(name[:2]):
        return name[:2], token[2:]
    return name, value if eq else None


def _hmmsearch_words(argv: list[str]) -> list[str]:
    """The hmmsearch command line as argparse must see it. An option that takes a value takes
    the next word whatever it is, as Easel's getopts does (``-T -1e3``, ``--domT -inf``,
    ``-o -``), where argparse would take a word that starts with '-' for an option: such a
    value is attached with '='."""
    from .hmmsearch_options import all_flags

    takes_value = {f.flag: f.takes_value for f in all_flags()} | _OWN_FLAGS
    words, tokens = argv[:1], iter(argv[1:])
    for token in tokens:
        if token == "--":
            words += [token, *tokens]
            break
        words.append(token)
        if not token.startswith("-") or token == "-":
            continue
        name, attached = _flag_name(token, takes_value)
        if attached is None and takes_value.get(name, False):
            value = next(tokens, None)
            if value is not None:
                words[-1:] = [f"{name}={value}"] if value.startswith("-") else [token, value]
    return words


def _typed_options(argv: list[str]) -> list[tuple[str, str]]:
    """The hmmsearch command's options as typed, in order: (hmmsearch's full spelling, value;
    "" for a flag without one). Abbreviations (``--nob``) and values attached to a short flag
    (``-E1e-5``) are resolved as the parser resolved them."""
    from .hmmsearch_options import all_flags

    takes_value = {f.flag: f.takes_value for f in all_flags()} | _OWN_FLAGS
    typed: list[tuple[str, str]] = []
    tokens = iter(argv[1:])  # argv[0] is the subcommand
    for token in tokens:
        if not token.startswith("-") or token == "-":
            continue
        if token == "--":
            break  # positional arguments only from here
        name, attached = _flag_name(token, takes_value)
        if not takes_value.get(name, False):
            typed.append((name, ""))
        elif attached is not None:
            typed.append((name, attached))
        else:
            typed.append((name, next(tokens, "")))
    return typed


def _options_as_given(argv: list[str]) -> dict[str, str]:
    """hmmsearch options as typed, by hmmsearch's spelling (the report's header echoes them
    like hmmsearch)."""
    return dict(_typed_options(argv))


def _hmmsearch_usage_problem(argv: list[str]) -> str | None:
    """What hmmsearch would refuse in this command line that the parser lets through: an
    option given twice, or options it refuses together."""
    seen: set[str] = set()
    for name, _value in _typed_options(argv):
        if name in seen:
            return f"option {name} has already been set"
        seen.add(name)
    for option, others in _INCOMPATIBLE:
        clash = [other for other in others if other in seen]
        if option in seen and clash:
            return f"option {option} cannot be combined with {', '.join(clash)}"
    return None


def _run_makedb(args) -> int:
    from .sequences import makedb

    out = makedb(args.input, args.output, threads=args.cpu)
    with open(out / "manifest.json") as f:
        m = json.load(f)
    print(f"{out}: {m['sequences']} sequences, {m['residues']} residues")
    return 0


def _distance_parser(sub) -> None:
    p = sub.add_parser(
        "distance",
        help="all-pairs distances between instances (e.g. SNP genotypes), written as .npy",
        description="Distances between all pairs of instances (rows) of a genotype matrix "
        "(.npy, PLINK .bed, VCF or BCF), or between two matrices; the result is an int32 .npy "
        "matrix "
        "(or float64 with --normalize), as scipy's cdist/pdist would compute it.",
    )
    p.add_argument("input", help="instances x attributes: .npy, PLINK .bed, or VCF/BCF "
                   "(samples x variants)")
    p.add_argument("output", help=".npy file to write")
    p.add_argument("--against", metavar="FILE", help="second matrix (cdist of input vs it)")
    p.add_argument("--metric", choices=("hamming", "manhattan"), default="hamming")
    p.add_argument("--normalize", action="store_true",
                   help="divide by the attributes compared (scipy's hamming fraction)")
    p.add_argument("--condensed", action="store_true", help="upper triangle only (pdist)")
    p.add_argument("--knn", type=int, metavar="K",
                   help="write the K nearest neighbours per instance instead of the matrix "
                   "(OUTPUT.npy: indices; OUTPUT with _dist.npy: distances)")
    p.add_argument("--alphabet-size", type=int, default=3, help="values per attribute [3]")
    p.add_argument("--missing", type=int, default=None, help="value marking missing data")
    p.add_argument("--kernel", default="auto",
                   choices=("auto", "cpu", "bitplane", "naive", "coalesced", "char4",
                            "register", "shared"))
    p.add_argument("--backend", choices=("auto", "cpu", "cuda"), default="auto")
    p.add_argument("--cpu", type=int, default=0, metavar="N", help="CPU threads [all cores]")


def _run_distance(args) -> int:
    import numpy as np

    from .distance import nearest_neighbors, pairwise_distances

    common = dict(alphabet_size=args.alphabet_size, missing=args.missing, kernel=args.kernel,
                  backend=args.backend, threads=args.cpu)
    if args.knn is not None:
        ignored = [flag for flag, given in (("--normalize", args.normalize),
                                            ("--condensed", args.condensed)) if given]
        if ignored:  # (the k nearest are counts, one row an instance)
            raise ValueError(f"--knn writes neighbour indices and counts: {', '.join(ignored)} "
                             "cannot be combined with it")
        idx, dist = nearest_neighbors(args.input, args.knn, args.against, args.metric, **common)
        np.save(args.output, idx)
        np.save(args.output.removesuffix(".npy") + "_dist.npy", dist)
        print(f"{args.output}: {idx.shape[0]} x {args.knn} nearest neighbours")
        return 0
    # Written block by block into the memory-mapped file: any size, fractions and condensed
    # order included.
    result = pairwise_distances(args.input, args.against, args.metric,
                                normalize=args.normalize, condensed=args.condensed,
                                out=args.output, **common)
    print(f"{args.output}: {' x '.join(map(str, result.shape))} {result.dtype} distances")
    return 0


# How blastp reads a number (its argument parser, probed against blastp 2.12): the whole text,
# no spaces, no "_", no "inf" or "nan" words. An integer is decimal with a sign, or "0x" hex
# without one ("010" is 10), within a C int (-dbsize: 64 bits). A real is strtod's decimal or
# hex form, and a bare trailing "e" is taken ("1e" is 1; "1e+" is refused); one that overflows
# is infinite ("1e309").
_BLAST_INTEGER = re.compile(r"[+-]?[0-9]+|0[xX][0-9a-fA-F]+")
_BLAST_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE](?:[+-]?[0-9]+)?)?")
_BLAST_HEX = re.compile(r"[+-]?0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)"
                        r"(?:[pP][+-]?[0-9]+)?")


def _blast_integer(bits: int = 32):
    """argparse type: an integer flag value as blastp reads it (``bits``: its C type)."""

    def parse(text: str) -> int:
        if not _BLAST_INTEGER.fullmatch(text):
            raise argparse.ArgumentTypeError(f"takes an integer, not {text!r}")
        value = int(text, 16) if text[:2] in ("0x", "0X") else int(text)
        if not -(2 ** (bits - 1)) <= value < 2 ** (bits - 1):
            raise argparse.ArgumentTypeError(f"{text} is out of range ({bits}-bit integer)")
        return value

    parse.__name__ = "integer"  # (argparse's message: "invalid integer value")
    return parse


def _blast_real(text: str) -> float:
    """argparse type: a real flag value as blastp reads it."""
    if _BLAST_DECIMAL.fullmatch(text):
        return float(text.rstrip("eE"))
    if _BLAST_HEX.fullmatch(text):
        return float.fromhex(text)
    raise argparse.ArgumentTypeError(f"takes a real number, not {text!r}")


class _BlastFlag(argparse.Action):
    """A blastp flag: given twice, blastp refuses the command line ("Argument with this name
    is defined already"), where argparse would keep the last."""

    def __call__(self, parser, namespace, values, option_string=None):
        given = namespace.__dict__.setdefault("given_flags", set())
        if self.dest in given:
            parser.error(f"argument {option_string} is given twice (blastp: Argument with this "
                         f"name is defined already: {self.dest})")
        given.add(self.dest)
        setattr(namespace, self.dest, True if self.nargs == 0 else values)


def _blastp_parser(sub) -> None:
    p = sub.add_parser(
        "blastp",
        help="protein search with NCBI blastp's results (pairwise, tabular, XML or JSON "
        "output)",
        description="Search protein queries against a protein database. Results equal NCBI "
        "blastp 2.12's; the flags are blastp's (single dash), the output its pairwise report "
        "(-outfmt 0, the default), its tabular -outfmt 6, 7 or 10, its XML, 5, or its JSON, 15.",
        allow_abbrev=False,
    )
    _exit_1_on_usage_errors(p)
    p.add_argument("-query", action=_BlastFlag, required=True,
                   help="query FASTA file (several records allowed)")
    # blastp: "Either a BLAST database or subject sequence(s) must be specified", and
    # "Argument "subject". Incompatible with argument: `db'".
    target = p.add_mutually_exclusive_group(required=True)
    target.add_argument("-db", action=_BlastFlag,
                        help="subjects: FASTA (plain or gzip) or a database made by 'gpuseq "
                        "makedb'")
    target.add_argument("-subject", action=_BlastFlag,
                        help="subject FASTA file, read as blastp -subject reads it: the same "
                        "search as -db (blastp 2.12 scans the subjects as one database), each "
                        "subject named as a query is")
    p.add_argument("-out", action=_BlastFlag, default="-", help="output file [stdout]")
    p.add_argument("-outfmt", action=_BlastFlag, default="0",
                   help="'0' (the pairwise report), '6' (tabs), '7' (tabs, with each query's "
                   "comment lines) or '10' (commas), alone or with FIELDS of std, its fields "
                   "(ids qaccver saccver), qseqid, sseqid, qacc, sacc, qlen, slen, score, "
                   "nident, gaps, positive, qcovs, qcovhsp, ppos, qseq, sseq, btop, stitle, "
                   "salltitles, and those the inputs hold no data for, printed as blastp "
                   "prints them then (qgi, sgi, sallgi, sallseqid, sallacc, staxid(s), "
                   "ssciname(s), scomname(s), sblastname(s), sskingdom(s), sstrand, qcovus); "
                   "or '5' (XML) or '15' (JSON) [0]")
    p.add_argument("-evalue", action=_BlastFlag, type=_blast_real, default=10.0)
    p.add_argument("-max_target_seqs", action=_BlastFlag, type=_blast_integer(), default=None,
                   help="at most this many subjects per query [500; -outfmt 0: "
                   "-num_descriptions, -num_alignments]")
    p.add_argument("-num_descriptions", action=_BlastFlag, type=_blast_integer(), default=None,
                   help="-outfmt 0: at most this many one-line descriptions per query [500]")
    p.add_argument("-num_alignments", action=_BlastFlag, type=_blast_integer(), default=None,
                   help="-outfmt 0: the alignments of at most this many subjects per query "
                   "[250]")
    p.add_argument("-line_length", action=_BlastFlag, type=_blast_integer(), default=None,
                   help="-outfmt 0: alignment columns per line [60]")
    p.add_argument("-num_threads", action=_BlastFlag, type=_blast_integer(), default=0,
                   help="threads [all cores]")
    p.add_argument("-matrix", action=_BlastFlag, default="BLOSUM62",
                   help="BLOSUM45, BLOSUM50, BLOSUM62, BLOSUM80, BLOSUM90, PAM30, PAM70 or "
                   "PAM250 [BLOSUM62]")
    p.add_argument("-gapopen", action=_BlastFlag, type=_blast_integer(), default=None,
                   help="gap opening cost: with -gapextend, a pair blastp takes with the "
                   "matrix (BLOSUM62: 11/2, 10/2, 9/2, 8/2, 7/2, 6/2, 13/1, 12/1, 11/1, 10/1, "
                   "9/1, 32767/32767; gpuseq.blast.gap_cost_rows(matrix)) [the matrix's: "
                   "BLOSUM62 11, BLOSUM45 14, BLOSUM50 13, BLOSUM80 and 90 10, PAM30 9, PAM70 "
                   "10, PAM250 14]")
    p.add_argument("-gapextend", action=_BlastFlag, type=_blast_integer(), default=None,
                   help="gap extension cost [the matrix's: 1, BLOSUM45, BLOSUM50 and PAM250 2]")
    p.add_argument("-word_size", action=_BlastFlag, type=_blast_integer(), default=3)
    p.add_argument("-threshold", action=_BlastFlag, type=_blast_real, default=None,
                   help="word score threshold [the matrix's: 11, BLOSUM45 14, BLOSUM80 12, "
                   "PAM30 16, PAM70 14]")
    p.add_argument("-comp_based_stats", action=_BlastFlag, default="2",
                   help="0 (F), 1, 2 (D, T: conditional adjustment) or 3 [2]")
    p.add_argument("-seg", action=_BlastFlag, default="no",
                   help="yes, or 'window locut hicut': SEG on the queries [no]")
    p.add_argument("-query_loc", action=_BlastFlag, default=None,
                   help="start-stop: search that part of every query (from 1, inclusive; "
                   "within every query so far), the rows in the whole query's coordinates")
    p.add_argument("-lcase_masking", action=_BlastFlag, nargs=0, default=False,
                   help="mask the queries' lower-case letters, as SEG's segments are")
    p.add_argument("-ungapped", action=_BlastFlag, nargs=0, default=False)
    p.add_argument("-window_size", action=_BlastFlag, type=_blast_integer(), default=None,
                   help="two-hit window [the matrix's: 40, BLOSUM45 60, BLOSUM80 25, PAM30 15, "
                   "PAM70 20]")
    p.add_argument("-xdrop_ungap", action=_BlastFlag, type=_blast_real, default=7.0)
    p.add_argument("-xdrop_gap", action=_BlastFlag, type=_blast_real, default=15.0)
    p.add_argument("-xdrop_gap_final", action=_BlastFlag, type=_blast_real, default=25.0)
    p.add_argument("-dbsize", action=_BlastFlag, type=_blast_integer(64), default=None)
    p.add_argument("-max_hsps", action=_BlastFlag, type=_blast_integer(), default=None,
                   help="at most this many HSPs of each subject [all]")
    p.add_argument("-searchsp", action=_BlastFlag, type=_blast_integer(64), default=None,
                   help="effective search space of the E-values [computed]")
    p.add_argument("-qcov_hsp_perc", action=_BlastFlag, type=_blast_real, default=None,
                   help="percent of the query each HSP covers at least, 0 to 100 [any]")
    p.add_argument("--backend", choices=("auto", "cpu", "cuda"), default="auto",
                   help="cuda: hit detection, ungapped and preliminary gapped extension on the "
                   "GPU [auto: the GPU where one is usable]")


def _run_blastp(args) -> int:
    from ._output import OutputFile
    from .blast import (TABULAR_FORMATS, blastp, check_report_matrix, gap_costs, query_titles,
                        search_defaults, tabular_fields, write_tabular)

    words = args.outfmt.split()
    if not words or words[0] not in (*map(str, TABULAR_FORMATS), "0", "5", "15"):
        raise ValueError(f"-outfmt {args.outfmt!r}: gpuseq writes the pairwise report 0, the "
                         "tabular formats 6, 7 and 10, 5 (XML) and 15 (JSON)")
    outfmt = int(words[0])
    report = outfmt in (0, 5, 15)  # (blastp takes fields after them, and leaves them unused)
    fields = [] if report else tabular_fields(words[1:] or None, outfmt)  # checked first
    if outfmt in (5, 15):
        check_report_matrix(args.matrix)
    if any(f[:-1] in _TAXONOMY_NAMES or f in _TAXONOMY_NAMES for f in fields):
        print("gpuseq: blastp: taxonomy names print N/A (the sequences hold no taxonomy; "
              "blastp would need its taxdb)", file=sys.stderr)
    max_target_seqs, shown = _blast_report_limits(args, outfmt)
    query = args.query
    if (outfmt in (0, 5, 7, 15) or args.lcase_masking) and query == "-":
        # The titles (and lower case) are read from the lines as they are; a pipe is read
        # once, so it is kept in a file that both reads take.
        query = _spooled_stdin()
    subject = args.subject
    if subject == "-" and outfmt in (0, 5, 15):  # (read again for the titles, as the query)
        subject = _spooled_stdin()
    # Opened before the search too, as blastp checks it (an unwritable path fails at once).
    out = sys.stdout if args.out == "-" else OutputFile(args.out)
    if out is sys.stdout:
        _bytes_to_stdout()
    try:
        counters: dict = {}
        hits = blastp(query, args.db, subject=subject, evalue=args.evalue,
                      max_target_seqs=max_target_seqs, num_threads=args.num_threads,
                      matrix=args.matrix, gapopen=args.gapopen, gapextend=args.gapextend,
                      word_size=args.word_size, threshold=args.threshold,
                      comp_based_stats=args.comp_based_stats, seg=args.seg,
                      lcase_masking=args.lcase_masking, query_loc=args.query_loc,
                      ungapped=args.ungapped, window_size=args.window_size,
                      xdrop_ungap=args.xdrop_ungap, xdrop_gap=args.xdrop_gap,
                      xdrop_gap_final=args.xdrop_gap_final, dbsize=args.dbsize,
                      max_hsps=args.max_hsps, searchsp=args.searchsp,
                      qcov_hsp_perc=args.qcov_hsp_perc, backend=args.backend,
                      as_frame=False, counters=counters,
                      aligned_sequences=report or bool({"qseq", "sseq", "btop"} & set(fields)),
                      subject_titles=report or bool({"stitle", "salltitles"} & set(fields)))
        if report:
            from .blast import _comp_based_stats_mode, seg_filter_string
            from .blast_reports import json_report, xml_report

            queries = list(zip(query_titles(query), counters["query_lengths"]))
            if outfmt == 0 and "query_full_lengths" in counters:  # (-query_loc: the whole's)
                queries = list(zip(query_titles(query), counters["query_full_lengths"]))
            # -subject: each subject's title as a query's, by its record (the hits' soid).
            named = dict(subject_titles=None if subject is None else query_titles(subject),
                         gap_costs=gap_costs(args.matrix, args.gapopen, args.gapextend),
                         matrix=args.matrix)
            if outfmt == 0:
                from .blast_text import database_title_and_date, text_report

                database = database_title_and_date(args.db) if subject is None else \
                    (_USER_SUBJECTS.format(args.subject) + ".", "Unknown")
                out.write(text_report(
                    hits, queries, database, counters,
                    **dict(zip(("threshold", "window_size"), search_defaults(
                        args.matrix, args.threshold, args.window_size))),
                    ungapped=args.ungapped,
                    searchsp_given=args.searchsp is not None, **shown, **named))
                return 0
            common = (hits, queries, args.db or "", counters, args.evalue,
                      seg_filter_string(args.seg))
            out.write(xml_report(*common, **named) if outfmt == 5 else json_report(
                *common, 0 if args.ungapped else _comp_based_stats_mode(args.comp_based_stats),
                args.ungapped, **named))
            return 0
        queries = None
        if outfmt == 7:
            titles, rows = query_titles(query), counters["query_hsps"]
            if len(titles) != len(rows):
                from .errors import FormatError

                raise FormatError(args.query, None, f"{len(titles)} header lines for "
                                  f"{len(rows)} queries read")
            queries = list(zip(titles, rows, counters["query_searched"]))
        write_tabular(hits, out, fields, outfmt=outfmt, queries=queries,
                      database=args.db if subject is None else
                      _USER_SUBJECTS.format(args.subject), subject_file=subject is not None)
    finally:
        if out is not sys.stdout:
            out.close()
        for spooled, given in ((query, args.query), (subject, args.subject)):
            if spooled != given:
                os.unlink(spooled)
    return 0


#: The tabular fields of taxonomy names (each also with an s: all of a subject's).
_TAXONOMY_NAMES = ("ssciname", "scomname", "sblastname", "sskingdom")
#: What blastp's reports call the subjects of -subject (its CBlastFormat's database name).
_USER_SUBJECTS = "User specified sequence set (Input: {})"


def _blast_report_limits(args, outfmt: int) -> tuple[int, dict]:
    """The search's -max_target_seqs and the pairwise report's limits, as blastp sets them:
    for -outfmt 0, -max_target_seqs K shows K of each (and cannot be given with the others);
    -num_descriptions N and -num_alignments A (500 and 250) keep max(N, A) subjects. Other
    formats ignore these three flags, with blastp's warning."""
    report_flags = [f for f in ("num_descriptions", "num_alignments", "line_length")
                    if getattr(args, f) is not None]
    if outfmt != 0:
        for flag in report_flags:
            print(f"Warning: [blastp] The parameter -{flag} is "
                  f"{'not applicable' if flag == 'line_length' else 'ignored'} for output "
                  "formats > 4 .", file=sys.stderr)
        return (500 if args.max_target_seqs is None else args.max_target_seqs), {}
    for flag in ("num_descriptions", "num_alignments"):
        if args.max_target_seqs is not None and getattr(args, flag) is not None:
            raise ValueError(f"-{flag} cannot be given with -max_target_seqs (blastp: "
                             "Incompatible with argument: `max_target_seqs')")
    for flag, least in (("num_descriptions", 0), ("num_alignments", 0), ("line_length", 1)):
        value = getattr(args, flag)
        if value is not None and value < least:
            raise ValueError(f"-{flag} must be {least} or more, not {value}")
    if args.max_target_seqs is not None:
        n = args.max_target_seqs
        shown = dict(num_descriptions=n, num_alignments=n)
    else:
        shown = dict(num_descriptions=500 if args.num_descriptions is None else
                     args.num_descriptions,
                     num_alignments=250 if args.num_alignments is None else
                     args.num_alignments)
        n = max(shown.values())
        if n == 0:
            raise ValueError("-num_descriptions 0 and -num_alignments 0 keep no hits (blastp: "
                             "No hits are being saved)")
    shown["line_length"] = 60 if args.line_length is None else args.line_length
    return n, shown


def _bytes_to_stdout() -> None:
    """Names and titles are the input's bytes, not all UTF-8 (decoded with surrogateescape):
    stdout writes them back as they came, whatever the locale (a UTF-8 one, where Python's
    stdout is strict, failed on them; C.UTF-8 escapes already)."""
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="surrogateescape")


def _spooled_stdin() -> str:
    import shutil
    import tempfile

    with tempfile.NamedTemporaryFile(prefix="gpuseq-query-", delete=False) as f:
        shutil.copyfileobj(sys.stdin.buffer, f)
    return f.name


def _numbers(kind, count=None):
    """argparse type: comma-separated numbers ("0,100,200"), ``count`` of them when given."""

    def parse(text: str):
        try:
            values = [kind(v) for v in text.split(",")]
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not comma-separated numbers") from None
        if count is not None and len(values) != count:
            raise argparse.ArgumentTypeError(f"{text!r}: expected {count} numbers")
        return values

    return parse


def _segment_parser(sub) -> None:
    p = sub.add_parser(
        "segment",
        help="3-D MRF segmentation of a CT/MR volume (NIfTI, NRRD, DICOM series)",
        description="Segment a 3-D volume into intensity classes with a Markov random field "
        "(Walters et al. 2009): Gaussian classes, a Potts prior over 6, 18 or 26 neighbours, "
        "ICM or the paper's random proposals. Labels are written with the input's geometry, "
        "in the format of OUTPUT's name (.nii, .nii.gz, .nrrd, .nhdr); the energy and labels "
        "changed by each sweep go to stderr (or --log).",
    )
    p.add_argument("input", help=".nii, .nii.gz, .nrrd, .nhdr, or a folder of one DICOM series")
    p.add_argument("output", help="label volume to write: .nii, .nii.gz, .nrrd or .nhdr")
    p.add_argument("--classes", type=int, default=3, help="intensity classes [3]")
    p.add_argument("--beta", type=float, default=1.0,
                   help="cost of a neighbour pair with different labels, in nats [1.0]")
    p.add_argument("--neighbourhood", type=int, choices=(6, 18, 26), default=26)
    p.add_argument("--mode", choices=("icm", "metropolis"), default="icm",
                   help="best label per voxel, or the paper's random proposal [icm]")
    p.add_argument("--max-sweeps", type=int, default=20, metavar="N", help="[20]")
    p.add_argument("--tolerance", type=float, default=1e-3,
                   help="stop after a sweep changing at most this fraction of voxels [0.001]")
    p.add_argument("--threshold", type=float, default=0.0,
                   help="metropolis: take a proposal when the energy drops by more [0]")
    p.add_argument("--seed", type=int, default=0, help="key of the metropolis proposals [0]")
    p.add_argument("--means", type=_numbers(float), metavar="A,B,...",
                   help="initial class means (default: K-means on the intensities)")
    p.add_argument("--seed-voxel", type=_numbers(int, 3), metavar="Z,Y,X",
                   help="a voxel of the structure of interest (array indices z, y, x)")
    p.add_argument("--window", type=_numbers(float, 2), metavar="LO,HI",
                   help="with --seed-voxel: the voxels in [LO, HI] connected to the seed start "
                   "as one class; the other classes from --means or K-means")
    p.add_argument("--component", action="store_true",
                   help="with --seed-voxel: write only the seed's connected component "
                   "(1) against the rest (0)")
    p.add_argument("--backend", choices=("auto", "cpu", "cuda"), default="auto")
    p.add_argument("--threads", type=int, default=0, metavar="N", help="CPU threads [all cores]")
    p.add_argument("--log", metavar="FILE", help="write the per-sweep table here, not stderr")


def _run_segment(args) -> int:
    import time

    import numpy as np

    from .mrf import segment_mrf
    from .volumes import read_volume, seed_window_labels, write_labels

    if args.window is not None and args.seed_voxel is None:
        raise ValueError("--window needs --seed-voxel (the window is taken at the seed)")
    if args.component and args.seed_voxel is None:
        raise ValueError("--component needs --seed-voxel")
    name = args.output.lower()
    if not name.endswith((".nii", ".nii.gz", ".nrrd", ".nhdr")):
        raise ValueError(f"{args.output}: the output is written as .nii, .nii.gz, .nrrd or "
                         ".nhdr (named by its extension)")
    volume = read_volume(args.input)
    options = dict(classes=args.classes, beta=args.beta, neighbourhood=args.neighbourhood,
                   mode=args.mode, max_sweeps=args.max_sweeps, tolerance=args.tolerance,
                   threshold=args.threshold, seed=args.seed, threads=args.threads,
                   backend=args.backend, seed_voxel=args.seed_voxel)
    if args.window is not None:
        options["init"] = seed_window_labels(volume.data, args.classes, args.seed_voxel,
                                             args.window, means=args.means)
    else:
        options["means"] = args.means
    start = time.perf_counter()
    res = segment_mrf(volume.data, **options)
    seconds = time.perf_counter() - start
    labels = res.component.astype(np.uint8) if args.component else res.labels
    write_labels(volume, labels, args.output)
    log = open(args.log, "w") if args.log else sys.stderr
    try:
        print(f"# {args.input}: {volume.format}, {' x '.join(map(str, volume.data.shape))} "
              f"(z, y, x), spacing {', '.join(f'{s:.4g}' for s in volume.spacing)} mm", file=log)
        print(f"{'sweep':>5} {'energy':>16} {'changed':>10} {'fraction':>9}", file=log)
        print(f"{0:>5} {res.energy[0]:>16.6e} {'':>10} {'':>9}", file=log)
        for sweep, (energy, changed) in enumerate(zip(res.energy[1:], res.changed), start=1):
            print(f"{sweep:>5} {energy:>16.6e} {changed:>10d} "
                  f"{changed / volume.data.size:>9.2e}", file=log)
        counts = np.bincount(labels.ravel(), minlength=2 if args.component else args.classes)
        print(f"# {res.sweeps} sweeps in {seconds:.3f} s; voxels per label: "
              f"{', '.join(map(str, counts))}; written to {args.output}", file=log)
    finally:
        if log is not sys.stderr:
            log.close()
    return 0


def _run_info() -> int:
    from . import build_info

    print(json.dumps(build_info(), indent=2))
    return 0


# The commands that end by _exit_now: the searches, whose every output is closed by then.
# (makedb, distance and segment keep the teardown: not every file they write is closed by
# hand before it.)
_QUICK_END = ("hmmsearch", "blastp")


def _exit_now(code: int) -> None:
    """End `gpuseq hmmsearch` or `gpuseq blastp` once its outputs are written and closed,
    without the interpreter's teardown (every Python object, the CUDA context, the resident
    database's memory one allocation at a time); the operating system frees the process's
    memory and GPU context as it ends. On an H200 host with a packed 490 M-residue database,
    hmmsearch's process ended 0.12-0.18 s after its outputs were closed, 0.17-0.23 s with the
    teardown (six models; 100 models: 0.12-0.16 against 0.17-0.18 s;
    benchmarks/results/gpu-h200-20261129). It also ends the worker threads of a search that
    failed, which the teardown could abort in C++.
    GPUSEQ_FULL_EXIT=1 keeps the teardown (for atexit hooks: coverage, profilers)."""
    if os.environ.get("GPUSEQ_FULL_EXIT") == "1":
        return
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe or stream: nothing more can be written
            pass
    os._exit(code)


def _show_notice(message, category, filename, lineno, file=None, line=None) -> None:
    """Warnings as one line on stderr (e.g. 'running on the CPU'), not Python's format."""
    print(f"gpuseq: {message}", file=sys.stderr)


def _start_cuda(args) -> None:
    """For a command that may run on the GPU, start the CUDA driver and context now, on a
    thread: they take 0.2-0.25 s on an H100 host, and the imports of NumPy, pandas and pyhmmer
    (0.3-0.4 s) go on meanwhile (the search starts the same thread again; whichever comes
    second waits for the first)."""
    if getattr(args, "backend", "cpu") == "cpu":
        return
    from . import _core  # does not import NumPy; neither does backend
    from .backend import start_cuda

    if _core.built_with_cuda:
        start_cuda("gpuseq-cuda-start")


def main(argv: list[str] | None = None) -> int:
    import warnings

    warnings.showwarning = _show_notice
    if argv is None and "numpy" not in sys.modules:
        # As the gpuseq command: no command does linear algebra, so NumPy's OpenBLAS need not
        # start a thread per core at import (they spin a while: `gpuseq hmmsearch` of
        # examples/globins4.hmm took 0.20 s with them, 0.15 s without, on a 2-core VM).
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    as_command = argv is None
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(
        prog="gpuseq", description="GPU-accelerated sequence search with exact CPU twins."
    )
    parser.add_argument("--version", action="version", version=f"gpuseq {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    hmmsearch_parser = _hmmsearch_parser(sub)
    mk = sub.add_parser("makedb", help="pack a FASTA file into a memory-mapped database")
    mk.add_argument("input", help="sequence file: FASTA (plain or gzip) or any format hmmsearch "
                    "reads (detected as hmmsearch does)")
    mk.add_argument("output", help="database folder to create (e.g. db.gsdb)")
    mk.add_argument("--cpu", type=int, default=0, metavar="N", help="parsing threads [all cores]")
    _distance_parser(sub)
    _blastp_parser(sub)
    _segment_parser(sub)
    sub.add_parser("info", help="show the build and the GPUs gpuseq can use")
    args, unknown = parser.parse_known_args(
        _hmmsearch_words(argv) if argv[:1] == ["hmmsearch"] else argv)
    if unknown:  # told by the command's own parser: hmmsearch and blastp exit with 1 for it
        sub.choices[args.command].error(f"unrecognized arguments: {' '.join(unknown)}")
    if args.command == "hmmsearch":
        problem = _hmmsearch_usage_problem(argv)
        if problem is not None:
            hmmsearch_parser.error(problem)
    try:
        _start_cuda(args)
        if args.command == "hmmsearch":
            code = _run_hmmsearch(args, argv)
        elif args.command == "makedb":
            code = _run_makedb(args)
        elif args.command == "distance":
            code = _run_distance(args)
        elif args.command == "blastp":
            code = _run_blastp(args)
        elif args.command == "segment":
            code = _run_segment(args)
        else:
            code = _run_info()
    except BrokenPipeError:  # e.g. piped into head
        code = 0
    except (GpuseqError, OSError, ValueError) as exc:  # (OSError: an output that cannot be
        print(f"Error: {exc}", file=sys.stderr)        # written, an existing database...)
        code = 1
    except Exception:
        if not (as_command and args.command in _QUICK_END):
            raise
        import traceback

        traceback.print_exc()  # as the interpreter would, then the same quick end
        code = 1
    if as_command and args.command in _QUICK_END:
        _exit_now(code)
    return code


if __name__ == "__main__":
    sys.exit(main())
