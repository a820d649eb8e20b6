# Session 45: S = 8, 4, 2 at every H from 25 to 48 on w45 (their rows: the loop with the maximum
# first since 645161c; the slow counts were measured before it), two rounds; SSV and MSV.
set -uo pipefail
export PYTHONUNBUFFERED=1
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
S0=$(date +%s)
for r in 1 2; do for S in 8 4 2; do GPUSEQ_CACHE_DIR=/tmp/kc-45 PYTHONPATH=$PWD/.carry/w45:/tmp/site timeout 250 python3 .carry/h_sweep3.py $S 25-48 0 2>&1 | grep -v Warn; echo "at $(( $(date +%s) - S0 )) s"; done; done | tee $OUT/s8-4-2-h-sweep.log
