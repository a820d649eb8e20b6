# Session 68, call 3: whole GPU searches with allocations refused (oom_search.py), fc95f93's
# module (.carry/w99), 8 processes for 150 s each.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
export PYTHONPATH=$PWD/.carry/w99:/tmp/site:$PWD/tests
O=/tmp/o3; mkdir -p $O
for s in $(seq 1 8); do
  GPUSEQ_CACHE_DIR=/tmp/kc-o$s timeout 240 python3 -W ignore benchmarks/results/gpu-h200-20261130-e/probes/oom_search.py $s 150 > $O/oom-$s.log 2>&1 &
done
wait
tail -q -n 1 $O/oom-*.log; grep -h "DIFFERENT\|again)" $O/oom-*.log | grep -v "(0 again), same" | head -20
grep -h "Error\|Traceback" $O/oom-*.log | head
tar -C $O -czf $OUT/oom-3.tar.gz .
