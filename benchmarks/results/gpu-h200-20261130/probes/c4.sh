# Session 64, call 4: .carry/w89: racecheck of call 3's first group (filters, warp_tables,
# claims: past 520 s together), a section a process, side by side.
set -uo pipefail
export PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
export PYTHONPATH=$PWD/.carry/w89:/tmp/site
t=$(date +%s)
for S in filters warp_tables claims; do
  ( GPUSEQ_CACHE_DIR=/tmp/kc-$S SECTIONS=$S timeout 440 compute-sanitizer --tool racecheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/racecheck-4-$S.log 2>&1; echo "racecheck $S rc $? after $(( $(date +%s) - t )) s" >> /tmp/rc-4.txt ) &
done
wait; cat /tmp/rc-4.txt; for S in filters warp_tables claims; do echo "== $S"; tail -n 2 $OUT/racecheck-4-$S.log; done
