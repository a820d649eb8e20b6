# Session 46, call 9 (same host as call 8): hmmsearch's 100 models once, joined with call 8's
# runs (--previous), for the 100-model ratio on one host.
set -uo pipefail
S0=$(date +%s)
source .carry/data.sh
export GPUSEQ_CACHE_DIR=/tmp/kc-46f PYTHONPATH=$PWD/.carry/w46f:/tmp/site
B="python3 benchmarks/bench_hmmsearch.py --examples-dir .carry/hmmer/examples --workdir /tmp/bench --cpu 16 --seqs 1400000 --many-models 100"
timeout 560 $B --repeat 1 --skip main,pyhmmer --previous .carry/p46/main8.json --out $OUT/bench_hmmsearch_many.json > $OUT/bench_hmmsearch_many.log 2>&1; echo "many rc $? at $(( $(date +%s) - S0 )) s"
tail -n 8 $OUT/bench_hmmsearch_many.log
