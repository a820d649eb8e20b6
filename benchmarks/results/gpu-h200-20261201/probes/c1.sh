# Session 72, call 1: .carry/w108 (0697bd6's module; HEAD's C++ and package) with the new
# random-case tests of the distances and the segmentation. Their cuda cases; memcheck and
# racecheck of a few of each; then, until the call's end, fuzzers: seeds_more.py (2 processes
# each) and seeds.py (the random hmmsearch commands on the GPU, 4 processes, seeds not drawn).
set -uo pipefail
S0=$(date +%s)
R=benchmarks/results/gpu-h200-20261201/probes
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $OUT/device.txt; nproc >> $OUT/device.txt
tar xJf .carry/w108.tar.xz -C /tmp
python3 -m pip install -q --no-index --no-deps --target /tmp/site1 .carry/wheels/*.whl 2>&1 | tail -2
export PYTHONPATH=/tmp/w108:/tmp/site1:$PWD/tests
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 150 python3 -m pytest -n 8 -q -ra -p no:cacheprovider tests/test_random_distances.py tests/test_random_segmentation.py > $OUT/pytest-1.log 2>&1
echo "pytest at $(( $(date +%s) - S0 )) s"; grep -E "passed|failed" $OUT/pytest-1.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-1.log | head
O=/tmp/o1; mkdir -p $O
for tool in distances segmentation; do
  for tool_ in memcheck racecheck; do
    ( timeout 100 compute-sanitizer --tool $tool_ --error-exitcode 9 python3 -W ignore $R/seeds_more.py $tool 500000 7 60 > $OUT/$tool_-$tool-1.log 2>&1; echo "$tool_ $tool rc $?" >> $OUT/sanitizer-rc-1.txt ) &
  done
done
SECS=$(( 560 - $(date +%s) + S0 - 30 )); echo "fuzzing for $SECS s"
for k in 1 2; do
  timeout $(( SECS + 30 )) python3 -W ignore $R/seeds_more.py distances $(( k * 1000000 )) 1 $SECS > $O/seeds-distances-$k.log 2>&1 &
  timeout $(( SECS + 30 )) python3 -W ignore $R/seeds_more.py segmentation $(( k * 1000000 )) 1 $SECS > $O/seeds-segmentation-$k.log 2>&1 &
done
for k in 1 2 3 4; do
  GPUSEQ_CACHE_DIR=/tmp/kc-f timeout $(( SECS + 60 )) python3 -W ignore benchmarks/results/gpu-h200-20261130-g/probes/seeds.py hmmsearch cuda $(( 9500000 + k * 20000 )) 1 $SECS > $O/seeds-hmmsearch-cuda-$k.log 2>&1 &
done
wait; echo "ended at $(( $(date +%s) - S0 )) s"
cat $OUT/sanitizer-rc-1.txt; grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" $OUT/*check-*.log
tail -q -n 1 $O/*.log; grep -h "FAILED\|Traceback" $O/*.log | head -20
tar -C $O -czf $OUT/fuzz-1.tar.gz . ; tar -C /tmp -czf $OUT/failed-1.tar.gz $(cd /tmp && ls -d seeds-*/s* 2>/dev/null) 2>/dev/null
ls -la $OUT
