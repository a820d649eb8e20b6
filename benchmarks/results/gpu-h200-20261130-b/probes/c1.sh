# Session 65, call 1: .carry/w90 (ec6f569's module: 5b0496c, 4a8ac73, 6b20fc2 had not run on a
# GPU): the whole test suite, every file (the GPU backend is the default here), and racecheck
# of the workload's filters section, a process per model length (FILTER_M), side by side.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $OUT/device-1.txt; nproc >> $OUT/device-1.txt
export PYTHONPATH=$PWD/.carry/w90:/tmp/site
python3 -c 'import gpuseq, json; print(json.dumps(gpuseq.build_info()))' | tee $OUT/build-info-1.txt
t=$(date +%s)
for M in 3 130 700 3000; do
  ( GPUSEQ_CACHE_DIR=/tmp/kc-$M SECTIONS=filters FILTER_M=$M timeout 560 compute-sanitizer --tool racecheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/racecheck-1-filters-$M.log 2>&1; echo "racecheck filters M=$M rc $? after $(( $(date +%s) - t )) s" >> /tmp/rc-1.txt ) &
done
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 540 python3 -m pytest -n 11 -q -ra -p no:cacheprovider tests > $OUT/pytest-all-1.log 2>&1
echo "whole suite rc $? after $(( $(date +%s) - t )) s"; tail -1 $OUT/pytest-all-1.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-all-1.log | head -30
wait; cat /tmp/rc-1.txt; for M in 3 130 700 3000; do echo "== $M"; tail -n 2 $OUT/racecheck-1-filters-$M.log; done
