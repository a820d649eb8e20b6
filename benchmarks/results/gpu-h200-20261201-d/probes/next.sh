# For the next GPU session (written in session 75, not yet run): .carry/w115 (5d70fee's module,
# hmm::fails_threshold). The kept seed 11740153 on the GPU (the target the Forward bound lost
# under --F3 1e-400), the Forward bound's tests, then random commands to the call's end.
set -uo pipefail
W=w115 N=4; . benchmarks/results/gpu-h200-20261201-d/probes/setup.sh
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 200 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda \
  tests/test_forward_bound.py "tests/test_random_commands.py::test_random_hmmsearch_command_equals_hmmsearch" > $OUT/pytest-4.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; grep -E "passed|failed" $OUT/pytest-4.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-4.log | head
BLASTP_SEEDS="12010000 12020000 12030000 12040000" \
HMMSEARCH_SEEDS="12110000 12120000 12130000 12140000 12150000 12160000 12170000 12180000" \
  . benchmarks/results/gpu-h200-20261201-d/probes/fuzz.sh 560
