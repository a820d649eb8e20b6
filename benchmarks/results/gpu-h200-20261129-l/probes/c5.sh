# Session 63, call 5: the 100-model half of the benchmark on the same host kind as call 4
# (b062388, .carry/w86): hmmsearch --cpu 16 on the 100 models once (~4-5 min) and gpuseq's
# packed command, joined with call 4's record (--previous).
set -uo pipefail
S0=$(date +%s)
P=benchmarks/results/gpu-h200-20261129-k/probes
DATA_WHEEL=w86 source $P/data.sh
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > $OUT/device-5.txt
export PYTHONPATH=$PWD/.carry/w86:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-bench
timeout 540 python3 benchmarks/bench_hmmsearch.py --examples-dir .carry/hmmer/examples --workdir /tmp/bench \
  --cpu 16 --seqs 1400000 --many-models 100 --repeat 1 --skip main,pyhmmer \
  --previous benchmarks/results/gpu-h200-20261129-l/bench_hmmsearch-4.json \
  --out $OUT/bench_hmmsearch-5.json > $OUT/bench_hmmsearch-5.log 2>&1
echo "bench rc $? at $(( $(date +%s) - S0 )) s"; tail -n 16 $OUT/bench_hmmsearch-5.log
