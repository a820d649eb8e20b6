# df5fc6c's hmmsearch.py over a94b16d's build: the GPU hmmsearch tests and the new scheduling test.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
export GPUSEQ_CACHE_DIR=/tmp/kc-n PYTHONPATH=$PWD/.carry/wn:/tmp/site
t=$(date +%s); timeout 200 python3 -m pytest -q -ra -p no:cacheprovider -n 8 -m cuda tests/test_gpu_filters.py tests/test_cuda.py tests/test_cli.py tests/test_hmmsearch.py > $OUT/pytest-hmmsearch-cuda-df5fc6c.log 2>&1; echo "pytest rc $? $(( $(date +%s) - t )) s"; tail -n 2 $OUT/pytest-hmmsearch-cuda-df5fc6c.log
timeout 120 python3 -m pytest -q -p no:cacheprovider tests/test_hmmsearch_streaming.py -k first_model 2>&1 | tail -1
