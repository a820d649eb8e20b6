# Session 75, call 3: .carry/w114. Every cuda-marked test, every wheel carried; then random
# blastp (6 processes) and hmmsearch (4) commands on the GPU to the call's end.
set -uo pipefail
W=w114 N=3; . benchmarks/results/gpu-h200-20261201-d/probes/setup.sh
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 280 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests > $OUT/pytest-3.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; grep -E "passed|failed" $OUT/pytest-3.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-3.log | head
BLASTP_SEEDS="11810000 11820000 11830000 11840000 11850000 11860000" \
HMMSEARCH_SEEDS="11870000 11880000 11890000 11900000" . benchmarks/results/gpu-h200-20261201-d/probes/fuzz.sh 570
