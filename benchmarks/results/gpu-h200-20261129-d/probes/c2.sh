# Session 54, call 2: the commit 4c6e777 (module .carry/w54): the hmmsearch benchmark, every
# cuda-marked test, racecheck of the S-lane section (which now runs the blocks' background plan).
set -uo pipefail
S0=$(date +%s)
P=benchmarks/results/gpu-h200-20261129-d/probes
source $P/data.sh
export PYTHONPATH=$PWD/.carry/w54:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-bench
timeout 300 python3 benchmarks/bench_hmmsearch.py --examples-dir .carry/hmmer/examples --workdir /tmp/bench \
  --cpu 16 --seqs 1400000 --many-models 100 --repeat 3 --skip hmmsearch_many,pyhmmer \
  --out $OUT/bench_hmmsearch-2.json > $OUT/bench_hmmsearch-2.log 2>&1
echo "bench rc $? at $(( $(date +%s) - S0 )) s"; tail -n 14 $OUT/bench_hmmsearch-2.log
export GPUSEQ_CACHE_DIR=/tmp/kc-54
timeout 200 python3 -m pytest -q -n 8 -p no:cacheprovider -ra -m cuda tests > $OUT/pytest-cuda-2.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; tail -3 $OUT/pytest-cuda-2.log
SECTIONS=slane timeout 60 compute-sanitizer --tool racecheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/racecheck-slane-2.log 2>&1; echo "racecheck rc $? at $(( $(date +%s) - S0 )) s"; tail -n 2 $OUT/racecheck-slane-2.log
