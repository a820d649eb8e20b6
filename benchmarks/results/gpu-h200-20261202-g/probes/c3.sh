# Session 78, call 3: compute-sanitizer on HEAD's kernels (.carry/w119, 6b0a72c), five processes
# beside each other, each stopped at 430 s: memcheck of every section but the filters, memcheck
# of the filters at M = 3, 130 and 700, racecheck of the S-lane, fused, Walters and NVRTC
# sections, of the claims, streams and blastp sections, and of the filters at M = 130.
set -uo pipefail
W=${W:-w119} N=${N:-3}; . benchmarks/results/gpu-h200-20261201-d/probes/setup.sh
run() {  # name tool env...
  local name=$1 tool=$2; shift 2
  ( env GPUSEQ_CACHE_DIR=/tmp/kc-$name "$@" timeout 430 compute-sanitizer --tool $tool --error-exitcode 9 \
      python3 tests/cuda_sanitizer_workload.py > $OUT/$name-$N.log 2>&1
    echo "$name rc $? at $(( $(date +%s) - S0 )) s" >> /tmp/rc-$N.txt ) &
}
run memcheck-rest memcheck SECTIONS=distances,b1gemm,warp_tables,claims,streams,nvrtc,walters,slane,fused,mrf,blast
run memcheck-filters memcheck SECTIONS=filters FILTER_M=3,130,700
run racecheck-kernels racecheck SECTIONS=slane,fused,walters,nvrtc
run racecheck-data racecheck SECTIONS=claims,streams,blast
run racecheck-filters racecheck SECTIONS=filters FILTER_M=130
wait; cat /tmp/rc-$N.txt
for f in $OUT/*-$N.log; do echo "== $f"; tail -n 4 $f; done
