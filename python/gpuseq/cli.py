"""Command line: ``gpuseq hmmsearch`` (hmmsearch's flags and outputs), ``gpuseq makedb``,
``gpuseq distance`` (all-pairs distances to .npy), ``gpuseq info``."""

from __future__ import annotations

import argparse
import json
import shlex
import sys

from . import __version__
from .errors import GpuseqError


def _positive_float(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be > 0: {text}")
    return value


def _hmmsearch_parser(sub) -> None:
    p = sub.add_parser(
        "hmmsearch",
        help="search profile(s) against a sequence database (HMMER3 hmmsearch)",
        description="Search profile HMM(s) against a protein sequence database. Results equal "
        "HMMER3 hmmsearch's; options and output formats are hmmsearch's.",
    )
    p.add_argument("hmmfile", help="query HMM file (one or more models)")
    p.add_argument(
        "seqdb",
        help="target FASTA file (plain or gzip), '-' for stdin, or a "
        "database made by 'gpuseq makedb'",
    )
    out = p.add_argument_group("options directing output")
    out.add_argument("-o", dest="output", metavar="FILE", help="direct output to file, not stdout")
    out.add_argument("--tblout", metavar="FILE", help="save parseable table of per-sequence hits")
    out.add_argument("--domtblout", metavar="FILE", help="save parseable table of per-domain hits")
    out.add_argument("--acc", action="store_true", help="prefer accessions over names in output")
    out.add_argument("--noali", action="store_true", help="don't output alignments")
    out.add_argument("--notextw", action="store_true", help="unlimit ASCII text output line width")
    out.add_argument(
        "--textw",
        type=int,
        default=120,
        metavar="N",
        help="set max width of ASCII text output lines [120]",
    )
    rep = p.add_argument_group("options controlling reporting thresholds")
    rep.add_argument(
        "-E",
        type=_positive_float,
        default=10.0,
        help="report sequences <= this E-value threshold [10.0]",
    )
    rep.add_argument(
        "-T", type=float, default=None, help="report sequences >= this score threshold"
    )
    rep.add_argument(
        "--domE",
        type=_positive_float,
        default=10.0,
        help="report domains <= this E-value threshold [10.0]",
    )
    rep.add_argument("--domT", type=float, default=None, help="report domains >= this score cutoff")
    inc = p.add_argument_group("options controlling inclusion (significance) thresholds")
    inc.add_argument(
        "--incE",
        type=_positive_float,
        default=0.01,
        help="consider sequences <= this E-value threshold as significant [0.01]",
    )
    inc.add_argument(
        "--incT",
        type=float,
        default=None,
        help="consider sequences >= this score threshold as significant",
    )
    inc.add_argument(
        "--incdomE",
        type=_positive_float,
        default=0.01,
        help="consider domains <= this E-value threshold as significant [0.01]",
    )
    inc.add_argument(
        "--incdomT",
        type=float,
        default=None,
        help="consider domains >= this score threshold as significant",
    )
    cut = p.add_argument_group("options controlling model-specific thresholding")
    cutx = cut.add_mutually_exclusive_group()
    cutx.add_argument(
        "--cut_ga",
        dest="bit_cutoffs",
        action="store_const",
        const="gathering",
        help="use profile's GA gathering cutoffs to set all thresholding",
    )
    cutx.add_argument(
        "--cut_nc",
        dest="bit_cutoffs",
        action="store_const",
        const="noise",
        help="use profile's NC noise cutoffs to set all thresholding",
    )
    cutx.add_argument(
        "--cut_tc",
        dest="bit_cutoffs",
        action="store_const",
        const="trusted",
        help="use profile's TC trusted cutoffs to set all thresholding",
    )
    acc = p.add_argument_group("options controlling acceleration heuristics")
    acc.add_argument(
        "--max", action="store_true", help="Turn all heuristic filters off (less speed, more power)"
    )
    acc.add_argument(
        "--F1",
        type=_positive_float,
        default=0.02,
        help="Stage 1 (MSV) threshold: promote hits w/ P <= F1 [0.02]",
    )
    acc.add_argument(
        "--F2",
        type=_positive_float,
        default=1e-3,
        help="Stage 2 (Vit) threshold: promote hits w/ P <= F2 [1e-3]",
    )
    acc.add_argument(
        "--F3",
        type=_positive_float,
        default=1e-5,
        help="Stage 3 (Fwd) threshold: promote hits w/ P <= F3 [1e-5]",
    )
    acc.add_argument("--nobias", action="store_true", help="turn off composition bias filter")
    oth = p.add_argument_group("other expert options")
    oth.add_argument(
        "-Z",
        type=_positive_float,
        default=None,
        help="set # of comparisons done, for E-value calculation",
    )
    oth.add_argument(
        "--domZ",
        type=_positive_float,
        default=None,
        help="set # of significant seqs, for domain E-value calculation",
    )
    oth.add_argument(
        "--cpu", type=int, default=0, metavar="N", help="number of threads [all cores]"
    )
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


def _run_hmmsearch(args, argv: list[str]) -> int:
    from .hmmsearch import hmmsearch

    if args.max and (args.nobias or (args.F1, args.F2, args.F3) != (0.02, 1e-3, 1e-5)):
        print(
            "Error: Option --max is incompatible with --F1, --F2, --F3 and --nobias",
            file=sys.stderr,
        )
        return 1
    command = "gpuseq " + " ".join(shlex.quote(a) for a in argv)
    res = hmmsearch(
        args.hmmfile,
        args.seqdb,
        E=args.E,
        T=args.T,
        domE=args.domE,
        domT=args.domT,
        incE=args.incE,
        incT=args.incT,
        incdomE=args.incdomE,
        incdomT=args.incdomT,
        Z=args.Z,
        domZ=args.domZ,
        F1=args.F1,
        F2=args.F2,
        F3=args.F3,
        max=args.max,
        bias_filter=not args.nobias,
        bit_cutoffs=args.bit_cutoffs,
        cpus=args.cpu,
        backend=args.backend,
        progress=args.progress,
    )
    textw = 0 if args.notextw else args.textw
    shown = _options_as_given(argv)
    out = args.output if args.output else sys.stdout
    if out is sys.stdout and hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="surrogateescape")  # target names are bytes, as in FASTA
    res.write_text(out, noali=args.noali, acc=args.acc, textw=textw, options=shown)
    if args.tblout:
        res.write_tblout(args.tblout, command=command)
    if args.domtblout:
        res.write_domtblout(args.domtblout, command=command)
    return 0


_FLAGS = {
    "--acc",
    "--noali",
    "--notextw",
    "--max",
    "--nobias",
    "--cut_ga",
    "--cut_nc",
    "--cut_tc",
    "--progress",
    "--no-progress",
}


def _options_as_given(argv: list[str]) -> dict[str, str]:
    """hmmsearch options exactly as typed (the report's header echoes them like hmmsearch)."""
    shown: dict[str, str] = {}
    tokens = iter(argv[1:])  # argv[0] is the subcommand
    for token in tokens:
        if not token.startswith("-") or token == "-":
            continue
        name, eq, value = token.partition("=")
        if name in _FLAGS:
            shown[name] = ""
        elif eq:
            shown[name] = value
        else:
            shown[name] = next(tokens, "")
    return shown


def _run_makedb(args) -> int:
    from .database import makedb

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
    if args.knn:
        idx, dist = nearest_neighbors(args.input, args.knn, args.against, args.metric, **common)
        np.save(args.output, idx)
        np.save(args.output.removesuffix(".npy") + "_dist.npy", dist)
        print(f"{args.output}: {idx.shape[0]} x {args.knn} nearest neighbours")
        return 0
    direct = not (args.normalize or args.condensed)
    result = pairwise_distances(args.input, args.against, args.metric,
                                normalize=args.normalize, condensed=args.condensed,
                                out=args.output if direct else None, **common)
    if not direct:
        np.save(args.output, result)
    print(f"{args.output}: {' x '.join(map(str, result.shape))} {result.dtype} distances")
    return 0


def _run_info() -> int:
    from . import build_info

    print(json.dumps(build_info(), indent=2))
    return 0


def _show_notice(message, category, filename, lineno, file=None, line=None) -> None:
    """Warnings as one line on stderr (e.g. 'running on the CPU'), not Python's format."""
    print(f"gpuseq: {message}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    import warnings

    warnings.showwarning = _show_notice
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(
        prog="gpuseq", description="GPU-accelerated sequence search with exact CPU twins."
    )
    parser.add_argument("--version", action="version", version=f"gpuseq {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    _hmmsearch_parser(sub)
    mk = sub.add_parser("makedb", help="pack a FASTA file into a memory-mapped database")
    mk.add_argument("input", help="FASTA file (plain or gzip)")
    mk.add_argument("output", help="database folder to create (e.g. db.gsdb)")
    mk.add_argument("--cpu", type=int, default=0, metavar="N", help="parsing threads [all cores]")
    _distance_parser(sub)
    sub.add_parser("info", help="show the build and the GPUs gpuseq can use")
    args = parser.parse_args(argv)
    try:
        if args.command == "hmmsearch":
            return _run_hmmsearch(args, argv)
        if args.command == "makedb":
            return _run_makedb(args)
        if args.command == "distance":
            return _run_distance(args)
        return _run_info()
    except (GpuseqError, FileExistsError, ValueError) as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # e.g. piped into head
        return 0


if __name__ == "__main__":
    sys.exit(main())
