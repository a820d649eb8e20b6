# Session 78, call 1: session 77's next.sh as written there, on the module built from HEAD.
W=w119 N=1 . benchmarks/results/gpu-h200-20261202-f/probes/next.sh
