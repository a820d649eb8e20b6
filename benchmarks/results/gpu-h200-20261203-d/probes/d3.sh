# Session 83, call 3: module w132 (e145262: every gap run at either end of a traceback walk
# pruned). Every cuda-marked test, every test of test_blastp_api.py, and the random blastp
# commands' test seeds (BLASTP_SEEDS, 17230050 among them) on the GPU.
set -uo pipefail
W=${W:-w132} N=${N:-3}; . benchmarks/results/gpu-h200-20261203-d/probes/setup.sh
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 200 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests \
  > $OUT/pytest-$N.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; tail -n 1 $OUT/pytest-$N.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-$N.log | head
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 150 python3 -m pytest -n 8 -q -ra -p no:cacheprovider \
  tests/test_blastp_api.py "tests/test_random_commands.py::test_random_blastp_command_equals_blastp" \
  > $OUT/pytest-api-$N.log 2>&1
echo "pytest api rc $? at $(( $(date +%s) - S0 )) s"; tail -n 1 $OUT/pytest-api-$N.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-api-$N.log | head
