# Session 46: fused Viterbi row variants (viterbi_fused.cuh GPUSEQ_PROBE_* macros through
# GPUSEQ_NVRTC_PROBE_DEFINES), every kernel through NVRTC; wheel .carry/w46p.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
export GPUSEQ_PROBE_FORCE_NVRTC=1 GPUSEQ_CACHE_DIR=/tmp/kc46 PYTHONPATH=$PWD/.carry/w46p:/tmp/site
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
S0=$(date +%s)
declare -A D=([base]="" [early]="-DGPUSEQ_PROBE_LAZYF_EARLY=1" [always]="-DGPUSEQ_PROBE_CHAIN_ALWAYS=1" [alwaysH]="-DGPUSEQ_PROBE_CHAIN_ALWAYS=1 -DGPUSEQ_PROBE_DD_HELD=1" [earlyH]="-DGPUSEQ_PROBE_LAZYF_EARLY=1 -DGPUSEQ_PROBE_DD_HELD=1" [held]="-DGPUSEQ_PROBE_DD_HELD=1")
V="${VARIANTS:-base early always alwaysH earlyH held}"
for v in $V; do for i in 0 1; do
  GPUSEQ_NVRTC_PROBE_DEFINES="${D[$v]}" PART=$i/2 timeout 300 python3 .carry/p46/vprobe.py $v warm > $OUT/warm-$v-$i.log 2>&1 &
done; done; wait
echo "warm at $(( $(date +%s) - S0 )) s"; tail -n 2 $OUT/warm-*.log | tail -n 30
for r in 1 2; do for v in $V; do
  EQ=$([ $r = 1 ] && echo 1 || echo 0) GPUSEQ_NVRTC_PROBE_DEFINES="${D[$v]}" timeout 200 python3 .carry/p46/vprobe.py $v run 2>&1 | grep -v Warn
done; echo "round $r at $(( $(date +%s) - S0 )) s"; done | tee $OUT/variants.log
