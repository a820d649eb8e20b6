# Session 58, call 5: the change (.carry/w69: fused_register_usage_level, split_resident_stripes
# at level 0, the options through rtc::cached_compile): every cuda-marked test, memcheck and
# racecheck of the fused section beside them; bench_hmm_filters' Viterbi rows; the SSV and MSV
# rows at the split counts it compiles at level 0, HEAD (.carry/w68 without the probe's
# variables compiles HEAD's kernels) against the change.
set -uo pipefail
export PYTHONUNBUFFERED=1
S0=$(date +%s)
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > $OUT/device-5.txt
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples"
export PYTHONPATH=$PWD/.carry/w69:/tmp/site
( GPUSEQ_CACHE_DIR=/tmp/kc-m SECTIONS=fused timeout 300 compute-sanitizer --tool memcheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/memcheck-fused-5.log 2>&1; echo "memcheck rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc-5.txt ) &
( GPUSEQ_CACHE_DIR=/tmp/kc-r SECTIONS=fused timeout 300 compute-sanitizer --tool racecheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/racecheck-fused-5.log 2>&1; echo "racecheck rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc-5.txt ) &
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 300 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests > $OUT/pytest-cuda-5.log 2>&1; echo "pytest rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc-5.txt
wait
cat $OUT/rc-5.txt; tail -2 $OUT/pytest-cuda-5.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-cuda-5.log | head
GPUSEQ_CACHE_DIR=/tmp/kc-b timeout 150 python3 benchmarks/bench_hmm_filters.py --filters viterbi \
  --models 300,512,1344,2048,2176,2304,2400,2560,2600,2688 --pfam-models "" --thread-models 24 \
  --cpu-residues 0 --repeat 3 --examples .carry/hmmer/examples --out $OUT/bench_viterbi-5.json 2>&1 | grep -v Warn > $OUT/bench_viterbi-5.log
echo "bench rc $? at $(( $(date +%s) - S0 )) s"
for v in w68 w69; do
  PYTHONPATH=$PWD/.carry/$v:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-s$v timeout 60 python3 benchmarks/bench_hmm_filters.py \
    --filters ssv,msv --models 2176,2560,2688 --pfam-models "" --cpu-residues 0 --repeat 3 \
    --out /tmp/ssvmsv-$v.json 2>&1 | grep -v Warn > $OUT/ssv-msv-$v-5.log
done
echo "done at $(( $(date +%s) - S0 )) s"
