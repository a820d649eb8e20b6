# Session 56, call 3: the D->D words held in registers past 16 stripes, by how many transition
# stripes stay resident: the split kernel (W = 2, 17-22 stripes a warp; GPUSEQ_SPLIT_HOLD_R 9-12)
# and the one-warp fused kernel (T = 1, 17-21 stripes; GPUSEQ_FUSED_HOLD_R 10-14), paired in one
# run as they are different kernels; .carry/wP against w57 (HEAD), two rounds.
set -uo pipefail
export PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
S0=$(date +%s)
P=benchmarks/results/gpu-h200-20261129-f/probes/splitchain.py
export CASES=2176:2,2304:2,2400:2,2560:2,2600:2,2816:2,1060:1,1100:1,1200:1,1280:1,1344:1
run() {  # label wheel defines [reference]
  GPUSEQ_PROBE_DEFINE="$3" GPUSEQ_CACHE_DIR=/tmp/kc-$1 PYTHONPATH=$PWD/.carry/$2:/tmp/site \
    timeout 150 python3 $P $1 /tmp/$1.npz ${4:-} 2>&1 | grep -v Warn
}
{ run head w57 ""
  for round in 1 2; do
    for RF in 9:10 10:12 11:13 12:14; do
      R=${RF%:*}; F=${RF#*:}
      run s$R-f$F wP "GPUSEQ_SPLIT_HOLD_R=$R GPUSEQ_FUSED_HOLD_MAXQ=22 GPUSEQ_FUSED_HOLD_R=$F" /tmp/head.npz
    done
    [ $round = 1 ] && run head w57 "" /tmp/head.npz
  done; } | tee $OUT/hold-r-3.log
echo "done at $(( $(date +%s) - S0 )) s"
