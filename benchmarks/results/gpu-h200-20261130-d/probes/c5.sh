# Session 67, call 5: the six-model half again (284c999, .carry/w97), five more runs of each
# command after the data's load settled, joined with calls 2-3's record (--previous).
set -uo pipefail
S0=$(date +%s)
DATA_WHEEL=w97 source benchmarks/results/gpu-h200-20261129-k/probes/data.sh
export PYTHONPATH=$PWD/.carry/w97:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-bench
sleep 10
timeout 400 python3 benchmarks/bench_hmmsearch.py --examples-dir .carry/hmmer/examples --workdir /tmp/bench \
  --cpu 16 --seqs 1400000 --many-models 100 --repeat 5 --skip hmmsearch_many,pyhmmer \
  --previous benchmarks/results/gpu-h200-20261130-d/bench_hmmsearch-3.json \
  --out $OUT/bench_hmmsearch-5.json > $OUT/bench_hmmsearch-5.log 2>&1
echo "bench rc $? at $(( $(date +%s) - S0 )) s"; tail -n 16 $OUT/bench_hmmsearch-5.log
