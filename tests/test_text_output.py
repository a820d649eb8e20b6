"""hmmsearch's human-readable report (python/gpuseq/hmmer_text.py) equals HMMER 3.3.2's.

The writer is fed HMMER 3.4's own results (pyhmmer) and compared with Debian's hmmsearch on the
same inputs: every line from `Query:` through `Domain search space` (the CPU-time lines and the
version banner differ on purpose), and the option lines of the header. Whole searches through
gpuseq.hmmsearch are compared in test_hmmsearch.py and test_cli.py."""

from __future__ import annotations

import io
import os
import subprocess

import pyhmmer
import pytest
from pyhmmer.easel import SequenceFile
from pyhmmer.plan7 import HMMFile, Pipeline

from conftest import HMMER_EXAMPLES
from gpuseq import hmmer_text
from synthetic import require_tool

HMMSEARCH = require_tool("hmmsearch")

TUT = str(HMMER_EXAMPLES / "tutorial")
PYD = os.path.join(os.path.dirname(pyhmmer.__file__), "tests", "data")
FAA = os.path.join(PYD, "seqs", "938293.PRJEB85.HG003687.faa")


def _tut(name: str) -> str:
    return os.path.join(TUT, name)


def _pyd(*parts: str) -> str:
    return os.path.join(PYD, *parts)


def _hmmsearch(args: list[str], hmm: str, seqs: str) -> str:
    return subprocess.run(
        [HMMSEARCH, "--cpu", "0", *args, hmm, seqs], check=True, capture_output=True, text=True
    ).stdout


def _report(hmm: str, seqs: str, pipeline_kw: dict, **opts) -> str:
    fh = io.StringIO()
    with HMMFile(hmm) as hf:
        models = list(hf)
    with SequenceFile(seqs, digital=True, alphabet=models[0].alphabet) as sf:
        block = sf.read_block()
    for m in models:
        hits = Pipeline(m.alphabet, **pipeline_kw).search_hmm(m, block)
        hmmer_text.write_query_report(fh, hits, **opts)
    return fh.getvalue()


def _body(text: str) -> list[str]:
    out, keep = [], False
    for line in text.splitlines(keepends=True):
        if line.startswith("Query:"):
            keep = True
        if keep:
            out.append(line)
        if line.startswith("Domain search space"):
            keep = False
    return out


MAX = {"bias_filter": False, "F1": 1.0, "F2": 1.0, "F3": 1.0}

# (id, hmm getter, seqs getter, hmmsearch args, Pipeline kwargs, writer kwargs)
CASES = [
    ("globins4", lambda: _tut("globins4.hmm"), lambda: _tut("globins45.fa"), [], {}, {}),
    ("globins4-noali", lambda: _tut("globins4.hmm"), lambda: _tut("globins45.fa"),
     ["--noali"], {}, {"noali": True}),
    ("pkinase-nohits", lambda: _tut("Pkinase.hmm"), lambda: _tut("globins45.fa"), [], {}, {}),
    ("fn3-multidomain", lambda: _tut("fn3.hmm"), lambda: _tut("7LESS_DROME"), [], {}, {}),
    ("fn3-domE", lambda: _tut("fn3.hmm"), lambda: _tut("7LESS_DROME"),
     ["--domE", "1e-5"], {"domE": 1e-5}, {}),
    ("fn3-no-individual-domains", lambda: _tut("fn3.hmm"), lambda: _tut("7LESS_DROME"),
     ["--domE", "1e-80"], {"domE": 1e-80}, {}),
    ("fn3-acc", lambda: _tut("fn3.hmm"), lambda: _tut("7LESS_DROME"),
     ["--acc"], {}, {"acc": True}),
    ("fn3-cut_ga", lambda: _tut("fn3.hmm"), lambda: _tut("7LESS_DROME"),
     ["--cut_ga"], {"bit_cutoffs": "gathering"}, {}),
    ("PF02826", lambda: _pyd("hmms", "txt", "PF02826.hmm"), lambda: FAA, [], {}, {}),
    ("PF02826-E-domE", lambda: _pyd("hmms", "txt", "PF02826.hmm"), lambda: FAA,
     ["-E", "1", "--domE", "0.1"], {"E": 1, "domE": 0.1}, {}),
    ("PF02826-T", lambda: _pyd("hmms", "txt", "PF02826.hmm"), lambda: FAA,
     ["-T", "15"], {"T": 15}, {}),
    ("PF02826-textw150-acc", lambda: _pyd("hmms", "txt", "PF02826.hmm"), lambda: FAA,
     ["--textw", "150", "--acc"], {}, {"textw": 150, "acc": True}),
    ("PF02826-notextw", lambda: _pyd("hmms", "txt", "PF02826.hmm"), lambda: FAA,
     ["--notextw"], {}, {"textw": 0}),
    ("PF02826-inc-thresholds", lambda: _pyd("hmms", "txt", "PF02826.hmm"), lambda: FAA,
     ["--nobias", "--incE", "1e-20", "--incdomE", "1e-3"],
     {"bias_filter": False, "incE": 1e-20, "incdomE": 1e-3}, {}),
    ("PF02826-bitscores", lambda: _pyd("hmms", "txt", "PF02826.hmm"), lambda: FAA,
     ["--nonull2", "-T", "5", "--domT", "2", "--incT", "30", "--incdomT", "20"],
     {"null2": False, "T": 5, "domT": 2, "incT": 30, "incdomT": 20}, {}),
    ("PF02826-max", lambda: _pyd("hmms", "txt", "PF02826.hmm"), lambda: FAA, ["--max"], MAX, {}),
    ("KR", lambda: _pyd("hmms", "txt", "KR.hmm"), lambda: FAA, [], {}, {}),
    ("RREFam-multiquery", lambda: _pyd("hmms", "txt", "RREFam.hmm"), lambda: FAA, [], {}, {}),
    ("Thioesterase-Z-domZ", lambda: _pyd("hmms", "txt", "Thioesterase.hmm"), lambda: FAA,
     ["-Z", "5000", "--domZ", "300"], {"Z": 5000, "domZ": 300}, {}),
]


@pytest.mark.parametrize(
    "hmm, seqs, args, kw, opts", [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_query_report_matches_hmmsearch(hmm, seqs, args, kw, opts):
    hmm, seqs = hmm(), seqs()
    ref = _body(_hmmsearch(args, hmm, seqs))
    got = _body(_report(hmm, seqs, kw, **opts))
    assert ref, "reference produced no Query block"
    assert got == ref


def test_rf_and_cs_lines(tmp_path):
    """A protein model with both RF and CS annotation (built with hmmbuild --hand)."""
    hmmbuild = require_tool("hmmbuild")
    sto = tmp_path / "fn3rf.sto"
    lines = []
    for line in open(_tut("fn3.sto")).read().splitlines():
        lines.append(line)
        if line.startswith("#=GC seq_cons"):
            head = "#=GC seq_cons"
            rest = line[len(head):]
            body = rest.lstrip()
            rf = "".join("." if c == "." else "x" for c in body)
            lines.append("#=GC RF" + " " * (len(head) - 7) + rest[: len(rest) - len(body)] + rf)
    sto.write_text("\n".join(lines) + "\n")
    hmm = tmp_path / "fn3rf.hmm"
    subprocess.run([hmmbuild, "--hand", str(hmm), str(sto)], check=True, capture_output=True)
    ref = _body(_hmmsearch([], str(hmm), _tut("7LESS_DROME")))
    assert any(line.rstrip().endswith(" RF") for line in ref)
    assert _body(_report(str(hmm), _tut("7LESS_DROME"), {})) == ref


@pytest.mark.slow
@pytest.mark.parametrize("name", ["PF02826", "KR", "RREFam"])
def test_everything_reported(name):
    """Every target reported (--max, huge E): stresses widths, '?' domains, separators."""
    hmm = _pyd("hmms", "txt", f"{name}.hmm")
    args = ["--max", "-E", "1e9", "--domE", "1e9"]
    ref = _body(_hmmsearch(args, hmm, FAA))
    got = _body(_report(hmm, FAA, {**MAX, "E": 1e9, "domE": 1e9}))
    assert got == ref


# ----------------------------------------------------------------------------- header

_FLAGS = {"--acc", "--noali", "--notextw", "--cut_ga", "--cut_nc", "--cut_tc", "--max",
          "--nobias", "--nonull2"}


def _options(args: list[str]) -> dict[str, str]:
    out, i = {}, 0
    while i < len(args):
        if args[i] in _FLAGS:
            out[args[i]] = ""
            i += 1
        else:
            out[args[i]] = args[i + 1]
            i += 2
    return out


def _header_tail(text: str) -> list[str]:
    lines = text.splitlines(keepends=True)
    start = next(i for i, s in enumerate(lines) if s.startswith("# query HMM file:"))
    end = next(i for i, s in enumerate(lines) if s.strip() == "")
    return lines[start : end + 1]


HEADER_CASES = [
    [],
    ["--cpu", "2"],  # HMMER's default string: not echoed
    ["--cpu", "3"],
    ["-o", "OUT", "-A", "a.sto", "--tblout", "t.tbl", "--domtblout", "d.tbl",
     "--pfamtblout", "p.tbl", "--acc", "--noali", "--textw", "150", "-E", "1e-5",
     "--domE", "0.5", "--incE", "0.001", "--incdomE", "2e-3", "--F1", "0.5", "--F2", "0.01",
     "--F3", "1e-4", "--nobias", "--nonull2", "-Z", "1000", "--domZ", "20.4", "--seed", "7",
     "--tformat", "uniprot", "--cpu", "1"],
    ["-T", "10", "--domT", "3", "--incT", "12", "--incdomT", "4.5", "--notextw", "--max",
     "--seed", "0"],
    ["-E", "10.0", "--textw", "120", "--seed", "42", "--F1", "0.02"],  # defaults: silent
    ["-E", "10", "--domE", "1e+01"],  # same numbers, other spelling: echoed
    ["--cut_ga"],
    ["--cut_tc"],
]


@pytest.mark.parametrize("args", HEADER_CASES, ids=lambda a: " ".join(a) or "plain")
def test_header_matches_hmmsearch(args, tmp_path):
    hmm, seqs = _tut("fn3.hmm"), _tut("7LESS_DROME")
    opts = _options(args)
    if "-o" in opts:
        opts["-o"] = str(tmp_path / "out.txt")
        args = [opts["-o"] if a == "OUT" else a for a in args]
    for key in ("-A", "--tblout", "--domtblout", "--pfamtblout"):
        if key in opts:
            opts[key] = str(tmp_path / opts[key])
            args = [opts[key] if a == os.path.basename(opts[key]) else a for a in args]
    proc = subprocess.run([HMMSEARCH, *args, hmm, seqs], check=True, capture_output=True,
                          text=True)
    ref_text = open(opts["-o"]).read() if "-o" in opts else proc.stdout
    fh = io.StringIO()
    hmmer_text.write_header(fh, hmm, seqs, opts)
    mine = fh.getvalue()
    assert mine.startswith("# hmmsearch :: search profile(s) against a sequence database\n")
    assert _header_tail(mine) == _header_tail(ref_text)


def test_header_cpus_argument():
    fh = io.StringIO()
    hmmer_text.write_header(fh, "q.hmm", "t.fa", None, cpus=4)
    assert "# number of worker threads:        4\n" in fh.getvalue()


def test_footer():
    """What follows the last query's `//` in hmmsearch's report."""
    ref = _hmmsearch(["--noali"], _tut("globins4.hmm"), _tut("globins45.fa"))
    fh = io.StringIO()
    hmmer_text.write_footer(fh)
    assert fh.getvalue() == ref[ref.rindex("//\n") + 3 :]


def test_timing_lines():
    with HMMFile(_tut("globins4.hmm")) as hf:
        hmm = hf.read()
    with SequenceFile(_tut("globins45.fa"), digital=True, alphabet=hmm.alphabet) as sf:
        hits = Pipeline(hmm.alphabet).search_hmm(hmm, sf.read_block())
    fh = io.StringIO()
    hmmer_text.write_query_report(fh, hits, timing=(0.05, 0.0, 0.05))
    tail = fh.getvalue().splitlines()[-3:]
    assert tail[0] == "# CPU time: 0.05u 0.00s 00:00:00.05 Elapsed: 00:00:00.05"
    assert tail[1].startswith("# Mc/sec: ")
    assert tail[2] == "//"
