# Session 68, call 7: the whole test suite on .carry/w101 (the failed cascade's wait, its test).
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --target /tmp/site7 .carry/wheels/*.whl 2>&1 | tail -2
export PYTHONPATH=$PWD/.carry/w101:/tmp/site7:$PWD/tests
t=$(date +%s)
GPUSEQ_CACHE_DIR=/tmp/kc-t7 timeout 340 python3 -m pytest -n 12 -q -ra -p no:cacheprovider --ignore tests/test_notebooks.py tests > $OUT/pytest-all-7.log 2>&1
echo "whole suite rc $? after $(( $(date +%s) - t )) s"; tail -1 $OUT/pytest-all-7.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-all-7.log | head -30
