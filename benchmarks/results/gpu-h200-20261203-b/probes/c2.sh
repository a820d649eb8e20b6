# Session 81, call 2: module w128 (3f8672d: blastp ids and titles as blastp prints them, the
# fields qcovs, stitle, salltitles, -outfmt 5 and 15, the XML and JSON). Every cuda-marked test, every
# test of test_blastp_api.py (its searches with backend "auto" run on the GPU here), then
# random blastp commands on the GPU from new seeds (they draw the new fields, odd subject
# header lines and the XML or JSON at times) until S0 + 330 s.
set -uo pipefail
W=${W:-w128} N=${N:-2}; . benchmarks/results/gpu-h200-20261201-d/probes/setup.sh
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 200 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests \
  > $OUT/pytest-$N.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; tail -n 1 $OUT/pytest-$N.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-$N.log | head
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 120 python3 -m pytest -n 8 -q -ra -p no:cacheprovider \
  tests/test_blastp_api.py > $OUT/pytest-api-$N.log 2>&1
echo "pytest api rc $? at $(( $(date +%s) - S0 )) s"; tail -n 1 $OUT/pytest-api-$N.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-api-$N.log | head
BLASTP_SEEDS="16300000 16310000 16320000 16330000 16340000 16350000 16360000 16370000" \
HMMSEARCH_SEEDS="" . benchmarks/results/gpu-h200-20261201-d/probes/fuzz.sh 330
