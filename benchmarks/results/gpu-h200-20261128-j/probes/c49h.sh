# Session 49, call 8: S = 16 up to 56 stripes with NVRTC (.carry/w49g) at M 193-224 against
# S = 8; then its new test.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" PYTHONUNBUFFERED=1 PYTHONPATH=$PWD/.carry/w49g:/tmp/site
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
GPUSEQ_CACHE_DIR=/tmp/kc-g timeout 60 python3 .carry/s16probe.py 193,200,208,217,220,224 2>&1 | tee $OUT/s16-past-48-8.log
GPUSEQ_CACHE_DIR=/tmp/kc-g timeout 30 python3 -m pytest -n 3 -q -p no:cacheprovider -m cuda tests/test_gpu_nvrtc.py -k s16_takes > $OUT/pytest-s16-8.log 2>&1; tail -1 $OUT/pytest-s16-8.log
