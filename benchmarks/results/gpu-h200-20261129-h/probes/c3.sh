# Session 58, call 3: ptxas's --register-usage-level 0 against the default at every stripe count
# a search's fused Viterbi kernels take (two rounds), and at 17-21 stripes over two warps the
# stripes held in registers (split_resident_stripes) again under level 0. .carry/w68: HEAD with
# probes/ptxas-option-probe.patch (GPUSEQ_PROBE_PTXAS's words as NVRTC options). The kernels are
# compiled first by 14 processes at once (warm.py), then timed one process at a time.
set -uo pipefail
export PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > $OUT/device-3.txt
R=benchmarks/results/gpu-h200-20261129-h/probes
ALL=50:1:2,100:1:2,149:1:2,200:1:2,280:1:2,300:1:2,352:1:2,384:1:2,400:1:2,448:1:2,480:1:2,512:1:2,700:1:1,768:1:1,832:1:1,896:1:1,960:1:1,1024:1:1,1088:1:1,1142:1:1,1216:1:1,1280:1:1,1344:1:1,1408:2:1,1536:2:1,1600:2:1,1792:2:1,1920:2:1,2048:2:1,2176:2:1,2304:2:1,2400:2:1,2560:2:1,2600:2:1,2400:4:1,2560:4:1,2816:4:1,3000:4:1,3300:4:1,3500:4:1,3800:4:1,4096:4:1
SPLIT=2176:2:1,2304:2:1,2400:2:1,2560:2:1,2600:2:1
L0=--ptxas-options=--register-usage-level=0
# variant label|options|cases
VARIANTS=("base||$ALL" "lvl0|$L0|$ALL")
for q in "17 10" "17 14" "18 9" "18 10" "18 11" "18 14" "19 8" "19 9" "19 11" "19 12" "20 8" "20 9" "20 11" "20 12" "21 8" "21 9"; do
  set -- $q; VARIANTS+=("q$1r$2|$L0 -DGPUSEQ_PROBE_SPLIT_Q=$1 -DGPUSEQ_PROBE_SPLIT_R=$2|$SPLIT")
done
env1() { GPUSEQ_PROBE_PTXAS="$2" GPUSEQ_CACHE_DIR=/tmp/kc-$1 PYTHONPATH=$PWD/.carry/w68:/tmp/site "${@:3}"; }
t0=$(date +%s)
for v in "${VARIANTS[@]}"; do
  IFS='|' read -r label opts cases <<< "$v"
  IFS=',' read -ra cs <<< "$cases"
  for ((i = 0; i < ${#cs[@]}; i += 4)); do
    part=$(IFS=,; echo "${cs[*]:i:4}")
    echo "$label|$opts|$part"
  done
done | xargs -P 14 -I{} bash -c 'IFS="|" read -r l o c <<< "{}"; GPUSEQ_PROBE_PTXAS="$o" GPUSEQ_CACHE_DIR=/tmp/kc-$l PYTHONPATH='$PWD'/.carry/w68:/tmp/site CASES="$c" timeout 300 python3 '$R'/warm.py 2>&1 | grep -v Warn | tail -2'
echo "compiled in $(( $(date +%s) - t0 )) s" | tee $OUT/warm-3.log
run() {  # label options cases [reference]
  GPUSEQ_PROBE_PTXAS="$2" GPUSEQ_CACHE_DIR=/tmp/kc-$1 PYTHONPATH=$PWD/.carry/w68:/tmp/site CASES="$3" \
    timeout 200 python3 $R/vitab.py $1 /tmp/$1.npz ${4:-} 2>&1 | grep -v Warn
}
{ run base "" $ALL
  run lvl0 "$L0" $ALL /tmp/base.npz
  run base "" $ALL /tmp/base.npz
  run lvl0 "$L0" $ALL /tmp/base.npz
  for v in "${VARIANTS[@]:2}"; do
    IFS='|' read -r label opts cases <<< "$v"
    run $label "$opts" $cases /tmp/base.npz
  done
} | tee $OUT/usage-level-3.log
