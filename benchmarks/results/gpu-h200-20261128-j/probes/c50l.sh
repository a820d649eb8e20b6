# Session 50, call 13: the hand-back's fused run with one target a warp (HEAD 64c4821, .carry/w50b).
set -uo pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD/.carry/w50b:/tmp/site
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
GPUSEQ_CACHE_DIR=/tmp/kc-r timeout 150 python3 .carry/sys/rerun_t.py 2>&1 | grep -v Warn | tee $OUT/rerun-t1.log
