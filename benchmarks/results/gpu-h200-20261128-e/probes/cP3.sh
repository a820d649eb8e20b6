# Session 45: S = 16 at every H (8-48), loop build (w45xu), one block an SM or not; SSV and MSV.
set -uo pipefail
export PYTHONUNBUFFERED=1
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
S0=$(date +%s)
GPUSEQ_CACHE_DIR=/tmp/kc-w45xu PYTHONPATH=$PWD/.carry/w45xu:/tmp/site timeout 420 python3 .carry/h_sweep3.py 16 8-48 0,120000 2>&1 | grep -v Warn | tee $OUT/s16-h-sweep-loop.log
echo "at $(( $(date +%s) - S0 )) s"
