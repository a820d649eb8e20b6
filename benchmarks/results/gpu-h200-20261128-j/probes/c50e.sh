# Session 50, call 5: the systolic prototype, prefetch off/on; 10M residues, then 60M (balanced).
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" PYTHONUNBUFFERED=1 PYTHONPATH=$PWD/.carry/w50a:/tmp/site
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
GPUSEQ_CACHE_DIR=/tmp/kc-sys SYS_M="50 100 150 256" SYS_PFAM="RRM_1 globins4" timeout 200 python3 .carry/sys/drive.py 2>&1 | grep -v Warn | tee $OUT/sys-proto-pf.log
GPUSEQ_CACHE_DIR=/tmp/kc-sys SYS_RES=60e6 SYS_CHECK=500 SYS_M="100 150" SYS_PFAM="" timeout 200 python3 .carry/sys/drive.py 2>&1 | grep -v Warn | tee $OUT/sys-proto-pf-60M.log
