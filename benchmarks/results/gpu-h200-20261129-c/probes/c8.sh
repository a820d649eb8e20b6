# Session 53, call 8: every cuda-marked test with 7f1fdbe's module (wheel .carry/w53).
set -uo pipefail
S0=$(date +%s)
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
export PYTHONPATH=$PWD/.carry/w53:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-53
timeout 450 python3 -m pytest -q -n 8 -p no:cacheprovider -ra -m cuda tests > $OUT/pytest-cuda-8.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; tail -16 $OUT/pytest-cuda-8.log
