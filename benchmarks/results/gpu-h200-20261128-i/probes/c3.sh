# Session 49, call 3: the S-lane kernels with __launch_bounds__(512, 1) (C = .carry/w49c)
# against 90640a8 (B = .carry/w49b): H sweeps of both (slow lists off), the models as a search
# runs them (C with its lists and without), C's S-lane/NVRTC GPU tests and slane sanitizers.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader > $OUT/device.txt
S0=$(date +%s)
for b in b c; do for sr in "16 8-48" "8 25-48" "4 25-48" "2 25-48"; do
  ( COMPILE_ONLY=1 PYTHONPATH=$PWD/.carry/w49$b:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-$b timeout 200 python3 .carry/hsweep.py $sr > /dev/null 2>&1 ) &
done; done
wait; echo "compiled at $(( $(date +%s) - S0 )) s" >> $OUT/sweeps.log
for sr in "16 8-48" "8 25-48" "4 25-48" "2 25-48"; do for b in b c; do
  echo "== build $b S/H $sr at $(( $(date +%s) - S0 )) s" >> $OUT/sweeps.log
  PYTHONPATH=$PWD/.carry/w49$b:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-$b timeout 100 python3 .carry/hsweep.py $sr >> $OUT/sweeps.log 2>&1
done; done
ML=36,50,72,100,150,200,216,220,224,232,272,288,296,336,344,352,360,368,448,576,896,1142
for b in b c cn b c cn; do
  echo "== build $b at $(( $(date +%s) - S0 )) s" >> $OUT/models.log
  w=${b:0:1}; ns=""; [ "$b" = cn ] && ns=1
  NOSLOW=$ns PYTHONPATH=$PWD/.carry/w49$w:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-$w timeout 100 python3 .carry/hprobe.py $ML >> $OUT/models.log 2>&1
done
for tool in memcheck racecheck; do
  ( PYTHONPATH=$PWD/.carry/w49c:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-san-$tool SECTIONS=slane timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/$tool-slane.log 2>&1; echo "$tool rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc.txt ) &
done
PYTHONPATH=$PWD/.carry/w49c:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-c timeout 200 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests/test_gpu_multi.py tests/test_gpu_nvrtc.py > $OUT/pytest-multi-nvrtc.log 2>&1; echo "pytest rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc.txt
wait
cat $OUT/rc.txt; tail -2 $OUT/pytest-multi-nvrtc.log; tail -n 2 $OUT/*-slane.log
cat $OUT/sweeps.log $OUT/models.log
