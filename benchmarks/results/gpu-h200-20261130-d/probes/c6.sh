# Session 67, call 6: .carry/w98 (ef0de45's module: later chunks cut until each part is
# smaller than the smallest that failed): the GPU filter tests (chunks the GPU cannot hold,
# held databases, allocation caps) and the hmmsearch search and streaming tests.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
export PYTHONPATH=$PWD/.carry/w98:/tmp/site:$PWD/tests
t=$(date +%s)
GPUSEQ_CACHE_DIR=/tmp/kc-6 timeout 280 python3 -m pytest -n 12 -q -ra -p no:cacheprovider \
  tests/test_gpu_filters.py tests/test_hmmsearch.py tests/test_hmmsearch_streaming.py tests/test_cli.py tests/test_large_search.py tests/test_bench_scripts.py > $OUT/pytest-6.log 2>&1
echo "rc $? after $(( $(date +%s) - t )) s"; tail -1 $OUT/pytest-6.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-6.log | head
