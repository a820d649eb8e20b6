# Session 52, call 1: cold and warm NVRTC cache, the HEAD wheel (.carry/wOld, f254871) against
# the tables made on a pool with NVRTC compiling at once (.carry/wNew); then the GPU tests of
# the change.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $OUT/device.txt
nproc | tee -a $OUT/device.txt
P=benchmarks/results/gpu-h200-20261129-b/probes
rm -rf /tmp/cold  # (a first try wrote six.hmm in two formats)
timeout 330 python3 $P/cold.py $PWD/.carry/wOld $PWD/.carry/wNew 2 2>&1 | tee $OUT/cold-1.log
export PYTHONPATH=$PWD/.carry/wNew:/tmp/site
GPUSEQ_CACHE_DIR=/tmp/kc-tests timeout 250 python3 -m pytest -q -n 8 -p no:cacheprovider \
  tests/test_gpu_nvrtc.py::test_profiles_made_on_several_threads_compile_each_kernel_set_once \
  tests/test_gpu_nvrtc.py::test_profiles_reuse_the_disk_cache_and_rebuild_a_corrupt_entry \
  tests/test_gpu_nvrtc.py::test_threads_compile_at_once_into_the_same_code \
  tests/test_gpu_filters.py tests/test_cuda.py \
  tests/test_hmmsearch.py tests/test_hmmsearch_streaming.py tests/test_cli.py > $OUT/pytest-1.log 2>&1
echo "pytest rc $?"; tail -n 3 $OUT/pytest-1.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-1.log | head -20
