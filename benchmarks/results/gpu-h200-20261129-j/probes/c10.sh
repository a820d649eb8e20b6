# Session 60, call 10: .carry/w80 (this tree: the kernel chosen by launch, now with the
# systolic pipeline from 30,000 times the longest target): every cuda-marked test, fused-section
# memcheck and racecheck beside them, then bench_hmm_filters.py's Viterbi rows up to M = 384
# and the Pfam models on 100 M residues.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
S0=$(date +%s)
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > $OUT/device-10.txt
export PYTHONPATH=$PWD/.carry/w80:/tmp/site
( GPUSEQ_CACHE_DIR=/tmp/kc-m SECTIONS=fused timeout 400 compute-sanitizer --tool memcheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/memcheck-fused-10.log 2>&1; echo "memcheck rc $? at $(( $(date +%s) - S0 )) s" >> /tmp/rc-10.txt ) &
( GPUSEQ_CACHE_DIR=/tmp/kc-r SECTIONS=fused timeout 400 compute-sanitizer --tool racecheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/racecheck-fused-10.log 2>&1; echo "racecheck rc $? at $(( $(date +%s) - S0 )) s" >> /tmp/rc-10.txt ) &
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 400 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests > $OUT/pytest-cuda-10.log 2>&1; echo "pytest rc $? at $(( $(date +%s) - S0 )) s"
wait; cat /tmp/rc-10.txt; tail -1 $OUT/pytest-cuda-10.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-cuda-10.log | head
timeout 300 python3 benchmarks/bench_hmm_filters.py --filters viterbi --models 50,71,100,129,150,200,256,300,384,400 --examples $GPUSEQ_HMMER_EXAMPLES --thread-models 0 --cpu-residues 0 --repeat 3 --out $OUT/bench_viterbi-10.json > $OUT/bench_viterbi-10.log 2>&1; echo "bench rc $? at $(( $(date +%s) - S0 )) s"
grep -E "by-launch|fused/T2 |fused/T4 | systolic " $OUT/bench_viterbi-10.log | grep -v "/warp_fused"
echo "done at $(( $(date +%s) - S0 )) s"
