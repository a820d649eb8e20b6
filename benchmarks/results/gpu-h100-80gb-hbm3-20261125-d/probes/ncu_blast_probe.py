"""blastp on the GPU, 99 queries x a small database, for ncu (every kernel)."""
import os, sys, tempfile, subprocess
os.environ["PATH"] = "/tmp/blastpkg/bin:" + os.environ["PATH"]
os.environ["LD_LIBRARY_PATH"] = "/tmp/blastpkg/lib"
subprocess.run("mkdir -p /tmp/blastpkg && tar xJf .carry/blast.tar.xz -C /tmp", shell=True, check=True)
from pathlib import Path
sys.path.insert(0, "benchmarks")
import bench_blastp, gpuseq
folder = Path(tempfile.mkdtemp())
print(bench_blastp.write_database(folder, int(sys.argv[1]) if len(sys.argv) > 1 else 8000, 1, 33), flush=True)
c = {}
hits = gpuseq.blastp(str(folder / "queries.fa"), str(folder / "subjects.fa"), num_threads=16,
                     backend="cuda", counters=c, gpu_options={"extend_seeds": True})
print(len(hits), {k: v for k, v in c.items() if k != "seconds"}, flush=True)
