# Session 77, call 2: .carry/w118 (the score-0 HSPs kept until the rows are written). The kept
# blastp seeds and the cuda-marked blastp tests first, then random commands until S0 + 470 s
# (call 1 gave 560 s, and the cases still running then took the call past its 600 s).
set -uo pipefail
W=w118 N=2; . benchmarks/results/gpu-h200-20261201-d/probes/setup.sh
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 200 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda \
  "tests/test_random_commands.py::test_random_blastp_command_equals_blastp" \
  tests/test_blastp_api.py tests/test_blast_cuda.py > $OUT/pytest-2.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; grep -E "passed|failed" $OUT/pytest-2.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-2.log | head
BLASTP_SEEDS="13410000 13420000 13430000 13440000 13450000 13460000" \
HMMSEARCH_SEEDS="13510000 13520000 13530000 13540000" \
  . benchmarks/results/gpu-h200-20261201-d/probes/fuzz.sh 470
