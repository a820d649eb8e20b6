# Session 45: the new slow counts for S = 8, 4, 2 (w45b) against the old (w45), models as a
# search runs them, alternated x2; then w45b's GPU tests of the S-lane and NVRTC kernels.
set -uo pipefail
export PYTHONUNBUFFERED=1 GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples"
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
S0=$(date +%s)
N=Pkinase,LuxC,Patched,SMC_N,globins4; MS=224,232,290,296,352,368,448,592,900,1142,1184,1400,1472
for r in 1 2; do for w in 45 45b; do echo "== w$w round $r"; GPUSEQ_CACHE_DIR=/tmp/kc-45 PYTHONPATH=$PWD/.carry/w$w:/tmp/site timeout 200 python3 .carry/models_probe.py $N $MS 2>&1 | grep -v Warn; done; done > $OUT/models-ab-slow-counts.log
echo "models at $(( $(date +%s) - S0 )) s"
GPUSEQ_CACHE_DIR=/tmp/kc-45bt PYTHONPATH=$PWD/.carry/w45b:/tmp/site timeout 300 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests/test_gpu_multi.py tests/test_gpu_nvrtc.py tests/test_gpu_filters.py > $OUT/pytest-multi-nvrtc-filters-w45b.log 2>&1; echo "pytest rc $?"; tail -1 $OUT/pytest-multi-nvrtc-filters-w45b.log
echo "all at $(( $(date +%s) - S0 )) s"
