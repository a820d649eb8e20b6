# Session 46, call 6: every GPU test, and compute-sanitizer memcheck and racecheck of the
# fused Viterbi section, on the committed kernel (wheel .carry/w46f).
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1 PYTHONPATH=$PWD/.carry/w46f:/tmp/site
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
S0=$(date +%s)
for tool in memcheck racecheck; do
  ( GPUSEQ_CACHE_DIR=/tmp/kc-san-$tool SECTIONS=fused timeout 480 compute-sanitizer --tool $tool --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/$tool-fused.log 2>&1; echo "$tool rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc.txt ) &
done
GPUSEQ_CACHE_DIR=/tmp/kc-46t timeout 500 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests > $OUT/pytest-cuda.log 2>&1; echo "pytest rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc.txt
wait
cat $OUT/rc.txt; tail -2 $OUT/pytest-cuda.log; for t in memcheck racecheck; do tail -2 $OUT/$t-fused.log; done
