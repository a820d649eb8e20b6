# Session 82, call 1: module w129 (adcaa60: blastp -outfmt 0, the pairwise report, and each
# HSP's composition-based method from the C++ realignment). Every cuda-marked test, every test
# of test_blastp_api.py (its searches with backend "auto" run on the GPU here), then random
# blastp commands on the GPU that all write -outfmt 0 (the harness's 15% draw of it made
# certain by a copy under /tmp/fz) from new seeds until S0 + 540 s.
set -uo pipefail
W=${W:-w129} N=${N:-1}; . benchmarks/results/gpu-h200-20261201-d/probes/setup.sh
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 200 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests \
  > $OUT/pytest-$N.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; tail -n 1 $OUT/pytest-$N.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-$N.log | head
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 150 python3 -m pytest -n 8 -q -ra -p no:cacheprovider \
  tests/test_blastp_api.py > $OUT/pytest-api-$N.log 2>&1
echo "pytest api rc $? at $(( $(date +%s) - S0 )) s"; tail -n 1 $OUT/pytest-api-$N.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-api-$N.log | head
mkdir -p /tmp/fz; sed 's/np.random.default_rng(\[6992, seed\]).random() < 0.15/True/' \
  tests/test_random_commands.py > /tmp/fz/test_random_commands.py
export PYTHONPATH=/tmp/fz:$PYTHONPATH
BLASTP_SEEDS="16500000 16510000 16520000 16530000 16540000 16550000 16560000 16570000" \
HMMSEARCH_SEEDS="" . benchmarks/results/gpu-h200-20261201-d/probes/fuzz.sh 540
