# Session 47, call 5: the whole search with two models whose Viterbi is split (2400 over two warps, 3000 over
# four) against the CPU backend, and the split / NVRTC tests again, on the tree with the auto-split fallback. Wheel .carry/w47e.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
export PYTHONPATH=$PWD/.carry/w47e:/tmp/site
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
S0=$(date +%s)
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 400 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests/test_gpu_filters.py tests/test_gpu_viterbi_fused.py tests/test_gpu_nvrtc.py tests/test_hmmsearch.py > $OUT/pytest-5.log 2>&1; echo "pytest rc $? at $(( $(date +%s) - S0 )) s"
tail -3 $OUT/pytest-5.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-5.log | head
