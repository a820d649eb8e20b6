# Session 46, call 5: bench_hmm_filters' Viterbi command (as 9002c7a's, results -e) on the
# committed kernel (wheel .carry/w46f), then the fused Viterbi's GPU tests.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1 GPUSEQ_CACHE_DIR=/tmp/kc-46f PYTHONPATH=$PWD/.carry/w46f:/tmp/site
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $OUT/device.txt 2>&1
t=$(date +%s); timeout 200 python3 benchmarks/bench_hmm_filters.py --filters viterbi --models 100,150,200,256,300,400,520,640,800,1024,1200,1400,1600,2400 --residues 1e6 --cpu-residues 0 --thread-models 0 --repeat 3 --examples .carry/hmmer/examples --out $OUT/bench_viterbi.json > $OUT/bench_viterbi.log 2>&1; echo "viterbi rc $? $(( $(date +%s) - t )) s"
t=$(date +%s); timeout 240 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests/test_gpu_viterbi_fused.py tests/test_gpu_filters.py tests/test_gpu_nvrtc.py > $OUT/pytest-fused.log 2>&1; echo "pytest rc $? $(( $(date +%s) - t )) s"; tail -3 $OUT/pytest-fused.log
