# Session 50, call 8 (7 again after fixes): the systolic Viterbi in the package (.carry/w50b = HEAD 2b6f4d2 + the
# working tree): its tests, the fused tests, fused-section sanitizers (with the systolic case),
# then bench_hmm_filters Viterbi.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
export PYTHONPATH=$PWD/.carry/w50b:/tmp/site
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
S0=$(date +%s)
for tool in memcheck racecheck; do
  ( GPUSEQ_CACHE_DIR=/tmp/kc-san-$tool SECTIONS=fused timeout 240 compute-sanitizer --tool $tool --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/$tool-fused.log 2>&1; echo "$tool rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc.txt ) &
done
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 240 python3 -m pytest -n 6 -q -ra -p no:cacheprovider -m cuda tests/test_gpu_viterbi_systolic.py tests/test_gpu_viterbi_fused.py > $OUT/pytest-viterbi.log 2>&1; echo "pytest rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc.txt
wait
cat $OUT/rc.txt; tail -3 $OUT/pytest-viterbi.log; grep -E "^(FAILED|ERROR)|Error|assert" $OUT/pytest-viterbi.log | head -30
tail -n 2 $OUT/*-fused.log
GPUSEQ_CACHE_DIR=/tmp/kc-b timeout 200 python3 benchmarks/bench_hmm_filters.py --filters viterbi --models 100,129,150,200,256,300,384 --pfam-models RRM_1,Caudal_act,globins4,Pkinase --residues 1e6 --cpu-residues 0 --repeat 3 --examples .carry/hmmer/examples --out $OUT/bench_viterbi.json 2>&1 | grep -v Warn | tee $OUT/bench_viterbi.log | grep -E "systolic|fused/T2|M " | head -60
