# Session 57, call 7: M = 2400 over two warps (19 stripes each): the D->D chain in two parts at
# stripe k in the first pass, the last, or both (.carry/w66: 014da3a with
# probes/q19-parts-probe.patch, GPUSEQ_PROBE_DEFINE's words as NVRTC -D options), against the
# commit's one part, alternated twice; scores compared with the first run.
set -uo pipefail
export PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $OUT/device-7.txt
P=benchmarks/results/gpu-h200-20261129-g/probes/vitab.py
export CASES=2400:2:1
run() {  # label defines [reference]
  GPUSEQ_PROBE_DEFINE="$2" GPUSEQ_CACHE_DIR=/tmp/kc-$1 PYTHONPATH=$PWD/.carry/w66:/tmp/site \
    timeout 100 python3 $P $1 /tmp/$1.npz ${3:-} 2>&1 | grep -v Warn
}
Q="GPUSEQ_PROBE_Q=19 GPUSEQ_PROBE_W=2"
{ run base ""
  for round in 1 2; do
    for v in "k10both 10 3" "k10first 10 1" "k10last 10 2" "k6both 6 3" "k14both 14 3" "k6first 6 1" "k14first 14 1"; do
      set -- $v; run $1 "$Q GPUSEQ_PROBE_K=$2 GPUSEQ_PROBE_PASSES=$3" /tmp/base.npz
    done
    run base "" /tmp/base.npz
  done; } | tee $OUT/q19-parts-7.log
