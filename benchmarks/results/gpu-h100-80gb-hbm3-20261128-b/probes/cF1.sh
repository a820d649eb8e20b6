# Validation of d06cc3c (final wheel built locally, py3.12, sm_90a): the GPU suite, memcheck and
# racecheck on the fused Viterbi, and the A/B against d633e73's wheel.
set -u
export PYTHONUNBUFFERED=1 GPUSEQ_HMMER_EXAMPLES=$PWD/.carry/hmmer/examples PATH=$PWD/.carry/hmmer/bin:$PATH
nvidia-smi -L | tee $OUT/device.txt
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
export GPUSEQ_CACHE_DIR=/tmp/kcache
W=$PWD/.carry/wp
PYTHONPATH=$W:/tmp/site python3 -c 'import gpuseq, json; print(json.dumps(gpuseq.build_info()))' | tee -a $OUT/device.txt
t=$(date +%s); PYTHONPATH=$W:/tmp/site timeout 280 python3 -m pytest -q -ra -p no:cacheprovider -n 8 -m cuda tests > $OUT/pytest-m-cuda.log 2>&1; echo "pytest rc $? $(( $(date +%s) - t )) s"; tail -n 3 $OUT/pytest-m-cuda.log
for tool in memcheck racecheck; do t=$(date +%s); PYTHONPATH=$W:/tmp/site SECTIONS=fused timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/$tool-fused.log 2>&1; echo "$tool rc $? $(( $(date +%s) - t )) s"; tail -n 2 $OUT/$tool-fused.log; done
run() { tag=$1; shift; t=$(date +%s); env "$@" timeout 100 python3 .carry/vit_ab2.py $tag 2>&1; echo "[$tag] $(( $(date +%s) - t )) s"; }
{ run base PYTHONPATH=.carry/wb:/tmp/site; run final PYTHONPATH=$W:/tmp/site; } > $OUT/viterbi-final-ab.log 2>&1
python3 .carry/tab.py $OUT/viterbi-final-ab.log
