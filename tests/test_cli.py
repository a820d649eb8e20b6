"""`gpuseq hmmsearch` takes hmmsearch's flags and writes hmmsearch's outputs; `gpuseq makedb`
packs a database that later searches use; errors exit 1 with a message."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import gpuseq
from conftest import HMMER_EXAMPLES, REPO
from synthetic import require_tool
from test_hmmsearch import report_body, rows, same_rows

TUTORIAL = HMMER_EXAMPLES / "tutorial"


def gpuseq_cli(*args, check=True):
    return subprocess.run(
        [sys.executable, "-m", "gpuseq.cli", *map(str, args)],
        capture_output=True,
        text=True,
        check=check,
    )


def header_options(text: str) -> list[str]:
    """The option lines of the header (between the query/target lines and the rule)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("# query HMM file:"))
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("# - - -"))
    return lines[start:end]


def assert_same_hmmsearch_files(ours: dict, ref: dict, case: str = "") -> None:
    """hmmsearch's output files, {"out" | "tbl" | "dom" | "pfam" | "sto": text} (those
    given), with the file names already replaced: the report's option lines and body, the
    tables' rows, the Pfam table before its program lines, the alignment but its author."""
    if "out" in ref:
        assert header_options(ours["out"]) == header_options(ref["out"]), case
        assert report_body(ours["out"]) == report_body(ref["out"]), case
    for ext in ("tbl", "dom"):
        if ext in ref:
            assert same_rows(rows(ours[ext]), rows(ref[ext])), (case, ext)
    if "pfam" in ref:
        assert ours["pfam"].split("# Program:")[0] == ref["pfam"].split("# Program:")[0], case
    if "sto" in ref:
        no_author = [[x for x in texts["sto"].splitlines() if not x.startswith("#=GF AU")]
                     for texts in (ours, ref)]  # fmt: skip
        assert no_author[0] == no_author[1], case


def hmmsearch_outputs(program: list[str], flags, base: Path, queries, db, stdin=None):
    """Runs a command with every output file; returns (process, {ext: text}) with the file
    names in the texts replaced. ``stdin``: a file piped in (the argument that reads it is '-')."""
    outputs = {"-o": "out", "--tblout": "tbl", "--domtblout": "dom", "--pfamtblout": "pfam",
               "-A": "sto"}  # fmt: skip
    files = [arg for flag, ext in outputs.items() for arg in (flag, f"{base}.{ext}")]
    run = subprocess.run([*program, *flags, *files, str(queries), str(db)], capture_output=True,
                         input=stdin.read_bytes() if stdin else None, timeout=600)  # fmt: skip
    texts = {}
    for ext in outputs.values():
        path = Path(f"{base}.{ext}")
        text = path.read_text().replace(str(base), "X") if path.exists() else ""
        texts[ext] = text.replace(str(db), "DB") if str(db) != "-" else text
    return run, texts


def test_hmmsearch_command_equals_hmmsearch(tmp_path):
    hmm, seqs = TUTORIAL / "fn3.hmm", REPO / "examples" / "7LESS_DROME.fa"
    flags = ["-E", "1", "--domE", "0.5", "--incE", "1e-3", "--acc", "--textw", "140"]
    gpuseq_cli(
        "hmmsearch",
        *flags,
        "-o",
        tmp_path / "ours.out",
        "--tblout",
        tmp_path / "ours.tbl",
        "--domtblout",
        tmp_path / "ours.dom",
        hmm,
        seqs,
    )
    subprocess.run(
        [
            require_tool("hmmsearch"),
            *flags,
            "-o",
            tmp_path / "ref.out",
            "--tblout",
            tmp_path / "ref.tbl",
            "--domtblout",
            tmp_path / "ref.dom",
            hmm,
            seqs,
        ],
        check=True,
        capture_output=True,
    )
    ours_text = (tmp_path / "ours.out").read_text().replace(str(tmp_path / "ours"), "X")
    ref_text = (tmp_path / "ref.out").read_text().replace(str(tmp_path / "ref"), "X")
    assert header_options(ours_text) == header_options(ref_text)
    assert report_body(ours_text) == report_body(ref_text)
    assert ours_text.splitlines()[-1] == ref_text.splitlines()[-1]  # the "[ok]" footer
    for ext in ("tbl", "dom"):
        ours = (tmp_path / f"ours.{ext}").read_text()
        ref = (tmp_path / f"ref.{ext}").read_text()
        assert same_rows(rows(ours), rows(ref))
        assert ours.splitlines()[-1] == ref.splitlines()[-1]  # "# [ok]"


def test_report_goes_to_stdout_by_default():
    out = gpuseq_cli("hmmsearch", "--noali", TUTORIAL / "globins4.hmm", TUTORIAL / "globins45.fa")
    assert "Query:       globins4  [M=149]" in out.stdout
    assert "Passed MSV filter:                        45" in out.stdout


def test_makedb_then_search(tmp_path):
    db = tmp_path / "globins.gsdb"
    made = gpuseq_cli("makedb", TUTORIAL / "globins45.fa", db)
    assert "45 sequences, 6519 residues" in made.stdout
    manifest = json.loads((db / "manifest.json").read_text())
    assert manifest["sequences"] == 45
    gpuseq_cli("hmmsearch", "--tblout", tmp_path / "a.tbl", TUTORIAL / "globins4.hmm", db)
    gpuseq_cli(
        "hmmsearch",
        "--tblout",
        tmp_path / "b.tbl",
        TUTORIAL / "globins4.hmm",
        TUTORIAL / "globins45.fa",
    )
    assert rows((tmp_path / "a.tbl").read_text()) == rows((tmp_path / "b.tbl").read_text())


def test_errors_exit_1_with_a_message(tmp_path):
    bad = tmp_path / "bad.fa"
    bad.write_text(">x\nMK1\n")
    out = gpuseq_cli("hmmsearch", TUTORIAL / "globins4.hmm", bad, check=False)
    assert out.returncode == 1
    assert "Error:" in out.stderr and "bad.fa, line 2, record 'x'" in out.stderr
    out = gpuseq_cli("hmmsearch", "--max", "--nobias", TUTORIAL / "globins4.hmm", bad, check=False)
    assert out.returncode == 1 and "--max" in out.stderr


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full (Linux's full device)")
def test_a_full_disk_is_an_error_naming_the_output(tmp_path):
    """A write that fails (here /dev/full: no space left) ends the command with status 1 and a
    line naming the file, for each of hmmsearch's outputs and blastp's -out (hmmsearch 3.3.2
    aborts with a core dump on such an output)."""
    query, targets = TUTORIAL / "globins4.hmm", TUTORIAL / "globins45.fa"
    for flag in ("-o", "--tblout", "--domtblout", "--pfamtblout", "-A"):
        run = gpuseq_cli("hmmsearch", "--backend", "cpu", flag, "/dev/full", query, targets,
                         check=False)
        assert run.returncode == 1 and "No space left on device: '/dev/full'" in run.stderr, flag
        assert "Traceback" not in run.stderr
    fasta = tmp_path / "q.fa"
    fasta.write_text(">q\n" + "MKVLAAGIVGLLLAAGCSSQQWERTYIPASDFGHKLCVNM\n")
    run = gpuseq_cli("blastp", "-query", fasta, "-db", fasta, "-out", "/dev/full", "--backend",
                     "cpu", check=False)
    assert run.returncode == 1 and "No space left on device: '/dev/full'" in run.stderr
    with pytest.raises(OSError, match="/dev/full"):
        gpuseq.blast.write_tabular(gpuseq.blastp(fasta, fasta, backend="cpu"), "/dev/full")


def test_info_reports_the_build():
    info = json.loads(gpuseq_cli("info").stdout)
    assert {"version", "built_with_cuda", "cuda_devices", "cpu_kernels"} <= set(info)


def test_cuda_host_wait_is_checked(monkeypatch):
    """GPUSEQ_CUDA_WAIT (how host threads wait for the GPU) must name a mode: a wrong one is an
    error before anything runs (the command's exit 1 and message); the C++ side checks too."""
    import os
    import re

    from gpuseq import _core
    from gpuseq.backend import cuda_host_wait

    monkeypatch.setenv("GPUSEQ_CUDA_WAIT", "block")
    assert cuda_host_wait() == "block"
    monkeypatch.setenv("GPUSEQ_CUDA_WAIT", "sleepy")
    message = "GPUSEQ_CUDA_WAIT must be one of auto, spin, yield, block, not 'sleepy'"
    with pytest.raises(ValueError, match=re.escape(message)):
        cuda_host_wait()
    assert _core.cuda_initialize("sleepy") == (
        "unknown host wait 'sleepy' (auto, spin, yield or block)"
        if _core.built_with_cuda else "gpuseq was built without CUDA"
    )
    out = subprocess.run(
        [sys.executable, "-m", "gpuseq.cli", "hmmsearch", "--backend", "auto",
         TUTORIAL / "globins4.hmm", TUTORIAL / "globins45.fa"],
        capture_output=True, text=True, env=dict(os.environ, GPUSEQ_CUDA_WAIT="sleepy"),
    )
    if _core.built_with_cuda:  # the context starts only where CUDA code was built
        assert out.returncode == 1 and f"Error: {message}" in out.stderr
    else:
        assert out.returncode == 0


def test_hmmsearch_command_outputs_whole_before_its_quick_exit(tmp_path):
    """The command ends without the interpreter's teardown (os._exit once its outputs are
    closed): the report on a pipe, every table and the exit status are those of a run with
    the teardown (GPUSEQ_FULL_EXIT=1), on the CPU and, where there is one, on the GPU."""
    import os

    runs = {}
    for full in ("0", "1"):
        tables = [f"{flag}={tmp_path / (full + flag)}" for flag in ("--tblout", "--domtblout")]
        out = subprocess.run(
            [sys.executable, "-m", "gpuseq.cli", "hmmsearch", "--backend", "auto", *tables,
             TUTORIAL / "globins4.hmm", TUTORIAL / "globins45.fa"],
            capture_output=True, text=True, env=dict(os.environ, GPUSEQ_FULL_EXIT=full),
        )
        assert out.returncode == 0, out.stderr
        assert out.stdout.splitlines()[-1] == "[ok]"
        texts = [(tmp_path / (full + flag)).read_text() for flag in ("--tblout", "--domtblout")]
        assert all(t.splitlines()[-1] == "# [ok]" for t in texts)
        runs[full] = (report_body(out.stdout), [rows(t) for t in texts])
    assert runs["0"] == runs["1"] and len(runs["0"][0]) > 50


def test_hmmsearch_command_fails_cleanly_on_an_unexpected_error():
    """An error the command does not expect (here a stand-in search that raises) prints its
    traceback and exits 1, as Python would, but by the quick end: no teardown that threads
    still in C++ could abort."""
    script = (
        "import atexit, sys, gpuseq.hmmsearch\n"
        "atexit.register(lambda: print('teardown', file=sys.stderr))\n"
        "def boom(*args, **kwargs):\n"
        "    raise RuntimeError('boom')\n"
        "sys.modules['gpuseq.hmmsearch'].hmmsearch = boom  # (gpuseq.hmmsearch: the function)\n"
        "from gpuseq import cli\n"
        "sys.argv = ['gpuseq', 'hmmsearch', sys.argv[1], sys.argv[2]]\n"
        "sys.exit(cli.main())\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script, TUTORIAL / "globins4.hmm", TUTORIAL / "globins45.fa"],
        capture_output=True, text=True,
    )
    assert out.returncode == 1, out.stderr
    assert "Traceback" in out.stderr and "RuntimeError: boom" in out.stderr
    assert "teardown" not in out.stderr


def test_console_script_is_installed():
    if not Path(gpuseq.__file__).resolve().is_relative_to(Path(sys.prefix).resolve()):
        pytest.skip("gpuseq is imported from outside this environment (PYTHONPATH, --target)")
    script = Path(sys.executable).parent / "gpuseq"
    out = subprocess.run([str(script), "--version"], capture_output=True, text=True, check=True)
    assert out.stdout.startswith("gpuseq ")


def test_targets_from_standard_input():
    """'-' reads the targets from stdin, plain as hmmsearch reads '-', or gzip (which
    hmmsearch finds empty or misformatted)."""
    import gzip

    fasta = (TUTORIAL / "globins45.fa").read_bytes()
    for data in (fasta, gzip.compress(fasta)):
        out = subprocess.run(
            [sys.executable, "-m", "gpuseq.cli", "hmmsearch", "--noali",
             str(TUTORIAL / "globins4.hmm"), "-"],
            input=data, capture_output=True, check=True,
        )
        assert b"Target sequences:                         45  (6519 residues" in out.stdout


def test_hmmsearch_flags_come_from_the_options_object():
    """Every hmmsearch option gpuseq defines is a flag of `gpuseq hmmsearch`, with the API's
    defaults, and sets the field it names."""
    import argparse
    from dataclasses import fields

    from gpuseq import HmmsearchOptions, cli
    from gpuseq.hmmsearch_options import OUTPUT_FLAGS

    parser = argparse.ArgumentParser()
    cli._hmmsearch_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["hmmsearch", "q.hmm", "t.fa"])
    for f in fields(HmmsearchOptions):
        assert getattr(args, f.name) == f.default, f.name
    for name, flag in HmmsearchOptions.flags():
        given = [flag.flag, "3"] if flag.takes_value else [flag.flag]
        value = getattr(parser.parse_args(["hmmsearch", *given, "q.hmm", "t.fa"]), name)
        assert value == (flag.type("3") if flag.takes_value else flag.const), flag.flag
    for flag in OUTPUT_FLAGS:
        assert getattr(args, flag.dest) == flag.default, flag.flag


def test_alignment_pfam_table_nonull2_seed_flags_equal_hmmsearch(tmp_path):
    hmm, seqs = TUTORIAL / "fn3.hmm", REPO / "examples" / "7LESS_DROME.fa"
    flags = ["--nonull2", "--seed", "3", "-E", "1e-3", "--noali"]
    outputs = {}
    for who, program in (("ours", [sys.executable, "-m", "gpuseq.cli", "hmmsearch"]),
                         ("ref", [require_tool("hmmsearch")])):
        base = str(tmp_path / who)
        files = ["-o", f"{base}.out", "-A", f"{base}.sto", "--pfamtblout", f"{base}.pfam"]
        subprocess.run([*program, *flags, *files, str(hmm), str(seqs)], check=True,
                       capture_output=True)
        outputs[who] = {
            ext: Path(f"{base}.{ext}").read_text().replace(base, "X")
            for ext in ("out", "sto", "pfam")
        }
    ours, ref = outputs["ours"], outputs["ref"]
    assert_same_hmmsearch_files(ours, ref)
    saved = "# Alignment of 7 hits satisfying inclusion thresholds saved to: X.sto"
    assert saved in ref["out"].splitlines() and saved in ours["out"].splitlines()


@pytest.mark.parametrize(
    "flags",
    [
        ["-E", "1", "-E", "1e-5"],
        ["-T", "20", "-E", "1"],
        ["--domT", "5", "--domE", "1"],
        ["--incT", "20", "--incE", "1"],
        ["--incdomT", "2", "--incdomE", "1"],
        ["--cut_ga", "--domE", "1"],
        ["--cut_ga", "--cut_tc"],
        ["--max", "--F1", "0.1"],
        ["--max", "--nob"],
        ["--textw", "100"],
        ["--notextw", "--textw", "150"],
        ["--textw", "130", "--textw=140"],
        ["-Z", "0"],
        ["--seed", "-1"],
        ["--incd", "0.5"],
        # Values Easel's parser refuses (strtol/strtod over the whole word, a C int's range).
        ["--cpu", "-1"],
        ["--cpu", "2147483648"],
        ["--cpu", "1.5"],
        ["--cpu", "0x10"],
        ["--textw", "2147483648"],
        ["--seed", "1e3"],
        ["--seed", "99999999999999999999"],
        ["-E", "1_0"],
        ["-E", "1e3x"],
        ["-E", ".e3"],
        ["-E", "nan"],
        ["--domZ", "-inf"],
        ["--bogus"],  # an option neither has
    ],
)
def test_command_lines_hmmsearch_refuses_are_refused(flags):
    """Repeated options, options hmmsearch refuses together, values out of its ranges and
    ambiguous abbreviations: both tools exit 1 without searching."""
    args = [*flags, TUTORIAL / "Pkinase.hmm", TUTORIAL / "globins45.fa"]
    ref = subprocess.run([require_tool("hmmsearch"), *map(str, args)], capture_output=True)
    assert ref.returncode == 1 and b"Failed to parse command line" in ref.stdout + ref.stderr
    ours = gpuseq_cli("hmmsearch", *args, check=False)
    assert ours.returncode == 1, ours.stderr
    assert "error:" in ours.stderr.lower() and ours.stdout == ""


@pytest.mark.parametrize("backend", ["cpu", pytest.param("cuda", marks=pytest.mark.cuda)])
@pytest.mark.parametrize(
    "flags",
    [
        ["--F1", "0", "--F2", "-1"],  # only an overflowing MSV score's P (0) passes F1 = 0
        ["--F3", "0", "--nonull2"],
        ["--F1", "nan", "--F3", "nan"],  # P > NaN is false: everything passes
        ["--F2", "-inf", "--F3", "inf"],
        ["-T", "-1e3", "--domT", "-inf", "--incT", "-5"],  # values that start with '-'
        ["-E", "0x1p-4", "-Z", "0x10p2", "--textw", " 150", "--cpu", " 2", "--seed", "+5"],
        ["--F1", "0x1p-3", "--incdomT", "-0x10"],
    ],
)
def test_option_values_hmmsearch_takes_are_taken(flags, backend, tmp_path):
    """Option values hmmsearch takes that a Python parser would not, or would refuse: filter
    thresholds of any real (hmmsearch has no range for F1-F3; a target passes unless P > F, and
    the pipeline caps them with ESL_MIN(1.0, F), which keeps NaN), negative scores as separate
    words, and what strtod and strtol read (hex reals, signs, spaces). Every output file and
    the report's header equal hmmsearch's, on models whose true hits overflow the MSV filter."""
    queries = tmp_path / "q.hmm"
    queries.write_text((TUTORIAL / "globins4.hmm").read_text()
                       + (TUTORIAL / "Pkinase.hmm").read_text())  # fmt: skip
    db = TUTORIAL / "globins45.fa"
    ref, ref_out = hmmsearch_outputs([require_tool("hmmsearch")], flags, tmp_path / "ref",
                                     queries, db)  # fmt: skip
    ours, ours_out = hmmsearch_outputs(
        [sys.executable, "-m", "gpuseq.cli", "hmmsearch", "--backend", backend], flags,
        tmp_path / "ours", queries, db)  # fmt: skip
    assert ours.returncode == ref.returncode == 0, ours.stderr
    assert_same_hmmsearch_files(ours_out, ref_out, " ".join(flags))


def test_abbreviated_and_attached_options_are_echoed_as_hmmsearch_echoes_them(tmp_path):
    """hmmsearch takes a long option's unique prefix and a value attached to a short flag:
    the report's header names the options in full as hmmsearch's does."""
    flags = ["--nob", "--noal", "-E1e-5", "--textw=130", "--nonull", "--tbl", "t.tbl"]
    args = [*flags, TUTORIAL / "globins4.hmm", TUTORIAL / "globins45.fa"]
    ref = subprocess.run([require_tool("hmmsearch"), *map(str, args)], capture_output=True,
                         text=True, check=True, cwd=tmp_path)
    ours = subprocess.run([sys.executable, "-m", "gpuseq.cli", "hmmsearch", *map(str, args)],
                          capture_output=True, text=True, check=True, cwd=tmp_path)
    assert header_options(ours.stdout) == header_options(ref.stdout)
    assert "# biased composition HMM filter:   off" in header_options(ours.stdout)
    assert report_body(ours.stdout) == report_body(ref.stdout)


@pytest.mark.parametrize("case", ["other alphabet", "no GA cutoffs"])
def test_the_models_before_one_that_cannot_be_searched_are_written(tmp_path, case):
    """hmmsearch writes each model's results before it reads the next: a later model it
    cannot search (a DNA model after a protein one; a model without GA lines under --cut_ga)
    ends the run with status 1 after the earlier models' reports, table rows and alignments,
    and so does gpuseq."""
    queries = tmp_path / "queries.hmm"
    targets = tmp_path / "targets.fa"  # fn3's GA hits in 7LESS_DROME, globins4's globins
    targets.write_text((REPO / "examples" / "7LESS_DROME.fa").read_text()
                       + (TUTORIAL / "globins45.fa").read_text())
    if case == "other alphabet":
        flags, names = [], ("fn3", "globins4", "MADE1")
    else:
        flags, names = ["--cut_ga"], ("Pkinase", "fn3", "globins4")
    queries.write_text("".join((TUTORIAL / f"{n}.hmm").read_text() for n in names))
    out = {}
    for tool in ("ref", "ours"):
        files = ["-o", tmp_path / f"{tool}.out", "--tblout", tmp_path / f"{tool}.tbl",
                 "-A", tmp_path / f"{tool}.sto"]
        args = [*flags, *files, queries, targets]
        if tool == "ref":
            run = subprocess.run([require_tool("hmmsearch"), *map(str, args)],
                                 capture_output=True)
        else:
            run = gpuseq_cli("hmmsearch", *args, check=False)
        assert run.returncode == 1, (tool, run.stderr)
        out[tool] = {ext: (tmp_path / f"{tool}.{ext}").read_text() for ext in ("out", "tbl")}
    ref_body = report_body(out["ref"]["out"])
    if case == "no GA cutoffs":  # hmmsearch prints the model's Query: line before it fails
        assert ref_body[-1] == "Query:       globins4  [M=149]"
        ref_body = ref_body[:-1]
    assert report_body(out["ours"]["out"]) == ref_body
    assert len(ref_body) > 50
    assert rows(out["ours"]["tbl"]) == rows(out["ref"]["tbl"]) != []
    sto = [(tmp_path / f"{tool}.sto").read_text() for tool in ("ref", "ours")]
    assert [line for line in sto[1].splitlines() if not line.startswith("#=GF AU")] == [
        line for line in sto[0].splitlines() if not line.startswith("#=GF AU")
    ]


def assert_same_as_serial_hmmsearch(tmp_path, flags, hmm, fasta) -> str:
    """`gpuseq hmmsearch` and hmmsearch on one thread (--cpu 0), every output file compared
    whole: the report's body, and the tables' every line (rows that start with '#' too; the
    widths) but the trailer. Returns hmmsearch's tblout."""
    ref, ref_out = hmmsearch_outputs([require_tool("hmmsearch"), "--cpu", "0"], flags,
                                     tmp_path / "ref", hmm, fasta)  # fmt: skip
    ours, ours_out = hmmsearch_outputs([sys.executable, "-m", "gpuseq.cli", "hmmsearch"], flags,
                                       tmp_path / "ours", hmm, fasta)  # fmt: skip
    assert ref.returncode == ours.returncode == 0, (ours.stderr, ref.stderr)
    assert report_body(ours_out["out"]) == report_body(ref_out["out"])
    for ext in ("tbl", "dom", "pfam"):
        assert ours_out[ext].split("# Program:")[0] == ref_out[ext].split("# Program:")[0]
    return ref_out["tbl"]


def test_targets_named_with_a_leading_hash_are_rows_not_comments(tmp_path):
    """A name may start with '#' (Easel takes any non-blank word), and then so does its tblout
    and domtblout row. The report's hit list and the DataFrame read pyhmmer's rows and took
    those for comments: the command failed ("tblout gave 6 rows for 7 reported hits") and
    the DataFrame shifted the later hits' exp..inc columns. Names keep their lengths here,
    so that the widths are those of any run."""
    import re

    fasta = tmp_path / "hashes.fa"
    fasta.write_text(re.sub(r"^>\S", ">#", (TUTORIAL / "globins45.fa").read_text(), flags=re.M))
    hmm = TUTORIAL / "globins4.hmm"
    ref_tbl = assert_same_as_serial_hmmsearch(tmp_path, [], hmm, fasta)
    data = [line.split() for line in ref_tbl.splitlines()[3:] if line[:2] != "# "]
    data = [row for row in data if len(row) > 17]  # (the trailer's '#' line)
    assert len(data) == 45 and sum(row[0].startswith("#") for row in data) == 45
    hits = gpuseq.hmmsearch(hmm, fasta).hits
    assert hits.target_name.tolist() == [row[0] for row in data]
    counts = hits[["exp", "reg", "clu", "ov", "env", "dom", "rep", "inc"]]
    assert counts.astype(str).values.tolist() == [row[10:18] for row in data]


@pytest.mark.parametrize("flags", [["--max"], ["--max", "-E", "1e-3"], ["--F3", "1", "-E", "0.1"],
                                   ["--max", "-Z", "50"], ["--max", "-T", "0"]])  # fmt: skip
def test_name_widths_are_those_of_the_hits_hmmsearch_keeps(tmp_path, flags):
    """hmmsearch keeps every target that passes Forward and whose E-value with Z = the
    targets counted so far (itself included) meets -E: more than it reports, and the longest
    of their names sets the widths of the hit list and of the tables. Names of 1-90
    characters; --max and a high F3 send most targets to Forward. Against hmmsearch on one
    thread (on several, each worker counts its own targets)."""
    import numpy as np

    from synthetic import random_proteins, write_fasta

    rng = np.random.default_rng(70)
    globins = ["".join(g.partition("\n")[2].split())
               for g in (TUTORIAL / "globins45.fa").read_text().split(">")[1:]]  # fmt: skip
    records = [(f"g{i}_" + "w" * int(rng.integers(0, 30)), g) for i, g in enumerate(globins)]
    records += [(f"r{i}_" + "z" * int(rng.integers(0, 90)), s)
                for i, s in enumerate(random_proteins(rng, 300, mean_length=200))]  # fmt: skip
    fasta = write_fasta(tmp_path / "named.fa", [records[i] for i in rng.permutation(len(records))])
    assert_same_as_serial_hmmsearch(tmp_path, flags, TUTORIAL / "globins4.hmm", fasta)
