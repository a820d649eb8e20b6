# Session 51, call 5: the command's end timed from its outputs closed (exit_stamp.py), quick
# exit against the full teardown, alternated; then every GPU test (wheel .carry/wD).
set -uo pipefail
S0=$(date +%s)
source .carry/data.sh
export GPUSEQ_CACHE_DIR=/tmp/kc-x PYTHONPATH=$PWD/.carry/wD:/tmp/site
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; nproc; uptime; } > $OUT/device.txt 2>&1
timeout 150 python3 .carry/exit_ab.py $SIX $DB six 8 2>&1 | tee $OUT/exit-end-six.log | tail -2
timeout 100 python3 .carry/exit_ab.py $MANY $DB many 4 2>&1 | tee $OUT/exit-end-many.log | tail -2
echo "at $(( $(date +%s) - S0 )) s"
timeout 330 python3 -m pytest -q -ra -p no:cacheprovider -n 8 -m cuda tests > $OUT/pytest-cuda-5.log 2>&1; echo "pytest rc $?"; tail -n 3 $OUT/pytest-cuda-5.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-cuda-5.log | head
