# Session 46, call 10 (and 11, after the fix): the split Viterbi kernel (viterbi_split_kernel, a model over W warps):
# its GPU tests, the fused section's sanitizers, and GCUPS against one warp. Wheel .carry/w46s.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
export PYTHONPATH=$PWD/.carry/w46s:/tmp/site
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
S0=$(date +%s)
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 100 python3 -m pytest -n 8 -q -x -ra -p no:cacheprovider -m cuda tests/test_gpu_viterbi_fused.py -k "split" > $OUT/pytest-split.log 2>&1; echo "pytest split rc $? at $(( $(date +%s) - S0 )) s"; tail -3 $OUT/pytest-split.log
for tool in memcheck racecheck; do
  ( GPUSEQ_CACHE_DIR=/tmp/kc-san-$tool SECTIONS=fused timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/$tool-fused-split.log 2>&1; echo "$tool rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc.txt ) &
done
for W in 1 2 3; do for i in 0 1; do
  GPUSEQ_CACHE_DIR=/tmp/kc-p VIT_W=$W VIT_M="1100 1400 1600 2000 2400 3000" VIT_PFAM="SMC_N" PART=$i/2 timeout 100 python3 .carry/p46/vprobe.py W$W warm > $OUT/warm-W$W-$i.log 2>&1 &
done; done
wait
cat $OUT/rc.txt; echo "warm at $(( $(date +%s) - S0 )) s"
for r in 1 2; do for W in 1 2 3; do
  GPUSEQ_CACHE_DIR=/tmp/kc-p VIT_W=$W VIT_M="1100 1400 1600 2000 2400 3000" VIT_PFAM="SMC_N" EQ=$([ $r = 1 ] && echo 1 || echo 0) timeout 100 python3 .carry/p46/vprobe.py W$W run 2>&1 | grep -v Warn
done; done > $OUT/split-gcups.log
echo "all at $(( $(date +%s) - S0 )) s"; tail -n 3 $OUT/*-fused-split.log; cat $OUT/split-gcups.log | head -40
