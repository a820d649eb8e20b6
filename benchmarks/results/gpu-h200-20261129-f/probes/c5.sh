# Session 56, call 5: the commit (.carry/w58: the split kernel's D->D words held at 17-22
# stripes a warp, its resident stripes by count, its exchange as 16-byte records up to 16
# stripes): the fused kernels' GPU tests, memcheck and racecheck of the sanitizer workload's
# fused section, then bench_hmm_filters.py's Viterbi rows for the long models on 100 M residues.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
export PYTHONPATH=$PWD/.carry/w58:/tmp/site
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $OUT/device-5.txt
S0=$(date +%s)
( GPUSEQ_CACHE_DIR=/tmp/kc-m SECTIONS=fused timeout 330 compute-sanitizer --tool memcheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/memcheck-fused-5.log 2>&1; echo "memcheck rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc-5.txt ) &
( GPUSEQ_CACHE_DIR=/tmp/kc-r SECTIONS=fused timeout 330 compute-sanitizer --tool racecheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/racecheck-fused-5.log 2>&1; echo "racecheck rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc-5.txt ) &
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 300 python3 -m pytest -n 6 -q -ra -p no:cacheprovider -m cuda tests/test_gpu_viterbi_fused.py tests/test_gpu_nvrtc.py > $OUT/pytest-fused-5.log 2>&1; echo "pytest rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc-5.txt
wait
cat $OUT/rc-5.txt; tail -2 $OUT/pytest-fused-5.log; grep -E "^(FAILED|ERROR)|^E " $OUT/pytest-fused-5.log | head; tail -n 2 $OUT/memcheck-fused-5.log $OUT/racecheck-fused-5.log
GPUSEQ_CACHE_DIR=/tmp/kc-b timeout 240 python3 benchmarks/bench_hmm_filters.py --filters viterbi \
  --models 1024,1344,1600,2048,2176,2304,2400,2560,2600,2816,3000,3500 --pfam-models SMC_N --thread-models 24 \
  --cpu-residues 0 --repeat 3 --examples .carry/hmmer/examples --out $OUT/bench_viterbi-5.json 2>&1 | grep -v Warn > $OUT/bench_viterbi-5.log
echo "bench rc $? at $(( $(date +%s) - S0 )) s"; grep -vE "GCUPS|^$" $OUT/bench_viterbi-5.log | tail -40
