# Session 57, call 4: the commit's tree (.carry/w63: the D->D chain in two parts where
# dd_chain_split_at says, one part elsewhere) against HEAD (.carry/w59), alternated twice,
# every case's scores compared with HEAD's; every cuda-marked test; memcheck and racecheck of
# the sanitizer workload's fused section (which now adds M = 1024 and 2560 over two warps).
set -uo pipefail
export PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $OUT/device-4.txt
S0=$(date +%s)
P=benchmarks/results/gpu-h200-20261129-g/probes/vitab.py
export CASES=512:1:2,1024:1:1,1344:1:1,2048:2:1,2560:2:1,4096:4:1,2400:2:1,1280:1:1,2600:2:1
run() {  # label wheel [reference]
  GPUSEQ_CACHE_DIR=/tmp/kc-$1 PYTHONPATH=$PWD/.carry/$2:/tmp/site \
    timeout 200 python3 $P $1 /tmp/$1.npz ${3:-} 2>&1 | grep -v Warn
}
{ run head w59
  run parts w63 /tmp/head.npz
  run head2 w59 /tmp/head.npz
  run parts2 w63 /tmp/head.npz; } | tee $OUT/dd-parts-4.log
echo "probe done at $(( $(date +%s) - S0 )) s"
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples"
export PYTHONPATH=$PWD/.carry/w63:/tmp/site
( GPUSEQ_CACHE_DIR=/tmp/kc-m SECTIONS=fused timeout 330 compute-sanitizer --tool memcheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/memcheck-fused-4.log 2>&1; echo "memcheck rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc-4.txt ) &
( GPUSEQ_CACHE_DIR=/tmp/kc-r SECTIONS=fused timeout 330 compute-sanitizer --tool racecheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/racecheck-fused-4.log 2>&1; echo "racecheck rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc-4.txt ) &
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 330 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests > $OUT/pytest-cuda-4.log 2>&1; echo "pytest rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc-4.txt
wait
cat $OUT/rc-4.txt; tail -2 $OUT/pytest-cuda-4.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-cuda-4.log | head; tail -n 2 $OUT/memcheck-fused-4.log $OUT/racecheck-fused-4.log
