# Session 62, call 8: the hmmsearch benchmark on c952b8e (.carry/w83: c952b8e's Python, HEAD's
# _core, the same C++ as d1d317e), hmmsearch --cpu 16 three times, pyhmmer and hmmsearch's 100
# models skipped (5 minutes a run; 304.88 s on session 53's host).
set -uo pipefail
S0=$(date +%s)
P=benchmarks/results/gpu-h200-20261129-k/probes
DATA_WHEEL=w83 source $P/data.sh
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > $OUT/device-8.txt
export PYTHONPATH=$PWD/.carry/w83:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-bench
timeout 500 python3 benchmarks/bench_hmmsearch.py --examples-dir .carry/hmmer/examples --workdir /tmp/bench \
  --cpu 16 --seqs 1400000 --many-models 100 --repeat 3 --skip hmmsearch_many,pyhmmer \
  --out $OUT/bench_hmmsearch-8.json > $OUT/bench_hmmsearch-8.log 2>&1
echo "bench rc $? at $(( $(date +%s) - S0 )) s"; tail -n 16 $OUT/bench_hmmsearch-8.log
