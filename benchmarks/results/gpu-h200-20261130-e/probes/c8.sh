# Session 68, call 8: .carry/w102 (946bf11's module: _ModelStream's handoff and its later-model
# error fix) under the search tests on the GPU, test_cli.py's later-model test 8 times.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --target /tmp/site8 .carry/wheels/*.whl 2>&1 | tail -2
export PYTHONPATH=$PWD/.carry/w102:/tmp/site8:$PWD/tests
t=$(date +%s)
GPUSEQ_CACHE_DIR=/tmp/kc-t8 timeout 110 python3 -m pytest -n 12 -q -p no:cacheprovider tests/test_hmmsearch.py tests/test_hmmsearch_streaming.py tests/test_cli.py tests/test_gpu_filters.py tests/test_large_search.py > $OUT/pytest-8.log 2>&1
echo "search tests rc $? after $(( $(date +%s) - t )) s"; tail -n 1 $OUT/pytest-8.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-8.log | head
t=$(date +%s)
f=0; for i in $(seq 1 8); do
  GPUSEQ_CACHE_DIR=/tmp/kc-t8 timeout 60 python3 -m pytest -q -p no:cacheprovider tests/test_cli.py -k models_before_one >> $OUT/pytest-later-model-8.log 2>&1 || f=$((f+1))
done
echo "later-model test: $f of 8 runs failed, after $(( $(date +%s) - t )) s"; tail -n 1 $OUT/pytest-later-model-8.log
