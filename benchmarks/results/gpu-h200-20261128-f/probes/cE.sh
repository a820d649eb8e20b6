# Session 46, call 7: the D->D chain's second pass stopping where no thread's D changed
# (checked every EXIT_EVERY stripes) where transitions are streamed (Q > 16). Wheel .carry/w46p
# (46a51d2 + probe hooks + the GPUSEQ_PROBE_EXIT_EVERY macro).
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
export GPUSEQ_PROBE_FORCE_NVRTC=1 PYTHONPATH=$PWD/.carry/w46p:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc46
export VIT_M='1100 1200 1400 1600 2000 2400 3000' VIT_PFAM='SMC_N'
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
S0=$(date +%s)
declare -A D=([e0]="" [e4]="-DGPUSEQ_PROBE_EXIT_EVERY=4" [e8]="-DGPUSEQ_PROBE_EXIT_EVERY=8")
V="e0 e4 e8"
for v in $V; do for i in 0 1 2; do
  GPUSEQ_NVRTC_PROBE_DEFINES="${D[$v]}" PART=$i/3 timeout 300 python3 .carry/p46/vprobe.py $v warm > $OUT/warm-$v-$i.log 2>&1 &
done; done; wait
echo "warm at $(( $(date +%s) - S0 )) s"
for r in 1 2; do for v in $V; do
  EQ=$([ $r = 1 ] && echo 1 || echo 0) GPUSEQ_NVRTC_PROBE_DEFINES="${D[$v]}" timeout 200 python3 .carry/p46/vprobe.py $v run 2>&1 | grep -v Warn
done; echo "round $r at $(( $(date +%s) - S0 )) s"; done > $OUT/variants.log
tail -2 $OUT/variants.log
