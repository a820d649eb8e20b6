"""In-process blastp (99 queries x 75 M residues): the GPU stage's hit sort, tiles against bins."""
import json, os, subprocess, sys, tempfile, time
from pathlib import Path
sys.path.insert(0, "benchmarks")
import bench_blastp
import gpuseq
folder = Path(tempfile.mkdtemp())
t = time.perf_counter()
print(bench_blastp.write_database(folder, int(os.environ.get("SUBJECTS", 200000)), 1, 33), flush=True)
subprocess.run([sys.executable, "-m", "gpuseq.cli", "makedb", folder / "subjects.fa", folder / "subjects.gsdb"], check=True)
print(f"database {time.perf_counter() - t:.1f} s", flush=True)
variants = json.loads(os.environ.get("VARIANTS", "null")) or [
    ["tiles", {}], ["bins", {"sort": "bins"}], ["tiles", {}], ["bins", {"sort": "bins"}]]
reference = None
for name, opts in variants:
    c = {}
    t = time.perf_counter()
    hits = gpuseq.blastp(str(folder / "queries.fa"), str(folder / "subjects.gsdb"), num_threads=16,
                         backend="cuda", counters=c, gpu_options=opts)
    t = time.perf_counter() - t
    rows = gpuseq.blast.outfmt6_lines(hits)
    reference = reference or rows
    sec = {k: round(v, 3) for k, v in sorted(c["seconds"].items())}
    print(f"{name:10s} {t:.2f} s rows {len(rows)} equal {rows == reference} hits {c.get('word_hits')} "
          f"large {c.get('large_tiles')} {sec}", flush=True)
