# Session 46, call 4: (A) the adaptive chain also where transitions are streamed (Q > 16):
# ADAPT_MAXQ 16 / 25 / 64 at M 1100-2400; (B) four targets a warp against two at M <= 192
# with the adaptive chain. Wheel .carry/w46p (tree + probe hooks); every kernel through NVRTC.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
export GPUSEQ_PROBE_FORCE_NVRTC=1 PYTHONPATH=$PWD/.carry/w46p:/tmp/site
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
S0=$(date +%s)
M0=-DGPUSEQ_PROBE_MINB=1
declare -A D=([q16]="$M0" [q25]="$M0 -DGPUSEQ_PROBE_ADAPT_MAXQ=25" [q64]="$M0 -DGPUSEQ_PROBE_ADAPT_MAXQ=64")
for v in q16 q25 q64; do for i in 0 1; do
  GPUSEQ_CACHE_DIR=/tmp/kc46 GPUSEQ_NVRTC_PROBE_DEFINES="${D[$v]}" VIT_M='1100 1200 1300 1400 1500 1600 2000 2400' VIT_PFAM=SMC_N PART=$i/2 timeout 300 python3 .carry/p46/vprobe.py $v warm > $OUT/warm-$v-$i.log 2>&1 &
done; done
for t in 2 4; do for i in 0 1; do
  GPUSEQ_CACHE_DIR=/tmp/kc46 GPUSEQ_NVRTC_PROBE_DEFINES="$M0" VIT_T=$t VIT_M='50 71 100 128 150 192' VIT_PFAM='RRM_1 fn3 2OG-FeII_Oxy_3 Caudal_act globins4' PART=$i/2 timeout 300 python3 .carry/p46/vprobe.py T$t warm > $OUT/warm-T$t-$i.log 2>&1 &
done; done; wait
echo "warm at $(( $(date +%s) - S0 )) s"
for r in 1 2; do
  for v in q16 q25 q64; do
    GPUSEQ_CACHE_DIR=/tmp/kc46 GPUSEQ_NVRTC_PROBE_DEFINES="${D[$v]}" VIT_M='1100 1200 1300 1400 1500 1600 2000 2400' VIT_PFAM=SMC_N EQ=$([ $r = 1 ] && echo 1 || echo 0) timeout 200 python3 .carry/p46/vprobe.py $v run 2>&1 | grep -v Warn
  done
  for t in 2 4; do
    GPUSEQ_CACHE_DIR=/tmp/kc46 GPUSEQ_NVRTC_PROBE_DEFINES="$M0" VIT_T=$t VIT_M='50 71 100 128 150 192' VIT_PFAM='RRM_1 fn3 2OG-FeII_Oxy_3 Caudal_act globins4' EQ=$([ $r = 1 ] && echo 1 || echo 0) timeout 200 python3 .carry/p46/vprobe.py T$t run 2>&1 | grep -v Warn
  done
  echo "round $r at $(( $(date +%s) - S0 )) s"
done > $OUT/variants.log
tail -2 $OUT/variants.log
