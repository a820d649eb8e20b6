# Session 49, call 4: D = the S-lane kernels told one block an SM except the 16-bit SSV up to
# H = 26 (multi_min_blocks), slow lists measured in call 3 (.carry/w49d) against 90640a8 (B =
# .carry/w49b): D's GPU tests (S-lane, NVRTC, filters, search) and slane sanitizers, the models
# A/B (two alternated rounds), then bench_hmm_filters' SSV/MSV command on D.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader > $OUT/device.txt
S0=$(date +%s)
for tool in memcheck racecheck; do
  ( PYTHONPATH=$PWD/.carry/w49d:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-san-$tool SECTIONS=slane timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/$tool-slane.log 2>&1; echo "$tool rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc.txt ) &
done
PYTHONPATH=$PWD/.carry/w49d:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-d timeout 200 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests/test_gpu_multi.py tests/test_gpu_nvrtc.py tests/test_gpu_filters.py tests/test_hmmsearch.py > $OUT/pytest-min-blocks.log 2>&1; echo "pytest rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc.txt
wait
cat $OUT/rc.txt; tail -2 $OUT/pytest-min-blocks.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-min-blocks.log | head; tail -n 2 $OUT/*-slane.log
ML=36,44,50,72,76,100,150,193,200,216,220,224,225,232,272,288,296,336,344,352,360,368,400,448,576,800,896,1142
for round in 1 2; do for b in b d; do
  echo "== round $round build $b at $(( $(date +%s) - S0 )) s" >> $OUT/models.log
  PYTHONPATH=$PWD/.carry/w49$b:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-$b timeout 100 python3 .carry/hprobe.py $ML >> $OUT/models.log 2>&1
done; done
cat $OUT/models.log
t=$(date +%s); PYTHONPATH=$PWD/.carry/w49d:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-d timeout 280 python3 benchmarks/bench_hmm_filters.py --filters ssv,msv --models 50,71,100,150,200,224,400,800,1142,1200,1600,2048,2400,3000 --residues 100e6 --cpu-residues 0 --repeat 3 --examples .carry/hmmer/examples --out $OUT/bench_ssv_msv.json > $OUT/bench_ssv_msv.log 2>&1; echo "ssv/msv rc $? $(( $(date +%s) - t )) s"
tail -5 $OUT/bench_ssv_msv.log
