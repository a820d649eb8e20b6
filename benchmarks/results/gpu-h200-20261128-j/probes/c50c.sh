# Session 50, call 3: the systolic Viterbi prototype (.carry/sys) beside the fused kernel, then
# HEAD 2b6f4d2 (wheel .carry/w50a) every GPU test and the fused sanitizers.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
export PYTHONPATH=$PWD/.carry/w50a:/tmp/site
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader > $OUT/device.txt
S0=$(date +%s)
GPUSEQ_CACHE_DIR=/tmp/kc-sys SYS_M="50 100 129 150" SYS_PFAM="RRM_1 fn3 Caudal_act globins4" timeout 200 python3 .carry/sys/drive.py 2>&1 | grep -v Warn | tee $OUT/sys-proto.log
echo "proto at $(( $(date +%s) - S0 )) s"
bash .carry/c50b.sh
