# Session 59, call 5: warm runs of call 4's commands, 320eb36 (.carry/w72: 10 and 26 programs)
# against a8484e4's change (.carry/w74: 14 and 35), ten rounds alternated (probes/warmab.py),
# after one round of cold.py to make the database and the caches.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > $OUT/device-5.txt
R=benchmarks/results/gpu-h200-20261129-i/probes
{ timeout 200 python3 $R/../../gpu-h200-20261129-b/probes/cold.py $PWD/.carry/w72 $PWD/.carry/w74 1 2>&1 | tail -6
  timeout 300 python3 $R/warmab.py $PWD/.carry/w72 $PWD/.carry/w74 10 2>&1; } | tee $OUT/warm-5.log
