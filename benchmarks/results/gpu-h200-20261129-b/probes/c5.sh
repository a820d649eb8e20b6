# Session 52, call 5: call 2's cold and warm NVRTC cache runs, f254871 (.carry/wOld) against
# the committed tree 39d6bee (.carry/wNew2: the tables on a pool, and the fused kernels
# without their copy for 5e7-residue targets).
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
timeout 560 python3 benchmarks/results/gpu-h200-20261129-b/probes/cold.py $PWD/.carry/wOld $PWD/.carry/wNew2 2 2>&1 | tee $OUT/cold-5.log
