# Session 55, call 3: the systolic pipeline as a chain of 2-8 warps for 385-3072 nodes
# (.carry/w58): its GPU tests, the fused section of the sanitizer workload (memcheck,
# racecheck: the ring between warps), and the Viterbi rows of the long models on 100 M residues.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
export PYTHONPATH=$PWD/.carry/w58:/tmp/site
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
S0=$(date +%s)
( GPUSEQ_CACHE_DIR=/tmp/kc-m SECTIONS=fused timeout 400 compute-sanitizer --tool memcheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/memcheck-fused-3.log 2>&1; echo "memcheck rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc.txt ) &
( GPUSEQ_CACHE_DIR=/tmp/kc-r SECTIONS=fused timeout 400 compute-sanitizer --tool racecheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/racecheck-fused-3.log 2>&1; echo "racecheck rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc.txt ) &
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 400 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests/test_gpu_viterbi_systolic.py > $OUT/pytest-systolic-3.log 2>&1; echo "pytest rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc.txt
tail -2 $OUT/pytest-systolic-3.log; grep -E "^(FAILED|ERROR)|^E " $OUT/pytest-systolic-3.log | head -20
GPUSEQ_CACHE_DIR=/tmp/kc-b timeout 420 python3 benchmarks/bench_hmm_filters.py --filters viterbi --models 400,768,1100,1400,2048,2400,3000 \
  --pfam-models SMC_N --residues 100e6 --thread-models 24 --cpu-residues 0 \
  --repeat 3 --examples .carry/hmmer/examples --out $OUT/bench_viterbi-long-3.json 2>&1 | grep -v Warn > $OUT/bench_viterbi-long-3.log
echo "bench rc $? at $(( $(date +%s) - S0 )) s"; grep -E "systolic|split|warp_fused" $OUT/bench_viterbi-long-3.log | grep -v GCUPS
wait
cat $OUT/rc.txt; tail -n 2 $OUT/memcheck-fused-3.log $OUT/racecheck-fused-3.log
