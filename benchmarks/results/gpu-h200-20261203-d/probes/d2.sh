# Session 83, call 2: call 1's random -subject commands on the GPU again, alone, until S0 + 400 s
# (call 1's ran past the command's 600 s with its tests before them, and its logs were lost).
set -uo pipefail
W=${W:-w131} N=${N:-2}; . benchmarks/results/gpu-h200-20261203-d/probes/setup.sh
mkdir -p /tmp/fz
sed -e 's/as_subject = (kind == "fasta" and seed not in BLASTP_KEPT/as_subject = (seed not in BLASTP_KEPT/' \
    -e 's/and np.random.default_rng(\[6994, seed\]).random() < 0.15)/)/' \
  tests/test_random_commands.py > /tmp/fz/test_random_commands.py
grep -q "as_subject = (seed not in" /tmp/fz/test_random_commands.py || echo "the -subject draw was not forced"
export PYTHONPATH=/tmp/fz:$PYTHONPATH
BLASTP_SEEDS="17200000 17210000 17220000 17230000 17240000 17250000 17260000 17270000" \
HMMSEARCH_SEEDS="" . benchmarks/results/gpu-h200-20261201-d/probes/fuzz.sh 400
