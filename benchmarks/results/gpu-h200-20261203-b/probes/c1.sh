# Session 81, call 1: module w126 (c1a6a85: -qcov_hsp_perc in the final lists' loop; session
# 80 ran this rule on the CPU backend only). Session 77's next.sh with new seeds: every
# cuda-marked test, then random commands until S0 + 470 s (the blastp ones draw
# -qcov_hsp_perc at times and then run blastp on one thread).
W=w126 N=1 BLASTP_SEEDS="16000000 16010000 16020000 16030000 16040000 16050000" \
HMMSEARCH_SEEDS="16100000 16110000 16120000 16130000" \
  . benchmarks/results/gpu-h200-20261202-f/probes/next.sh
