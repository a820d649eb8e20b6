# Session 49, call 5: the SSV/MSV warp kernels with their tables in shared memory told one
# block an SM (warp_shared_min_blocks; E = .carry/w49e) against fb06083 (D = .carry/w49d):
# every Q 25-48 at the exact count (slow list off), both builds; E's filter/NVRTC GPU tests and
# the warp_tables sanitizers.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader > $OUT/device.txt
S0=$(date +%s)
for b in d e; do for r in 25-30 31-36 37-42 43-48; do
  ( COMPILE_ONLY=1 PYTHONPATH=$PWD/.carry/w49$b:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-$b timeout 200 python3 .carry/wsweep.py $r > /dev/null 2>&1 ) &
done; done
for tool in memcheck racecheck; do
  ( PYTHONPATH=$PWD/.carry/w49e:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-san-$tool SECTIONS=warp_tables timeout 230 compute-sanitizer --tool $tool --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/$tool-warp-tables.log 2>&1; echo "$tool rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc.txt ) &
done
wait; echo "compiled, sanitizers done at $(( $(date +%s) - S0 )) s" >> $OUT/wsweep.log
for round in 1 2; do for b in d e; do
  echo "== round $round build $b at $(( $(date +%s) - S0 )) s" >> $OUT/wsweep.log
  PYTHONPATH=$PWD/.carry/w49$b:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-$b timeout 70 python3 .carry/wsweep.py 25-48 >> $OUT/wsweep.log 2>&1
done; done
PYTHONPATH=$PWD/.carry/w49e:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-e timeout 150 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests/test_gpu_filters.py tests/test_gpu_nvrtc.py > $OUT/pytest-filters-nvrtc.log 2>&1; echo "pytest rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc.txt
wait
cat $OUT/rc.txt; tail -2 $OUT/pytest-filters-nvrtc.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-filters-nvrtc.log | head; tail -n 2 $OUT/*-warp-tables.log
cat $OUT/wsweep.log
