# Session 68, call 2: the hmmsearch benchmark on fc95f93 (.carry/w99): every search now goes
# through _ChunkCopies; its timings beside session 67's (gpu-h200-20261130-d, call 5). The
# first try joined session 67's runs (--previous), which the benchmark refused: another
# source (bench_hmmsearch-2-rejected.log); it ran again without.
set -uo pipefail
S0=$(date +%s)
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
DATA_WHEEL=w99 source benchmarks/results/gpu-h200-20261129-k/probes/data.sh
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > $OUT/device-2.txt
export PYTHONPATH=$PWD/.carry/w99:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-bench
sleep 10
timeout 450 python3 benchmarks/bench_hmmsearch.py --examples-dir .carry/hmmer/examples --workdir /tmp/bench \
  --cpu 16 --seqs 1400000 --many-models 100 --repeat 3 --skip hmmsearch_many,pyhmmer \
  --out $OUT/bench_hmmsearch-2.json > $OUT/bench_hmmsearch-2.log 2>&1
echo "bench rc $? at $(( $(date +%s) - S0 )) s"; tail -n 16 $OUT/bench_hmmsearch-2.log
