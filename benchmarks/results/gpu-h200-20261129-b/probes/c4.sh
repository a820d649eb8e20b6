# Session 52, call 4: the committed tree (39d6bee, wheel .carry/wNew2): every GPU test, and
# memcheck and racecheck of the fused Viterbi section (its kernels changed), side by side.
set -uo pipefail
S0=$(date +%s)
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
export PYTHONPATH=$PWD/.carry/wNew2:/tmp/site
for tool in memcheck racecheck; do
  ( GPUSEQ_CACHE_DIR=/tmp/kc-san-$tool SECTIONS=fused timeout 400 compute-sanitizer --tool $tool --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/$tool-fused-4.log 2>&1; echo "$tool rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/sanitizer-rc-4.txt ) &
done
GPUSEQ_CACHE_DIR=/tmp/kc-tests4 timeout 420 python3 -m pytest -q -n 8 -m cuda -p no:cacheprovider -ra tests > $OUT/pytest-cuda-4.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; tail -n 2 $OUT/pytest-cuda-4.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-cuda-4.log | head -20
wait
cat $OUT/sanitizer-rc-4.txt; tail -n 2 $OUT/memcheck-fused-4.log $OUT/racecheck-fused-4.log
