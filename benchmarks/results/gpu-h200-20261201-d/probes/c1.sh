# Session 75, call 1: .carry/w114 (HEAD's module: c7717a7's C++, 42fb7ba's fix of the crash at
# the CUDA start). The race probe in its four modes; the cuda-marked tests of the files the fix
# and the quick end touched; then random blastp (8 processes) and hmmsearch (4) commands on
# the GPU, seeds no session drew, where 2 blastp commands in 1,535 crashed before the fix.
set -uo pipefail
W=w114 N=1; . benchmarks/results/gpu-h200-20261201-d/probes/setup.sh
P=benchmarks/results/gpu-h200-20261201-c/probes/env_race.py
for m in putenv numpy none fixed; do
  timeout 100 python3 $P $m 240 12 2>&1 | tee -a $OUT/env-race-1.log; echo "$m at $(( $(date +%s) - S0 )) s"
done
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 150 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda \
  tests/test_hmmsearch_streaming.py tests/test_blastp_api.py tests/test_cli.py > $OUT/pytest-1.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; grep -E "passed|failed" $OUT/pytest-1.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-1.log | head
BLASTP_SEEDS="11410000 11420000 11430000 11440000 11450000 11460000 11470000 11480000" \
HMMSEARCH_SEEDS="11510000 11520000 11530000 11540000" . benchmarks/results/gpu-h200-20261201-d/probes/fuzz.sh 560
