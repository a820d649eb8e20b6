# Session 65, call 4: .carry/w92 (3ffbed8's module): the whole test suite on the GPU host
# (every file; the notebooks left out: nbformat and nbclient are not on the device).
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
export PYTHONPATH=$PWD/.carry/w92:/tmp/site
t=$(date +%s)
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 500 python3 -m pytest -n 12 -q -ra -p no:cacheprovider --ignore tests/test_notebooks.py tests > $OUT/pytest-all-4.log 2>&1
echo "whole suite rc $? after $(( $(date +%s) - t )) s"; tail -1 $OUT/pytest-all-4.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-all-4.log | head -30
