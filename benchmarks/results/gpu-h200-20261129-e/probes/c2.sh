# Session 55, call 2: the systolic pipeline with 4 and 8 lanes for models up to 96 nodes
# (.carry/w57): its GPU tests, the fused section of the sanitizer workload (memcheck, racecheck),
# and the Viterbi rows on 100 M and 10 M residues.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
export PYTHONPATH=$PWD/.carry/w57:/tmp/site
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
S0=$(date +%s)
( GPUSEQ_CACHE_DIR=/tmp/kc-m SECTIONS=fused timeout 300 compute-sanitizer --tool memcheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/memcheck-fused-2.log 2>&1; echo "memcheck rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc.txt ) &
( GPUSEQ_CACHE_DIR=/tmp/kc-r SECTIONS=fused timeout 300 compute-sanitizer --tool racecheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/racecheck-fused-2.log 2>&1; echo "racecheck rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc.txt ) &
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 300 python3 -m pytest -n 6 -q -ra -p no:cacheprovider -m cuda tests/test_gpu_viterbi_systolic.py > $OUT/pytest-systolic-2.log 2>&1; echo "pytest rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc.txt
wait
cat $OUT/rc.txt; tail -2 $OUT/pytest-systolic-2.log; grep -E "^(FAILED|ERROR)|^E " $OUT/pytest-systolic-2.log | head; tail -n 2 $OUT/memcheck-fused-2.log $OUT/racecheck-fused-2.log
for R in 100e6 10e6; do
  GPUSEQ_CACHE_DIR=/tmp/kc-b timeout 200 python3 benchmarks/bench_hmm_filters.py --filters viterbi --models 24,48,50,64,96,100,129,150 \
    --pfam-models RRM_1,Caudal_act,globins4 --residues 1e6 --viterbi-residues $R --thread-models 24 --cpu-residues 0 \
    --repeat 3 --examples .carry/hmmer/examples --out $OUT/bench_viterbi-$R-2.json 2>&1 | grep -v Warn > $OUT/bench_viterbi-$R-2.log
  echo "$R rc $?"; grep -E "systolic|fused/T" $OUT/bench_viterbi-$R-2.log | grep -v GCUPS
done
