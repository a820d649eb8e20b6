# Session 71, call 4: why OPENBLAS_NUM_THREADS=1 in the environment changed the packed
# six-model command in call 3 when the gpuseq command sets it itself before NumPy loads
# (cli.main, since 221890d). Is NumPy loaded before main on this host, how many threads does
# its import start, where does the command import it; then the same A/B as call 3, 12 rounds.
set -uo pipefail
S0=$(date +%s)
tar xJf .carry/w107.tar.xz -C .carry
K=benchmarks/results/gpu-h200-20261129-k/probes
DATA_WHEEL=w107 source $K/data.sh
echo "data at $(( $(date +%s) - S0 )) s"
export GPUSEQ_CACHE_DIR=/tmp/kc-71 PYTHONPATH=$PWD/.carry/w107:/tmp/site
ARGS="hmmsearch --cpu 16 --noali --backend cuda --no-progress"
{ python3 -c "import sys; print(sys.executable, sys.version)"
  python3 -c "import sitecustomize; print('sitecustomize', sitecustomize.__file__)" 2>&1 | tail -1
  python3 -c "import sys; print('usercustomize' in sys.modules, [m for m in ('numpy', 'torch', 'numba') if m in sys.modules])"
  for e in default 1; do
    if [ $e = 1 ]; then export OPENBLAS_NUM_THREADS=1; fi
    python3 -c "import os; n0 = len(os.listdir('/proc/self/task')); import numpy; print('env', os.environ.get('OPENBLAS_NUM_THREADS'), 'threads before numpy', n0, 'after', len(os.listdir('/proc/self/task')))"
    unset OPENBLAS_NUM_THREADS
  done
  python3 -c "import sys; sys.argv = ['gpuseq', '--version']; import gpuseq.cli, os; print('numpy before main:', 'numpy' in sys.modules)"
  python3 -X importtime -m gpuseq.cli $ARGS --tblout /tmp/x.tbl -o /dev/null $SIX $DB 2>&1 | grep -nE "\| (site|numpy|_numba_cuda_redirector|gpuseq\.[a-z_]+)$" | head -20
} > $OUT/numpy-4.log 2>&1
python3 -m gpuseq.cli $ARGS --tblout /tmp/warm.tbl -o /dev/null $SIX $DB
python3 - >> $OUT/numpy-4.log 2>&1 <<PY
import os, subprocess, sys, time, statistics
envs = {"default": {}, "1 thread": {"OPENBLAS_NUM_THREADS": "1"}}
times = {e: [] for e in envs}
for r in range(12):
    for e in (list(envs) if r % 2 == 0 else list(envs)[::-1]):
        env = dict(os.environ, **envs[e])
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "gpuseq.cli", *"$ARGS".split(), "--tblout",
                        f"/tmp/ob-{r}-{e[0]}.tbl", "-o", f"/tmp/ob-{r}-{e[0]}.out", "$SIX", "$DB"],
                       check=True, env=env)
        times[e].append(time.perf_counter() - t)
    print("round", r, {e: round(times[e][-1], 3) for e in envs}, flush=True)
for e in envs:
    print(e, "median", round(statistics.median(times[e]), 3), "min", round(min(times[e]), 3))
PY
echo "done at $(( $(date +%s) - S0 )) s"; cat $OUT/numpy-4.log
