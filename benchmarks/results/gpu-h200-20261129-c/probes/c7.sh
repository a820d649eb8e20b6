# Session 53, call 7: 100 models, hmmsearch --cpu 16 once against gpuseq (wheel .carry/w53),
# joined with call 5's record (--previous).
set -uo pipefail
S0=$(date +%s)
P=benchmarks/results/gpu-h200-20261129-c/probes
source $P/data.sh
export PYTHONPATH=$PWD/.carry/w53:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-bench
left=$(( 590 - ($(date +%s) - S0) )); echo "left $left s"
timeout $left python3 benchmarks/bench_hmmsearch.py --examples-dir .carry/hmmer/examples --workdir /tmp/bench \
  --cpu 16 --seqs 1400000 --many-models 100 --repeat 1 --skip hmmsearch,pyhmmer,main \
  --previous benchmarks/results/gpu-h200-20261129-c/bench_hmmsearch-5.json \
  --out $OUT/bench_hmmsearch-many-7.json > $OUT/bench_hmmsearch-many-7.log 2>&1
echo "bench rc $? at $(( $(date +%s) - S0 )) s"; tail -n 14 $OUT/bench_hmmsearch-many-7.log
