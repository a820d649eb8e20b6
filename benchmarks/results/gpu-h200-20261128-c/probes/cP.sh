# Session 44: the GPU suite on HEAD's Python (.carry/w43 = a683233's Python over the unchanged _core).
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
export PYTHONPATH=$PWD/.carry/w43:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-h
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; nproc; uptime; python3 -c 'import gpuseq, json; print(json.dumps(gpuseq.build_info()))'; } > $OUT/device.txt 2>&1
t0=$(date +%s)
timeout 500 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests > $OUT/pytest-cuda.log 2>&1; echo "pytest rc $? $(( $(date +%s) - t0 )) s" | tee $OUT/rc.txt
tail -5 $OUT/pytest-cuda.log; cat $OUT/device.txt
