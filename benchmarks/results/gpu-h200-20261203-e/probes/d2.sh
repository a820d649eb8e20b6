# Session 84, call 2: module w134 (-matrix: BLOSUM45, 50, 80, 90, PAM30, 70, 250; -query_loc;
# both backends). Every cuda-marked test, every test of test_blastp_api.py, then random
# blastp commands on the GPU with a matrix drawn in every one and -query_loc in half (a copy
# of the test module with those draws changed), until S0 + $END s.
set -uo pipefail
W=${W:-w134} N=${N:-2} END=${END:-560}; . benchmarks/results/gpu-h200-20261203-d/probes/setup.sh
if [ -z "${FUZZ_ONLY:-}" ]; then
  GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 220 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests \
    > $OUT/pytest-$N.log 2>&1
  echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; tail -n 1 $OUT/pytest-$N.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-$N.log | head
  GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 170 python3 -m pytest -n 8 -q -ra -p no:cacheprovider tests/test_blastp_api.py \
    > $OUT/pytest-api-$N.log 2>&1
  echo "pytest api rc $? at $(( $(date +%s) - S0 )) s"; tail -n 1 $OUT/pytest-api-$N.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-api-$N.log | head
fi
mkdir -p /tmp/fz
python3 - <<'PY'
s = open("tests/test_random_commands.py").read()
for draw, certain in (
        ('    if rng.random() >= 0.2:\n        return flags\n    matrix = str(',
         '    rng.random()\n    matrix = str('),
        ('    if shortest < 2 or rng.random() >= 0.15:', '    if shortest < 2 or rng.random() >= 0.5:')):
    assert s.count(draw) == 1, draw
    s = s.replace(draw, certain)
open("/tmp/fz/test_random_commands.py", "w").write(s)
PY
export PYTHONPATH=/tmp/fz:$PYTHONPATH
BLASTP_SEEDS="${SEEDS:-18200000 18210000 18220000 18230000 18240000 18250000 18260000 18270000}" \
HMMSEARCH_SEEDS="" . benchmarks/results/gpu-h200-20261201-d/probes/fuzz.sh $END
