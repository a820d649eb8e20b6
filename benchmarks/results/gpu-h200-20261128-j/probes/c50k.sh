# Session 50, call 12: long targets to the fused kernel beside the pipeline (.carry/w50b): the
# systolic tests, fused-section memcheck, bench_hmm_filters Viterbi.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
export PYTHONPATH=$PWD/.carry/w50b:/tmp/site
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
S0=$(date +%s)
( GPUSEQ_CACHE_DIR=/tmp/kc-san SECTIONS=fused timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/memcheck-fused.log 2>&1; echo "memcheck rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc.txt ) &
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 200 python3 -m pytest -n 6 -q -ra -p no:cacheprovider -m cuda tests/test_gpu_viterbi_systolic.py > $OUT/pytest-systolic.log 2>&1; echo "pytest rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc.txt
wait
cat $OUT/rc.txt; tail -2 $OUT/pytest-systolic.log; grep -E "^(FAILED|ERROR)|^E " $OUT/pytest-systolic.log | head; tail -n 2 $OUT/memcheck-fused.log
GPUSEQ_CACHE_DIR=/tmp/kc-b timeout 200 python3 benchmarks/bench_hmm_filters.py --filters viterbi --models 100,129,150,200,256,300,384 --pfam-models RRM_1,Caudal_act,globins4,Pkinase --residues 1e6 --cpu-residues 0 --repeat 5 --examples .carry/hmmer/examples --out $OUT/bench_viterbi.json 2>&1 | grep -v Warn | tee $OUT/bench_viterbi.log | grep -E "systolic|fused/T2" | head -40
