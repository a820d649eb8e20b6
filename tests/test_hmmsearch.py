"""gpuseq.hmmsearch gives hmmsearch's results: the same tblout and domtblout rows as Debian's
hmmsearch 3.3.2 and as pyhmmer 0.12.3's hmmsearch (HMMER 3.4), the same per-stage pass counts,
and the same text report from `Query:` to the statistics block."""

from __future__ import annotations

import io
import os
import re
import subprocess

import numpy as np
import pandas as pd
import pyhmmer
import pytest
from pyhmmer.easel import Alphabet, SequenceFile
from pyhmmer.plan7 import HMMFile

import gpuseq
from conftest import HMMER_EXAMPLES, REPO, pyhmmer_data
from gpuseq import _core
from gpuseq._pyhmmer_state import pipeline_state
from synthetic import hmmemit, mutate, plant, random_proteins, require_tool, write_fasta

TUTORIAL = HMMER_EXAMPLES / "tutorial"
PROTEOME = pyhmmer_data() / "seqs" / "938293.PRJEB85.HG003687.faa"
COUNTERS = ("nseqs", "nres", "n_past_msv", "n_past_bias", "n_past_vit", "n_past_fwd")


# ---- references ---------------------------------------------------------------------------


def hmmsearch_332(hmm, seqs, args, tmp_path, cpus=0):
    """Debian's hmmsearch: (tblout rows, domtblout rows, text report)."""
    tbl, dom = tmp_path / "ref.tbl", tmp_path / "ref.domtbl"
    command = [require_tool("hmmsearch"), "--cpu", str(cpus), "--tblout", str(tbl)]
    command += ["--domtblout", str(dom), *args, str(hmm), str(seqs)]
    text = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return rows(tbl.read_text()), rows(dom.read_text()), text


def pyhmmer_search(hmm, seqs, kwargs):
    """pyhmmer.hmmsearch (HMMER 3.4): (tblout rows, domtblout rows, counters per query)."""
    with HMMFile(hmm) as f:
        hmms = list(f)
    with SequenceFile(str(seqs), digital=True, alphabet=Alphabet.amino()) as f:
        block = f.read_block()
    kwargs = dict(kwargs)
    if kwargs.pop("max", False):  # hmmsearch --max, in pyhmmer's terms
        kwargs.update(bias_filter=False, F1=1.0, F2=1.0, F3=1.0)
    tbl, dom, counts = [], [], []
    for top in pyhmmer.hmmsearch(hmms, block, cpus=1, **kwargs):
        tbl += rows(written_as_hmmsearch(top, "targets"))
        dom += rows(written_as_hmmsearch(top, "domains"))
        state = pipeline_state(top)
        counts.append({k: state[k] for k in COUNTERS})
    return tbl, dom, counts


def written_as_hmmsearch(top, fmt):
    """pyhmmer's table of `top`, its E-values computed with flush-to-zero as in hmmsearch."""
    buf = io.BytesIO()
    with _core.flush_denormals():
        top.write(buf, format=fmt, header=False)
    return buf.getvalue().decode()


def rows(text: str) -> list[list[str]]:
    """A table's data rows, split as HMMER writes them: lines at LF, fields at runs of spaces
    (str.split and splitlines would also break names and descriptions at NBSP, VT or U+2028;
    an empty name leaves '' first)."""
    return [re.split(" +", line) for line in text.split("\n")
            if line and not line.startswith("#")]


def report_body(text: str) -> list[str]:
    """Lines from each `Query:` to its `Domain search space` line."""
    out, keep = [], False
    lines = text.split("\n")  # (not splitlines: a description may hold VT or U+2028)
    for line in lines[:-1] if lines[-1] == "" else lines:
        keep = keep or line.startswith("Query:")
        if keep:
            out.append(line)
        if line.startswith("Domain search space"):
            keep = False
    return out


def keeps_denormals() -> bool:
    """Whether this thread computes with denormals (neither FTZ nor DAZ set)."""
    return bool(np.float32(1e-40) * np.float32(1.0) != 0)


def same_rows(ours, ref):
    """Row-by-row token equality, E-values included: hmmsearch prints 0 where exp(lnP) is
    below DBL_MIN (it runs with flush-to-zero), and so must we."""
    return ours == ref


def run_ours(hmm, seqs, kwargs, **call):
    res = gpuseq.hmmsearch(str(hmm), str(seqs), cpus=2, **call, **kwargs)
    tbl, dom, text = io.StringIO(), io.StringIO(), io.StringIO()
    res.write_tblout(tbl)
    res.write_domtblout(dom)
    res.write_text(text)
    return res, rows(tbl.getvalue()), rows(dom.getvalue()), text.getvalue()


def check_equal_to_references(hmm, seqs, args, kwargs, tmp_path, **call):
    """call: arguments of gpuseq.hmmsearch that are not hmmsearch options (block_bytes ...)."""
    res, tbl, dom, text = run_ours(hmm, seqs, kwargs, **call)
    ref_tbl, ref_dom, ref_text = hmmsearch_332(hmm, seqs, args, tmp_path)
    py_tbl, py_dom, py_counts = pyhmmer_search(hmm, seqs, kwargs)
    assert same_rows(tbl, ref_tbl), "tblout differs from hmmsearch 3.3.2"
    assert same_rows(dom, ref_dom), "domtblout differs from hmmsearch 3.3.2"
    assert same_rows(tbl, py_tbl) and same_rows(dom, py_dom), "tabular output differs from pyhmmer"
    ours_counts = res.pipeline[list(COUNTERS)].to_dict("records")
    assert ours_counts == py_counts
    assert report_body(text) == report_body(ref_text), "text report differs from hmmsearch 3.3.2"
    return res


# ---- real data ------------------------------------------------------------------------------

REAL_CASES = [
    ("globins4", TUTORIAL / "globins4.hmm", TUTORIAL / "globins45.fa"),
    ("fn3-7LESS", TUTORIAL / "fn3.hmm", REPO / "examples" / "7LESS_DROME.fa"),
    ("Pkinase-no-hits", TUTORIAL / "Pkinase.hmm", TUTORIAL / "globins45.fa"),
]


@pytest.mark.parametrize("name, hmm, seqs", REAL_CASES, ids=[c[0] for c in REAL_CASES])
def test_tutorial_searches_equal_hmmsearch_and_pyhmmer(name, hmm, seqs, tmp_path):
    check_equal_to_references(hmm, seqs, [], {}, tmp_path)


def test_pyhmmer_models_against_a_proteome(pyhmmer_models, tmp_path):
    """Every protein model pyhmmer ships (RREFam holds 10 models) against 2,100 proteins."""
    for path in pyhmmer_models.values():
        check_equal_to_references(path, PROTEOME, [], {}, tmp_path)


OPTION_CASES = [
    ("nobias", ["--nobias"], {"bias_filter": False}),
    (
        "F1F2F3",
        ["--F1", "0.1", "--F2", "0.01", "--F3", "0.001"],
        {"F1": 0.1, "F2": 0.01, "F3": 0.001},
    ),
    ("max", ["--max"], {"max": True}),
    ("Z-domZ", ["-Z", "5000", "--domZ", "300"], {"Z": 5000, "domZ": 300}),
    ("E-domE", ["-E", "1", "--domE", "0.1"], {"E": 1, "domE": 0.1}),
    ("T-domT", ["-T", "15", "--domT", "10"], {"T": 15, "domT": 10}),
    ("inclusion", ["--incE", "1e-20", "--incdomE", "1e-3"], {"incE": 1e-20, "incdomE": 1e-3}),
]


@pytest.mark.parametrize("name, args, kwargs", OPTION_CASES, ids=[c[0] for c in OPTION_CASES])
def test_options_equal_hmmsearch_options(pyhmmer_models, name, args, kwargs, tmp_path):
    check_equal_to_references(pyhmmer_models["PF02826"], PROTEOME, args, kwargs, tmp_path)


def test_cut_ga_equals_hmmsearch(tmp_path):
    check_equal_to_references(
        TUTORIAL / "fn3.hmm",
        REPO / "examples" / "7LESS_DROME.fa",
        ["--cut_ga"],
        {"bit_cutoffs": "gathering"},
        tmp_path,
    )


# ---- generated databases with many targets near the thresholds -----------------------------


@pytest.fixture(scope="module")
def near_threshold_db(tmp_path_factory, example_models):
    """Background proteins plus homologs of three models, weakened by substitution so that
    their scores spread across the MSV, Viterbi and Forward thresholds."""
    rng = np.random.default_rng(11)
    records = [(f"bg{i}", s) for i, s in enumerate(random_proteins(rng, 4000))]
    for name in ("fn3", "globins4", "Pkinase"):
        for j, seq in enumerate(hmmemit(example_models[name], 150, seed=5)):
            rate = float(rng.uniform(0.3, 0.9))
            records.append((f"{name}_{j}_{rate:.2f}", plant(rng, mutate(rng, seq, rate))))
    order = rng.permutation(len(records))
    path = tmp_path_factory.mktemp("near") / "near.fa"
    return write_fasta(path, [records[i] for i in order])


@pytest.mark.parametrize(
    "name, args, kwargs",
    [
        ("default", [], {}),
        ("nobias", ["--nobias"], {"bias_filter": False}),
        (
            "loose",
            ["--F1", "0.1", "--F2", "0.01", "--F3", "0.001"],
            {"F1": 0.1, "F2": 0.01, "F3": 0.001},
        ),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_pass_counts_near_thresholds(
    example_models, near_threshold_db, tmp_path, name, args, kwargs
):
    queries = tmp_path / "three.hmm"
    queries.write_text(
        "".join(example_models[m].read_text() for m in ("fn3", "globins4", "Pkinase"))
    )
    res = check_equal_to_references(queries, near_threshold_db, args, kwargs, tmp_path)
    p = res.pipeline
    # The database must exercise every stage: some targets stop at each filter.
    assert (p.n_past_msv > p.n_past_vit).all() and (p.n_past_vit > p.n_past_fwd).all()
    assert (p.n_past_fwd > 0).all()


# ---- the Python results ---------------------------------------------------------------------


def test_dataframes_hold_hmmers_values(tmp_path):
    res = gpuseq.hmmsearch(TUTORIAL / "fn3.hmm", REPO / "examples" / "7LESS_DROME.fa")
    hits, doms = res.hits, res.domains
    top = res.top_hits[0]
    reported = [h for h in top if h.reported]
    names = [h.name.decode() if isinstance(h.name, bytes) else h.name for h in reported]
    assert list(hits.target_name) == names  # str (pyhmmer < 0.12 gives bytes)
    assert list(hits.evalue) == [h.evalue for h in reported]
    assert list(hits.score) == [h.score for h in reported]
    assert len(doms) == sum(len([d for d in h.domains if d.reported]) for h in reported)
    tbl = io.StringIO()
    res.write_domtblout(tbl)
    table = rows(tbl.getvalue())
    assert [int(r[9]) for r in table] == list(doms.domain)
    assert [float(r[21]) for r in table] == list(doms.acc)
    assert [float(r[13]) for r in table] == [round(s, 1) for s in doms.domain_score]
    assert set(res.pipeline.columns) >= set(COUNTERS) | {"Z", "domZ"}


def test_inputs_other_than_files_give_the_same_hits():
    """SeqRecord, pyhmmer and (name, sequence) inputs, and a pyhmmer HMM as the query."""
    from Bio import SeqIO

    fasta = TUTORIAL / "globins45.fa"
    with HMMFile(TUTORIAL / "globins4.hmm") as f:
        hmm = next(iter(f))
    expected = gpuseq.hmmsearch(TUTORIAL / "globins4.hmm", fasta).hits
    records = list(SeqIO.parse(fasta, "fasta"))
    with SequenceFile(str(fasta), digital=True, alphabet=Alphabet.amino()) as f:
        block = f.read_block()
    with SequenceFile(str(fasta), digital=False) as f:
        text_seqs = list(f)
    for source in (
        records,
        block,
        text_seqs,
        [(r.id, str(r.seq)) for r in records],
        gpuseq.read_fasta(fasta),
    ):
        got = gpuseq.hmmsearch(hmm, source).hits
        assert list(got.target_name) == list(expected.target_name)
        assert list(got.score) == list(expected.score)
    # descriptions survive every route that carries them
    got = gpuseq.hmmsearch(hmm, records).hits
    assert list(got.description) == list(expected.description)


def test_a_nan_in_the_models_composition_passes_targets_as_hmmsearch_does(tmp_path):
    """A NaN in the COMPO line (hmmsearch reads "nan90041" as NaN) makes the bias filter's
    score NaN. HMMER drops a target only when P > F, so a NaN P passes the bias and Forward
    tests and skips the Viterbi filter. On a GPU host this runs the GPU path, whose Forward
    bound dropped the NaN targets before (found by test_fuzz on an H200)."""
    text = (TUTORIAL / "globins4.hmm").read_text()
    compo = "3.41069  2.90041  2.55332"
    assert compo in text
    hmm = tmp_path / "nan-compo.hmm"
    hmm.write_text(text.replace(compo, "3.41069 nan90041  2.55332"))
    res = check_equal_to_references(hmm, TUTORIAL / "globins45.fa", [], {}, tmp_path)
    assert len(res.hits) == 45


def test_non_utf8_names_come_back_as_hmmsearch_writes_them(tmp_path):
    """FASTA names and descriptions are bytes: tblout, domtblout and the text report give them
    back byte for byte as Debian's hmmsearch does; the DataFrames hold them losslessly."""
    globins = [r for r in SequenceFile(str(TUTORIAL / "globins45.fa"), digital=False)][:3]
    fasta = tmp_path / "names.fa"
    with open(fasta, "wb") as f:
        for i, (name, desc) in enumerate([(b"MYG_EM\xffW0", b"d\xe9sc \xff"), (b"ok", b""),
                                          (b"caf\xc3\xa9\x80", b"\x80\x81")]):
            f.write(b">" + name + (b" " + desc if desc else b"") + b"\n")
            f.write(globins[i].sequence.encode() + b"\n")
    hmm = TUTORIAL / "globins4.hmm"
    ref = {ext: tmp_path / f"ref.{ext}" for ext in ("tbl", "dom", "out")}
    subprocess.run([require_tool("hmmsearch"), "--tblout", ref["tbl"], "--domtblout", ref["dom"],
                    "-o", ref["out"], hmm, fasta], check=True)
    res = gpuseq.hmmsearch(hmm, fasta)
    ours = {ext: tmp_path / f"ours.{ext}" for ext in ("tbl", "dom", "out")}
    res.write_tblout(ours["tbl"])
    res.write_domtblout(ours["dom"])
    res.write_text(ours["out"])

    def data_lines(path):
        return [ln for ln in path.read_bytes().splitlines() if not ln.startswith(b"#")]

    for ext in ("tbl", "dom"):
        assert data_lines(ours[ext]) == data_lines(ref[ext]), ext
    assert len(data_lines(ref["tbl"])) == 3
    report = [ln for ln in ours["out"].read_bytes().splitlines() if b"MYG_EM" in ln]
    ref_report = [ln for ln in ref["out"].read_bytes().splitlines() if b"MYG_EM" in ln]
    assert report == ref_report and len(report) >= 3  # hit list, domain header, alignment
    names = {n.encode("utf-8", "surrogateescape") for n in res.hits.target_name}
    assert names == {b"MYG_EM\xffW0", b"ok", b"caf\xc3\xa9\x80"}
    descs = {d.encode("utf-8", "surrogateescape") for d in res.domains.description}
    assert descs == {b"d\xe9sc \xff", b"", b"\x80\x81"}


def test_empty_names_and_names_python_would_split_come_back_whole(tmp_path):
    """An empty name ('>\\0...': Easel ends it at the NUL) and names holding NBSP (UTF-8),
    FS or U+2028, none of them C whitespace: the tables and the report equal hmmsearch's and
    the DataFrames hold the names. The table rows were split with str.split, which lost the
    empty name and split the others (found by fuzzing targets on an H200)."""
    globins = [r for r in SequenceFile(str(TUTORIAL / "globins45.fa"), digital=False)][:4]
    names = [b"", b"ab\xc2\xa0cd", b"x\x1cy", b"p\xe2\x80\xa8q"]
    fasta = tmp_path / "names.fa"
    with open(fasta, "wb") as f:
        for i, name in enumerate(names):
            header = b"\0lost" if not name else name + b" desc %d" % i
            f.write(b">" + header + b"\n" + globins[i].sequence.encode() + b"\n")
    ref_tbl, ref_dom, ref_text = hmmsearch_332(TUTORIAL / "globins4.hmm", fasta, [], tmp_path)
    res, tbl, dom, text = run_ours(TUTORIAL / "globins4.hmm", fasta, {})
    assert same_rows(tbl, ref_tbl) and same_rows(dom, ref_dom) and len(tbl) == 4
    assert report_body(text) == report_body(ref_text)
    for frame in (res.hits, res.domains):
        assert {n.encode("utf-8", "surrogateescape") for n in frame.target_name} == set(names)


def test_descriptions_holding_line_breaks_of_unicode_come_back_whole(tmp_path):
    """VT, FF, FS, U+0085 and U+2028 in a description are text to Easel (a header ends at CR
    or LF), but str.splitlines breaks lines at them: the DataFrames failed with IndexError
    (found by fuzzing targets on an H200). Tables equal hmmsearch's, DataFrames whole."""
    globins = [r for r in SequenceFile(str(TUTORIAL / "globins45.fa"), digital=False)][:5]
    descs = [b"a\x0bb", b"\x0c", b"x\x1cy", b"u\xc2\x85v", b"w\xe2\x80\xa8z"]
    fasta = tmp_path / "descs.fa"
    with open(fasta, "wb") as f:
        for i, desc in enumerate(descs):
            f.write(b">t%d " % i + desc + b"\n" + globins[i].sequence.encode() + b"\n")
    hmm = TUTORIAL / "globins4.hmm"
    ref = {ext: tmp_path / f"ref.{ext}" for ext in ("tbl", "dom")}
    subprocess.run([require_tool("hmmsearch"), "--tblout", ref["tbl"], "--domtblout", ref["dom"],
                    "-o", os.devnull, hmm, fasta], check=True)
    res = gpuseq.hmmsearch(hmm, fasta)
    for ext, write in (("tbl", res.write_tblout), ("dom", res.write_domtblout)):
        write(tmp_path / f"ours.{ext}")
        ours = [ln for ln in (tmp_path / f"ours.{ext}").read_bytes().split(b"\n")
                if ln and not ln.startswith(b"#")]
        theirs = [ln for ln in ref[ext].read_bytes().split(b"\n")
                  if ln and not ln.startswith(b"#")]
        assert ours == theirs and len(ours) == 5, ext
    for frame in (res.hits, res.domains):
        got = dict(zip(frame.target_name, frame.description))
        assert {k: v.encode("utf-8", "surrogateescape") for k, v in got.items()} == {
            f"t{i}": d for i, d in enumerate(descs)}


def test_packed_database_gives_the_same_hits(tmp_path):
    db = gpuseq.makedb(PROTEOME, tmp_path / "proteome.gsdb")
    a = gpuseq.hmmsearch(TUTORIAL / "Pkinase.hmm", PROTEOME).hits
    b = gpuseq.hmmsearch(TUTORIAL / "Pkinase.hmm", db).hits
    pd.testing.assert_frame_equal(a, b)
    opened = gpuseq.SequenceDatabase.open(db)
    assert isinstance(opened.residues.base, np.memmap)  # a view of the mapped file, not read
    assert len(opened) == 2100
    ref = gpuseq.read_fasta(PROTEOME)
    np.testing.assert_array_equal(opened.residues, ref.residues)
    assert [opened.name(i) for i in (0, 2099)] == [ref.name(i) for i in (0, 2099)]


def test_a_packed_record_without_a_name_is_searched_as_hmmsearch_searches_it(tmp_path):
    """'>\\0NAME' is a record whose name (and description) is empty: Easel ends them at the
    NUL. makedb packed it, then opening the database refused it as damaged (found by fuzzing
    targets on an H200). The packed search's rows equal hmmsearch's on the FASTA file."""
    text = (TUTORIAL / "globins45.fa").read_bytes()
    assert text.count(b">HBA_PHACO") == 1
    fasta = tmp_path / "noname.fa"
    fasta.write_bytes(text.replace(b">HBA_PHACO", b">\0HBA_PHACO"))
    db = gpuseq.open_database(gpuseq.makedb(fasta, tmp_path / "noname.gsdb"))
    assert "" in {db.name(i) for i in range(len(db))}
    ref_tbl, ref_dom, _ = hmmsearch_332(TUTORIAL / "globins4.hmm", fasta, [], tmp_path)
    res = gpuseq.hmmsearch(TUTORIAL / "globins4.hmm", db, cpus=2)
    tbl, dom = io.StringIO(), io.StringIO()
    res.write_tblout(tbl)
    res.write_domtblout(dom)
    assert same_rows(rows(tbl.getvalue()), ref_tbl) and same_rows(rows(dom.getvalue()), ref_dom)
    assert len(res.hits) == 45 and "" in set(res.hits.target_name)


def test_small_chunks_give_the_same_result(example_models):
    """Streaming in many chunks (counters summed, survivors collected) changes nothing."""
    whole = gpuseq.hmmsearch(TUTORIAL / "globins4.hmm", PROTEOME)
    chunked = gpuseq.hmmsearch(TUTORIAL / "globins4.hmm", PROTEOME, block_bytes=1 << 16)
    assert whole.hits.equals(chunked.hits)
    assert whole.pipeline.equals(chunked.pipeline)


def test_progress_callback_reports_all_residues():
    seen = []
    gpuseq.hmmsearch(
        TUTORIAL / "globins4.hmm",
        TUTORIAL / "globins45.fa",
        callback=lambda done, total: seen.append((done, total)),
    )
    assert seen[-1][0] == 6519


def test_cuda_backend_request_is_explained():
    if gpuseq.cuda_devices():
        pytest.skip("a GPU is present; see tests/test_cuda.py")
    with pytest.raises(gpuseq.BackendError, match="backend='cuda' is not available"):
        gpuseq.hmmsearch(TUTORIAL / "globins4.hmm", TUTORIAL / "globins45.fa", backend="cuda")
    res = gpuseq.hmmsearch(TUTORIAL / "globins4.hmm", TUTORIAL / "globins45.fa", backend="cpu")
    assert len(res.hits) == 45


def test_extreme_evalues_print_as_hmmsearch_prints_them(example_models, tmp_path):
    """hmmsearch runs with flush-to-zero, so E-values below ~1e-307 print as 0; so do ours
    (pyhmmer without it prints tiny numbers). The caller's thread keeps its own FP mode."""
    with HMMFile(example_models["SMC_N"]) as f:
        consensus = next(iter(f)).consensus.upper()
    rng = np.random.default_rng(3)
    background = [(f"bg{i}", s) for i, s in enumerate(random_proteins(rng, 50))]
    records = [("strong", consensus), *background]
    seqs = write_fasta(tmp_path / "strong.fa", records)
    _core.set_flush_denormals(False)  # as a caller has it (importing pyhmmer <= 0.11.1 sets it)
    res, tbl, dom, _ = run_ours(example_models["SMC_N"], seqs, {})
    ref_tbl, ref_dom, _ = hmmsearch_332(example_models["SMC_N"], seqs, [], tmp_path)
    assert ref_tbl[0][4] == "0"  # the case is exercised: hmmsearch flushed the E-value
    assert tbl == ref_tbl and dom == ref_dom
    assert keeps_denormals()  # no flush-to-zero leaked to this thread


def test_evalues_under_dbl_min_print_as_hmmsearch_prints_them(example_models, tmp_path):
    """Patched (Pfam, M = 803) against prefixes of its consensus, whose scores (1000-1070
    bits) put exp(lnP) between the smallest subnormal and DBL_MIN: hmmsearch flushes those
    E-values to 0, normal ones that exp(lnP) * Z made from a subnormal too. Every output of
    ours must print them as hmmsearch does (before the fix: 3.6e-318, 2e-306...)."""
    hmm = example_models["Patched"]
    with HMMFile(hmm) as f:
        consensus = next(iter(f)).consensus.upper()
    rng = np.random.default_rng(7)
    records = [(f"bg{i}", s) for i, s in enumerate(random_proteins(rng, 150))]
    records += [(f"cons{n}", plant(rng, consensus[:n], 30)) for n in range(640, 730, 4)]
    seqs = write_fasta(tmp_path / "prefixes.fa", records)
    _core.set_flush_denormals(False)
    res, tbl, dom, text = run_ours(hmm, seqs, {})
    ref_pfam = tmp_path / "ref.pfam"
    ref_tbl, ref_dom, ref_text = hmmsearch_332(hmm, seqs, ["--pfamtblout", ref_pfam], tmp_path)
    flushed = [r[0] for r in ref_tbl if r[4] == "0"]
    assert 3 <= len(flushed) < len(ref_tbl)  # the case is exercised, and not everything is 0
    assert tbl == ref_tbl
    assert dom == ref_dom
    assert report_body(text) == report_body(ref_text)
    pfam = io.StringIO()
    res.write_pfamtblout(pfam)
    assert _without_trailer(pfam.getvalue()) == _without_trailer(ref_pfam.read_text())
    hits = res.hits.set_index("target_name")
    assert (hits.loc[flushed, ["evalue", "best_domain_evalue"]] == 0).all().all()
    unflushed = [r[0] for r in ref_tbl if r[4] != "0"]
    assert (hits.loc[unflushed, "evalue"] >= np.finfo(float).tiny).all()
    doms = res.domains.set_index("target_name")
    assert (doms.loc[flushed, ["evalue", "c_evalue", "i_evalue"]] == 0).all().all()
    assert keeps_denormals()  # the caller's thread keeps its own mode


# ---- options hmmsearch's own test suite uses: --nonull2, --seed, -A, --pfamtblout -----------

SEVENLESS = REPO / "examples" / "7LESS_DROME.fa"


@pytest.mark.parametrize(
    "hmm, seqs, args, kwargs",
    [
        (TUTORIAL / "fn3.hmm", SEVENLESS, ["--nonull2"], {"null2": False}),
        (TUTORIAL / "globins4.hmm", TUTORIAL / "globins45.fa", ["--nonull2"], {"null2": False}),
        (TUTORIAL / "fn3.hmm", SEVENLESS, ["--seed", "1"], {"seed": 1}),
    ],
    ids=["nonull2-fn3", "nonull2-globins4", "seed-fn3"],
)
def test_nonull2_and_seed_equal_hmmsearch(hmm, seqs, args, kwargs, tmp_path):
    check_equal_to_references(hmm, seqs, args, kwargs, tmp_path)
    # The option changes hmmsearch's result here, so ignoring it could not pass.
    default_tbl, default_dom, _ = hmmsearch_332(hmm, seqs, [], tmp_path)
    ref_tbl, ref_dom, _ = hmmsearch_332(hmm, seqs, args, tmp_path)
    assert (default_tbl, default_dom) != (ref_tbl, ref_dom)


def test_seed_zero_is_a_one_time_seed():
    res = gpuseq.hmmsearch(TUTORIAL / "fn3.hmm", SEVENLESS, seed=0)
    assert list(res.hits.target_name) == ["7LESS_DROME"]
    text = io.StringIO()
    res.write_text(text)
    assert "# random number seed:              one-time arbitrary\n" in text.getvalue()
    with pytest.raises(ValueError, match="seed"):
        gpuseq.hmmsearch(TUTORIAL / "fn3.hmm", SEVENLESS, seed=-1)


def _without_trailer(text: str) -> str:
    """A table without the '# Program:' ... '# [ok]' block (program, paths, date differ)."""
    return text[: text.index("#\n# Program:")]


def _without_author(text: str) -> list[str]:
    """A Stockholm file without its '#=GF AU' lines (the program that made it)."""
    return [line for line in text.splitlines() if not line.startswith("#=GF AU")]


@pytest.mark.parametrize("textw", [120, 0], ids=["stockholm", "notextw-pfam"])
def test_alignment_and_pfam_table_equal_hmmsearch(example_models, textw, tmp_path):
    """fn3 (9 domains, 7 included), Pkinase (1) and globins4 (none included) against
    7LESS_DROME: -A's alignments, the report's lines about them, and --pfamtblout."""
    hmm = tmp_path / "three.hmm"
    hmm.write_text("".join(example_models[m].read_text() for m in ("fn3", "Pkinase", "globins4")))
    ref_sto, ref_pfam = tmp_path / "ref.sto", tmp_path / "ref.pfam"
    args = ["-A", str(ref_sto), "--pfamtblout", str(ref_pfam)]
    args += ["--notextw"] if textw == 0 else []
    _, _, ref_text = hmmsearch_332(hmm, SEVENLESS, args, tmp_path)

    res = gpuseq.hmmsearch(hmm, SEVENLESS)
    sto, pfam, text = io.StringIO(), io.StringIO(), io.StringIO()
    res.write_alignments(sto, textw=textw)
    res.write_pfamtblout(pfam)
    res.write_text(text, textw=textw, alignment_file=ref_sto)

    assert ref_sto.read_text().count("# STOCKHOLM 1.0") == 2  # globins4 has no included hit
    assert _without_author(sto.getvalue()) == _without_author(ref_sto.read_text())
    assert _without_trailer(pfam.getvalue()) == _without_trailer(ref_pfam.read_text())

    def about_alignments(report):
        return [x for x in report.splitlines() if x.startswith(("# Alignment", "# No hits"))]

    assert about_alignments(text.getvalue()) == about_alignments(ref_text)
    assert len(about_alignments(ref_text)) == 3
    assert report_body(text.getvalue()) == report_body(ref_text)


def test_api_options_show_in_the_report_header_as_hmmsearch_shows_them(tmp_path):
    """The header of write_text() comes from the options object: the same lines as hmmsearch
    prints for the flags that set the same values."""
    from test_cli import header_options

    hmm = TUTORIAL / "fn3.hmm"
    kwargs = dict(E=1, domE=0.5, incE=1e-3, F1=0.05, bias_filter=False, null2=False, seed=7, Z=9)
    args = ["-E", "1", "--domE", "0.5", "--incE", "1e-3", "--F1", "0.05", "--nobias"]
    args += ["--nonull2", "--seed", "7", "-Z", "9"]
    res, tbl, dom, text = run_ours(hmm, SEVENLESS, kwargs)
    ref_tbl, ref_dom, ref_text = hmmsearch_332(hmm, SEVENLESS, args, tmp_path)
    ours = [x for x in header_options(text) if "worker threads" not in x]
    refs = [x for x in header_options(ref_text) if "worker threads" not in x and "tabular" not in x]
    assert ours[2:] == refs[2:] and len(refs) == 2 + len(kwargs)  # after query/target lines
    assert (tbl, dom) == (ref_tbl, ref_dom)


def test_options_are_the_keyword_arguments_of_hmmsearch():
    import inspect
    from dataclasses import fields

    params = inspect.signature(gpuseq.hmmsearch).parameters
    for f in fields(gpuseq.HmmsearchOptions):
        assert params[f.name].default == f.default, f.name
    with pytest.raises(TypeError, match="unexpected keyword argument 'incdome'"):
        gpuseq.hmmsearch(TUTORIAL / "fn3.hmm", SEVENLESS, incdome=1.0)
