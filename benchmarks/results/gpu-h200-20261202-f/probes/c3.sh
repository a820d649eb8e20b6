# Session 77, call 3: .carry/w118, random commands until S0 + 290 s (the session's last 440 s).
set -uo pipefail
W=w118 N=3; . benchmarks/results/gpu-h200-20261201-d/probes/setup.sh
BLASTP_SEEDS="13610000 13620000 13630000 13640000 13650000 13660000" \
HMMSEARCH_SEEDS="13710000 13720000 13730000 13740000" \
  . benchmarks/results/gpu-h200-20261201-d/probes/fuzz.sh 290
