# Session 58, call 1: ptxas's --register-usage-level 0 (no spills in any fused Viterbi kernel
# where the default 5 spills 20-348 bytes at some counts) against the default, for the fused
# Viterbi kernels a search chooses, alternated twice; scores compared with the first run.
# Then the SSV and MSV rows of bench_hmm_filters under both.
set -uo pipefail
export PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > $OUT/device-1.txt
R=benchmarks/results/gpu-h200-20261129-h/probes
export CASES=50:1:2,100:1:2,149:1:2,200:1:2,300:1:2,400:1:2,512:1:2,700:1:1,1024:1:1,1142:1:1,1344:1:1,1600:2:1,2048:2:1,2176:2:1,2304:2:1,2400:2:1,2560:2:1,2600:2:1,2816:4:1,3000:4:1,3500:4:1
run() {  # label ptxas-options [reference]
  GPUSEQ_PROBE_PTXAS="$2" GPUSEQ_CACHE_DIR=/tmp/kc-$1 PYTHONPATH=$PWD/.carry/w67:/tmp/site \
    timeout 200 python3 $R/vitab.py $1 /tmp/$1.npz ${3:-} 2>&1 | grep -v Warn
}
{ run base ""
  run lvl0 "--ptxas-options=--register-usage-level=0" /tmp/base.npz
  run base "" /tmp/base.npz
  run lvl0 "--ptxas-options=--register-usage-level=0" /tmp/base.npz
} | tee $OUT/usage-level-1.log
for v in base lvl0; do
  o=""; [ $v = lvl0 ] && o="--ptxas-options=--register-usage-level=0"
  GPUSEQ_PROBE_PTXAS="$o" GPUSEQ_CACHE_DIR=/tmp/kc-$v PYTHONPATH=$PWD/.carry/w67:/tmp/site \
    timeout 150 python3 benchmarks/bench_hmm_filters.py --filters ssv,msv --models 150,224,400,1142,2400 \
    --cpu-residues 0 --repeat 3 --pfam-models "" --out /tmp/ssvmsv-$v.json 2>&1 | grep -v Warn | tail -25 > $OUT/ssv-msv-$v-1.log
done
