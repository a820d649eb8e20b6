# Session 53, call 2: where the packed six-model command's time goes before HMMER's
# downstream starts (dsprobe.py timeline with spans: CUDA's start, the models' reading and GPU
# tables, the upload, each cascade), three runs; then the 100-model command once.
set -uo pipefail
S0=$(date +%s)
P=benchmarks/results/gpu-h200-20261129-c/probes
source $P/data.sh
echo "data ready at $(( $(date +%s) - S0 )) s"
export GPUSEQ_CACHE_DIR=/tmp/kc-53 PYTHONPATH=$PWD/.carry/wNew2:/tmp/site
ARGS="hmmsearch --cpu 16 --noali --backend cuda --no-progress"
python3 -m gpuseq.cli $ARGS --tblout /tmp/warm.tbl -o /dev/null $SIX $DB  # the kernel cache
python3 -m gpuseq.cli $ARGS --tblout /tmp/warm100.tbl -o /dev/null $MANY $DB
echo "warm at $(( $(date +%s) - S0 )) s"
for r in 1 2 3; do
  python3 $P/dsprobe.py timeline base -- $ARGS --tblout /tmp/t.tbl -o /tmp/t.out $SIX $DB
  cmp <(grep -v "^#" /tmp/t.tbl) <(grep -v "^#" /tmp/warm.tbl) && echo "tblout same"
done > $OUT/startup-2.log 2>&1
python3 $P/dsprobe.py timeline base -- $ARGS --tblout /tmp/t100.tbl -o /tmp/t100.out $MANY $DB > $OUT/startup-100-2.log 2>&1
cmp <(grep -v "^#" /tmp/t100.tbl) <(grep -v "^#" /tmp/warm100.tbl) && echo "tblout 100 same" >> $OUT/startup-100-2.log
echo "done at $(( $(date +%s) - S0 )) s"
grep -v "^    " $OUT/startup-2.log | tail -32; grep -E "main|downstream|span|cuda_init|upload|first" $OUT/startup-100-2.log | head -12
