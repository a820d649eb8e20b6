# Session 53, call 6: the search tests on the GPU with the change (wheel .carry/w53): they
# search on the GPU where one is present, the Forward bound's survivors split by work.
set -uo pipefail
S0=$(date +%s)
P=benchmarks/results/gpu-h200-20261129-c/probes
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
export PYTHONPATH=$PWD/.carry/w53:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-53
timeout 480 python3 -m pytest -q -n 8 -p no:cacheprovider -ra tests/test_hmmsearch.py \
  tests/test_hmmsearch_streaming.py tests/test_cli.py tests/test_gpu_filters.py > $OUT/pytest-search-6.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; tail -8 $OUT/pytest-search-6.log
