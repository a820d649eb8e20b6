# Session 60, call 1: where a 10 M-residue Viterbi launch spends its time (tail.py), HEAD's
# module (.carry/w76, aeb3cba).
set -uo pipefail
export GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
S0=$(date +%s)
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > $OUT/device-1.txt
export PYTHONPATH=$PWD/.carry/w76:/tmp/site
P=benchmarks/results/gpu-h200-20261129-j/probes
timeout 400 python3 $P/tail.py 10M 2>&1 | tee $OUT/tail-1.log
echo "done at $(( $(date +%s) - S0 )) s"
