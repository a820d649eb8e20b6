# Session 54, call 3: what the first cascade over a fresh chunk pays once (4c6e777's module).
set -uo pipefail
P=benchmarks/results/gpu-h200-20261129-d/probes
source $P/data.sh
export PYTHONPATH=$PWD/.carry/w54:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-54
python3 $P/firstcascade.py $DB $SIX > /dev/null 2>&1  # the kernel cache filled
for r in 1 2; do
  for warm in 0 1; do
    echo "== round $r WARM=$warm"; WARM=$warm python3 $P/firstcascade.py $DB $SIX
  done
done > $OUT/first-cascade-3.log 2>&1
cat $OUT/first-cascade-3.log | grep -v again
