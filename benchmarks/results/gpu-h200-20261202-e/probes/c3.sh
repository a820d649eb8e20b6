# Session 76, call 3: .carry/w116 (c72c6d7's module: blastp's erfc and best E-value cap). The
# cuda-marked blastp tests (the new large E-value test among them); then random commands to
# 300 s: blastp (6 processes, session 76's huge -dbsize and -evalue in the draw), hmmsearch (2).
set -uo pipefail
W=w116 N=3; . benchmarks/results/gpu-h200-20261201-d/probes/setup.sh
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 150 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda \
  tests/test_blastp_api.py tests/test_blast_cuda.py > $OUT/pytest-3.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; grep -E "passed|failed" $OUT/pytest-3.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-3.log | head
BLASTP_SEEDS="12610000 12620000 12630000 12640000 12650000 12660000" \
HMMSEARCH_SEEDS="12710000 12720000" . benchmarks/results/gpu-h200-20261201-d/probes/fuzz.sh 300
