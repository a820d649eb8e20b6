# Session 60, call 4: .carry/w78 (targets per warp chosen by launch, this tree): the
# fused-kernel tests, fused-section memcheck and racecheck (background), then bylaunch.py
# (where four targets a warp overtake two as a launch grows).
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
S0=$(date +%s)
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > $OUT/device-4.txt
export PYTHONPATH=$PWD/.carry/w78:/tmp/site
( GPUSEQ_CACHE_DIR=/tmp/kc-m SECTIONS=fused timeout 400 compute-sanitizer --tool memcheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/memcheck-fused-4.log 2>&1; echo "memcheck rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc-4.txt ) &
( GPUSEQ_CACHE_DIR=/tmp/kc-r SECTIONS=fused timeout 400 compute-sanitizer --tool racecheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/racecheck-fused-4.log 2>&1; echo "racecheck rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc-4.txt ) &
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 300 python3 -m pytest -n 6 -q -ra -p no:cacheprovider -m cuda tests/test_gpu_viterbi_fused.py > $OUT/pytest-fused-4.log 2>&1; echo "pytest rc $? at $(( $(date +%s) - S0 )) s"
tail -3 $OUT/pytest-fused-4.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-fused-4.log | head
P=benchmarks/results/gpu-h200-20261129-j/probes
timeout 300 python3 $P/bylaunch.py H200 2>&1 | tee $OUT/bylaunch-4.log
wait; cat $OUT/rc-4.txt
echo "done at $(( $(date +%s) - S0 )) s"
