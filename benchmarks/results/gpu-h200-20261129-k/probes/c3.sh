# Session 62, call 3: what the command's imports cost on this host (-X importtime), alone and
# with the CUDA context made on a thread beside them as the command does; .carry/w83.
set -uo pipefail
P=benchmarks/results/gpu-h200-20261129-k/probes
export PATH="$PWD/.carry/hmmer/bin:$PATH" PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
export PYTHONPATH=$PWD/.carry/w83:/tmp/site
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $OUT/device-3.txt
python3 -c "import gpuseq.cli, gpuseq.hmmsearch, gpuseq.hmmsearch_results, pyhmmer" # .pyc files
{ for r in 0 1 2; do
  echo "== importtime round $r (no CUDA)"
  python3 -X importtime -c "import gpuseq.cli, gpuseq.hmmsearch, gpuseq.hmmsearch_results" 2>&1 | sort -t'|' -k2 -n | tail -12
done
for r in 0 1 2 3; do for cuda in 0 1; do
  python3 - $cuda <<'PY'
import time, sys
t0 = time.perf_counter()
import threading
from gpuseq import _core
t1 = time.perf_counter()
th = None
if sys.argv[1] == "1":
    th = threading.Thread(target=_core.cuda_initialize, args=("auto",)); th.start()
import gpuseq.hmmsearch, gpuseq.hmmsearch_results, gpuseq.cli
t2 = time.perf_counter()
import pyhmmer.plan7
t3 = time.perf_counter()
if th: th.join()
t4 = time.perf_counter()
print(f"cuda thread {sys.argv[1]}: _core {t1-t0:.3f} s, gpuseq imports {t2-t1:.3f} s, pyhmmer {t3-t2:.3f} s, cuda ready {t4-t0:.3f} s")
PY
done; done; } > $OUT/imports-3.log 2>&1
cat $OUT/imports-3.log | tail -30
python3 -c "import os; print('cpus', os.cpu_count(), os.sched_getaffinity(0).__len__())"; nproc; cat /proc/cpuinfo | grep "model name" | head -1
