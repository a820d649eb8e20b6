# Session 59, call 2: the SSV and MSV warp kernels compiled apart from the Viterbi kernel
# (.carry/w74: 320eb36 with the change; four warps at 15 and 16 stripes at register usage
# level 0): every cuda-marked test, memcheck and racecheck of the fused section beside them;
# then bench_hmm_filters' Viterbi rows (w74, and 320eb36 = .carry/w72 at the four-warp counts)
# and its SSV and MSV rows at the counts whose programs were at level 0, w72 and w74 alternated.
set -uo pipefail
export PYTHONUNBUFFERED=1
S0=$(date +%s)
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > $OUT/device-2.txt
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples"
export PYTHONPATH=$PWD/.carry/w74:/tmp/site
( GPUSEQ_CACHE_DIR=/tmp/kc-m SECTIONS=fused timeout 300 compute-sanitizer --tool memcheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/memcheck-fused-2.log 2>&1; echo "memcheck rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc-2.txt ) &
( GPUSEQ_CACHE_DIR=/tmp/kc-r SECTIONS=fused timeout 300 compute-sanitizer --tool racecheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/racecheck-fused-2.log 2>&1; echo "racecheck rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc-2.txt ) &
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 300 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests > $OUT/pytest-cuda-2.log 2>&1; echo "pytest rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc-2.txt
wait
cat $OUT/rc-2.txt; tail -2 $OUT/pytest-cuda-2.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-cuda-2.log | head
bv() {
  PYTHONPATH=$PWD/.carry/$1:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-b$1 timeout 150 python3 benchmarks/bench_hmm_filters.py \
    --filters viterbi --models $2 --pfam-models "" --thread-models 24 --cpu-residues 0 --repeat 3 \
    --examples .carry/hmmer/examples --out $OUT/bench_viterbi-$1-2.json 2>&1 | grep -v Warn > $OUT/bench_viterbi-$1-2.log
  echo "viterbi $1 rc $? at $(( $(date +%s) - S0 )) s"
}
bv w74 300,512,1344,2048,2400,2816,3000,3500,3648,3840,4096
bv w72 3500,3648,3840,4096
for round in 1 2; do
  for v in w72 w74; do
    PYTHONPATH=$PWD/.carry/$v:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-s$v timeout 90 python3 benchmarks/bench_hmm_filters.py \
      --filters ssv,msv --models 2176,2400,2688,2816,3840,4096 --pfam-models "" --cpu-residues 0 --repeat 3 \
      --out /tmp/ssvmsv-$v.json 2>&1 | grep -v Warn > $OUT/ssv-msv-$v-r$round-2.log
    echo "ssv/msv $v round $round rc $? at $(( $(date +%s) - S0 )) s"
  done
done
grep -E "split/W|fused" $OUT/bench_viterbi-w7*-2.log | grep -v False
grep -hE "^ +[0-9]+ +sampled +(ssv|msv)" $OUT/ssv-msv-*-2.log | head -60
echo "done at $(( $(date +%s) - S0 )) s"
