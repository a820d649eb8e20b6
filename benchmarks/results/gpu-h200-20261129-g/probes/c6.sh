# Session 57, call 6: the working tree with four warps a target from M = 2689 (.carry/w65):
# the split kernel's GPU tests, the choice of warps by model length among them.
set -uo pipefail
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $OUT/device-6.txt
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples"
PYTHONPATH=$PWD/.carry/w65:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 200 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda \
  tests/test_gpu_viterbi_fused.py tests/test_gpu_nvrtc.py -k "warps or split or longer_than_the_static or exact_stripe" > $OUT/pytest-split-6.log 2>&1
echo "pytest rc $?"; tail -2 $OUT/pytest-split-6.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-split-6.log | head
