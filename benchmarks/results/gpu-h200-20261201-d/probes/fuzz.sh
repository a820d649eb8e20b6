# Session 75: random commands on the GPU until the call's end (S0 + $1 s): blastp from the seeds
# in $BLASTP_SEEDS, hmmsearch from those in $HMMSEARCH_SEEDS, one process each, faulthandler on.
# Every log, and every failed case's folder with its whole failure (failure.txt), to $OUT.
export PYTHONFAULTHANDLER=1
O=/tmp/o$N; mkdir -p $O; SECS=$(( $1 - $(date +%s) + S0 )); echo "fuzzing for $SECS s"
for s in $BLASTP_SEEDS; do
  GPUSEQ_CACHE_DIR=/tmp/kc-f timeout $(( SECS + 60 )) python3 -W ignore benchmarks/results/gpu-h200-20261130-g/probes/seeds.py blastp cuda $s 1 $SECS > $O/seeds-blastp-cuda-$s.log 2>&1 &
done
for s in $HMMSEARCH_SEEDS; do
  GPUSEQ_CACHE_DIR=/tmp/kc-f timeout $(( SECS + 60 )) python3 -W ignore benchmarks/results/gpu-h200-20261130-g/probes/seeds.py hmmsearch cuda $s 1 $SECS > $O/seeds-hmmsearch-cuda-$s.log 2>&1 &
done
wait; echo "ended at $(( $(date +%s) - S0 )) s"
tail -q -n 1 $O/*.log; grep -h -A14 "FAILED" $O/*.log | grep -v "^  File\|^    " | cut -c1-1500 | head -40
tar -C $O -czf $OUT/fuzz-$N.tar.gz .
F=$(cd /tmp && ls -d seeds-*/s* 2>/dev/null); [ -n "$F" ] && tar -C /tmp -czf $OUT/failed-$N.tar.gz $F
ls -la $OUT
