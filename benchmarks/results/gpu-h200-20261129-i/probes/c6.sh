# Session 59, call 6: the revision (.carry/w75: one program a model unless its Viterbi kernel
# takes a register usage level other than the default, then two): every cuda-marked test, then
# call 5's warm runs, 320eb36 (.carry/w72) against w75, ten rounds alternated (memcheck and
# racecheck of the fused section beside the tests), after one round
# of cold.py (the database, and each wheel's caches).
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
S0=$(date +%s)
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > $OUT/device-6.txt
export PYTHONPATH=$PWD/.carry/w75:/tmp/site
( GPUSEQ_CACHE_DIR=/tmp/kc-m SECTIONS=fused timeout 300 compute-sanitizer --tool memcheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/memcheck-fused-6.log 2>&1; echo "memcheck rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc-6.txt ) &
( GPUSEQ_CACHE_DIR=/tmp/kc-r SECTIONS=fused timeout 300 compute-sanitizer --tool racecheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/racecheck-fused-6.log 2>&1; echo "racecheck rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc-6.txt ) &
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 300 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests > $OUT/pytest-cuda-6.log 2>&1; echo "pytest rc $? at $(( $(date +%s) - S0 )) s"
wait; cat $OUT/rc-6.txt; tail -1 $OUT/pytest-cuda-6.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-cuda-6.log | head
R=benchmarks/results/gpu-h200-20261129-i/probes
{ timeout 200 python3 $R/../../gpu-h200-20261129-b/probes/cold.py $PWD/.carry/w72 $PWD/.carry/w75 1 2>&1 | tail -6
  timeout 300 python3 $R/warmab.py $PWD/.carry/w72 $PWD/.carry/w75 10 2>&1; } | tee $OUT/warm-6.log
echo "done at $(( $(date +%s) - S0 )) s"
