# Session 60, call 11: .carry/w81 (ae18870: a pipeline profile that cannot be built leaves the
# launch to the others): the fused-kernel, systolic and filter tests.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
S0=$(date +%s)
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > $OUT/device-11.txt
export PYTHONPATH=$PWD/.carry/w81:/tmp/site
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 300 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests/test_gpu_viterbi_fused.py tests/test_gpu_viterbi_systolic.py tests/test_gpu_filters.py > $OUT/pytest-11.log 2>&1; echo "pytest rc $? at $(( $(date +%s) - S0 )) s"
tail -1 $OUT/pytest-11.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-11.log | head
