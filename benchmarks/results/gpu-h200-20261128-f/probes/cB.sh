# Session 46, call 8: bench_hmmsearch on the committed tree (wheel .carry/w46f = 46a51d2's
# kernels): the six models from FASTA and from the packed database, and the 100 models,
# 3 repeats each, against hmmsearch --cpu 16 (pyhmmer and hmmsearch's 100 models skipped).
set -uo pipefail
S0=$(date +%s)
source .carry/data.sh
export GPUSEQ_CACHE_DIR=/tmp/kc-46f PYTHONPATH=$PWD/.carry/w46f:/tmp/site
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; nproc; uptime; } > $OUT/device-bench.txt 2>&1
cli 46f $SIX warm-six; cli 46f $MANY warm-many
echo "data + warm at $(( $(date +%s) - S0 )) s"
B="python3 benchmarks/bench_hmmsearch.py --examples-dir .carry/hmmer/examples --workdir /tmp/bench --cpu 16 --seqs 1400000 --many-models 100"
timeout $(( 580 - ($(date +%s) - S0) )) $B --repeat 3 --skip hmmsearch_many,pyhmmer --out $OUT/bench_hmmsearch.json > $OUT/bench_hmmsearch.log 2>&1; echo "main rc $? at $(( $(date +%s) - S0 )) s"
tail -n 16 $OUT/bench_hmmsearch.log
