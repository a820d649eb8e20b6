# Session 67, call 3: the 100-model half of the benchmark (284c999, .carry/w97): hmmsearch
# --cpu 16 on the 100 models once and gpuseq's packed command, joined with call 2's record
# (--previous), as session 63's call 5.
set -uo pipefail
S0=$(date +%s)
DATA_WHEEL=w97 source benchmarks/results/gpu-h200-20261129-k/probes/data.sh
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > $OUT/device-3.txt
export PYTHONPATH=$PWD/.carry/w97:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-bench
sleep 15  # the data's load average settles
timeout 560 python3 benchmarks/bench_hmmsearch.py --examples-dir .carry/hmmer/examples --workdir /tmp/bench \
  --cpu 16 --seqs 1400000 --many-models 100 --repeat 1 --skip main,pyhmmer \
  --previous benchmarks/results/gpu-h200-20261130-d/bench_hmmsearch-2.json \
  --out $OUT/bench_hmmsearch-3.json > $OUT/bench_hmmsearch-3.log 2>&1
echo "bench rc $? at $(( $(date +%s) - S0 )) s"; tail -n 16 $OUT/bench_hmmsearch-3.log
