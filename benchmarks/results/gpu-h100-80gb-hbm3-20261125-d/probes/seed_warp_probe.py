"""In-process blastp (99 queries x 75 M residues): GPU seed extensions (a warp per HSP) off/on."""
import os, subprocess, sys, time, tempfile
from pathlib import Path
sys.path.insert(0, "benchmarks")
os.environ["PATH"] = "/tmp/blastpkg/bin:" + os.environ["PATH"]
os.environ["LD_LIBRARY_PATH"] = "/tmp/blastpkg/lib"
subprocess.run("mkdir -p /tmp/blastpkg && tar xJf .carry/blast.tar.xz -C /tmp", shell=True, check=True)
import bench_blastp
import gpuseq
folder = Path(tempfile.mkdtemp())
print(bench_blastp.write_database(folder, 200000, 1, 33), flush=True)
subprocess.run([sys.executable, "-m", "gpuseq.cli", "makedb", folder / "subjects.fa", folder / "subjects.gsdb"], check=True)
import json
variants = json.loads(os.environ.get("VARIANTS", "null")) or [("off", {"extend_seeds": False}), ("on", {"extend_seeds": True}),
            ("on-ring128", {"extend_seeds": True, "seed_ring_columns": 128}),
            ("off", {"extend_seeds": False}), ("on", {"extend_seeds": True})]
reference = None
for name, opts in variants:
    os.environ["DETECT_MODE"] = str(opts.pop("mode", 0))
    c = {}
    t = time.perf_counter()
    hits = gpuseq.blastp(str(folder / "queries.fa"), str(folder / "subjects.gsdb"), num_threads=16,
                         backend="cuda", counters=c, gpu_options=opts)
    t = time.perf_counter() - t
    rows = gpuseq.blast.outfmt6_lines(hits)
    reference = reference or rows
    if len(rows) != len(reference): print('(rows differ: experiment)')
    sec = {k: round(v, 3) for k, v in sorted(c["seconds"].items())}
    print(f"{name:12s} {t:.2f} s  rows {len(rows)} equal {rows == reference}  seed_ext {c.get('seed_extensions')} / {c['ungapped_hsps']}  {sec}", flush=True)
