# Session 57, call 5: the commit 7264cc1 (.carry/w64): bench_hmm_filters.py's Viterbi rows on
# 100 M residues for the models whose counts now run the D->D chain in two parts (512, 1024,
# 1344, 2560) and their neighbours.
set -uo pipefail
export PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $OUT/device-5.txt
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples"
export PYTHONPATH=$PWD/.carry/w64:/tmp/site
S0=$(date +%s)
GPUSEQ_CACHE_DIR=/tmp/kc-b timeout 300 python3 benchmarks/bench_hmm_filters.py --filters viterbi \
  --models 400,512,700,1024,1344,2048,2400,2560,2816 --pfam-models SMC_N --thread-models 24 \
  --cpu-residues 0 --repeat 3 --examples .carry/hmmer/examples --out $OUT/bench_viterbi-5.json 2>&1 | grep -v Warn > $OUT/bench_viterbi-5.log
echo "bench rc $? at $(( $(date +%s) - S0 )) s"; grep -vE "^$" $OUT/bench_viterbi-5.log | tail -45
