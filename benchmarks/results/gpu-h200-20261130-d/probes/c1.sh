# Session 67, call 1: .carry/w97 (42922ac's module: the daemon KeptThreads of 4083853 and the
# chunks cut before upload had not run on a GPU): memcheck of the whole sanitizer workload
# beside the whole test suite, then 12 processes fuzzing packed targets in small chunks on
# the GPU for 120 s with session 66's hang watcher.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $OUT/device-1.txt; nproc >> $OUT/device-1.txt
export PYTHONPATH=$PWD/.carry/w97:/tmp/site
python3 -c 'import gpuseq, json; print(json.dumps(gpuseq.build_info()))' > $OUT/build-info-1.txt
t=$(date +%s)
( GPUSEQ_CACHE_DIR=/tmp/kc-m timeout 470 compute-sanitizer --tool memcheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/memcheck-1.log 2>&1; echo "memcheck rc $? after $(( $(date +%s) - t )) s" > /tmp/rc-1.txt ) &
export PYTHONPATH=$PYTHONPATH:$PWD/tests
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 300 python3 -m pytest -n 12 -q -ra -p no:cacheprovider --ignore tests/test_notebooks.py tests > $OUT/pytest-all-1.log 2>&1
echo "whole suite rc $? after $(( $(date +%s) - t )) s"; tail -1 $OUT/pytest-all-1.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-all-1.log | head -30
# (the call ran an identical copy of session 66's fuzzing script, since removed)
P=benchmarks/results/gpu-h200-20261130-c/probes; SPY=$PWD/.carry/tools/py-spy
O=/tmp/o1; mkdir -p $O; t2=$(date +%s)
declare -A PIDS
for s in $(seq 31 42); do
  OUT=$O GPUSEQ_CACHE_DIR=/tmp/kc-g$s timeout 200 python3 -W ignore $P/fuzz_targets_gpu.py $s 120 2 > $O/targets-$s.log 2>&1 &
  PIDS[$s]=$!
done
declare -A DONE
alive() { for p in "${PIDS[@]}"; do kill -0 $p 2>/dev/null && return 0; done; return 1; }
while alive; do
  sleep 5
  for s in "${!PIDS[@]}"; do
    pid=${PIDS[$s]}; f=$O/targets-at-$s.txt
    [ -n "${DONE[$s]:-}" ] || ! kill -0 $pid 2>/dev/null || [ ! -f $f ] && continue
    age=$(( $(date +%s) - $(stat -c %Y $f) ))
    [ $age -lt 40 ] && continue
    DONE[$s]=1; n=$O/hang-$s.txt; pid=$(cat /proc/$pid/task/$pid/children | cut -d' ' -f1)
    { echo "seed $s pid $pid example $(cat $f) under way for $age s"
      echo "== eu-stack"; LD_LIBRARY_PATH=$PWD/.carry/tools/lib timeout 60 $PWD/.carry/tools/eu-stack -i -m -p $pid 2>&1
      echo "== py-spy"; timeout 60 $SPY dump --native --pid $pid 2>&1; } > $n 2>&1
    kill -USR1 $pid; sleep 2; kill -KILL $pid
  done
done
echo "fuzz done after $(( $(date +%s) - t2 )) s"
tail -q -n 1 $O/targets-*.log; ls $O/hang-* 2>/dev/null
tar -C $O -czf $OUT/fuzz-1.tar.gz .
wait; cat /tmp/rc-1.txt; tail -n 3 $OUT/memcheck-1.log
