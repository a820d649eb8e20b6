# Validation of a94b16d (wheel .carry/wn): the GPU suite, the hmmsearch benchmark, and the
# 100-model command against session 40's wheel (wp), alternated.
set -uo pipefail
source .carry/data.sh
nvidia-smi -L | tee $OUT/device.txt
export GPUSEQ_CACHE_DIR=/tmp/kc-n
PYTHONPATH=$PWD/.carry/wn:/tmp/site python3 -c 'import gpuseq, json; print(json.dumps(gpuseq.build_info()))' | tee -a $OUT/device.txt
t=$(date +%s); PYTHONPATH=$PWD/.carry/wn:/tmp/site timeout 280 python3 -m pytest -q -ra -p no:cacheprovider -n 8 -m cuda tests > $OUT/pytest-m-cuda.log 2>&1; echo "pytest rc $? $(( $(date +%s) - t )) s"; tail -n 3 $OUT/pytest-m-cuda.log
t=$(date +%s); PYTHONPATH=$PWD/.carry/wn:/tmp/site timeout 250 python3 benchmarks/bench_hmmsearch.py --examples-dir .carry/hmmer/examples --workdir /tmp/bench --cpu 16 --seqs 1400000 --repeat 3 --many-models 100 --skip hmmsearch_many,pyhmmer --out $OUT/bench_hmmsearch.json > $OUT/bench_hmmsearch.log 2>&1; echo "hmmsearch bench rc $? $(( $(date +%s) - t )) s"; tail -n 22 $OUT/bench_hmmsearch.log
unset GPUSEQ_CACHE_DIR
for w in p n; do cli $w $MANY warm; done > /dev/null 2>&1
for r in 1 2 3 4; do cli p $MANY many; cli n $MANY many; cli p $SIX six; cli n $SIX six; done 2>&1 | tee $OUT/e2e-pn-ab.log
