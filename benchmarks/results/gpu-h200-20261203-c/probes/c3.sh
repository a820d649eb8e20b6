# Session 82, call 3: module w130 (5983cea: w129's C++ with the XML's and JSON's query titles
# from the defline generator, their SEG ranges laid over HSPs as blastp's writer lays them, the
# JSON of unsearched batches, and -outfmt 0's Karlin-Altschul rules). Every test of
# test_blastp_api.py (backend "auto": the GPU here), then random blastp commands on the GPU
# that write the XML or JSON half the time and -outfmt 0 otherwise (a copy under /tmp/fz with
# those two draws changed by sed), from new seeds, until S0 + 330 s.
set -uo pipefail
W=${W:-w130} N=${N:-3}; . benchmarks/results/gpu-h200-20261201-d/probes/setup.sh
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 150 python3 -m pytest -n 8 -q -ra -p no:cacheprovider \
  tests/test_blastp_api.py > $OUT/pytest-api-$N.log 2>&1
echo "pytest api rc $? at $(( $(date +%s) - S0 )) s"; tail -n 1 $OUT/pytest-api-$N.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-api-$N.log | head
mkdir -p /tmp/fz; sed -e 's/np.random.default_rng(\[6992, seed\]).random() < 0.15/True/' \
  -e 's/if not outfmt.startswith("7") and report.random() < 0.15:/if not outfmt.startswith("7") and report.random() < 0.5:/' \
  tests/test_random_commands.py > /tmp/fz/test_random_commands.py
export PYTHONPATH=/tmp/fz:$PYTHONPATH
BLASTP_SEEDS="16700000 16710000 16720000 16730000 16740000 16750000 16760000 16770000" \
HMMSEARCH_SEEDS="" . benchmarks/results/gpu-h200-20261201-d/probes/fuzz.sh 330
