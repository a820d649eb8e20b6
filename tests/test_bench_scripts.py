"""The benchmark scripts' CPU paths run here, so that they do not rot between GPU sessions
(their figures come from the device machine; nothing is timed in tests)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import gpuseq
from gpuseq import _core

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def run_benchmark(script: str, *args: str, out: Path) -> dict:
    """Runs benchmarks/<script> with the gpuseq this session imports (wherever it comes
    from), writing its JSON to out; asserts it succeeded and returns the JSON."""
    path = os.pathsep.join([str(Path(gpuseq.__file__).parent.parent), *sys.path])
    proc = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *args, "--out", str(out)],
        capture_output=True, text=True, cwd=BENCHMARKS, env={**os.environ, "PYTHONPATH": path},
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(out.read_text())


def test_bench_distance_cpu_section_runs(tmp_path):
    pytest.importorskip("scipy")
    # It checks itself against scipy.
    result = run_benchmark("bench_distance.py", "--cpu-only", "--quick", "--threads", "2",
                           out=tmp_path / "distance.json")
    cpu = result["cpu"]
    for tool in ("scipy_cdist", "gpuseq_cpu_bitplane"):
        assert cpu[tool]["pairs_per_s"] > 0 and cpu[tool]["instances"] >= 256
    assert cpu["popcount_bound_words_per_s"] > 0
    assert result["software"]["git"]  # provenance recorded


def test_cpu_popcount_bound_scales_with_words():
    """The bound counts 16 products of `words` words per register block: a longer row gives
    the same order of rate, not a rate proportional to its length."""
    short = _core.cpu_and_popcount_rate(words=64, threads=1, seconds=0.05)
    long = _core.cpu_and_popcount_rate(words=256, threads=1, seconds=0.05)
    assert short > 0 and long > 0
    assert 0.2 < long / short < 5


def test_bench_mrf_cpu_rows_run(tmp_path):
    result = run_benchmark("bench_mrf.py", "--cpu-only", "--quick", "--threads", "2",
                           "--neighbourhoods", "6,26", out=tmp_path / "mrf.json")
    rows = [r for r in result["rows"] if "skipped" not in r]
    assert {(r["threads"], r["neighbourhood"], r["mode"]) for r in rows} == {
        (t, n, m) for t in (1, 2) for n in (6, 26) for m in ("icm", "metropolis")
    } and all(r["backend"] == "cpu" for r in rows)
    for r in rows:
        assert r["sweeps_per_s"] > 0 and r["voxel_updates_per_s"] > 0
    # 1 and 2 threads reach the same labelling, so the same energy.
    for n in (6, 26):
        for m in ("icm", "metropolis"):
            energies = {r["final_energy"] for r in rows if r["size"] == 40
                        and r["neighbourhood"] == n and r["mode"] == m}
            assert len(energies) == 1
    assert result["paper"]["speedup_over_one_core"] == 130
    assert result["software"]["git"]  # provenance recorded


def test_bench_hmmsearch_filter_section_counts_as_hmmsearch(tmp_path, monkeypatch):
    """bench_hmmsearch.py's in-process filter run drives the library's own filter runner:
    its pass counts per model equal the search's pipeline counters."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    import bench_hmmsearch

    examples = BENCHMARKS.parent / "examples"
    db = gpuseq.makedb(examples / "globins45.fa", tmp_path / "globins45.gsdb")
    queries = tmp_path / "two.hmm"
    queries.write_text((examples / "globins4.hmm").read_text() + (examples / "fn3.hmm").read_text())
    hmms = gpuseq.read_hmms(queries)
    _, _, counts = bench_hmmsearch.run_gpuseq_filters(str(db), hmms, 2, "cpu")
    pipeline = gpuseq.hmmsearch(queries, db, cpus=2, backend="cpu").pipeline
    assert len(pipeline) == 2 and pipeline.n_past_msv.max() > 0
    for row in pipeline.itertuples():
        got = counts[row.query_name]
        assert got["nseqs"] == row.nseqs == 45
        assert (got["n_past_msv"], got["n_past_bias"], got["n_past_vit"]) == (
            row.n_past_msv, row.n_past_bias, row.n_past_vit)


def test_bench_fasta_reader_runs_and_checks_the_readers_agree(tmp_path):
    """The FASTA reader benchmark on a small generated file: gpuseq's readers and Easel's
    (pyhmmer) read the same sequences and residues (the script fails otherwise)."""
    result = run_benchmark("bench_fasta_reader.py", "--residues", "2e5", "--threads", "1,2",
                           "--repeat", "1", out=tmp_path / "reader.json")
    tools = {row["tool"] for row in result["results"]}
    assert tools == {"gpuseq", "gpuseq_blocks", "pyhmmer"}
    assert result["file"]["sequences"] > 100 and result["file"]["residues"] > 150_000
    assert all(row["residues"] == result["file"]["residues"] for row in result["results"])
    assert result["software"]["git"]
