# Session 76, call 2: .carry/w115 (5d70fee's module: hmm::fails_threshold). Every cuda-marked
# test, every wheel carried; then random commands to the call's end: hmmsearch (8 processes)
# with session 76's extreme E-value thresholds and search sizes in the draw, blastp (4).
set -uo pipefail
W=w115 N=2; . benchmarks/results/gpu-h200-20261201-d/probes/setup.sh
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 280 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests > $OUT/pytest-2.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; grep -E "passed|failed" $OUT/pytest-2.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-2.log | head
BLASTP_SEEDS="12210000 12220000 12230000 12240000" \
HMMSEARCH_SEEDS="12410000 12420000 12430000 12440000 12450000 12460000 12470000 12480000" \
  . benchmarks/results/gpu-h200-20261201-d/probes/fuzz.sh 570
