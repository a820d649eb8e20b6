# Session 78, call 4 (what was left of the device time): blastp -max_hsps and -searchsp
# (147b26f, 830705d) on the GPU, module .carry/w120 (830705d). The -max_hsps test (its
# backend="auto" search runs on the GPU there), then random blastp commands on the GPU, which
# draw both flags, until S0 + 150 s.
set -uo pipefail
W=${W:-w120} N=${N:-4}; . benchmarks/results/gpu-h200-20261201-d/probes/setup.sh
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 60 python3 -m pytest -q -p no:cacheprovider \
  tests/test_blastp_api.py -k "max_hsps" > $OUT/pytest-$N.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; tail -n 1 $OUT/pytest-$N.log
BLASTP_SEEDS="14810000 14820000 14830000 14840000 14850000 14860000 14870000 14880000" HMMSEARCH_SEEDS="" \
  . benchmarks/results/gpu-h200-20261201-d/probes/fuzz.sh 150
