# Session 46, call 2: the fused Viterbi's adaptive D->D chain (32 rows with HMMER's lazy-F
# test, then 256 with the chain every row where it fired in >= FIRES of the 32), the D->D words
# held in registers; against HEAD (w45h). Wheel .carry/w46p (tree + probe hooks).
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
export GPUSEQ_PROBE_FORCE_NVRTC=1
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
S0=$(date +%s)
declare -A D=([head]="" [lazyH]="-DGPUSEQ_PROBE_CHAIN_FIRES=99" [ad24]="" [ad16]="-DGPUSEQ_PROBE_CHAIN_FIRES=16" [ad28]="-DGPUSEQ_PROBE_CHAIN_FIRES=28" [ad24m]="-DGPUSEQ_PROBE_MINB=1" [always]="-DGPUSEQ_PROBE_CHAIN_FIRES=0")
wheel() { [ $1 = head ] && echo $PWD/.carry/w45h || echo $PWD/.carry/w46p; }
V="${VARIANTS:-head lazyH ad24 ad16 ad28 ad24m always}"
for v in $V; do for i in 0 1; do
  GPUSEQ_CACHE_DIR=/tmp/kc46-$v PYTHONPATH=$(wheel $v):/tmp/site GPUSEQ_NVRTC_PROBE_DEFINES="${D[$v]}" PART=$i/2 timeout 300 python3 .carry/p46/vprobe.py $v warm > $OUT/warm-$v-$i.log 2>&1 &
done; done; wait
echo "warm at $(( $(date +%s) - S0 )) s"
for r in 1 2; do for v in $V; do
  GPUSEQ_CACHE_DIR=/tmp/kc46-$v PYTHONPATH=$(wheel $v):/tmp/site EQ=$([ $r = 1 ] && echo 1 || echo 0) GPUSEQ_NVRTC_PROBE_DEFINES="${D[$v]}" timeout 200 python3 .carry/p46/vprobe.py $v run 2>&1 | grep -v Warn
done; echo "round $r at $(( $(date +%s) - S0 )) s"; done > $OUT/variants.log
tail -3 $OUT/variants.log
