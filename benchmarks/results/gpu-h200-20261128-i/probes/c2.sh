# Session 49, call 2: each S-lane filter past its own slow counts (B = .carry/w49b) against HEAD
# (A = .carry/w49a): the S-lane/NVRTC/filter/search GPU tests and the slane sanitizers on B,
# then the SSV/MSV A/B, two alternated rounds.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader > $OUT/device.txt
S0=$(date +%s)
for tool in memcheck racecheck; do
  ( PYTHONPATH=$PWD/.carry/w49b:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-san-$tool SECTIONS=slane timeout 240 compute-sanitizer --tool $tool --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/$tool-slane.log 2>&1; echo "$tool rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc.txt ) &
done
PYTHONPATH=$PWD/.carry/w49b:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 240 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests/test_gpu_multi.py tests/test_gpu_nvrtc.py tests/test_gpu_filters.py tests/test_hmmsearch.py > $OUT/pytest-per-filter-h.log 2>&1; echo "pytest rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc.txt
wait
cat $OUT/rc.txt; tail -2 $OUT/pytest-per-filter-h.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-per-filter-h.log | head; tail -n 2 $OUT/*-slane.log
ML=36,72,100,150,200,216,220,224,232,272,288,296,336,344,352,360,368,448,576,896
for round in 1 2; do for b in a b; do
  echo "== round $round build $b at $(( $(date +%s) - S0 )) s" >> $OUT/per-filter-h-ab.log
  PYTHONPATH=$PWD/.carry/w49$b:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-$b timeout 150 python3 .carry/hprobe.py $ML >> $OUT/per-filter-h-ab.log 2>&1
done; done
cat $OUT/per-filter-h-ab.log
