# Session 67, call 4: racecheck of the sanitizer workload on .carry/w97, a process per section
# (the filters section a process per model length, as session 65's run_on_gpu_host.sh does),
# side by side.
set -uo pipefail
export PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
export PYTHONPATH=$PWD/.carry/w97:/tmp/site
t=$(date +%s); : > /tmp/rc-4.txt
run() {  # name, then environment assignments
  local name=$1; shift
  ( env GPUSEQ_CACHE_DIR=/tmp/kc-$name "$@" timeout 520 compute-sanitizer --tool racecheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/racecheck-4-$name.log 2>&1
    echo "racecheck $name rc $? after $(( $(date +%s) - t )) s" >> /tmp/rc-4.txt ) &
}
for s in distances b1gemm warp_tables claims streams nvrtc walters slane fused mrf blast; do run $s SECTIONS=$s; done
for M in 3 130 700; do run filters-$M SECTIONS=filters FILTER_M=$M; done
wait; sort /tmp/rc-4.txt; for f in $OUT/racecheck-4-*.log; do echo "== $f"; tail -n 2 $f; done
