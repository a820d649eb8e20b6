# Session 44: the S-lane SSV's running maximum before the row update (no register moves), A/B
# against 518ed62's build (w43), alternated, scores hashed; then the S-lane GPU tests.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
export GPUSEQ_CACHE_DIR=/tmp/kc-wssv
S0=$(date +%s)
for r in 1 2; do for w in w43 wssv; do echo "== $w round $r"; GPUSEQ_CACHE_DIR=/tmp/kc-$w PYTHONPATH=$PWD/.carry/$w:/tmp/site timeout 70 python3 .carry/ssv_probe.py 149,200,400,800,1142 3 2>&1 | grep -v Warn; done; done | tee $OUT/ssv-ab.log
echo "ab done at $(( $(date +%s) - S0 )) s"
left=$(( 215 - ($(date +%s) - S0) )); echo "left $left s"
PYTHONPATH=$PWD/.carry/wssv:/tmp/site timeout $left python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests/test_gpu_multi.py > $OUT/pytest-multi.log 2>&1; echo "pytest rc $?"; tail -3 $OUT/pytest-multi.log
