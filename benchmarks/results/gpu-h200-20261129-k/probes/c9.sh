# Session 62, call 9: .carry/w85 (the review's changes: made_for_launches catches every failure
# to make the other profile, inside call_once; doc comments): the fused Viterbi tests (the
# kernel chosen by launch among them), the GPU filter tests, and the search tests.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $OUT/device-9.txt
export PYTHONPATH=$PWD/.carry/w85:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-t
timeout 420 python3 -m pytest -n 16 -q -ra -p no:cacheprovider tests/test_gpu_viterbi_fused.py tests/test_gpu_filters.py \
  tests/test_hmmsearch.py tests/test_hmmsearch_streaming.py tests/test_cli.py > $OUT/pytest-9.log 2>&1
echo "pytest rc $?"; tail -1 $OUT/pytest-9.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-9.log | head
