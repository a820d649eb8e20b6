# Session 56, call 6: 4fe9833's module (.carry/w59, built from HEAD's sources): every
# cuda-marked test.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
export PYTHONPATH=$PWD/.carry/w59:/tmp/site
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
S0=$(date +%s)
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 400 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests > $OUT/pytest-cuda-6.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; tail -2 $OUT/pytest-cuda-6.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-cuda-6.log | head
