# Session 60, call 12: .carry/w82 (the two by-launch profiles made by one helper,
# DeviceProfile::made_for_launches): the fused-kernel, systolic and filter tests, with
# fused-section memcheck and racecheck beside them.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
S0=$(date +%s)
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > $OUT/device-12.txt
export PYTHONPATH=$PWD/.carry/w82:/tmp/site
( GPUSEQ_CACHE_DIR=/tmp/kc-m SECTIONS=fused timeout 300 compute-sanitizer --tool memcheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/memcheck-fused-12.log 2>&1; echo "memcheck rc $? at $(( $(date +%s) - S0 )) s" >> /tmp/rc-12.txt ) &
( GPUSEQ_CACHE_DIR=/tmp/kc-r SECTIONS=fused timeout 300 compute-sanitizer --tool racecheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/racecheck-fused-12.log 2>&1; echo "racecheck rc $? at $(( $(date +%s) - S0 )) s" >> /tmp/rc-12.txt ) &
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 300 python3 -m pytest -n 6 -q -ra -p no:cacheprovider -m cuda tests/test_gpu_viterbi_fused.py tests/test_gpu_viterbi_systolic.py tests/test_gpu_filters.py > $OUT/pytest-12.log 2>&1; echo "pytest rc $? at $(( $(date +%s) - S0 )) s"
wait; cat /tmp/rc-12.txt; tail -1 $OUT/pytest-12.log
