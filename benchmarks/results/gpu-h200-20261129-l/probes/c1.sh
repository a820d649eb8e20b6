# Session 63, call 1: .carry/w86 (the review fixes: pinned staging copies every piece on one
# worker, the cascade's work buffers kept only once all are made, the systolic pipeline's
# offsets into the uploaded residues, SSV block sets held by their launches; a countdown
# hook that refuses the n-th device allocation): every cuda-marked test, then the test files
# the fixes touched, whole (hmmsearch 3.3.2 and pyhmmer as references).
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $OUT/device-1.txt
export PYTHONPATH=$PWD/.carry/w86:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-t
timeout 330 python3 -m pytest -n 16 -q -ra -p no:cacheprovider -m cuda tests > $OUT/pytest-cuda-1.log 2>&1
echo "cuda-marked rc $?"; tail -1 $OUT/pytest-cuda-1.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-cuda-1.log | head
timeout 200 python3 -m pytest -n 16 -q -ra -p no:cacheprovider tests/test_errors.py tests/test_cli.py \
  tests/test_hmmsearch_streaming.py tests/test_gpu_filters.py tests/test_distance.py > $OUT/pytest-files-1.log 2>&1
echo "files rc $?"; tail -1 $OUT/pytest-files-1.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-files-1.log | head
