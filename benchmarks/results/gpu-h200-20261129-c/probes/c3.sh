# Session 53, call 3: the end of the 100-model command: each query's final merge and its
# report (spans of _Downstream._final, HmmsearchWriter.add, the writer's close), two runs;
# the six-model command once.
set -uo pipefail
S0=$(date +%s)
P=benchmarks/results/gpu-h200-20261129-c/probes
source $P/data.sh
export GPUSEQ_CACHE_DIR=/tmp/kc-53 PYTHONPATH=$PWD/.carry/wNew2:/tmp/site
ARGS="hmmsearch --cpu 16 --noali --backend cuda --no-progress"
python3 -m gpuseq.cli $ARGS --tblout /tmp/warm100.tbl -o /dev/null $MANY $DB
python3 -m gpuseq.cli $ARGS --tblout /tmp/warm.tbl -o /dev/null $SIX $DB
echo "warm at $(( $(date +%s) - S0 )) s"
for r in 1 2; do
  python3 $P/dsprobe.py timeline base -- $ARGS --tblout /tmp/t100.tbl -o /tmp/t100.out $MANY $DB
  cmp <(grep -v "^#" /tmp/t100.tbl) <(grep -v "^#" /tmp/warm100.tbl) && echo "tblout same"
done > $OUT/end-100-3.log 2>&1
python3 $P/dsprobe.py timeline base -- $ARGS --tblout /tmp/t.tbl -o /tmp/t.out $SIX $DB > $OUT/end-six-3.log 2>&1
echo "done at $(( $(date +%s) - S0 )) s"
ls -la /tmp/t100.out /tmp/t100.tbl
grep -E "main|writer|final q=(0|1|50|98|99)\b|finish|cascade q=(0|99) " $OUT/end-100-3.log
grep -E "main|writer|final|finish" $OUT/end-six-3.log
