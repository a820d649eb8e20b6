set -uo pipefail
source .carry/data.sh
export GPUSEQ_CACHE_DIR=/tmp/kc-n
t=$(date +%s); PYTHONPATH=$PWD/.carry/wn:/tmp/site timeout 560 python3 benchmarks/bench_hmmsearch.py --examples-dir .carry/hmmer/examples --workdir /tmp/bench --cpu 16 --seqs 1400000 --repeat 1 --many-models 100 --skip main,pyhmmer --previous .carry/bench7.json --out $OUT/bench_hmmsearch_many.json > $OUT/bench_hmmsearch_many.log 2>&1; echo "rc $? $(( $(date +%s) - t )) s"; tail -n 14 $OUT/bench_hmmsearch_many.log
