# Session 60, call 2: four targets a warp with the longest apart, two threads (hybrid.py), HEAD's
# module (.carry/w76, aeb3cba).
set -uo pipefail
export GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
S0=$(date +%s)
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > $OUT/device-2.txt
export PYTHONPATH=$PWD/.carry/w76:/tmp/site
P=benchmarks/results/gpu-h200-20261129-j/probes
timeout 400 python3 $P/hybrid.py 10M 2>&1 | tee $OUT/hybrid-2.log; RESIDUES=30e6 CUTS=1800,3000 REPEATS=7 timeout 200 python3 $P/hybrid.py 30M 2>&1 | tee -a $OUT/hybrid-2.log
echo "done at $(( $(date +%s) - S0 )) s"
