# Session 48, call 7: the commit (rows together, splat_s16 as one PRMT): every GPU test, the fused sanitizers, and bench_hmm_filters' Viterbi. Wheel .carry/w48f.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
export PYTHONPATH=$PWD/.carry/w48f:/tmp/site
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader > $OUT/device.txt
S0=$(date +%s)
for tool in memcheck racecheck; do
  ( GPUSEQ_CACHE_DIR=/tmp/kc-san-$tool SECTIONS=fused timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/$tool-fused.log 2>&1; echo "$tool rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc.txt ) &
done
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 280 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests > $OUT/pytest-cuda.log 2>&1; echo "pytest rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc.txt
wait
cat $OUT/rc.txt; tail -3 $OUT/pytest-cuda.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-cuda.log | head -20
tail -n 2 $OUT/*-fused.log
t=$(date +%s); GPUSEQ_CACHE_DIR=/tmp/kc-b timeout 260 python3 benchmarks/bench_hmm_filters.py --filters viterbi --models 50,100,129,150,200,256,300,400,520,640,800,1024,1200,1400,1600,2000,2049,2400,2816,3000,3500,4096 --residues 1e6 --cpu-residues 0 --thread-models 0 --repeat 3 --examples .carry/hmmer/examples --out $OUT/bench_viterbi.json > $OUT/bench_viterbi.log 2>&1; echo "viterbi rc $? $(( $(date +%s) - t )) s"
grep -E "split|fused|Pfam|SMC|M = " $OUT/bench_viterbi.log | tail -60
