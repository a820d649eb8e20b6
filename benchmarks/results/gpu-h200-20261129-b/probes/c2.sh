# Session 52, call 2: call 1's cold and warm NVRTC cache runs again with the spread query file
# fixed (call 1 stopped there: its sampled models had no E-value statistics).
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee $OUT/device.txt
rm -rf /tmp/cold
timeout 560 python3 benchmarks/results/gpu-h200-20261129-b/probes/cold.py $PWD/.carry/wOld $PWD/.carry/wNew 2 2>&1 | tee $OUT/cold-2.log
