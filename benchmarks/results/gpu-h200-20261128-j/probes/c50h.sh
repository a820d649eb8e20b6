# Session 50, call 9: the working tree (systolic Viterbi opt-in; .carry/w50b): every GPU test.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
export PYTHONPATH=$PWD/.carry/w50b:/tmp/site
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
S0=$(date +%s)
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 300 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests > $OUT/pytest-cuda.log 2>&1; echo "pytest rc $? at $(( $(date +%s) - S0 )) s"
tail -3 $OUT/pytest-cuda.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-cuda.log | head -20
