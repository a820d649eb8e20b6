"""blastp's two-hit stage on the GPU (cuda/blast) against the CPU stage (cpp/blast/ungapped),
which tests/test_blast_ungapped.py holds equal to NCBI blastp: the ungapped HSPs (coordinates,
scores, seeds, order), the word hits and extensions counted, for every extension variant
(diagonal-, hit- and window-based) and both score tables (query PSSM, BLOSUM62), on generated
subjects (lengths 0 to 100,000, planted homologs, queries at and beyond the PSSM's limit,
poly-A subjects whose bins overflow) and on Debian's dolphin proteome; then blastp's outfmt-6
rows with backend="cuda" against backend="cpu", the CPU's gapped stage taking the GPU's
batches as they come (and the same pipeline with the CPU's stage, where there is no GPU)."""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import numpy as np
import pytest
from blast_data import mutated, random_protein

import gpuseq
from gpuseq import _core, blast
from gpuseq.backend import BackendFallbackWarning
from gpuseq.errors import BackendError

PLAST = Path("/usr/share/doc/plast-example/db")
EXTENSIONS = ("diagonal", "hit", "window")  # the GPU's ungapped extension variants
SCORINGS = ("pssm", "blosum62")  # where the extension kernels read scores
PSSM_MAX_QUERY = 4000  # cuda/blast/gpu_ungapped.hpp kPssmMaxQuery
HSP_COLUMNS = ["subject", "q_start", "s_start", "length", "score", "seed_q", "seed_s"]


def hsp_set(rows: dict) -> set[tuple]:
    return set(zip(*(rows[c].tolist() for c in HSP_COLUMNS)))


def compare(
    query: str | np.ndarray,
    codes,
    offsets,
    x_drop=16,
    cutoff=20,
    window=40,
    threshold=11,
    **gpu_options,
) -> dict:
    """CPU and GPU stages on the same input, every extension variant of the GPU with each score
    table the query fits: equal HSPs and counters; the GPU counters (the last run's)."""
    q = query if isinstance(query, np.ndarray) else blast.encode([("q", query)])[0]
    args = (q, codes, offsets, x_drop, cutoff, window, threshold)
    cpu_rows, cpu_count = _core.blast_ungapped_hsps(*args)
    scorings = SCORINGS if len(q) <= PSSM_MAX_QUERY else ("blosum62", "auto")
    for extension in EXTENSIONS:
        for scoring in scorings:
            variant = (extension, scoring)
            gpu_rows, gpu_count = _core.gpu_blast_ungapped_hsps(
                *args, **gpu_options, extension=extension, scoring=scoring
            )
            assert hsp_set(gpu_rows) == hsp_set(cpu_rows), variant
            assert len(gpu_rows["score"]) == len(cpu_rows["score"])  # no HSP twice
            # Same rows in the same order: subjects in order, each in blastp's HSP order.
            for c in HSP_COLUMNS:
                assert np.array_equal(gpu_rows[c], cpu_rows[c]), (variant, c)
            assert gpu_count["word_hits"] == cpu_count["word_hits"]
            assert gpu_count["extensions"] == cpu_count["extensions"], variant
            # The filter keeps every extended pair.
            assert gpu_count["pairs"] >= gpu_count["extensions"]
    return gpu_count


@pytest.fixture(scope="module")
def generated():
    """A query of 300 residues; random subjects (0 to 700 residues, and 1, 2, 3), homologs of
    it at 30-90% identity, and one subject of 100,000 residues with a homolog inside."""
    rng = np.random.default_rng(1212)
    query = random_protein(rng, 300)
    records = [(f"r{i}", random_protein(rng, int(rng.integers(0, 700)))) for i in range(400)]
    for k, identity in enumerate([0.9, 0.7, 0.5, 0.4, 0.3]):
        body = mutated(rng, query, identity, 0.02 * (k % 2))
        records.append((f"h{k}", random_protein(rng, 50) + body + random_protein(rng, 50)))
    records += [("one", "W"), ("two", "WC"), ("three", "WCW")]
    long = random_protein(rng, 100_000)
    records.append(("long", long[:60_000] + mutated(rng, query, 0.6, 0.0) + long[60_000:]))
    records = [records[i] for i in rng.permutation(len(records))]
    codes, offsets, _ = blast.encode(records)
    return {"query": query, "records": records, "codes": codes, "offsets": offsets, "rng": rng}


@pytest.mark.cuda
@pytest.mark.parametrize(
    "x_drop, cutoff, window, threshold",
    [(16, 20, 40, 11), (16, 1, 40, 11), (30, 40, 20, 13), (10, 15, 60, 9)],
)
def test_gpu_hsps_equal_cpu(generated, x_drop, cutoff, window, threshold):
    count = compare(generated["query"], generated["codes"], generated["offsets"], x_drop,
                    cutoff, window, threshold)  # fmt: skip
    assert count["extensions"] > 50


@pytest.mark.cuda
@pytest.mark.parametrize(
    "options",
    [
        {"sort": "bins"},  # the paper's bins and CUB's segmented sort
        {"sort": "bins", "bins": 1},
        {"sort": "bins", "bins": 32},
        {"sort": "bins", "bins": 1024},
        {"sort": "bins", "bin_capacity": 1},  # nearly every bin overflows and is redone
        {"batch_hits": 5000},  # many batches, the 100,000-residue subject one of its own
        {"sort": "bins", "batch_hits": 5000},
    ],
    ids=["bins", "bins1", "bins32", "bins1024", "capacity1", "small_batches",
         "bins_small_batches"],  # fmt: skip
)
def test_gpu_options_give_the_same_hsps(generated, options):
    count = compare(generated["query"], generated["codes"], generated["offsets"], **options)
    if "bin_capacity" in options:
        assert count["overflowed_subjects"] > 100
    if "batch_hits" in options:
        assert count["batches"] > 10
    if options.get("sort") != "bins":
        assert count["overflowed_subjects"] == 0


@pytest.mark.cuda
def test_tiles_keep_every_pair(generated):
    """The tiles write only the diagonals holding a pair; the two-hit filter then finds the
    same pairs as over every hit (the bins keep them all), and the same HSPs."""
    args = (blast.encode([("q", generated["query"])])[0], generated["codes"],
            generated["offsets"], 16, 20)  # fmt: skip
    tiles_rows, tiles = _core.gpu_blast_ungapped_hsps(*args, sort="tiles")
    bins_rows, bins = _core.gpu_blast_ungapped_hsps(*args, sort="bins")
    assert tiles["pairs"] == bins["pairs"] > 100
    assert tiles["word_hits"] == bins["word_hits"]
    assert hsp_set(tiles_rows) == hsp_set(bins_rows)


@pytest.mark.cuda
def test_tiles_of_a_long_subject_and_a_long_query(generated):
    """The default sort's tiles (hit_tiles.cuh) where a subject has many: a 13,000-residue query
    (tiles cut every 4,096 diagonals and every half tile of hits) against the 100,000-residue
    subject and its neighbours; the tiles' hits equal the CPU's as counted and extended."""
    rng = generated["rng"]
    query = random_protein(rng, 6_000) + generated["query"] + random_protein(rng, 6_700)
    long = max(range(len(generated["offsets"]) - 1),
               key=lambda i: generated["offsets"][i + 1] - generated["offsets"][i])  # fmt: skip
    lo, hi = max(0, long - 3), long + 3
    offsets = generated["offsets"][lo : hi + 1] - generated["offsets"][lo]
    codes = generated["codes"][generated["offsets"][lo] : generated["offsets"][hi]]
    count = compare(query, codes, offsets)
    assert count["word_hits"] > 1_000_000  # some hundreds of tiles
    assert count["large_tiles"] == 0


@pytest.mark.cuda
def test_tiles_of_a_subject_too_long_for_staged_keys(generated):
    """A subject of 2^20 residues or more (hit_tiles.cuh kMaxStagedLength): its hits do not fit
    the 20 bits of a staged subject offset, so its tiles are written unsorted and sorted by
    CUB; the same HSPs as the CPU's, a homolog planted past offset 2^20."""
    rng = generated["rng"]
    long = random_protein(rng, (1 << 20) + 5_000)
    homolog = mutated(rng, generated["query"], 0.6, 0.0)
    records = [("before", random_protein(rng, 300)),
               ("long", long[:(1 << 20) + 100] + homolog + long[(1 << 20) + 100 :]),
               ("after", random_protein(rng, 300))]  # fmt: skip
    codes, offsets, _ = blast.encode(records)
    count = compare(generated["query"], codes, offsets)
    assert count["large_tiles"] >= 1
    assert count["extensions"] > 0


@pytest.mark.cuda
@pytest.mark.parametrize("sort, limit", [("tiles", 1 << 20), ("bins", 4 << 20)])
def test_failed_allocations_shrink_the_batches(generated, sort, limit):
    """Batches sized from the free memory, on a device that refuses allocations over `limit`
    (the test hook; the bins' slots, twice the expected hits, need more than the tiles' exact
    ones): the failed batch is halved until it fits; the same HSPs."""
    _core.gpu_allocation_limit_for_tests(limit)
    try:
        count = compare(generated["query"], generated["codes"], generated["offsets"], sort=sort)
    finally:
        _core.gpu_allocation_limit_for_tests(0)
    assert count["batches"] > 1


@pytest.mark.cuda
@pytest.mark.parametrize("ungapped", [True, False])
def test_a_failing_gpu_stage_raises_from_the_search(generated, ungapped):
    """The GPU stage fails on its own thread (every allocation over 1 KB refused, so not even
    the subjects go up): blastp raises the GPU's out-of-memory error, no hang, no crash."""
    from gpuseq.errors import GpuOutOfMemoryError

    _core.gpu_allocation_limit_for_tests(1024)
    try:
        with pytest.raises(GpuOutOfMemoryError):
            blast.blastp([("q", generated["query"])], generated["records"], backend="cuda",
                         ungapped=ungapped, comp_based_stats=0, num_threads=4)  # fmt: skip
    finally:
        _core.gpu_allocation_limit_for_tests(0)


@pytest.mark.cuda
@pytest.mark.parametrize("sort", ["tiles", "bins"])
def test_poly_a_overflows_its_bins(sort):
    """A poly-A query against poly-A subjects: every word hits every word (AAA scores 12), far
    more hits per bin than the estimate; the overflow is detected and the bins redone ("bins"),
    and 64 diagonals hold more hits than a tile ("tiles": CUB sorts those)."""
    records = [
        ("a2000", "A" * 2000),
        ("a50", "A" * 50),
        ("mixed", "A" * 300 + "W" * 20 + "A" * 300),
    ]
    rng = np.random.default_rng(7)
    records += [(f"r{i}", random_protein(rng, 200)) for i in range(20)]
    codes, offsets, _ = blast.encode(records)
    count = compare("A" * 400, codes, offsets, x_drop=16, cutoff=20, sort=sort)
    if sort == "bins":
        assert count["overflowed_subjects"] >= 2
    else:
        assert count["large_tiles"] >= 2


@pytest.mark.cuda
def test_long_query(generated):
    """A 12,000-residue query, three times the PSSM's limit: BLOSUM62 (also under "auto"),
    and a PSSM asked for is refused."""
    rng = generated["rng"]
    query = random_protein(rng, 5_000) + generated["query"] + random_protein(rng, 6_700)
    codes, offsets = generated["codes"][: generated["offsets"][200]], generated["offsets"][:201]
    count = compare(query, codes, offsets)
    assert count["word_hits"] > 0
    q = blast.encode([("q", query)])[0]
    with pytest.raises(ValueError, match="PSSM"):
        _core.gpu_blast_ungapped_hsps(q, codes, offsets, 16, 20, scoring="pssm")


@pytest.mark.cuda
def test_queries_at_the_pssm_limit(generated):
    """Queries of exactly the PSSM's limit and one residue over it, each with a homolog."""
    rng = generated["rng"]
    for length in (PSSM_MAX_QUERY, PSSM_MAX_QUERY + 1):
        query = random_protein(rng, length - 300) + generated["query"]
        count = compare(query, generated["codes"], generated["offsets"])
        assert count["extensions"] > 50


@pytest.mark.cuda
def test_empty_and_tiny_inputs():
    codes, offsets, _ = blast.encode([("a", "W"), ("b", "WC"), ("c", "WCW")])
    for query in ("W", "WC", "WCW", "WCWCWC"):
        compare(query, codes, offsets)
    compare("MKVLA", np.zeros(0, np.uint8), np.zeros(1, np.int64))


@pytest.fixture(scope="module")
def dolphin(tmp_path_factory) -> dict:
    if not (PLAST / "tursiops.fa.gz").exists():
        pytest.skip("Debian's plast-example is not installed (apt-get install plast-example)")
    out = tmp_path_factory.mktemp("blast_cuda_plast")
    fasta = out / "tursiops.fa"
    fasta.write_bytes(gzip.decompress((PLAST / "tursiops.fa.gz").read_bytes()))
    records = gzip.decompress((PLAST / "query.fa.gz").read_bytes()).decode().split(">")[1:]
    queries = out / "queries.fa"
    queries.write_text("".join(">" + r for r in records[:4]))
    return {"fasta": fasta, "queries": queries}


@pytest.mark.cuda
def test_dolphin_hsps_equal_cpu(dolphin):
    codes, offsets, _ = blast.encode(dolphin["fasta"])
    qcodes, qoffsets, _ = blast.encode(dolphin["queries"])
    for k in range(2):
        query = qcodes[qoffsets[k] : qoffsets[k + 1]]
        st = blast.query_statistics(query, int(offsets[-1]), len(offsets) - 1)
        count = compare(query, codes, offsets, st["x_drop"], st["word_cutoff"])
        assert count["extensions"] > 1000


@pytest.mark.cuda
@pytest.mark.parametrize("ungapped", [True, False])
@pytest.mark.parametrize(
    "gpu_options",
    [
        {},
        {"batch_hits": 5000, "extension": "hit"},
        {"batch_hits": 20000, "extension": "window"},
        {"batch_hits": 5000, "extend_seeds": False},
    ],
    ids=["defaults", "small_batches_hit", "batches_window", "small_batches_cpu_seeds"],
)
def test_blastp_rows_equal_cpu(generated, ungapped, gpu_options):
    """Rows with the GPU stage equal the CPU's, also when the gapped stage takes many small
    batches from the GPU as they come, with the GPU's seed extensions (the default) and
    without (the CPU extends every seed)."""
    rng = np.random.default_rng(99)
    queries = [("q300", generated["query"]), ("q150", random_protein(rng, 150))]
    subjects = generated["records"]
    options = {"ungapped": ungapped, "comp_based_stats": 0 if ungapped else 2, "evalue": 100.0}
    cpu = blast.blastp(queries, subjects, backend="cpu", **options)
    gpu = blast.blastp(queries, subjects, backend="cuda", gpu_options=gpu_options, **options)
    assert len(cpu) > 5
    assert blast.outfmt6_lines(gpu) == blast.outfmt6_lines(cpu)


@pytest.mark.parametrize("ungapped", [True, False])
@pytest.mark.parametrize("batch_subjects", [1, 7, 1000])
def test_pipelined_stage_gives_the_same_rows(generated, monkeypatch, ungapped, batch_subjects):
    """The pipeline the GPU stage runs in (its own thread handing batches of subjects to the
    search's threads as they finish), driven by the CPU's two-hit stage so that it is tested
    where there is no GPU: the rows equal the CPU's in-loop stage's."""
    rng = np.random.default_rng(98)
    queries = [("q300", generated["query"]), ("q150", random_protein(rng, 150))]
    subjects = generated["records"]
    options = {"ungapped": ungapped, "comp_based_stats": 0 if ungapped else 2, "evalue": 100.0,
               "num_threads": 4}  # fmt: skip
    expected = blast.outfmt6_lines(blast.blastp(queries, subjects, backend="cpu", **options))
    monkeypatch.setattr(
        blast, "_stage", lambda backend, gpu: ("cpu-batches", {"batch_subjects": batch_subjects})
    )
    assert len(expected) > 5
    counters: dict = {}
    assert blast.outfmt6_lines(blast.blastp(queries, subjects, counters=counters, **options)) == (
        expected
    )
    # A gapped search's stage extends every HSP ahead (as the GPU's does), and the gapped
    # stage takes those extensions: equal rows above.
    assert counters["seed_extensions"] == (0 if ungapped else counters["ungapped_hsps"])
    assert ungapped or counters["ungapped_hsps"] > 50


# A fresh process: two pipelined searches after a search without a pipeline. Prints the
# threads the first made, and those the second made or ended. A thread a search joined can
# still be listed for a moment while the kernel ends it (1 in 5 runs on a loaded 2-core
# machine): the lists are read again for up to a second before the difference counts.
_PIPELINED_IN_A_FRESH_PROCESS = """
import os, sys, time
import numpy as np
from blast_data import random_protein
from gpuseq import blast

def tasks():
    return set(os.listdir("/proc/self/task"))

def settled(since):
    # tasks() - since once two reads 20 ms apart agree (a second at most)
    last = None
    for _ in range(50):
        now = tasks() - since
        if now == last:
            break
        last = now
        time.sleep(0.02)
    return now

rng = np.random.default_rng(3)
queries = [("q", random_protein(rng, 200))]
subjects = [(f"s{i}", random_protein(rng, 300)) for i in range(60)]
options = dict(ungapped=True, comp_based_stats=0, evalue=100.0, num_threads=2)
blast.blastp(queries, subjects, backend="cpu", **options)
before = tasks()
blast._stage = lambda backend, gpu: ("cpu-batches", {"batch_subjects": 7})
blast.blastp(queries, subjects, **options)
made = settled(before)
blast.blastp(queries, subjects, **options)
print(len(made), len(settled(before) ^ made))
"""


def test_the_pipelined_stage_runs_on_a_kept_thread():
    """The stage of the pipeline runs on a thread kept for the process's life
    (cpp/common/kept_threads.hpp), which runs the next search's stage too: the GPU's stage
    calls CUDA, and a thread that had used CUDA ending while another thread called it
    deadlocked the driver now and then (benchmarks/results/gpu-h200-20261130-c). It was a
    thread per search."""
    import subprocess
    import sys

    if not Path("/proc/self/task").is_dir():
        pytest.skip("threads are counted in /proc/self/task")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(Path(__file__).parent),
                                                      env.get("PYTHONPATH")]))
    out = subprocess.run([sys.executable, "-c", _PIPELINED_IN_A_FRESH_PROCESS], check=True,
                         capture_output=True, text=True, timeout=300, env=env).stdout
    made, changed = map(int, out.split())
    assert made >= 1 and changed == 0, out


@pytest.mark.cuda
@pytest.mark.parametrize(
    "ring_columns, max_rows, x_drop, gaps, matrix",
    [(256, None, 38, (11, 1), "BLOSUM62"), (64, None, 38, (11, 1), "BLOSUM62"),
     (32, None, 38, (11, 1), "BLOSUM62"), (256, 64, 38, (11, 1), "BLOSUM62"),
     (512, None, 150, (11, 1), "BLOSUM62"), (256, None, 51, (6, 2), "BLOSUM62"),
     (256, None, 35, (13, 1), "BLOSUM62"), (256, None, 35, (9, 1), "PAM30"),
     (256, None, 55, (14, 2), "BLOSUM45")],
)
def test_gpu_seed_extensions_equal_cpu(generated, ring_columns, max_rows, x_drop, gaps, matrix):
    """The GPU's preliminary gapped extension of every HSP (extend_seeds: a warp per HSP)
    equals the CPU's (seed_extension: the gapped start and both score-only DPs) field for
    field, and the HSPs it leaves to the CPU (not done: the live DP columns overflow its ring,
    or a direction runs past max_rows rows) are those the CPU finds with the same bounds. The
    defaults (a ring of 256 columns, no row bound) leave none at blastp's preliminary X-drop
    (38: 15 bits with BLOSUM62 11/1); smaller bounds some, not all. A wide X-drop (150, in a
    ring of 512) runs long horizontal gaps past the row ends. Other gap costs (6/2 and 13/1
    at their 15-bit X-drops) and matrices (PAM30 9/1, BLOSUM45 14/2: the lookup's, which
    scores the two-hit stage too) reach the GPU's DP as the CPU's, and change the
    extensions."""
    q = blast.encode([("q", generated["query"])])[0]
    codes, offsets = generated["codes"], generated["offsets"]
    bounds = {"ring_columns": ring_columns} if max_rows is None else {
        "ring_columns": ring_columns, "max_rows": max_rows}  # fmt: skip
    costs = dict(gap_open=gaps[0], gap_extend=gaps[1], matrix=matrix)
    rows, counters = _core.gpu_blast_ungapped_hsps(
        q, codes, offsets, 16, 20, gapped_x_drop=x_drop,
        **{"seed_" + k: v for k, v in bounds.items()}, **costs,
    )  # fmt: skip
    gpu = rows["extension"]
    hsps = (rows["subject"], rows["q_start"], rows["s_start"], rows["length"], x_drop)
    cpu = _core.blast_seed_extensions(q, codes, offsets, *hsps, **costs)
    bounded = _core.blast_seed_extensions(q, codes, offsets, *hsps, **bounds, **costs)
    done = gpu["done"].astype(bool)
    assert len(done) > 200 and cpu["done"].all()
    assert np.array_equal(gpu["done"], bounded["done"])
    assert counters["seed_extensions"] == done.sum()
    if (ring_columns, max_rows, x_drop) in ((256, None, 38), (512, None, 150)):
        assert done.all()
    elif gaps != (11, 1):
        assert done.sum() > 0.9 * len(done)
        default = _core.blast_seed_extensions(q, codes, offsets, *hsps)
        assert not np.array_equal(default["score"], cpu["score"])
        if matrix != "BLOSUM62":  # (the two-hit stage's HSPs are the matrix's too)
            own, _ = _core.gpu_blast_ungapped_hsps(q, codes, offsets, 16, 20)
            assert not np.array_equal(own["q_start"], rows["q_start"])
    else:
        assert 0 < done.sum() < len(done)
    for column in ("q_off", "q_end", "s_off", "s_end", "score", "seed_q", "seed_s"):
        assert np.array_equal(gpu[column][done], cpu[column][done]), column
    # The planted homologs' extensions are long gapped alignments, not only the seed's.
    assert cpu["score"].max() > 500


@pytest.mark.cuda
def test_blastp_rows_with_cpu_extended_seeds(generated):
    """A ring too small for some HSPs: the CPU extends those, the rows are the CPU's."""
    queries = [("q300", generated["query"])]
    options = {"comp_based_stats": 2, "evalue": 100.0}
    cpu = blast.blastp(queries, generated["records"], backend="cpu", **options)
    counters: dict = {}
    gpu = blast.blastp(queries, generated["records"], backend="cuda", counters=counters,
                       gpu_options={"extend_seeds": True, "seed_ring_columns": 64,
                                    "batch_hits": 20000},
                       **options)  # fmt: skip
    assert 0 < counters["seed_extensions"] < counters["ungapped_hsps"]
    assert blast.outfmt6_lines(gpu) == blast.outfmt6_lines(cpu)


def test_stage_options_are_checked():
    codes, offsets, _ = blast.encode([("s", "MKVLAAGIVALLLW")])
    q, letters = blast.encode([("q", "MKVLAAGIVALLLW")])[0], np.zeros(14, np.uint8)
    search = _core.blast_ungapped_search
    with pytest.raises(ValueError, match="batch_subjects"):
        search([q], [letters], codes, offsets, 14, stage="cpu-batches",
               stage_options={"batch_subjects": 0})  # fmt: skip
    with pytest.raises(ValueError, match="stage must be"):
        search([q], [letters], codes, offsets, 14, stage="gpu")
    with pytest.raises(ValueError, match="no stage options"):
        search([q], [letters], codes, offsets, 14, stage_options={"bins": 4})


@pytest.mark.cuda
@pytest.mark.parametrize("ungapped", [True, False])
def test_dolphin_blastp_rows_equal_cpu(dolphin, ungapped):
    options = {"ungapped": ungapped, "comp_based_stats": 0 if ungapped else 2}
    cpu = blast.blastp(dolphin["queries"], dolphin["fasta"], backend="cpu", **options)
    gpu = blast.blastp(dolphin["queries"], dolphin["fasta"], backend="cuda", **options)
    assert len(cpu) > 100
    assert blast.outfmt6_lines(gpu) == blast.outfmt6_lines(cpu)


def test_backend_cuda_without_a_gpu_is_refused():
    if gpuseq.cuda_devices():
        pytest.skip("a GPU is visible")
    with pytest.raises(BackendError):
        blast.blastp([("q", "MKVLAAGIVALLL")], [("s", "MKVLAAGIVALLL")], backend="cuda")
    hits = blast.blastp([("q", "MKVLAAGIVALLLW")], [("s", "MKVLAAGIVALLLW")], backend="auto")
    assert hits.equals(blast.blastp([("q", "MKVLAAGIVALLLW")], [("s", "MKVLAAGIVALLLW")]))


@pytest.mark.cuda
def test_backend_auto_takes_the_gpu_where_the_inputs_fit(generated, monkeypatch):
    """backend="auto" runs the GPU stage (its counters say so) with the CPU's rows; where the
    queries plus the longest subject reach the stage's limit on residues, the CPU's stage,
    with a BackendFallbackWarning naming the limit."""
    queries = [("q300", generated["query"])]
    cpu = blast.blastp(queries, generated["records"], backend="cpu")
    counters: dict = {}
    auto = blast.blastp(queries, generated["records"], counters=counters)
    assert counters["seconds"].get("gpu_detect", 0) > 0
    assert len(cpu) > 3 and blast.outfmt6_lines(auto) == blast.outfmt6_lines(cpu)
    monkeypatch.setattr(blast, "_GPU_STAGE_RESIDUES", 100_000)  # under the 100,000-residue subject
    counters = {}
    with pytest.warns(BackendFallbackWarning, match="limit"):
        fallback = blast.blastp(queries, generated["records"], counters=counters)
    assert "gpu_detect" not in counters["seconds"]
    assert blast.outfmt6_lines(fallback) == blast.outfmt6_lines(cpu)


def test_held_database_keeps_its_encoding(generated):
    """A SequenceDatabase the caller holds (with an empty record, which the searches leave
    out) is encoded once: later searches of it take the same encoding, with the rows of the
    records searched afresh; free_device_memory() drops it."""
    records = generated["records"] + [("empty", "")]
    db = gpuseq.SequenceDatabase.from_records(records)
    queries = [("q300", generated["query"])]
    first = blast.blastp(queries, db, backend="cpu", evalue=100.0)
    held = db.device_copies[("blastp", None)]
    assert len(held) == len(records) - 1 and ("blastp-gpu", None) not in db.device_copies
    again = blast.blastp([("q150", generated["query"][:150])], db, backend="cpu", evalue=100.0)
    assert db.device_copies[("blastp", None)] is held
    assert len(first) > 5 and len(again) > 3
    fresh = blast.blastp(queries, records, backend="cpu", evalue=100.0)
    assert blast.outfmt6_lines(first) == blast.outfmt6_lines(fresh)
    db.free_device_memory()
    assert not db.device_copies


@pytest.mark.cuda
@pytest.mark.parametrize("ungapped", [True, False])
def test_held_database_stays_on_the_gpu(generated, ungapped):
    """The first GPU search of a held database uploads it (resident_upload_s), later ones take
    that copy (no upload) and give the CPU's rows; a copy made from other arrays is refused;
    free_device_memory() lets go and the next search uploads again."""
    db = gpuseq.SequenceDatabase.from_records(generated["records"])
    options = {"ungapped": ungapped, "comp_based_stats": 0 if ungapped else 2, "evalue": 100.0}
    runs = []
    for query in (generated["query"], generated["query"][100:], generated["query"]):
        queries = [("q", query)]
        counters: dict = {}
        gpu = blast.blastp(queries, db, backend="cuda", counters=counters, **options)
        cpu = blast.blastp(queries, generated["records"], backend="cpu", **options)
        assert len(cpu) > 3 and blast.outfmt6_lines(gpu) == blast.outfmt6_lines(cpu)
        runs.append(counters)
    held, device = db.device_copies[("blastp", None)], db.device_copies[("blastp-gpu", None)]
    assert device.count == len(held) and device.residue_count == held.offsets[-1]
    assert "resident_upload_s" in runs[0]
    assert not any("resident_upload_s" in c for c in runs[1:])
    assert all(c["seconds"]["gpu_detect"] > 0 for c in runs)

    codes, offsets, _ = blast.encode(generated["records"])
    # the same sequences, other arrays
    db.device_copies[("blastp-gpu", None)] = _core.GpuBlastSubjects(codes, offsets)
    with pytest.raises(ValueError, match="other arrays"):
        blast.blastp([("q", generated["query"])], db, backend="cuda", **options)
    db.free_device_memory()
    counters = {}
    blast.blastp([("q", generated["query"])], db, backend="cuda", counters=counters, **options)
    assert "resident_upload_s" in counters


@pytest.mark.cuda
def test_held_database_that_does_not_fit_raises():
    """A held database whose copy does not fit (every allocation over 1 KB refused): the
    copies are dropped, the search tries its own upload and raises the GPU's out-of-memory
    error; with memory again the next search makes the copy."""
    from gpuseq.errors import GpuOutOfMemoryError

    rng = np.random.default_rng(5)
    records = [(f"s{i}", random_protein(rng, 300)) for i in range(20)]
    db = gpuseq.SequenceDatabase.from_records(records)
    _core.gpu_allocation_limit_for_tests(1024)
    try:
        with pytest.raises(GpuOutOfMemoryError):
            blast.blastp([("q", records[3][1])], db, backend="cuda")
    finally:
        _core.gpu_allocation_limit_for_tests(0)
    assert ("blastp-gpu", None) not in db.device_copies and ("blastp", None) in db.device_copies
    hits = blast.blastp([("q", records[3][1])], db, backend="cuda")
    assert ("blastp-gpu", None) in db.device_copies
    assert hits["sseqid"].iloc[0] == "s3"


@pytest.mark.skipif(not _core.built_with_cuda, reason="an option of the CUDA build")
def test_sort_option_is_checked():
    q = blast.encode([("q", "MKVLAAGIVALLLW")])[0]
    codes, offsets, _ = blast.encode([("s", "MKVLAAGIVALLLW")])
    with pytest.raises(ValueError, match="sort must be 'tiles' or 'bins'"):
        _core.gpu_blast_ungapped_hsps(q, codes, offsets, 16, 20, sort="heap")
