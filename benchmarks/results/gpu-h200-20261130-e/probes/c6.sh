# Session 68, call 6: a failed cascade waits for its launches (gpu_filters.cu,
# WaitForStreamOnUnwind). .carry/w101: the fix and its test
# (test_a_cascade_that_fails_has_waited_for_its_launches); w101-nofix: the same _core built
# with the guard commented out, under the same test (it must fail). Then, on w101:
# test_gpu_filters.py and the streaming tests, oom_search.py's fuzzing (6 processes, 120 s),
# and memcheck of the filters section at M = 130.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wh-min/*.whl 2>&1 | tail -2
rm -rf /tmp/nofix && mkdir -p /tmp/nofix && cp -r .carry/w101/gpuseq /tmp/nofix/ && cp .carry/w101-nofix/_core*.so /tmp/nofix/gpuseq/
T="tests/test_gpu_filters.py::test_a_cascade_that_fails_has_waited_for_its_launches"
t=$(date +%s)
PYTHONPATH=/tmp/nofix:/tmp/site:$PWD/tests GPUSEQ_CACHE_DIR=/tmp/kc-nofix timeout 120 python3 -m pytest -q -p no:cacheprovider $T > $OUT/pytest-nofix-6.log 2>&1
echo "without the guard: rc $? after $(( $(date +%s) - t )) s"; grep -E "^E  |passed|failed" $OUT/pytest-nofix-6.log | head -5
export PYTHONPATH=$PWD/.carry/w101:/tmp/site:$PWD/tests
t=$(date +%s)
GPUSEQ_CACHE_DIR=/tmp/kc-new timeout 120 python3 -m pytest -q -p no:cacheprovider $T > $OUT/pytest-fix-6.log 2>&1
echo "with the guard: rc $? after $(( $(date +%s) - t )) s"; tail -n 1 $OUT/pytest-fix-6.log
O=/tmp/o6; mkdir -p $O; t=$(date +%s)
for s in $(seq 21 26); do
  GPUSEQ_CACHE_DIR=/tmp/kc-o$s timeout 200 python3 -W ignore benchmarks/results/gpu-h200-20261130-e/probes/oom_search.py $s 120 > $O/oom-$s.log 2>&1 &
done
( GPUSEQ_CACHE_DIR=/tmp/kc-m SECTIONS=filters FILTER_M=130 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $O/memcheck-filters-130-6.log 2>&1; echo "memcheck rc $?" > $O/memcheck-rc.txt ) &
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 200 python3 -m pytest -n 6 -q -p no:cacheprovider tests/test_gpu_filters.py tests/test_hmmsearch_streaming.py > $OUT/pytest-6.log 2>&1
echo "gpu filters + streaming rc $? after $(( $(date +%s) - t )) s"; tail -n 1 $OUT/pytest-6.log
wait; cat $O/memcheck-rc.txt; tail -n 2 $O/memcheck-filters-130-6.log
tail -q -n 1 $O/oom-*.log; grep -h "DIFFERENT\|Error\|Traceback" $O/oom-*.log | head
tar -C $O -czf $OUT/oom-6.tar.gz .
