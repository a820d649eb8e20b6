# Session 63, call 4: the hmmsearch benchmark on b062388 (.carry/w86: its Python and _core),
# hmmsearch --cpu 16 three times, pyhmmer and hmmsearch's 100 models skipped (5 minutes a run;
# 304.88 s on session 53's host).
set -uo pipefail
S0=$(date +%s)
P=benchmarks/results/gpu-h200-20261129-k/probes
DATA_WHEEL=w86 source $P/data.sh
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > $OUT/device-4.txt
lscpu | grep -E "Model name|^CPU\(s\)" >> $OUT/device-4.txt
export PYTHONPATH=$PWD/.carry/w86:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-bench
timeout 520 python3 benchmarks/bench_hmmsearch.py --examples-dir .carry/hmmer/examples --workdir /tmp/bench \
  --cpu 16 --seqs 1400000 --many-models 100 --repeat 3 --skip hmmsearch_many,pyhmmer \
  --out $OUT/bench_hmmsearch-4.json > $OUT/bench_hmmsearch-4.log 2>&1
echo "bench rc $? at $(( $(date +%s) - S0 )) s"; tail -n 16 $OUT/bench_hmmsearch-4.log
