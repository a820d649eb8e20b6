# Session 83, call 1: module w131 (7108472: blastp -subject, the no-data tabular fields,
# -lcase_masking). Every cuda-marked test, every test of test_blastp_api.py (its searches with
# backend "auto" run on the GPU here), then random blastp commands on the GPU, every one with
# -subject (the harness's draw made certain by a copy under /tmp/fz), until S0 + 540 s.
set -uo pipefail
W=${W:-w131} N=${N:-1}; . benchmarks/results/gpu-h200-20261203-d/probes/setup.sh
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 200 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests \
  > $OUT/pytest-$N.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; tail -n 1 $OUT/pytest-$N.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-$N.log | head
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 150 python3 -m pytest -n 8 -q -ra -p no:cacheprovider \
  tests/test_blastp_api.py > $OUT/pytest-api-$N.log 2>&1
echo "pytest api rc $? at $(( $(date +%s) - S0 )) s"; tail -n 1 $OUT/pytest-api-$N.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-api-$N.log | head
mkdir -p /tmp/fz
sed -e 's/as_subject = (kind == "fasta" and seed not in BLASTP_KEPT/as_subject = (seed not in BLASTP_KEPT/' \
    -e 's/and np.random.default_rng(\[6994, seed\]).random() < 0.15)/)/' \
  tests/test_random_commands.py > /tmp/fz/test_random_commands.py
grep -q "as_subject = (seed not in" /tmp/fz/test_random_commands.py || echo "the -subject draw was not forced"
export PYTHONPATH=/tmp/fz:$PYTHONPATH
BLASTP_SEEDS="17100000 17110000 17120000 17130000 17140000 17150000 17160000 17170000" \
HMMSEARCH_SEEDS="" . benchmarks/results/gpu-h200-20261201-d/probes/fuzz.sh 540
