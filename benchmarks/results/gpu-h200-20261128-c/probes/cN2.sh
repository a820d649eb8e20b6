# Session 44 plan (H100 only), call 2 (copied from session 42's c2.sh; the wheel .carry/w43): hmmsearch's 100 models once more on the same host, joined with the earlier runs.
set -uo pipefail
S0=$(date +%s)
[ -f /tmp/bj/many1.json ] || { echo "not the same host: /tmp/bj/many1.json is missing"; exit 3; }
source .carry/data.sh
export GPUSEQ_CACHE_DIR=/tmp/kc-h PYTHONPATH=$PWD/.carry/w43:/tmp/site
uptime > $OUT/uptime2.txt
B="python3 benchmarks/bench_hmmsearch.py --examples-dir .carry/hmmer/examples --workdir /tmp/bench --cpu 16 --seqs 1400000 --many-models 100"
timeout 590 $B --repeat 1 --skip main,pyhmmer --previous /tmp/bj/main.json /tmp/bj/many1.json --out /tmp/bj/many2.json > $OUT/bench_hmmsearch_many2.log 2>&1; echo "many2 rc $? at $(( $(date +%s) - S0 )) s"
cp /tmp/bj/many2.json $OUT/bench_hmmsearch_many2.json; tail -n 16 $OUT/bench_hmmsearch_many2.log
