# Session 45: the whole GPU suite on w45b (the tree of the commit), Debian's HMMER on PATH.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > $OUT/device.txt 2>&1
S0=$(date +%s)
GPUSEQ_CACHE_DIR=/tmp/kc-45bt PYTHONPATH=$PWD/.carry/w45b:/tmp/site timeout 420 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests > $OUT/pytest-cuda.log 2>&1; echo "pytest rc $?"; tail -1 $OUT/pytest-cuda.log
echo "all at $(( $(date +%s) - S0 )) s"
