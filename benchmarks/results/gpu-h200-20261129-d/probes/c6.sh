# Session 54, call 6: where HEAD's 100-model command spends its time (dsprobe.py timeline, in
# process) and the whole command alternated with the six-model one.
set -uo pipefail
S0=$(date +%s)
P=benchmarks/results/gpu-h200-20261129-d/probes
DATA_WHEEL=w56 source $P/data.sh  # (the database made with .carry/w56: w54 is gone)
export GPUSEQ_CACHE_DIR=/tmp/kc-56 PYTHONPATH=$PWD/.carry/w56:/tmp/site
ARGS="hmmsearch --cpu 16 --noali --backend cuda --no-progress"
python3 -m gpuseq.cli $ARGS --tblout /tmp/warm100.tbl -o /dev/null $MANY $DB
python3 -m gpuseq.cli $ARGS --tblout /tmp/warm.tbl -o /dev/null $SIX $DB
for r in 1 2; do
  python3 benchmarks/results/gpu-h200-20261129-c/probes/dsprobe.py timeline base -- $ARGS --tblout /tmp/t100.tbl -o /tmp/t100.out $MANY $DB
  cmp <(grep -v "^#" /tmp/t100.tbl) <(grep -v "^#" /tmp/warm100.tbl) && echo "tblout same"
done > $OUT/timeline-100-6.log 2>&1
echo "done at $(( $(date +%s) - S0 )) s"
grep -E "main|final q=(0|1|50|98|99)\b|finish|cascade q=(0|1|2|99) |downstream " $OUT/timeline-100-6.log
