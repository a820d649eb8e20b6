# Session 62, call 5: the packed database's upload in parts (probes/upload.py), .carry/w83.
set -uo pipefail
P=benchmarks/results/gpu-h200-20261129-k/probes
DATA_WHEEL=w82 source $P/data.sh
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $OUT/device-5.txt
export PYTHONPATH=$PWD/.carry/w83:/tmp/site
for r in 0 1 2 3; do for m in plain staged touched both; do python3 $P/upload.py $DB $m; done; done > $OUT/upload-5.log 2>&1
cat $OUT/upload-5.log
