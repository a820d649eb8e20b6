# Session 50, call 3: HEAD (2b6f4d2) every GPU test and the fused sanitizers. Wheel .carry/w50a.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
export PYTHONPATH=$PWD/.carry/w50a:/tmp/site
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader > $OUT/device.txt
S0=$(date +%s)
for tool in memcheck racecheck; do
  ( GPUSEQ_CACHE_DIR=/tmp/kc-san-$tool SECTIONS=fused timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/$tool-fused.log 2>&1; echo "$tool rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc.txt ) &
done
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 280 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests > $OUT/pytest-cuda.log 2>&1; echo "pytest rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc.txt
wait
cat $OUT/rc.txt; tail -3 $OUT/pytest-cuda.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-cuda.log | head -20
tail -n 2 $OUT/*-fused.log
