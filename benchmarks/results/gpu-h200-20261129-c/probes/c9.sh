# Session 53, call 9: each cascade's own phases (the seconds run_cascade reports) in the
# six-model and 100-model commands, HEAD's module (wheel .carry/w53).
set -uo pipefail
P=benchmarks/results/gpu-h200-20261129-c/probes
source $P/data.sh
export GPUSEQ_CACHE_DIR=/tmp/kc-53 PYTHONPATH=$PWD/.carry/w53:/tmp/site
ARGS="hmmsearch --cpu 16 --noali --backend cuda --no-progress"
python3 -m gpuseq.cli $ARGS --tblout /tmp/warm.tbl -o /dev/null $SIX $DB
python3 -m gpuseq.cli $ARGS --tblout /tmp/warm100.tbl -o /dev/null $MANY $DB
for r in 1 2; do python3 $P/dsprobe.py timeline base -- $ARGS --tblout /tmp/t.tbl -o /tmp/t.out $SIX $DB; done > $OUT/phases-six-9.log 2>&1
python3 $P/dsprobe.py timeline base -- $ARGS --tblout /tmp/t.tbl -o /tmp/t.out $MANY $DB > $OUT/phases-100-9.log 2>&1
grep -E "^\[|cascade q=.*done" $OUT/phases-six-9.log; grep -E "^\[|cascade q=(0|1|2|50|99) .*done" $OUT/phases-100-9.log
