# Session 54, call 5: HEAD 06ff252 (module .carry/w56): every cuda-marked test.
set -uo pipefail
S0=$(date +%s)
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
export PYTHONPATH=$PWD/.carry/w56:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-56
timeout 400 python3 -m pytest -q -n 8 -p no:cacheprovider -ra -m cuda tests > $OUT/pytest-cuda-5.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; tail -3 $OUT/pytest-cuda-5.log
