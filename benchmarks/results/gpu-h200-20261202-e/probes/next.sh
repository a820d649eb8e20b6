# For the next GPU session (written in session 76, not yet run): .carry/w117, a module built
# from 7208733 or later (blastp's composition heap and score-0 drop). The two kept blastp
# seeds and the large E-value test on the GPU first, then random commands to the call's end.
set -uo pipefail
W=w117 N=1; . benchmarks/results/gpu-h200-20261201-d/probes/setup.sh
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 200 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda \
  "tests/test_random_commands.py::test_random_blastp_command_equals_blastp" \
  tests/test_blastp_api.py tests/test_blast_cuda.py > $OUT/pytest-1.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; grep -E "passed|failed" $OUT/pytest-1.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-1.log | head
BLASTP_SEEDS="13010000 13020000 13030000 13040000 13050000 13060000" \
HMMSEARCH_SEEDS="13110000 13120000 13130000 13140000" \
  . benchmarks/results/gpu-h200-20261201-d/probes/fuzz.sh 560
