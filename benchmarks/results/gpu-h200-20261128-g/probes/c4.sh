# Session 47, call 4: three warps a target with three blocks an SM (__maxnreg__(224): 9 warps, against 6 at
# ptxas's 240-254 registers), with R = 8/10 resident stripes at Q 14-16; two warps at 200 registers (10 warps);
# against W = 2 and W = 4 as committed. Wheel .carry/w47d (c3709e4 + .carry/p47-probe-maxnreg.patch).
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" PYTHONUNBUFFERED=1
export PYTHONPATH=$PWD/.carry/w47d:/tmp/site
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
S0=$(date +%s)
V=(); add() { V+=("$*"); }   # label W maxnreg R Ms
add B3 3 224 0 "2049 2200 2400 2496"
add B3R8 3 224 8 "2600 2816 3000 3072"
add B3R10 3 224 10 "2600 2816 3000 3072"
add W3 3 0 0 "2049 2400 2816 3072"
add W2 2 0 0 "1400 1600 2000 2049 2200 2400 2496 2600 2816"
add W4 4 0 0 "2816 3000 3072"
add B2 2 200 0 "1400"
go() { local mode=$1 e=$2; shift 2; set -- $1 $2 $3 $4 "${*:5}"; local d=""
  [ "$3" != 0 ] && d="-DPROBE_SPLIT_BLOCKS=$3"; [ "$4" != 0 ] && d="$d -DPROBE_SPLIT_R=$4"
  GPUSEQ_NVRTC_PROBE_DEFINES="$d" GPUSEQ_CACHE_DIR=/tmp/kc-$1 VIT_W=$2 VIT_M="$5" VIT_PFAM="" EQ=$e timeout 200 python3 .carry/vprobe.py $1 $mode 2>&1 | grep -v Warn; }
for v in "${V[@]}"; do go warm 0 $v > $OUT/warm-${v%% *}.log & done; wait
echo "warm at $(( $(date +%s) - S0 )) s"; grep -h skip $OUT/warm-*.log | head
for r in 1 2; do for v in "${V[@]}"; do go run $([ $r = 1 ] && echo 1 || echo 0) $v; done; done > $OUT/w3-blocks.log
echo "all at $(( $(date +%s) - S0 )) s"; sort -k3,3 -s $OUT/w3-blocks.log
