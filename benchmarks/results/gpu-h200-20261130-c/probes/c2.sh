# Session 66, call 2: as call 1, with every thread's native stack by eu-stack (elfutils 0.188,
# .carry/tools) too: py-spy shows only the threads that run Python. Call 1: 14 processes
# (seeds 11-24) fuzz packed targets searched on the GPU in small chunks (mode 2 only), 180 s;
# a watcher takes every thread's native stack (py-spy dump --native, twice 5 s apart), the
# threads' kernel waits (/proc wchan) and the Python stacks (SIGUSR1) of any process whose
# example has been under way for 40 s, then ends it.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
export PYTHONPATH=$PWD/.carry/w93:/tmp/site:$PWD/tests
P=benchmarks/results/gpu-h200-20261130-c/probes; SPY=$PWD/.carry/tools/py-spy
O=/tmp/o2; mkdir -p $O; t=$(date +%s)
declare -A PIDS
for s in $(seq 11 24); do
  OUT=$O GPUSEQ_CACHE_DIR=/tmp/kc-g$s timeout 300 python3 -W ignore $P/fuzz_targets_gpu.py $s 180 2 > $O/targets-$s.log 2>&1 &
  PIDS[$s]=$!
done
declare -A DONE
while [ -n "$(jobs -rp)" ]; do
  sleep 5
  for s in "${!PIDS[@]}"; do
    pid=${PIDS[$s]}; f=$O/targets-at-$s.txt
    [ -n "${DONE[$s]:-}" ] || ! kill -0 $pid 2>/dev/null || [ ! -f $f ] && continue
    age=$(( $(date +%s) - $(stat -c %Y $f) ))
    [ $age -lt 40 ] && continue
    DONE[$s]=1; n=$O/hang-$s.txt; pid=$(cat /proc/$pid/task/$pid/children | cut -d' ' -f1)  # python, under timeout
    { echo "seed $s pid $pid example $(cat $f) under way for $age s"; nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv
      for tk in /proc/$pid/task/*; do echo "task ${tk##*/} $(cat $tk/comm) state $(awk '{print $3}' $tk/stat) wchan $(cat $tk/wchan) syscall $(cut -d' ' -f1 $tk/syscall)"; done
      echo "== eu-stack 1"; LD_LIBRARY_PATH=$PWD/.carry/tools/lib timeout 60 $PWD/.carry/tools/eu-stack -i -m -p $pid 2>&1
      echo "== py-spy 1"; timeout 60 $SPY dump --native --pid $pid 2>&1
      sleep 3; echo "== eu-stack 2"; LD_LIBRARY_PATH=$PWD/.carry/tools/lib timeout 60 $PWD/.carry/tools/eu-stack -i -m -p $pid 2>&1; } > $n 2>&1
    kill -USR1 $pid; sleep 2; kill -KILL $pid
  done
done
echo "fuzz done after $(( $(date +%s) - t )) s"
tail -q -n 1 $O/targets-*.log; grep -h "example" $O/targets-*.log | cut -c1-300 | head -20; ls $O/hang-* 2>/dev/null
tar -C $O -czf $OUT/call-2.tar.gz .
