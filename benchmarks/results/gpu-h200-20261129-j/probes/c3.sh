# Session 60, call 3: .carry/w77 (four targets a warp with the longest apart, this tree):
# the fused-kernel tests, fused-section memcheck and racecheck (background), then apart.py on
# 10 M and 100 M residues.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
S0=$(date +%s)
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > $OUT/device-3.txt
export PYTHONPATH=$PWD/.carry/w77:/tmp/site
( GPUSEQ_CACHE_DIR=/tmp/kc-m SECTIONS=fused timeout 400 compute-sanitizer --tool memcheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/memcheck-fused-3.log 2>&1; echo "memcheck rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc-3.txt ) &
( GPUSEQ_CACHE_DIR=/tmp/kc-r SECTIONS=fused timeout 400 compute-sanitizer --tool racecheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/racecheck-fused-3.log 2>&1; echo "racecheck rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc-3.txt ) &
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 300 python3 -m pytest -n 6 -q -ra -p no:cacheprovider -m cuda tests/test_gpu_viterbi_fused.py > $OUT/pytest-fused-3.log 2>&1; echo "pytest rc $? at $(( $(date +%s) - S0 )) s"
tail -3 $OUT/pytest-fused-3.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-fused-3.log | head
P=benchmarks/results/gpu-h200-20261129-j/probes
{ timeout 200 python3 $P/apart.py 10M 2>&1
  RESIDUES=100e6 SCALES=1 ROUNDS=1 timeout 200 python3 $P/apart.py 100M 2>&1; } | tee $OUT/apart-3.log
wait; cat $OUT/rc-3.txt
echo "done at $(( $(date +%s) - S0 )) s"
