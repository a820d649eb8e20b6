# Session 59, call 7: the review's refactor (.carry/w76: 6d3c388 with one helper for "NVRTC
# passes the register usage level to ptxas", shared by the options and the warps-per-target
# choice; no kernel changed): the cuda-marked tests of NVRTC, the fused and split Viterbi
# kernels and the GPU filters.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > $OUT/device-7.txt
PYTHONPATH=$PWD/.carry/w76:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 240 python3 -m pytest -n 16 -q -ra -p no:cacheprovider -m cuda \
  tests/test_gpu_nvrtc.py tests/test_gpu_viterbi_fused.py tests/test_gpu_filters.py > $OUT/pytest-cuda-7.log 2>&1; echo "pytest rc $?"
tail -1 $OUT/pytest-cuda-7.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-cuda-7.log | head
