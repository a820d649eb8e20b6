# Session 58, call 7: two warps a target at 22, 24 and 26 stripes (M = 2816, 3000, 3300) at
# ptxas's register usage level 0 with 12-16 stripes in registers, against the commit's choice
# there (four warps) and its two-warp kernels. .carry/w70: 382282b with
# probes/probe-on-382282b.patch (GPUSEQ_PROBE_PTXAS's words as NVRTC options; the resident
# stripes at one count by -D).
set -uo pipefail
export PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
R=benchmarks/results/gpu-h200-20261129-h/probes
BASE=2816:2:1,2816:4:1,3000:2:1,3000:4:1,3300:2:1,3300:4:1
L0="--ptxas-options=--register-usage-level=0 -DGPUSEQ_PTXAS_REGISTER_USAGE_LEVEL=0"
VARIANTS=("base||$BASE")
for v in "22 16 2816" "22 14 2816" "22 12 2816" "24 16 3000" "24 12 3000" "26 16 3300"; do
  set -- $v; VARIANTS+=("q$1r$2|$L0 -DGPUSEQ_PROBE_SPLIT_Q=$1 -DGPUSEQ_PROBE_SPLIT_R=$2|$3:2:1")
done
for v in "${VARIANTS[@]}"; do echo "$v"; done | xargs -P 8 -I{} bash -c 'IFS="|" read -r l o c <<< "{}"; GPUSEQ_PROBE_PTXAS="$o" GPUSEQ_CACHE_DIR=/tmp/kc-$l PYTHONPATH='$PWD'/.carry/w70:/tmp/site CASES="$c" timeout 100 python3 '$R'/warm.py 2>&1 | grep -v Warn | tail -2'
run() {
  GPUSEQ_PROBE_PTXAS="$2" GPUSEQ_CACHE_DIR=/tmp/kc-$1 PYTHONPATH=$PWD/.carry/w70:/tmp/site CASES="$3" \
    timeout 60 python3 $R/vitab.py $1 /tmp/$1.npz ${4:-} 2>&1 | grep -v Warn
}
{ run base "" $BASE
  for v in "${VARIANTS[@]:1}"; do IFS='|' read -r label opts cases <<< "$v"; run $label "$opts" $cases /tmp/base.npz; done
} | tee $OUT/two-warps-past-21-7.log
