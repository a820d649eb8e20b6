# Session 44 plan (H100 only), call 1 (copied from session 42's c1.sh; the wheel .carry/w43): the bench (3 repeats, every tool but hmmsearch's 100 models), then hmmsearch's 100 models once.
set -uo pipefail
S0=$(date +%s)
source .carry/data.sh
export GPUSEQ_CACHE_DIR=/tmp/kc-h PYTHONPATH=$PWD/.carry/w43:/tmp/site
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; nproc; uptime; } > $OUT/device.txt 2>&1
cli h $SIX warm-six; cli h $MANY warm-many
mkdir -p /tmp/bj
B="python3 benchmarks/bench_hmmsearch.py --examples-dir .carry/hmmer/examples --workdir /tmp/bench --cpu 16 --seqs 1400000 --many-models 100"
timeout 300 $B --repeat 3 --skip hmmsearch_many --out /tmp/bj/main.json > $OUT/bench_hmmsearch.log 2>&1; echo "main rc $? at $(( $(date +%s) - S0 )) s"
cp /tmp/bj/main.json $OUT/bench_hmmsearch.json; tail -n 16 $OUT/bench_hmmsearch.log
left=$(( 590 - ($(date +%s) - S0) )); echo "left $left s"
if [ $left -gt 345 ]; then
  timeout $left $B --repeat 1 --skip main,pyhmmer --previous /tmp/bj/main.json --out /tmp/bj/many1.json > $OUT/bench_hmmsearch_many1.log 2>&1; echo "many1 rc $? at $(( $(date +%s) - S0 )) s"
  cp /tmp/bj/many1.json $OUT/bench_hmmsearch_many1.json; tail -n 5 $OUT/bench_hmmsearch_many1.log
fi
