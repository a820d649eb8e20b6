# Session 62, call 10: .carry/w85 (4ff8941, HEAD): compute-sanitizer memcheck and racecheck of
# the fused section (every Viterbi kernel the launch chooses among: two and four a warp, the
# systolic pipeline; static and NVRTC), side by side.
set -uo pipefail
export PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $OUT/device-10.txt
export PYTHONPATH=$PWD/.carry/w85:/tmp/site
( GPUSEQ_CACHE_DIR=/tmp/kc-m SECTIONS=fused timeout 360 compute-sanitizer --tool memcheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/memcheck-fused-10.log 2>&1; echo "memcheck rc $?" >> /tmp/rc-10.txt ) &
( GPUSEQ_CACHE_DIR=/tmp/kc-r SECTIONS=fused timeout 360 compute-sanitizer --tool racecheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/racecheck-fused-10.log 2>&1; echo "racecheck rc $?" >> /tmp/rc-10.txt ) &
wait; cat /tmp/rc-10.txt; tail -n 2 $OUT/memcheck-fused-10.log; tail -n 2 $OUT/racecheck-fused-10.log
