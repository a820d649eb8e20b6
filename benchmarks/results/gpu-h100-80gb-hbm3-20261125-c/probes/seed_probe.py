"""In-process blastp (99 queries x 75 M residues) with the GPU seed extensions off/on."""
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
variants = [("off", {"extend_seeds": False}), ("ring128", {}), ("ring64", {"seed_ring_columns": 64}),
            ("off", {"extend_seeds": False}), ("ring128-rows128", {"seed_max_rows": 128})]
for name, opts in variants:
    c = {}
    t = time.perf_counter()
    hits = gpuseq.blastp(str(folder / "queries.fa"), str(folder / "subjects.gsdb"), num_threads=16,
                         backend="cuda", counters=c, as_frame=False, gpu_options=opts)
    t = time.perf_counter() - t
    sec = {k: round(v, 3) for k, v in sorted(c["seconds"].items())}
    print(f"{name:16s} {t:.2f} s  seed_ext {c.get('seed_extensions')} / {c['ungapped_hsps']}  {sec}", flush=True)
