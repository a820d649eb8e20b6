# Session 80, call 1: module w123 (ccb6fdb: blastp's positive, ppos, qseq, sseq and btop).
# Session 77's next.sh, run as written with new seeds: every cuda-marked test, then random
# commands until S0 + 470 s (the blastp ones draw the new fields at times: with_new_fields).
W=w123 N=1 BLASTP_SEEDS="15500000 15510000 15520000 15530000 15540000 15550000" \
HMMSEARCH_SEEDS="15600000 15610000 15620000 15630000" \
  . benchmarks/results/gpu-h200-20261202-f/probes/next.sh
