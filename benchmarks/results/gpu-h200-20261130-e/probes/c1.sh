# Session 68, call 1: .carry/w99 (fc95f93's module: hmmsearch._ChunkCopies, the halves of a
# chunk whose models' buffers did not fit, shared by the models) under the whole test suite,
# beside racecheck of the filters section at M = 3000, a process per step (FILTER_STEPS).
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $OUT/device-1.txt; nproc >> $OUT/device-1.txt
export PYTHONPATH=$PWD/.carry/w99:/tmp/site
python3 -c 'import gpuseq, json; print(json.dumps(gpuseq.build_info()))' > $OUT/build-info-1.txt
t=$(date +%s); R=/tmp/race; mkdir -p $R; : > $R/rc.txt
for step in ssv msv viterbi cascade bias forward; do
  ( env GPUSEQ_CACHE_DIR=/tmp/kc-$step SECTIONS=filters FILTER_M=3000 FILTER_STEPS=$step timeout 545 compute-sanitizer --tool racecheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $R/racecheck-1-filters-3000-$step.log 2>&1
    echo "racecheck filters-3000-$step rc $? after $(( $(date +%s) - t )) s" >> $R/rc.txt ) &
done
export PYTHONPATH=$PYTHONPATH:$PWD/tests
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 430 python3 -m pytest -n 10 -q -ra -p no:cacheprovider --ignore tests/test_notebooks.py tests > $OUT/pytest-all-1.log 2>&1
echo "whole suite rc $? after $(( $(date +%s) - t )) s"; tail -1 $OUT/pytest-all-1.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-all-1.log | head -30
wait; sort $R/rc.txt; for f in $R/*.log; do echo "== $f"; tail -n 2 $f; done
tar -C $R -czf $OUT/racecheck-1.tar.gz .
