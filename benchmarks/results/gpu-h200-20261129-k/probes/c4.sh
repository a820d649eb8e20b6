# Session 62, call 4: the end of the packed commands in parts (probes/exit_parts.py), .carry/w83.
set -uo pipefail
P=benchmarks/results/gpu-h200-20261129-k/probes
DATA_WHEEL=w82 source $P/data.sh
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $OUT/device-4.txt
export GPUSEQ_CACHE_DIR=/tmp/kc-62 PYTHONPATH=$PWD/.carry/w83:/tmp/site
ARGS="hmmsearch --cpu 16 --noali --backend cuda --no-progress --tblout /tmp/e.tbl -o /dev/null"
python3 -m gpuseq.cli $ARGS $MANY $DB; python3 -m gpuseq.cli $ARGS $SIX $DB
{ echo "== six"; python3 $P/exit_parts.py --parent 6 $ARGS $SIX $DB
  echo "== 100"; python3 $P/exit_parts.py --parent 4 $ARGS $MANY $DB; } > $OUT/exit-parts-4.log 2>&1
grep -E "==|medians|pass|Error|rror" $OUT/exit-parts-4.log
