# Session 62, call 6: the upload's copy and per-target host work apart (probes/upload_parts.py).
set -uo pipefail
P=benchmarks/results/gpu-h200-20261129-k/probes
DATA_WHEEL=w82 source $P/data.sh
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $OUT/device-6.txt
export PYTHONPATH=$PWD/.carry/w83:/tmp/site
for r in 0 1 2 3; do echo "== $r"; python3 $P/upload_parts.py $DB; done > $OUT/upload-parts-6.log 2>&1
cat $OUT/upload-parts-6.log
