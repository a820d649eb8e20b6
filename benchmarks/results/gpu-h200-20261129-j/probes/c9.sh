# Session 60, call 9: .carry/w79: the systolic pipeline against two and four targets a warp as
# a launch grows (systab.py), for a third tier of the choice by launch.
set -uo pipefail
export GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
S0=$(date +%s)
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > $OUT/device-9.txt
export PYTHONPATH=$PWD/.carry/w79:/tmp/site
timeout 400 python3 benchmarks/results/gpu-h200-20261129-j/probes/systab.py H200 2>&1 | tee $OUT/systab-9.log
echo "done at $(( $(date +%s) - S0 )) s"
