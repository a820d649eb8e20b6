# Session 58, call 4: at 17-21 stripes over two warps, 13-16 stripes held in registers
# (split_resident_stripes) under ptxas's --register-usage-level 0 and under the default (call 3
# tried 8-14 under level 0 only). .carry/w68 as in call 3; each variant times only its own count.
set -uo pipefail
export PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > $OUT/device-4.txt
R=benchmarks/results/gpu-h200-20261129-h/probes
SPLIT=2176:2:1,2304:2:1,2400:2:1,2560:2:1,2600:2:1
declare -A MQ=([17]=2176:2:1 [18]=2304:2:1 [19]=2400:2:1 [20]=2560:2:1 [21]=2600:2:1)
L0=--ptxas-options=--register-usage-level=0
VARIANTS=("base||$SPLIT" "lvl0|$L0|$SPLIT")
for q in 17 18 19 20 21; do for r in 13 14 15 16; do
  VARIANTS+=("l0q${q}r$r|$L0 -DGPUSEQ_PROBE_SPLIT_Q=$q -DGPUSEQ_PROBE_SPLIT_R=$r|${MQ[$q]}")
  VARIANTS+=("l5q${q}r$r|-DGPUSEQ_PROBE_SPLIT_Q=$q -DGPUSEQ_PROBE_SPLIT_R=$r|${MQ[$q]}")
done; done
t0=$(date +%s)
for v in "${VARIANTS[@]}"; do echo "$v"; done | xargs -P 14 -I{} bash -c 'IFS="|" read -r l o c <<< "{}"; GPUSEQ_PROBE_PTXAS="$o" GPUSEQ_CACHE_DIR=/tmp/kc-$l PYTHONPATH='$PWD'/.carry/w68:/tmp/site CASES="$c" timeout 300 python3 '$R'/warm.py 2>&1 | grep -v Warn | tail -2'
echo "compiled in $(( $(date +%s) - t0 )) s" | tee $OUT/warm-4.log
run() {  # label options cases [reference]
  GPUSEQ_PROBE_PTXAS="$2" GPUSEQ_CACHE_DIR=/tmp/kc-$1 PYTHONPATH=$PWD/.carry/w68:/tmp/site CASES="$3" \
    timeout 200 python3 $R/vitab.py $1 /tmp/$1.npz ${4:-} 2>&1 | grep -v Warn
}
{ run base "" $SPLIT
  for v in "${VARIANTS[@]:1}"; do
    IFS='|' read -r label opts cases <<< "$v"
    run $label "$opts" $cases /tmp/base.npz
  done
  run base "" $SPLIT /tmp/base.npz
} | tee $OUT/resident-4.log
