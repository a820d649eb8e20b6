# The committed tree (wheel .carry/wn: a94b16d's build, HEAD's hmmsearch.py): GPU hmmsearch
# tests, then the hmmsearch benchmark.
set -uo pipefail
source .carry/data.sh
nvidia-smi -L | tee $OUT/device.txt
export GPUSEQ_CACHE_DIR=/tmp/kc-n PYTHONPATH=$PWD/.carry/wn:/tmp/site
t=$(date +%s); timeout 200 python3 -m pytest -q -ra -p no:cacheprovider -n 8 -m cuda tests/test_gpu_filters.py tests/test_cuda.py tests/test_cli.py tests/test_hmmsearch.py > $OUT/pytest-hmmsearch-cuda.log 2>&1; echo "pytest rc $? $(( $(date +%s) - t )) s"; tail -n 2 $OUT/pytest-hmmsearch-cuda.log
t=$(date +%s); timeout 200 python3 benchmarks/bench_hmmsearch.py --examples-dir .carry/hmmer/examples --workdir /tmp/bench --cpu 16 --seqs 1400000 --repeat 3 --many-models 100 --skip hmmsearch_many,pyhmmer --out $OUT/bench_hmmsearch.json > $OUT/bench_hmmsearch.log 2>&1; echo "hmmsearch bench rc $? $(( $(date +%s) - t )) s"; tail -n 22 $OUT/bench_hmmsearch.log
