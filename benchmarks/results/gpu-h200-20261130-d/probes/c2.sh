# Session 67, call 2: the hmmsearch benchmark on 284c999 (.carry/w97: 42922ac's module, the
# same Python and _core), as session 63's call 4 ran it: hmmsearch --cpu 16 three times,
# pyhmmer and hmmsearch's 100 models skipped (about 4-5 minutes a run on these hosts).
set -uo pipefail
S0=$(date +%s)
DATA_WHEEL=w97 source benchmarks/results/gpu-h200-20261129-k/probes/data.sh
echo "data ready at $(( $(date +%s) - S0 )) s"
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > $OUT/device-2.txt
lscpu | grep -E "Model name|^CPU\(s\)" >> $OUT/device-2.txt
export PYTHONPATH=$PWD/.carry/w97:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-bench
timeout 540 python3 benchmarks/bench_hmmsearch.py --examples-dir .carry/hmmer/examples --workdir /tmp/bench \
  --cpu 16 --seqs 1400000 --many-models 100 --repeat 3 --skip hmmsearch_many,pyhmmer \
  --out $OUT/bench_hmmsearch-2.json > $OUT/bench_hmmsearch-2.log 2>&1
echo "bench rc $? at $(( $(date +%s) - S0 )) s"; tail -n 16 $OUT/bench_hmmsearch-2.log
