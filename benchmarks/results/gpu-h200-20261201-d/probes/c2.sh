# Session 75, call 2: .carry/w114. Random blastp (8 processes) and hmmsearch (6) commands on the
# GPU to 420 s (what the session had left), seeds no session drew.
set -uo pipefail
W=w114 N=2; . benchmarks/results/gpu-h200-20261201-d/probes/setup.sh
BLASTP_SEEDS="11610000 11620000 11630000 11640000 11650000 11660000 11670000 11680000" \
HMMSEARCH_SEEDS="11710000 11720000 11730000 11740000 11750000 11760000" . benchmarks/results/gpu-h200-20261201-d/probes/fuzz.sh 420
