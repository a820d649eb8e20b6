# Kernel time summary (nsys, else ncu durations) of one blastp run over SUBJECTS subjects.
set -uo pipefail
R=$OUT/${TAG:-run}; mkdir -p $R
[ -d /tmp/gpuseq/gpuseq ] || TAG=${TAG:-run} bash .carry/runC.sh
export PYTHONPATH=/tmp/gpuseq:/tmp/site PATH=/tmp/blastpkg/bin:$PATH LD_LIBRARY_PATH=/tmp/blastpkg/lib
python3 - <<'PY'
import sys, subprocess, os
sys.path.insert(0, "benchmarks")
import bench_blastp
from pathlib import Path
f = Path("/tmp/nsysdb"); f.mkdir(exist_ok=True)
if not (f / "subjects.gsdb").exists():
    print(bench_blastp.write_database(f, int(os.environ.get("SUBJECTS", 50000)), 1, 33)["residues"])
    subprocess.run([sys.executable, "-m", "gpuseq.cli", "makedb", f / "subjects.fa", f / "subjects.gsdb"], check=True)
PY
cat > /tmp/nsys_run.py <<'PY'
import gpuseq, os, json, time
opts = json.loads(os.environ.get("OPTS", "{}"))
c = {}
t = time.perf_counter()
gpuseq.blastp("/tmp/nsysdb/queries.fa", "/tmp/nsysdb/subjects.gsdb", num_threads=16, backend="cuda", gpu_options=opts, counters=c)
print(time.perf_counter() - t, {k: round(v, 3) for k, v in sorted(c["seconds"].items())})
PY
which nsys && { timeout 200 nsys profile -o /tmp/prof --force-overwrite true --stats=false python3 /tmp/nsys_run.py > $R/nsys.log 2>&1; nsys stats -r cuda_gpu_kern_sum,cuda_api_sum /tmp/prof.nsys-rep > $R/nsys_stats.txt 2>&1; echo nsys rc $?; head -40 $R/nsys_stats.txt | cut -c1-220; }
