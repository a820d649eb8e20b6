# Session 49, call 6: HEAD (ec2fc40, wheel .carry/w49f): every GPU test, the slane and
# warp_tables sanitizers, then bench_hmm_filters' SSV/MSV command.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
export PYTHONPATH=$PWD/.carry/w49f:/tmp/site
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader > $OUT/device.txt
S0=$(date +%s)
for tool in memcheck racecheck; do
  ( GPUSEQ_CACHE_DIR=/tmp/kc-san-$tool SECTIONS=slane,warp_tables timeout 280 compute-sanitizer --tool $tool --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/$tool-slane-warp-tables.log 2>&1; echo "$tool rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc.txt ) &
done
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 280 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests > $OUT/pytest-cuda.log 2>&1; echo "pytest rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc.txt
wait
cat $OUT/rc.txt; tail -3 $OUT/pytest-cuda.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-cuda.log | head -20; tail -n 2 $OUT/*-slane-warp-tables.log
t=$(date +%s); GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 200 python3 benchmarks/bench_hmm_filters.py --filters ssv,msv --models 50,71,100,150,200,224,400,800,1142,1200,1600,2048,2400,3000 --residues 100e6 --cpu-residues 0 --repeat 3 --examples .carry/hmmer/examples --out $OUT/bench_ssv_msv.json > $OUT/bench_ssv_msv.log 2>&1; echo "ssv/msv rc $? $(( $(date +%s) - t )) s"
grep -A20 "best" $OUT/bench_ssv_msv.log | head -5
