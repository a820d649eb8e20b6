# Session 51, call 10: as call 9 with votes for the REDUX (wheel .carry/wH): its tests and
# the fused ones, memcheck of the fused section, then fused against systolic (two rounds).
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
export PYTHONPATH=$PWD/.carry/wH:/tmp/site
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
GPUSEQ_CACHE_DIR=/tmp/kc timeout 150 python3 -m pytest -q -n 8 -m cuda tests/test_gpu_viterbi_systolic.py -p no:cacheprovider > $OUT/pytest-viterbi-10.log 2>&1; echo "pytest rc $?"; tail -n 3 $OUT/pytest-viterbi-10.log; grep -E "^(FAILED|ERROR)|assert" $OUT/pytest-viterbi-10.log | head -20
GPUSEQ_CACHE_DIR=/tmp/kc timeout 150 python3 .carry/hb2.py 2>&1 | grep -v Warn | tee $OUT/systolic-j-10.log

