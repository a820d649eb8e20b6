# Session 50, call 4: the systolic prototype with LPT-balanced groups, 256/128-thread blocks.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" PYTHONUNBUFFERED=1 PYTHONPATH=$PWD/.carry/w50a:/tmp/site
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
GPUSEQ_CACHE_DIR=/tmp/kc-sys SYS_M="${SYS_M:-50 100 150 200 256}" SYS_PFAM="${SYS_PFAM:-RRM_1 globins4}" timeout 250 python3 .carry/sys/drive.py 2>&1 | grep -v Warn | tee $OUT/sys-proto-lpt.log
