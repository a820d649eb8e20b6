# Session 71, call 3: .carry/w107 (f7fce64, index_target_lengths committed), carried as
# .carry/w107.tar.xz with NCBI BLAST+ 2.12 (.carry/blast.tar.xz, as session 70's c2.sh runs it).
# What NumPy's import costs on this host with OpenBLAS's threads and without
# (OPENBLAS_NUM_THREADS=1), alone and in the packed six-model command; then the random commands
# of both tools on the GPU as a fuzzer, seeds not drawn before.
set -uo pipefail
S0=$(date +%s)
tar xJf .carry/w107.tar.xz -C .carry
[ -x /tmp/blastpkg/bin/blastp ] || tar xJf .carry/blast.tar.xz -C /tmp
mkdir -p /tmp/blastpkg/wrap  # (the libraries for the two programs only, not for python3)
for p in blastp makeblastdb; do
  printf '#!/bin/sh\nLD_LIBRARY_PATH=/tmp/blastpkg/lib exec /tmp/blastpkg/bin/%s "$@"\n' $p > /tmp/blastpkg/wrap/$p
  chmod +x /tmp/blastpkg/wrap/$p; done
K=benchmarks/results/gpu-h200-20261129-k/probes
DATA_WHEEL=w107 source $K/data.sh
echo "data at $(( $(date +%s) - S0 )) s"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $OUT/device-3.txt; nproc >> $OUT/device-3.txt
export PATH="/tmp/blastpkg/wrap:$PATH" GPUSEQ_CACHE_DIR=/tmp/kc-71 PYTHONPATH=$PWD/.carry/w107:/tmp/site
{ python3 -c "import numpy; print(numpy.__version__); numpy.show_config()" 2>&1 | grep -iE "^[0-9]|name|openblas config" | head -8
  for r in 0 1 2 3 4 5; do
    echo "default  $(python3 -X importtime -c 'import numpy' 2>&1 | tail -1)"
    echo "1 thread $(OPENBLAS_NUM_THREADS=1 python3 -X importtime -c 'import numpy' 2>&1 | tail -1)"
  done; } > $OUT/openblas-3.log 2>&1
ARGS="hmmsearch --cpu 16 --noali --backend cuda --no-progress"
python3 -m gpuseq.cli $ARGS --tblout /tmp/warm.tbl -o /dev/null $SIX $DB
python3 - >> $OUT/openblas-3.log 2>&1 <<PY
import os, subprocess, sys, time, statistics
envs = {"default": {}, "1 thread": {"OPENBLAS_NUM_THREADS": "1"}}
times = {e: [] for e in envs}
for r in range(8):
    for e in (list(envs) if r % 2 == 0 else list(envs)[::-1]):
        env = dict(os.environ, **envs[e])
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "gpuseq.cli", *"$ARGS".split(), "--tblout",
                        f"/tmp/ob-{r}-{e[0]}.tbl", "-o", f"/tmp/ob-{r}-{e[0]}.out", "$SIX", "$DB"],
                       check=True, env=env)
        times[e].append(time.perf_counter() - t)
    print("round", r, {e: round(times[e][-1], 3) for e in envs}, flush=True)
same = all(open(f"/tmp/ob-{r}-{e[0]}.tbl").read().split("\n# Program")[0] ==
           open("/tmp/ob-0-d.tbl").read().split("\n# Program")[0] for r in range(8) for e in envs)
for e in envs:
    print(e, "median", round(statistics.median(times[e]), 3), "min", round(min(times[e]), 3))
print("every tblout's rows the same:", same)
PY
echo "openblas at $(( $(date +%s) - S0 )) s"; cat $OUT/openblas-3.log
export PYTHONPATH=$PWD/.carry/w107:/tmp/site:$PWD/tests
P=benchmarks/results/gpu-h200-20261130-g/probes
O=/tmp/o3; mkdir -p $O; SECS=$(( 480 - $(date +%s) + S0 - 30 )); echo "fuzzing for $SECS s"
for k in 1 2 3 4 5; do
  GPUSEQ_CACHE_DIR=/tmp/kc-f timeout $(( SECS + 60 )) python3 -W ignore $P/seeds.py blastp cuda $(( k * 100000 + 30000 )) 1 $SECS > $O/seeds-blastp-cuda-$k.log 2>&1 &
done
for k in 6 7 8; do
  GPUSEQ_CACHE_DIR=/tmp/kc-f timeout $(( SECS + 60 )) python3 -W ignore $P/seeds.py hmmsearch cuda $(( k * 100000 + 30000 )) 1 $SECS > $O/seeds-hmmsearch-cuda-$k.log 2>&1 &
done
wait; echo "fuzzing ended at $(( $(date +%s) - S0 )) s"
tail -q -n 1 $O/*.log; grep -h "FAILED\|Traceback" $O/*.log | head -20
tar -C $O -czf $OUT/fuzz-3.tar.gz . ; tar -C /tmp -czf $OUT/failed-3.tar.gz $(cd /tmp && ls -d seeds-*/s* 2>/dev/null) 2>/dev/null
ls -la $OUT
