# Session 64, call 1: .carry/w88 (fcf238d: targets on standard input detected as hmmsearch
# detects them; no GPU code changed since w87): every cuda-marked test, the format and CLI
# tests (hmmsearch 3.3.2 on a pipe as reference, the GPU backend by default here), then
# compute-sanitizer memcheck and racecheck over the whole workload (every section), side by side.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $OUT/device-1.txt; nproc >> $OUT/device-1.txt
export PYTHONPATH=$PWD/.carry/w88:/tmp/site
python3 -c 'import gpuseq, json; print(json.dumps(gpuseq.build_info()))' | tee $OUT/build-info-1.txt
t=$(date +%s)
( GPUSEQ_CACHE_DIR=/tmp/kc-m timeout 540 compute-sanitizer --tool memcheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/memcheck-1.log 2>&1; echo "memcheck rc $? after $(( $(date +%s) - t )) s" >> /tmp/rc-1.txt ) &
( GPUSEQ_CACHE_DIR=/tmp/kc-r timeout 540 compute-sanitizer --tool racecheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/racecheck-1.log 2>&1; echo "racecheck rc $? after $(( $(date +%s) - t )) s" >> /tmp/rc-1.txt ) &
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 330 python3 -m pytest -n 12 -q -ra -p no:cacheprovider -m cuda tests > $OUT/pytest-cuda-1.log 2>&1
echo "cuda-marked rc $? after $(( $(date +%s) - t )) s"; tail -1 $OUT/pytest-cuda-1.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-cuda-1.log | head
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 150 python3 -m pytest -n 12 -q -ra -p no:cacheprovider tests/test_formats.py tests/test_fasta.py tests/test_cli.py > $OUT/pytest-files-1.log 2>&1
echo "files rc $? after $(( $(date +%s) - t )) s"; tail -1 $OUT/pytest-files-1.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-files-1.log | head
wait; cat /tmp/rc-1.txt; for f in memcheck-1 racecheck-1; do echo "== $f"; tail -n 3 $OUT/$f.log; done
