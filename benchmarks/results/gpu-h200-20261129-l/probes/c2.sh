# Session 63, call 2: .carry/w86: compute-sanitizer memcheck and racecheck of the workload
# sections the fixes touch (distances: a 9 MB tile through the pinned staging on one thread
# and two; slane: the SSV's shared block sets; fused: the systolic pipeline over targets that
# start inside the residues), and memcheck of the test that refuses each device allocation
# of an upload and a first cascade in turn.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
export PYTHONPATH=$PWD/.carry/w86:/tmp/site
S=distances,slane,fused
( GPUSEQ_CACHE_DIR=/tmp/kc-m SECTIONS=$S timeout 450 compute-sanitizer --tool memcheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/memcheck-2.log 2>&1; echo "memcheck rc $?" >> /tmp/rc-2.txt ) &
( GPUSEQ_CACHE_DIR=/tmp/kc-r SECTIONS=$S timeout 450 compute-sanitizer --tool racecheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/racecheck-2.log 2>&1; echo "racecheck rc $?" >> /tmp/rc-2.txt ) &
( GPUSEQ_CACHE_DIR=/tmp/kc-c timeout 450 compute-sanitizer --tool memcheck --error-exitcode 9 python3 -m pytest -q -p no:cacheprovider tests/test_gpu_filters.py -k "allocation_that_fails or start_inside" > $OUT/memcheck-countdown-2.log 2>&1; echo "memcheck countdown rc $?" >> /tmp/rc-2.txt ) &
wait; cat /tmp/rc-2.txt; for f in memcheck-2 racecheck-2 memcheck-countdown-2; do echo "== $f"; tail -n 3 $OUT/$f.log; done
