# Session 68, call 5: the cascade's shared SSV buffers waited for on a failed cascade
# (gpu_filters.cu, WaitForStreamOnUnwind): .carry/w100 (the new _core, the new test) against
# w99 (the old _core, with the new test copied beside it): the new test on each; then, on
# w100, test_gpu_filters.py and the streaming tests, oom_search.py's fuzzing (8 processes,
# 150 s), and memcheck of the filters section at M = 130.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wh-min/*.whl 2>&1 | tail -2
t=$(date +%s); T="tests/test_gpu_filters.py::test_a_refused_allocation_in_one_models_cascade_leaves_the_others_equal"
PYTHONPATH=$PWD/.carry/w99:/tmp/site:$PWD/tests GPUSEQ_CACHE_DIR=/tmp/kc-old timeout 150 python3 -m pytest -q -p no:cacheprovider $T > $OUT/pytest-old-core-5.log 2>&1
echo "old _core: rc $? after $(( $(date +%s) - t )) s"; tail -n 3 $OUT/pytest-old-core-5.log
export PYTHONPATH=$PWD/.carry/w100:/tmp/site:$PWD/tests
t=$(date +%s)
GPUSEQ_CACHE_DIR=/tmp/kc-new timeout 150 python3 -m pytest -q -p no:cacheprovider $T > $OUT/pytest-new-core-5.log 2>&1
echo "new _core: rc $? after $(( $(date +%s) - t )) s"; tail -n 1 $OUT/pytest-new-core-5.log
O=/tmp/o5; mkdir -p $O; t=$(date +%s)
for s in $(seq 11 16); do
  GPUSEQ_CACHE_DIR=/tmp/kc-o$s timeout 240 python3 -W ignore benchmarks/results/gpu-h200-20261130-e/probes/oom_search.py $s 150 > $O/oom-$s.log 2>&1 &
done
( GPUSEQ_CACHE_DIR=/tmp/kc-m SECTIONS=filters FILTER_M=130 timeout 240 compute-sanitizer --tool memcheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $O/memcheck-filters-130-5.log 2>&1; echo "memcheck rc $?" > $O/memcheck-rc.txt ) &
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 240 python3 -m pytest -n 6 -q -p no:cacheprovider tests/test_gpu_filters.py tests/test_hmmsearch_streaming.py > $OUT/pytest-5.log 2>&1
echo "gpu filters + streaming rc $? after $(( $(date +%s) - t )) s"; tail -n 1 $OUT/pytest-5.log
wait; cat $O/memcheck-rc.txt; tail -n 2 $O/memcheck-filters-130-5.log
tail -q -n 1 $O/oom-*.log; grep -h "DIFFERENT\|Error\|Traceback" $O/oom-*.log | head
tar -C $O -czf $OUT/oom-5.tar.gz .
