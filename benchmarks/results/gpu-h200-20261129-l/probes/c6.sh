# Session 63, call 6: .carry/w87 (9d5b143: the distance engines take Y as X only when it has
# X's rows too; blastp's option checks): the distance tests (cuda-marked and CPU) and the
# blastp API tests (GPU backend by default here), with the new subset-against-panel test run
# on the module before the fix (w86) too; memcheck of the distances section and of the
# subset test.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $OUT/device-6.txt
PYTHONPATH=$PWD/.carry/w86:/tmp/site timeout 120 python3 -m pytest -q -p no:cacheprovider tests/test_distance.py -k subset > $OUT/old-subset-6.log 2>&1
echo "w86 subset test rc $?"; grep -E "^FAILED|passed|failed" $OUT/old-subset-6.log | head -4
export PYTHONPATH=$PWD/.carry/w87:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-t
timeout 300 python3 -m pytest -n 16 -q -ra -p no:cacheprovider tests/test_distance.py tests/test_blastp_api.py tests/test_blast_cuda.py > $OUT/pytest-6.log 2>&1
echo "pytest rc $?"; tail -1 $OUT/pytest-6.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-6.log | head
( SECTIONS=distances timeout 300 compute-sanitizer --tool memcheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/memcheck-6.log 2>&1; echo "memcheck rc $?" >> /tmp/rc-6.txt ) &
( timeout 300 compute-sanitizer --tool memcheck --error-exitcode 9 python3 -m pytest -q -p no:cacheprovider tests/test_distance.py -k "subset and cuda" > $OUT/memcheck-subset-6.log 2>&1; echo "memcheck subset rc $?" >> /tmp/rc-6.txt ) &
wait; cat /tmp/rc-6.txt; tail -n 2 $OUT/memcheck-6.log $OUT/memcheck-subset-6.log
