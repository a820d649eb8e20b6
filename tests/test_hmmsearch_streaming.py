"""Survivors go to HMMER's downstream chunk by chunk while the filters go on: the results of a
search cut into many small chunks equal hmmsearch's, and the memory a search needs does not
grow with the database."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import gpuseq
from conftest import HMMER_EXAMPLES, REPO
from synthetic import random_proteins, write_fasta
from test_hmmsearch import check_equal_to_references, near_threshold_db  # noqa: F401 (fixture)

THREE = ("fn3", "globins4", "Pkinase")


@pytest.mark.parametrize(
    "name, args, kwargs",
    [
        ("default", [], {}),
        # E-value thresholds that cut through the hits: each chunk's part runs with the targets
        # counted so far as Z, the final Z must decide (reported, included, domZ).
        (
            "E-cuts",
            ["-E", "1e-3", "--incE", "1e-8", "--domE", "1e-2"],
            {"E": 1e-3, "incE": 1e-8, "domE": 1e-2},
        ),
        ("Z", ["-Z", "1000"], {"Z": 1000}),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_many_small_chunks_equal_hmmsearch(
    example_models,
    near_threshold_db,  # noqa: F811 (the fixture imported above)
    tmp_path,
    name,
    args,
    kwargs,
):
    """About 90 chunks of 16 kB: more finished parts per query than _Downstream keeps before
    merging them, so the merges with the running Z are exercised."""
    queries = tmp_path / "three.hmm"
    queries.write_text("".join(example_models[m].read_text() for m in THREE))
    res = check_equal_to_references(
        queries, near_threshold_db, args, kwargs, tmp_path, block_bytes=16_000
    )
    assert (res.pipeline.n_past_fwd > 0).all()


# Peak RSS from VmHWM: this process's own high-water mark (ru_maxrss carries the parent's
# over fork + exec, and the parent here is pytest).
PEAK_SCRIPT = """
import json, re, sys
import gpuseq
res = gpuseq.hmmsearch(sys.argv[1], sys.argv[2], cpus=2, max=True, block_bytes=1 << 18,
                       backend="cpu")
status = open("/proc/self/status").read()
print(json.dumps({"peak_kb": int(re.search(r"VmHWM:\\s+(\\d+)", status).group(1)),
                  "nseqs": int(res.pipeline.nseqs[0]), "fwd": int(res.pipeline.n_past_fwd[0])}))
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux's /proc")
@pytest.mark.skipif(
    "libasan" in os.environ.get("LD_PRELOAD", ""),
    reason="AddressSanitizer keeps freed memory in quarantine: the peak measures it, not us",
)
def test_memory_does_not_grow_with_the_database(example_models, tmp_path):
    """--max sends every target through Forward. Before survivors were streamed, all of them
    were held until the end (a 20-million-residue database peaked at 226 MB, growing with it);
    now 10x the targets must not move the peak by more than a few MB."""
    rng = np.random.default_rng(5)
    script = tmp_path / "peak.py"
    script.write_text(PEAK_SCRIPT)
    peaks = {}
    for n in (6_000, 60_000):
        fasta = write_fasta(
            tmp_path / f"db{n}.fa",
            [(f"s{i}", s) for i, s in enumerate(random_proteins(rng, n, mean_length=120))],
        )
        out = subprocess.run(
            [sys.executable, str(script), str(example_models["RRM_1"]), str(fasta)],
            check=True,
            capture_output=True,
            text=True,
            cwd=REPO,
        ).stdout
        record = json.loads(out.strip().splitlines()[-1])
        assert record["nseqs"] == n and record["fwd"] == n  # every target went downstream
        peaks[n] = record["peak_kb"] / 1024
    growth = peaks[60_000] - peaks[6_000]
    # Holding every survivor costs >= 40 MB here (54,000 more pyhmmer sequences of ~120
    # residues, ~1 kB each with their ESL_SQ); streamed, the growth is noise.
    assert growth < 16, f"peak grew by {growth:.1f} MB for 10x the targets ({peaks})"


def test_a_held_database_keeps_its_chunks_resident():
    """A SequenceDatabase the caller holds shares one dict of device copies among its chunk
    views (the GPU search fills it; see tests/test_gpu_filters.py), and can drop them."""
    db = gpuseq.SequenceDatabase.from_records(
        [(f"s{i}", "ACDEFGHIKLMNPQRSTVWY" * 3) for i in range(100)]
    )
    views = list(db.chunks(600, resident=True))
    assert len(views) > 1
    assert all(v.device_copies is db.device_copies for v in views)
    assert len({v.device_key for v in views}) == len(views)
    assert [v.device_key[0] for v in views][0] == 0 and views[-1].device_key[1] == len(db)
    db.device_copies[views[0].device_key] = "copy"
    db.free_device_memory()
    assert db.device_copies == {}
    # Views not asked to be resident carry no dict: a search over a file drops its copies.
    assert all(v.device_copies is None for v in db.chunks(600))


def test_an_error_in_a_later_chunk_names_its_line(example_models, tmp_path):
    """The next FASTA chunk is parsed on a thread while this one is searched: an error in it
    still reaches the caller as the typed error naming the file, line and record, and no
    reading thread is left behind."""
    import threading

    rng = np.random.default_rng(9)
    records = [(f"s{i}", s) for i, s in enumerate(random_proteins(rng, 3000, mean_length=100))]
    fasta = write_fasta(tmp_path / "db.fa", records)
    lines = fasta.read_text().splitlines()
    header = next(i for i, line in enumerate(lines) if line == ">s2500")
    lines[header + 1] = "AC1" + lines[header + 1][3:]
    fasta.write_text("\n".join(lines) + "\n")
    before = threading.active_count()
    with pytest.raises(gpuseq.AlphabetError) as err:
        gpuseq.hmmsearch(example_models["globins4"], fasta, backend="cpu", block_bytes=20_000)
    assert (err.value.path, err.value.line, err.value.record) == (str(fasta), header + 2, "s2500")
    assert threading.active_count() == before


def test_models_joining_while_the_first_chunk_is_filtered_equal_hmmsearch(
    example_models,
    near_threshold_db,  # noqa: F811 (the fixture imported above)
    tmp_path,
    monkeypatch,
):
    """The models are read on a thread and the first chunk's filters start on those read so
    far. Here they arrive one at a time, each compiled slowly, so that the first chunk runs
    model by model as they come and later chunks run them all: hmmsearch's results."""
    import importlib
    import time

    hs = importlib.import_module("gpuseq.hmmsearch")  # (gpuseq.hmmsearch is the function)

    compile_profile = hs.search_profile

    def slow_profile(hmm):
        time.sleep(0.05)
        return compile_profile(hmm)

    monkeypatch.setattr(hs, "search_profile", slow_profile)
    monkeypatch.setattr(hs._ModelStream, "BATCH_LIMIT", 1)
    queries = tmp_path / "three.hmm"
    queries.write_text("".join(example_models[m].read_text() for m in THREE))
    check_equal_to_references(queries, near_threshold_db, [], {}, tmp_path, block_bytes=64_000)


def test_a_malformed_later_model_is_reported_after_the_search_began(example_models, tmp_path):
    """The third model is cut short: the search started on the first two, and the error
    still names the file, the model by its place and the model before it."""
    text = "".join(example_models[m].read_text() for m in THREE)
    cut = text.rindex("HMM ")  # the third model's main model section, cut inside it
    queries = tmp_path / "three-cut.hmm"
    queries.write_text(text[: cut + 400])
    with pytest.raises(gpuseq.HmmFormatError, match="three-cut.hmm: model 3 "
                       f"\\(after '{THREE[1]}'\\): ") as err:  # fmt: skip
        gpuseq.hmmsearch(queries, REPO / "examples" / "globins45.fa", cpus=2)
    assert "COMPO line" in err.value.message  # (HMMER's parser's words)


@pytest.mark.parametrize("source", ["database", "fasta"])
def test_each_query_is_given_as_it_becomes_final_in_query_order(
    example_models,
    near_threshold_db,  # noqa: F811 (the fixture imported above)
    tmp_path,
    source,
):
    """on_query: from a packed database, each query as soon as its last chunk's survivors
    are through (here the longest model, listed last, is filtered first); from a FASTA file
    at the end. Either way in query order, once each, with the very TopHits the search
    returns, its counters those of the whole search."""
    import importlib

    hs = importlib.import_module("gpuseq.hmmsearch")  # (gpuseq.hmmsearch is the function)
    queries = tmp_path / "three.hmm"
    queries.write_text("".join(example_models[m].read_text() for m in THREE))
    targets = near_threshold_db
    if source == "database":
        targets = tmp_path / "near.gsdb"
        gpuseq.makedb(near_threshold_db, targets)
    finished, given = [], []
    final = hs._Downstream.finalize

    def recording_finalize(self, q, nseqs, counters):
        finished.append(q)
        final(self, q, nseqs, counters)

    def on_query(result):
        assert len(result.top_hits) == 1
        given.append(result.top_hits[0])

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(hs._Downstream, "finalize", recording_finalize)
        res = gpuseq.hmmsearch(queries, targets, cpus=2, block_bytes=16_000, on_query=on_query)
    assert len(given) == len(res.top_hits) == 3
    assert all(a is b for a, b in zip(given, res.top_hits))
    # From the database, each query is final when its last chunk's survivors are submitted,
    # Pkinase (M = 260) first; from FASTA, all of them at the end.
    assert finished == ([2, 1, 0] if source == "database" else [0, 1, 2])
    assert res.pipeline["nseqs"].tolist() == [4450] * 3


def test_an_error_in_on_query_reaches_the_caller(example_models, tmp_path):
    """The callback runs on a thread of its own: what it raises is raised by hmmsearch."""
    queries = tmp_path / "two.hmm"
    queries.write_text("".join(example_models[m].read_text() for m in ("fn3", "globins4")))

    given = []

    def on_query(result):
        given.append(result)
        if len(given) == 2:
            raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        gpuseq.hmmsearch(queries, REPO / "examples" / "globins45.fa", cpus=2, on_query=on_query)
    assert len(given) == 2


def test_cli_writes_each_query_as_it_becomes_final_equal_to_hmmsearch(
    example_models,
    near_threshold_db,  # noqa: F811 (the fixture imported above)
    tmp_path,
):
    """`gpuseq hmmsearch` on a packed database writes the report, the tables and -A a query
    at a time (HmmsearchWriter): the same as hmmsearch's for three models."""
    from synthetic import require_tool
    from test_hmmsearch import report_body, rows, same_rows

    queries = tmp_path / "three.hmm"
    queries.write_text("".join(example_models[m].read_text() for m in THREE))
    db = tmp_path / "near.gsdb"
    gpuseq.makedb(near_threshold_db, db)
    outputs = ["-o", "out", "--tblout", "tbl", "--domtblout", "dom", "-A", "sto"]

    def files(prefix):
        return [a if a.startswith("-") else str(tmp_path / f"{prefix}.{a}") for a in outputs]

    subprocess.run([sys.executable, "-m", "gpuseq.cli", "hmmsearch", "--cpu", "2",
                    *files("ours"), queries, db], check=True, capture_output=True)
    subprocess.run([require_tool("hmmsearch"), "--cpu", "2", *files("ref"), queries,
                    near_threshold_db], check=True, capture_output=True)

    def read(prefix, ext):
        return (tmp_path / f"{prefix}.{ext}").read_text()

    ours, ref = read("ours", "out"), read("ref", "out")
    assert report_body(ours) == report_body(ref)
    assert ours.count("# Alignment of ") == ref.count("# Alignment of ") == 3
    assert ours.splitlines()[-1] == ref.splitlines()[-1] == "[ok]"
    for ext in ("tbl", "dom"):
        assert same_rows(rows(read("ours", ext)), rows(read("ref", ext)))
        assert read("ours", ext).splitlines()[-1] == "# [ok]"
    stockholm = [line.split()[-1] for line in read("ours", "sto").splitlines()
                 if line.startswith("#=GF ID")]
    assert stockholm == [line.split()[-1] for line in read("ref", "sto").splitlines()
                         if line.startswith("#=GF ID")] == list(THREE)


def test_the_first_model_of_a_gpu_search_runs_alone(monkeypatch):
    """On the GPU the search's first model (the longest) runs alone, then the others several
    at once: HMMER's downstream, idle until then, starts on its survivors while the others are
    filtered. Later chunks keep them all in flight. (The cascade is a stand-in here: the
    scheduling alone is checked; the GPU tests check the results.)"""
    import importlib
    import threading
    import time
    from types import SimpleNamespace

    hs = importlib.import_module("gpuseq.hmmsearch")  # the module (gpuseq.hmmsearch: the function)
    lock = threading.Lock()
    running: list[int] = []
    started: list[tuple[int, tuple[int, ...]]] = []  # (model, models running as it started)

    def cascade(self, q, residues, offsets, targets, threads):
        with lock:
            started.append((q, tuple(running)))
            running.append(q)
        time.sleep(0.05)
        with lock:
            running.remove(q)
        return {"model": q}

    monkeypatch.setattr(hs._Filters, "_cascade", cascade)
    filters = hs._Filters("cuda", 0.02, 1e-3, True)
    filters.profiles = [SimpleNamespace(M=M) for M in (100, 300, 200)]
    filters.gpu = [SimpleNamespace(sequences_per_warp=1) for _ in range(3)]
    chunk = SimpleNamespace(residues=None, offsets=np.array([0, 5]), device_copies=None)
    targets = object()  # an uploaded chunk

    order = [q for q, r in filters.run(chunk, targets, 1, [range(3)], first_alone=True)]
    assert order == [1, 2, 0]  # longest first
    assert started[0] == (1, ())
    assert all(1 not in running_then for q, running_then in started[1:])

    started.clear()
    order = [q for q, r in filters.run(chunk, targets, 1, [range(3)], first_alone=False)]
    assert order == [1, 2, 0]
    assert sorted(q for q, _ in started) == [0, 1, 2]


def test_split_by_cost_gives_contiguous_parts_of_about_equal_work():
    import importlib
    import itertools

    hs = importlib.import_module("gpuseq.hmmsearch")
    rng = np.random.default_rng(7)
    cases = [(1, 16), (5, 16), (40, 4), (94, 16), (300, 16)]
    for (n_items, parts), long_first in itertools.product(cases, (False, True)):
        items = list(range(n_items))
        costs = list(rng.uniform(0.001, 0.06, n_items))
        if long_first:
            costs[0] = 0.5  # one long target first: the pieces after it take shares of the rest
        for min_cost in (0.01, 0.05, 0.3):
            pieces = hs._split_by_cost(items, costs, min_cost, parts)
            assert [i for piece in pieces for i in piece] == items  # contiguous, in order
            total = sum(costs)
            n = max(1, min(parts, n_items, int(total / min_cost)))
            assert len(pieces) <= n and all(pieces)
            # Each piece before the last takes at least its share of the cost left, and ends
            # at the item that takes it there: at most a share of the total and that item.
            left, pieces_left = total, n
            for piece in pieces:
                cost = sum(costs[i] for i in piece)
                assert cost <= total / n + max(costs) + 1e-12
                if piece is not pieces[-1]:
                    assert cost >= left / pieces_left - 1e-12
                    assert cost - costs[piece[-1]] < left / pieces_left
                left, pieces_left = left - cost, pieces_left - 1
            if max(costs) <= total / n / 2:  # small items: (nearly) every piece is there
                assert len(pieces) >= n - 1
    assert hs._split_by_cost([], [], 0.05, 16) == []
    assert hs._split_by_cost(["a", "b"], [0.001, 0.001], 0.05, 16) == [["a", "b"]]


def test_survivors_past_the_forward_bound_go_in_parts_of_equal_work(monkeypatch):
    """Past the GPU's Forward bound nearly every survivor is a hit, whose domain definition
    costs with M x L: a long model's survivors go in a part a thread, of about equal work,
    a short model's few in one part (each part costs a few ms more, much of it holding the
    GIL). Survivors without the bound go by count. (A stand-in for HMMER's downstream: the
    search tests check the results.)"""
    import importlib
    import threading
    from types import SimpleNamespace

    from gpuseq.hmmsearch_options import HmmsearchOptions

    hs = importlib.import_module("gpuseq.hmmsearch")
    lock = threading.Lock()
    seen: dict[str, list] = {}

    def downstream(hmm, part, options, Z, positions=None):
        with lock:
            seen.setdefault(hmm.name, []).append(list(part))
        return part

    monkeypatch.setattr(hs, "_run_hmmer_downstream", downstream)
    ds = hs._Downstream(HmmsearchOptions(), threads=4)
    try:
        for name, M in (("long", 1142), ("short", 71), ("unbounded", 71)):
            ds.add(SimpleNamespace(name=name, M=M))
        long_hits = ["x" * 5000] + ["x" * 1300] * 39  # one long target, then 39 alike
        ds.submit(0, long_hits, 1000, bounded=True)
        ds.submit(1, ["x" * 200] * 20, 1000, bounded=True)
        ds.submit(2, ["x" * 200] * 200, 1000, bounded=False)
        for futures in ds.parts:
            for future in futures:
                future.result()
    finally:
        ds.close()
    parts = seen["long"]
    assert len(parts) == 4 and sum(len(p) for p in parts) == 40
    (first,) = [p for p in parts if p[0] == "x" * 5000]
    assert len(first) < 10  # the long target's part holds fewer targets
    assert seen["short"] == [["x" * 200] * 20]  # ~45 ms of work: one part
    assert sorted(len(p) for p in seen["unbounded"]) == [50, 50, 50, 50]  # by count


def test_a_part_that_ends_while_the_parts_are_merged_keeps_its_hits(monkeypatch):
    """end_chunk merges a query's finished parts and keeps the others. A part that ended
    while it looked was in neither list before, and its hits were lost: under load, a
    search with many parts a query (--max, small blocks) missed the last 32-96 targets of
    its last model, one run in a few (api_fuzz.py, session 69). A stand-in part that ends
    between two looks; stand-in TopHits (lists)."""
    import importlib
    from concurrent.futures import Future
    from types import SimpleNamespace

    from gpuseq.hmmsearch_options import HmmsearchOptions

    hs = importlib.import_module("gpuseq.hmmsearch")

    class EndsAfterFirstLook(Future):
        looks = 0

        def done(self):
            self.looks += 1
            if self.looks == 2:
                self.set_result(["late"])
            return super().done()

    def finished(hits):
        future = Future()
        future.set_result(hits)
        return future

    monkeypatch.setattr(hs, "_merged", lambda parts, Z: [h for part in parts for h in part])
    ds = hs._Downstream(HmmsearchOptions(), threads=1)
    try:
        ds.add(SimpleNamespace(name="q", M=10))
        ds.MERGE_AFTER = 2
        late = EndsAfterFirstLook()
        ds.parts[0] = [finished(["a"]), finished(["b"]), late, finished(["c"])]
        ds.end_chunk(100)
        late.done()  # (ended by now, if it did not end inside end_chunk)
        kept = [p.result() if isinstance(p, Future) else p for p in ds.parts[0]]
    finally:
        ds.close()
    assert sorted(h for part in kept for h in part) == ["a", "b", "c", "late"]


def test_the_models_gpu_tables_are_made_side_by_side_as_they_are_read(example_models, tmp_path,
                                                                       monkeypatch):
    """On the GPU each model's tables (its kernels, compiled for seconds where the disk cache
    has none) are started on a pool as soon as the model is read, not one after another when
    the filters reach it: here three stand-in tables of 0.3 s each are all under way at once,
    and the filters get each model's own. (A stand-in: the GPU tests check the tables.)"""
    import importlib
    import threading
    import time
    from concurrent.futures import ThreadPoolExecutor

    hs = importlib.import_module("gpuseq.hmmsearch")  # the module (gpuseq.hmmsearch: the function)
    lock = threading.Lock()
    running, most = [0], [0]

    def tables(profile):
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.3)
        with lock:
            running[0] -= 1
        return ("tables of", profile.M)

    monkeypatch.setattr(hs, "_gpu_tables", tables)
    queries = tmp_path / "three.hmm"
    queries.write_text("".join(example_models[m].read_text() for m in THREE))
    with ThreadPoolExecutor(4) as pool:
        models = hs._ModelStream(queries, None, pool)
        triples = [t for batch in models.batches(models.first()) for t in batch]
        filters = hs._Filters("cuda", 0.02, 1e-3, True)
        for _, profile, gpu in triples:
            filters.add(profile, gpu)
        made = [filters._tables(q) for q in range(len(triples))]
    assert most[0] == 3
    assert made == [("tables of", profile.M) for _, profile, _ in triples]
    assert [hmm.name for hmm, _, _ in triples] == list(THREE)


def test_a_later_models_error_read_after_the_first_batch_comes_after_it(example_models,
                                                                          tmp_path, monkeypatch):
    """The first batch taken (first()) holds two models, and the third model's error is read
    before the search asks for more (batches()): the two are still searched, and the error
    raised after them. (The error was raised at once, and the two models were lost:
    test_cli's test_the_models_before_one_that_cannot_be_searched_are_written failed about
    one run in twelve.)"""
    import importlib
    import threading

    from gpuseq.errors import HmmFormatError

    hs = importlib.import_module("gpuseq.hmmsearch")
    read = hs.iter_hmms
    two_handed, go_on = threading.Event(), threading.Event()

    def then_an_error(source):
        for i, hmm in enumerate(read(source)):
            if i == 2:
                two_handed.set()
                go_on.wait(10)
                raise HmmFormatError("three.hmm", None, "Expected amino alphabet")
            yield hmm

    monkeypatch.setattr(hs, "iter_hmms", then_an_error)
    queries = tmp_path / "three.hmm"
    queries.write_text("".join(example_models[m].read_text() for m in THREE))
    models = hs._ModelStream(queries, None)
    assert two_handed.wait(10)
    taken = models.first()
    assert [hmm.name for hmm, _, _ in taken] == list(THREE[:2])
    (reader,) = [t for t in threading.enumerate() if t.name == "gpuseq-models"]
    go_on.set()
    reader.join(timeout=10)  # the error handed over
    batches = models.batches(taken)
    assert [hmm.name for hmm, _, _ in next(batches)] == list(THREE[:2])
    with pytest.raises(HmmFormatError, match="Expected amino alphabet"):
        next(batches)


def test_the_thread_that_reads_the_models_frees_no_gpu_tables(example_models, tmp_path,
                                                              monkeypatch):
    """A search that ends while its models are still read (an error, or the caller stops)
    drops the models' GPU tables at once; the reading thread, which ends later, holds none
    of them, so none is freed on it (a thread that frees GPU memory and then ends may hang
    the driver: backend.cuda_threads). Stand-in tables record the thread they are freed on."""
    import gc
    import importlib
    import threading
    from concurrent.futures import ThreadPoolExecutor, wait

    hs = importlib.import_module("gpuseq.hmmsearch")
    freed_on: list[str] = []

    class Tables:
        def __del__(self):
            freed_on.append(threading.current_thread().name)

    read = hs.iter_hmms
    asked_for_third, go_on = threading.Event(), threading.Event()

    def slowly(source):  # the third model comes from a pipe that waits
        for i, hmm in enumerate(read(source)):
            if i == 2:
                asked_for_third.set()
                go_on.wait(10)
            yield hmm

    monkeypatch.setattr(hs, "iter_hmms", slowly)
    monkeypatch.setattr(hs, "_gpu_tables", lambda profile: Tables())
    queries = tmp_path / "three.hmm"
    queries.write_text("".join(example_models[m].read_text() for m in THREE))
    with ThreadPoolExecutor(2) as pool:
        models = hs._ModelStream(queries, None, pool)
        first = models.first()
        assert asked_for_third.wait(10)  # the first two handed over
        (reader,) = [t for t in threading.enumerate() if t.name == "gpuseq-models"]
        # Both models' tables made before the search ends (close() cancels those not started:
        # on a loaded machine the second one at times, and then it is never made).
        wait(list(models._handoff.started))
        models.close()
        del models, first
        gc.collect()
        assert freed_on == ["MainThread", "MainThread"], freed_on
        go_on.set()
        reader.join(timeout=10)
        assert not reader.is_alive()
    gc.collect()
    assert freed_on == ["MainThread", "MainThread"], freed_on


def test_a_threads_kept_pipeline_gives_what_a_new_one_gives(example_models):
    """Each downstream thread keeps its pyhmmer Pipeline from part to part (cleared between
    them). A part run after others on the same thread (a longer target grew its matrices, an
    earlier part passed Forward) gives the hits, domains, counters and settings of a new
    Pipeline, two-domain targets included."""
    import importlib

    from pyhmmer.easel import Alphabet, DigitalSequenceBlock, TextSequence
    from pyhmmer.plan7 import HMMFile, Pipeline

    from gpuseq._pyhmmer_state import pipeline_state
    from gpuseq.hmmsearch_options import HmmsearchOptions
    from synthetic import hmmemit, mutate, plant

    hs = importlib.import_module("gpuseq.hmmsearch")
    with HMMFile(example_models["Pkinase"]) as f:
        hmm = next(iter(f))
    rng = np.random.default_rng(11)
    emitted = hmmemit(example_models["Pkinase"], 12, seed=5)
    texts = [plant(rng, e) for e in emitted[:4]]  # one domain
    texts += [plant(rng, a) + plant(rng, mutate(rng, b, 0.3))  # two
              for a, b in zip(emitted[4:8], emitted[8:12], strict=True)]
    texts += random_proteins(rng, 4, mean_length=300)  # no hit
    abc = Alphabet.amino()
    seqs = [TextSequence(name=f"t{i}".encode(), sequence=s).digitize(abc)
            for i, s in enumerate(texts)]
    options = HmmsearchOptions()
    parts = [seqs[4:8] + seqs[:2], seqs[2:4] + seqs[8:], seqs[5:7]]

    def described(top):
        hits = [(h.name, h.score, h.bias, h.evalue,
                 [(d.env_from, d.env_to, d.score, d.bias, d.c_evalue, d.i_evalue,
                   d.alignment.hmm_from, d.alignment.target_from) for d in h.domains])
                for h in top]
        # Every counter and setting, but those a protein search leaves unset (arbitrary in a
        # new pyhmmer Pipeline): its output counts and nhmmer's strands and block length.
        unset = {"n_output", "pos_output", "strands", "block_length"}
        return hits, {k: v for k, v in pipeline_state(top).items() if k not in unset}

    kept = [hs._run_hmmer_downstream(hmm, part, options, 1000) for part in parts]
    for part, top in zip(parts, kept, strict=True):
        new = Pipeline(abc, F1=1.0, F2=1.0, Z=1000.0).search_hmm(
            hmm, DigitalSequenceBlock(abc, part))
        assert described(top) == described(new)
    assert sum(len(h.domains) for h in kept[0]) >= 8  # the two-domain targets were found


# ---- the GPU path's threads on the way out --------------------------------------------------

# hmmsearch's GPU path with its threads but no GPU: the search believes it has one, the CUDA
# start and the uploads are stand-ins (a CUDA-only host runs the real ones in the GPU tests).
# The targets are a pipe the test holds open.
_GPU_PATH_ON_A_PIPE = """
import importlib, sys, time
import gpuseq
hs = importlib.import_module("gpuseq.hmmsearch")
hs.resolve_backend = lambda requested, algorithm: "cuda"
hs.start_cuda = lambda name: None
hs._GpuChunks.__call__ = lambda self, chunks: ((chunk, None) for chunk in chunks)
start = time.perf_counter()
try:
    gpuseq.hmmsearch(sys.argv[1], "-", block_bytes=1 << 16)
except Exception as exc:
    print(type(exc).__name__, round(time.perf_counter() - start, 1), flush=True)
"""


@pytest.mark.parametrize("case", ["missing model file", "target too long"])
def test_an_error_does_not_wait_for_a_pipe_that_gives_nothing_more(example_models, tmp_path,
                                                                    case):
    """On the GPU path the targets are read on a thread while the models are read, and the
    uploads on another thread reading that one. An error (the model file's; a target too
    long, in the pipe's first part) is raised while the pipe is still open and silent: the
    first block of a pipe was read on the caller's thread before its models were checked,
    and closing the two threads waited for the pipe to give more."""
    hmm = tmp_path / "missing.hmm" if case == "missing model file" else example_models["globins4"]
    # (zlib, which reads plain text too, waits for 1 MB of a pipe, or its end, at first)
    first_part = b"" if case == "missing model file" else (
        b">long\n" + b"ACDEFGHIKL" * 10_001 + b"\n>next\nACDEF\n>pad\n" + b"A" * 1_200_000
    )
    process = subprocess.Popen(
        [sys.executable, "-c", _GPU_PATH_ON_A_PIPE, str(hmm)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    import threading

    pipe_end = threading.Timer(20, process.stdin.close)  # a search that waits for it fails
    try:
        process.stdin.write(first_part)
        process.stdin.flush()
        pipe_end.start()
        line = process.stdout.readline().decode()  # while the pipe stays open
    finally:
        pipe_end.cancel()
        if not process.stdin.closed:
            process.stdin.close()
        process.wait(timeout=60)
    name, seconds = line.split()
    assert name == {"missing model file": "InputError", "target too long":
                    "SequenceTooLongError"}[case]
    assert float(seconds) < 10


def test_the_cuda_start_runs_on_a_kept_thread(monkeypatch):
    """The CUDA context is made on a kept thread (backend.cuda_threads: threads that used
    CUDA never end before the process; one ending hung the driver now and then), which
    makes it again for the next start."""
    import threading

    from gpuseq import backend

    seen = []
    monkeypatch.setattr(backend._core, "cuda_initialize",
                        lambda wait: seen.append(threading.current_thread()))
    backend.start_cuda("gpuseq-cuda-test").result(timeout=60)
    backend.start_cuda("gpuseq-cuda-test").result(timeout=60)
    assert len(seen) == 2 and seen[0] is seen[1] and seen[0].is_alive()


# The commands start CUDA before NumPy is imported; every write to the environment after the
# start is recorded (os.putenv, os.unsetenv: os.environ's writes go through them too).
_ENVIRONMENT_AFTER_THE_CUDA_START = """
import os, sys
from gpuseq import backend
assert "numpy" not in sys.modules
backend.start_cuda("gpuseq-cuda-environment-test")
writes = []
for name in ("putenv", "unsetenv"):
    def record(*args, _original=getattr(os, name), _name=name):
        writes.append((_name, args))
        return _original(*args)
    setattr(os, name, record)
import numpy, gpuseq.blast, gpuseq.hmmsearch, pyhmmer.plan7  # (the commands' imports)
print(writes)
"""


def test_nothing_writes_the_environment_while_the_driver_starts():
    """The driver reads the environment (getenv) as it starts on its thread, and glibc's
    putenv may move the array getenv walks: NumPy's first import wrote OPENBLAS_MAIN_FREE
    there, and `gpuseq blastp` crashed now and then on an H200. start_cuda sets the variable
    first, so nothing imported meanwhile writes the environment."""
    env = {k: v for k, v in os.environ.items() if not k.endswith("BLAS_MAIN_FREE")}
    run = subprocess.run([sys.executable, "-c", _ENVIRONMENT_AFTER_THE_CUDA_START],
                         capture_output=True, text=True, env=env, timeout=120)  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


# A task under way on a kept thread when the interpreter ends (a script whose search failed
# early while the CUDA context was being made); it writes argv[1] when done.
_KEPT_TASK_AT_EXIT = """
import sys, threading, time
from gpuseq import backend

def task():
    time.sleep(1.0)
    with open(sys.argv[1], "w") as f:
        f.write(str(threading.current_thread().daemon))

backend.cuda_threads("gpuseq-exit-test", 1).submit(task)
time.sleep(0.1)
"""


def test_the_interpreter_waits_at_exit_for_a_task_on_a_kept_thread(tmp_path):
    """Kept threads are daemons, so that the interpreter's exit does not end them (a thread
    that used CUDA ending beside the exit's own CUDA calls). The interpreter still waits for
    a task under way at exit: a daemon thread coming back from the driver while the
    interpreter ends is stopped inside C++, which aborts the process (a script whose search
    failed early, its error uncaught)."""
    done = tmp_path / "done"
    run = subprocess.run([sys.executable, "-c", _KEPT_TASK_AT_EXIT, str(done)],
                         capture_output=True, text=True, timeout=60)  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert done.read_text() == "True"


def test_the_models_thread_stops_when_the_search_ends_in_an_error(example_models, tmp_path,
                                                                  monkeypatch):
    """The models are read on a thread of their own. When the search ends in an error (here
    its target file is missing) that thread stops at the next model; it went on reading the
    whole model file (a Pfam of 20,000 models: minutes of one core, and every model kept)."""
    import importlib
    import time

    from gpuseq.hmm import read_hmms

    hs = importlib.import_module("gpuseq.hmmsearch")
    hmm = read_hmms(example_models["globins4"])[0]
    read = []

    def slow_models(source):
        for _ in range(500):  # a long model file
            time.sleep(0.01)
            read.append(1)
            yield hmm

    monkeypatch.setattr(hs, "iter_hmms", slow_models)
    with pytest.raises(gpuseq.InputError, match="no such file"):
        gpuseq.hmmsearch("many.hmm", tmp_path / "missing.fa", backend="cpu")
    at_error = len(read)
    time.sleep(0.5)
    assert len(read) <= at_error + 2


def test_the_gpu_paths_threads_that_call_cuda_outlive_the_search(example_models, tmp_path,
                                                                  monkeypatch):
    """Every thread of hmmsearch's GPU path that calls CUDA (the context's start, the
    uploads, the models' GPU tables, the cascades) is kept for the process's life
    (backend.cuda_threads): a thread that had used CUDA ending while other threads called it
    hung the driver now and then (a packed database searched in small chunks on an H200,
    benchmarks/results/gpu-h200-20261130-c). The cascades had a pool of threads per chunk,
    the uploads and the tables threads per search. Here with stand-ins for the CUDA calls
    (the CPU cascade inside), over two searches of eleven chunks: every thread that made one
    is still alive after them, the cascades ran on at most GPU_CASCADES_IN_FLIGHT threads,
    and the results are the CPU backend's."""
    import importlib
    import threading
    import types

    from gpuseq import _core

    hs = importlib.import_module("gpuseq.hmmsearch")
    used: dict[str, set] = {"start": set(), "upload": set(), "tables": set(), "cascade": set()}

    def on(role):
        used[role].add(threading.current_thread())

    def upload(residues, offsets):
        on("upload")
        return types.SimpleNamespace(residues=residues, offsets=offsets)

    def tables(profile):
        on("tables")
        return types.SimpleNamespace(profile=profile, sequences_per_warp=1)

    def cascade(gpu, chunk, *, F1, F2, bias_filter, threads, **_):
        on("cascade")
        return _core.run_cascade(gpu.profile, chunk.residues, chunk.offsets, F1, F2,
                                 bias_filter, threads)

    db = gpuseq.makedb(HMMER_EXAMPLES / "tutorial" / "globins45.fa", tmp_path / "db.gsdb")
    cpu = gpuseq.hmmsearch(example_models["globins4"], db, backend="cpu", cpus=2)
    monkeypatch.setattr(hs, "resolve_backend", lambda requested, algorithm: "cuda")
    monkeypatch.setattr(_core, "cuda_initialize", lambda wait: on("start"))
    monkeypatch.setattr(_core, "GpuTargets", upload, raising=False)  # (CUDA builds only)
    monkeypatch.setattr(hs, "_gpu_tables", tables)
    monkeypatch.setattr(_core, "gpu_run_cascade", cascade, raising=False)
    for _ in range(2):
        gpu = gpuseq.hmmsearch(example_models["globins4"], gpuseq.open_database(db), cpus=2,
                               block_bytes=700)
        for frame in ("hits", "domains", "pipeline"):
            assert getattr(gpu, frame).equals(getattr(cpu, frame)), frame
    assert len(cpu.hits) == 45
    assert all(used.values()), used
    ended = {role: [t.name for t in threads if not t.is_alive()] for role, threads in used.items()}
    assert not any(ended.values()), ended
    assert len(used["cascade"]) <= hs.GPU_CASCADES_IN_FLIGHT


def test_a_chunk_the_gpu_cannot_hold_is_cut_once_for_every_model(tmp_path, monkeypatch):
    """_GpuChunks with GpuTargets standing in for the GPU (an upload over CAP residues runs out
    of memory): a chunk is cut in halves until each part fits, the parts cover its targets in
    order, each uploaded once; a target alone over CAP comes with no copy (the CPU filters);
    later chunks are cut before upload; a database the caller holds keeps the parts, and the
    next search uses them without an upload."""
    import importlib

    from gpuseq import _core

    hs = importlib.import_module("gpuseq.hmmsearch")
    CAP = 20_000
    uploads: list[int] = []

    failed: list[tuple[int, int]] = []

    class Targets:
        def __init__(self, residues, offsets):
            if len(residues) > CAP:
                failed.append((len(offsets) - 1, len(residues)))
                raise _core.DeviceOutOfMemory("over the stand-in's cap")
            uploads.append(len(offsets) - 1)

    monkeypatch.setattr(_core, "GpuTargets", Targets, raising=False)  # (CUDA builds only)
    rng = np.random.default_rng(3)
    seqs = random_proteins(rng, 600, mean_length=250)
    records = [(f"t{i}", s) for i, s in enumerate(seqs)]
    db = gpuseq.read_fasta(write_fasta(tmp_path / "db.fa", records))
    records[400] = ("t400", "M" * (CAP + 1))  # alone over the cap
    with_long = gpuseq.read_fasta(write_fasta(tmp_path / "long.fa", records))
    chunk_residues = db.total_residues // 3

    def search(database, resident=False):
        uploads.clear()
        failed.clear()
        gpu = hs._GpuChunks()
        chunks = list(database.chunks(chunk_residues, resident=resident))
        whole = {(c.name(0), len(c)) for c in chunks}
        assert len(chunks) >= 3 and all(c.total_residues > 2 * CAP for c in chunks[:3])
        parts = list(gpu(chunks))
        names = [p.name(i) for p, _ in parts for i in range(len(p))]
        assert names == [f"t{i}" for i in range(600)]
        assert [p.ends_database for p, _ in parts] == [False] * (len(parts) - 1) + [True]
        for part, copy in parts:
            assert (copy is None) == (part.total_residues > CAP)
            # Halved no further than needed (the long target's neighbours are cut off it,
            # however few; a database's last chunk may be small).
            if database is db and (part.name(0), len(part)) not in whole:
                assert part.total_residues > CAP // 4
        return gpu, parts

    gpu, parts = search(db)
    assert len(parts) > 6
    assert sum(uploads) == 600  # each target once
    # The first chunk's upload failed, and its halves': the later chunks were cut before
    # their uploads, to parts smaller than the smallest that failed.
    first, *later = [(len(c), c.total_residues) for c in db.chunks(chunk_residues)]
    assert failed[0] == first and not set(failed) & set(later)
    assert gpu.most_residues < min(residues for _, residues in failed)

    search(with_long)
    assert sum(uploads) == 599  # each target once, but the one over the cap

    search(db, resident=True)
    assert sum(uploads) == 600
    held = dict(db.device_copies)
    search(db, resident=True)
    assert uploads == []  # every part found resident
    assert db.device_copies == held


def test_a_chunk_whose_models_buffers_do_not_fit_is_cut_once_for_every_model(
    tmp_path, monkeypatch, example_models
):
    """_Filters.run with the GPU standing in (an upload over UPLOAD_CAP residues, and a
    model's work buffers beside over BUFFER_CAP, run out of memory): where a model's buffers
    do not fit beside the chunk, the models cut it in halves, each range uploaded at most once
    for the three models (before, each model cut it for itself); a range too large is not
    tried again, a target alone too large runs on the CPU filters, later chunks are cut
    (shrink), a held database drops its copies, and every model's results equal the CPU
    cascade's over the whole chunk."""
    import importlib
    import threading
    from types import SimpleNamespace

    from pyhmmer.plan7 import HMMFile

    from gpuseq import _core
    from gpuseq.hmm import search_profile
    from synthetic import hmmemit, plant

    hs = importlib.import_module("gpuseq.hmmsearch")
    UPLOAD_CAP, BUFFER_CAP = 120_000, 50_000
    lock = threading.Lock()
    uploads: list[tuple[int, int]] = []  # (first, last residue) of each upload
    cascades: list[tuple[int, int, int]] = []  # (model, first, last residue) that ran

    class Targets:
        def __init__(self, residues, offsets):
            self.residues, self.offsets = residues, offsets
            if offsets[-1] - offsets[0] > UPLOAD_CAP:
                raise _core.DeviceOutOfMemory("over the stand-in's upload cap")
            with lock:
                uploads.append((int(offsets[0]), int(offsets[-1])))

    def gpu_run_cascade(tables, targets, F1, F2, bias_filter, threads, F3, all_scores):
        span = (int(targets.offsets[0]), int(targets.offsets[-1]))
        if span[1] - span[0] > BUFFER_CAP:
            raise _core.DeviceOutOfMemory("over the stand-in's buffer cap")
        with lock:
            cascades.append((tables.q, *span))
        return _core.run_cascade(tables.profile, targets.residues, targets.offsets, F1, F2,
                                 bias_filter, threads)

    monkeypatch.setattr(_core, "GpuTargets", Targets, raising=False)  # (CUDA builds only)
    monkeypatch.setattr(_core, "gpu_run_cascade", gpu_run_cascade, raising=False)
    rng = np.random.default_rng(5)
    seqs = random_proteins(rng, 400, mean_length=250)
    for name in THREE:
        seqs += [plant(rng, s) for s in hmmemit(example_models[name], 4, seed=2)]
    seqs.insert(200, random_proteins(rng, 1, 60_000, 60_000, 60_000)[0])  # alone over BUFFER_CAP
    db = gpuseq.read_fasta(write_fasta(tmp_path / "db.fa", [(f"t{i}", s)
                                                          for i, s in enumerate(seqs)]))
    (chunk,) = db.chunks(db.total_residues, resident=True)
    n = len(chunk)
    assert UPLOAD_CAP < chunk.total_residues
    whole = SimpleNamespace(residues=chunk.residues, offsets=chunk.offsets)  # its copy
    chunk.device_copies[chunk.device_key] = whole
    profiles = []
    for name in THREE:
        with HMMFile(example_models[name]) as f:
            profiles.append(search_profile(next(iter(f))))
    filters = hs._Filters("cuda", 0.02, 1e-3, True)
    for q, profile in enumerate(profiles):
        filters.add(profile, SimpleNamespace(sequences_per_warp=1, profile=profile, q=q))
    shrunk: list[int] = []

    results = dict(filters.run(chunk, whole, 2, [range(3)], True, shrunk.append))
    assert not chunk.device_copies  # dropped at the first failure
    assert len(uploads) == len(set(uploads)), uploads  # each range once for the three models
    assert min(last - first for first, last in uploads) > BUFFER_CAP // 4  # cut no further
    for q, profile in enumerate(profiles):
        cpu = _core.run_cascade(profile, chunk.residues, chunk.offsets, 0.02, 1e-3, True, 2)
        for key in ("stage", "msv_score", "bias_score", "viterbi_score"):
            assert np.array_equal(results[q][key], cpu[key], equal_nan=True), (q, key)
        assert all(results[q][key] == cpu[key] for key in ("n_past_msv", "n_past_bias",
                                                          "n_past_vit"))
        # Every target on the stand-in GPU once, in contiguous ranges, but the long one
        # (alone over BUFFER_CAP: the CPU filters).
        ran = sorted(span[1:] for span in cascades if span[0] == q)
        ran.append((int(chunk.offsets[200]), int(chunk.offsets[201])))
        ran.sort()
        assert ran[0][0] == 0 and ran[-1][1] == chunk.total_residues, q
        assert all(a[1] == b[0] for a, b in zip(ran, ran[1:], strict=False)), q
    assert shrunk and min(shrunk) <= BUFFER_CAP * 2  # the smallest range that failed
    assert n == len(seqs)


def test_a_part_keeps_the_hits_its_targets_places_keep_in_any_order():
    """_run_hmmer_downstream with the targets' places: a target that passes Forward is kept
    when pvalue x its place <= E (hmmsearch's Z = targets so far), whatever order the part
    gives them in (the GPU's survivors need not be sorted). The rule is checked here against
    pyhmmer's own p-values of a search that keeps every Forward pass."""
    import importlib

    from pyhmmer.easel import Alphabet, DigitalSequenceBlock, TextSequence
    from pyhmmer.plan7 import HMMFile, Pipeline

    from gpuseq.hmmsearch_options import HmmsearchOptions

    hs = importlib.import_module("gpuseq.hmmsearch")
    abc = Alphabet.amino()
    with HMMFile(HMMER_EXAMPLES / "tutorial" / "globins4.hmm") as f:
        hmm = next(iter(f))
    rng = np.random.default_rng(70)
    texts = random_proteins(rng, 150, mean_length=150)
    seqs = [TextSequence(name=f"t{i}".encode(), sequence=s).digitize(abc)
            for i, s in enumerate(texts)]  # fmt: skip
    every = Pipeline(abc, F1=1.0, F2=1.0, F3=1.0, bias_filter=False, Z=1e-9).search_hmm(
        hmm, DigitalSequenceBlock(abc, seqs))
    pvalue = {h.name: h.pvalue for h in every}
    options = HmmsearchOptions(max=True)  # (E = 10)
    places = (rng.permutation(len(seqs)) * 3 + 1).tolist()  # scattered, out of order
    kept = hs._run_hmmer_downstream(hmm, seqs, options, 10**6, places)
    expected = {s.name for s, at in zip(seqs, places, strict=True)
                if s.name in pvalue and pvalue[s.name] * at <= 10.0}  # fmt: skip
    assert {h.name for h in kept} == expected
    assert 10 < len(expected) < len(pvalue)  # some kept by their place only, some not
