# Session 84, call 1: module w133 (38a0c5b: BLOSUM62's other gap costs, -gapopen/-gapextend,
# in the CPU's searches and the GPU's seed extensions). Every cuda-marked test, every test of
# test_blastp_api.py, then random blastp commands on the GPU with gap costs drawn in every
# one (a copy of the test module with that draw made certain), until S0 + $END s.
set -uo pipefail
W=${W:-w133} N=${N:-1} END=${END:-560}; . benchmarks/results/gpu-h200-20261203-d/probes/setup.sh
if [ -z "${FUZZ_ONLY:-}" ]; then
  GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 220 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests \
    > $OUT/pytest-$N.log 2>&1
  echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; tail -n 1 $OUT/pytest-$N.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-$N.log | head
  GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 150 python3 -m pytest -n 8 -q -ra -p no:cacheprovider tests/test_blastp_api.py \
    > $OUT/pytest-api-$N.log 2>&1
  echo "pytest api rc $? at $(( $(date +%s) - S0 )) s"; tail -n 1 $OUT/pytest-api-$N.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-api-$N.log | head
fi
mkdir -p /tmp/fz
python3 - <<'PY'
s = open("tests/test_random_commands.py").read()
draw = '    if rng.random() >= 0.2:\n        return flags\n    if "-ungapped" in flags:'
assert s.count(draw) == 1, "the gap-cost draw was not found"
open("/tmp/fz/test_random_commands.py", "w").write(
    s.replace(draw, '    rng.random()\n    if "-ungapped" in flags:'))
PY
export PYTHONPATH=/tmp/fz:$PYTHONPATH
BLASTP_SEEDS="${SEEDS:-18100000 18110000 18120000 18130000 18140000 18150000 18160000 18170000}" \
HMMSEARCH_SEEDS="" . benchmarks/results/gpu-h200-20261201-d/probes/fuzz.sh $END
