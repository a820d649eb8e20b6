# Session 51, call 11: the J layer's C states in shared memory (wheel .carry/wS: its systolic
# tests, then fused against systolic) and, as a probe of the fast loop's own cost, the same
# kernel without the C loop (wheel .carry/wFast: wrong only where a path through J scores).
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
PYTHONPATH=$PWD/.carry/wS:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc timeout 100 python3 -m pytest -q -n 8 -m cuda tests/test_gpu_viterbi_systolic.py -p no:cacheprovider > $OUT/pytest-viterbi-11.log 2>&1; echo "pytest rc $?"; tail -n 2 $OUT/pytest-viterbi-11.log
for w in wS wFast; do echo "== $w"; PYTHONPATH=$PWD/.carry/$w:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc timeout 100 python3 .carry/hb2.py 2>&1 | grep -v Warn | grep systolic; done | tee $OUT/systolic-j-11.log
