# Session 82, call 2: call 1's random commands again, alone (call 1 ran past the command's
# 600 s and its fuzzing logs were lost): random blastp commands on the GPU that all write
# -outfmt 0, from new seeds, until S0 + 300 s.
set -uo pipefail
W=${W:-w129} N=${N:-2}; . benchmarks/results/gpu-h200-20261201-d/probes/setup.sh
mkdir -p /tmp/fz; sed 's/np.random.default_rng(\[6992, seed\]).random() < 0.15/True/' \
  tests/test_random_commands.py > /tmp/fz/test_random_commands.py
export PYTHONPATH=/tmp/fz:$PYTHONPATH
BLASTP_SEEDS="16600000 16610000 16620000 16630000 16640000 16650000 16660000 16670000" \
HMMSEARCH_SEEDS="" . benchmarks/results/gpu-h200-20261201-d/probes/fuzz.sh 300
