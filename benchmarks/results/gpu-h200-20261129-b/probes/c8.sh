# Session 52, call 8: the hmmsearch benchmark on the committed tree (wheel .carry/wNew2, warm
# NVRTC cache after the first repeat), six models and 100 against hmmsearch --cpu 16.
set -uo pipefail
S0=$(date +%s)
source benchmarks/results/gpu-h200-20261129-b/probes/data.sh
echo "data ready at $(( $(date +%s) - S0 )) s"
export GPUSEQ_CACHE_DIR=/tmp/kc-bench PYTHONPATH=$PWD/.carry/wNew2:/tmp/site
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; nproc; uptime; } > $OUT/device-8.txt 2>&1
B="python3 benchmarks/bench_hmmsearch.py --examples-dir .carry/hmmer/examples --workdir /tmp/bench --cpu 16 --seqs 1400000 --many-models 100"
left=$(( 570 - ($(date +%s) - S0) )); echo "left $left s"
timeout $left $B --repeat 3 --skip hmmsearch_many,pyhmmer --out $OUT/bench_hmmsearch-8.json > $OUT/bench_hmmsearch-8.log 2>&1
echo "bench rc $? at $(( $(date +%s) - S0 )) s"; tail -n 16 $OUT/bench_hmmsearch-8.log
