# For the next GPU session (written in session 78, not yet run): a module built from HEAD as
# .carry/$W (W=w121 unless set); session 77's next.sh with seeds not yet used: every
# cuda-marked test, then random commands until S0 + 470 s.
W=${W:-w121} BLASTP_SEEDS="15010000 15020000 15030000 15040000 15050000 15060000" \
HMMSEARCH_SEEDS="15110000 15120000 15130000 15140000" \
  . benchmarks/results/gpu-h200-20261202-f/probes/next.sh
