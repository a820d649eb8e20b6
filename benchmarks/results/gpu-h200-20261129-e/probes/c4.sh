# Session 55, call 4: 8dfcd36 + c47dddd (.carry/w57: the systolic lanes by model length): every
# cuda-marked test, then the Viterbi rows of bench_hmm_filters.py on its default 100 M residues.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
export PYTHONPATH=$PWD/.carry/w57:/tmp/site
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $OUT/device-4.txt
S0=$(date +%s)
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 330 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests > $OUT/pytest-cuda-4.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; tail -2 $OUT/pytest-cuda-4.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-cuda-4.log | head
GPUSEQ_CACHE_DIR=/tmp/kc-b timeout 250 python3 benchmarks/bench_hmm_filters.py --filters viterbi \
  --models 50,100,150,200,256,300,384,400,520,640,800,1024,1200,1600,2048,2400,3000 --thread-models 24 \
  --cpu-residues 0 --repeat 3 --examples .carry/hmmer/examples --out $OUT/bench_viterbi-4.json 2>&1 | grep -v Warn > $OUT/bench_viterbi-4.log
echo "bench rc $? at $(( $(date +%s) - S0 )) s"
