# Session 58, call 2: ptxas's --register-usage-level 0 and 6 (6-10 compile alike, as 0-3 and
# 4-5 do) against the default 5: the fused Viterbi kernels a search chooses, alternated twice,
# scores compared with the first run; then bench_hmm_filters' SSV and MSV rows under each.
set -uo pipefail
export PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > $OUT/device-2.txt
R=benchmarks/results/gpu-h200-20261129-h/probes
export CASES=50:1:2,100:1:2,149:1:2,200:1:2,300:1:2,400:1:2,512:1:2,700:1:1,1024:1:1,1142:1:1,1344:1:1,1600:2:1,2048:2:1,2176:2:1,2304:2:1,2400:2:1,2560:2:1,2600:2:1,2816:4:1,3000:4:1,3500:4:1,4096:4:1
opt() { case $1 in base) echo "";; lvl0) echo "--ptxas-options=--register-usage-level=0";; lvl6) echo "--ptxas-options=--register-usage-level=6";; esac; }
run() {  # label [reference]
  GPUSEQ_PROBE_PTXAS="$(opt $1)" GPUSEQ_CACHE_DIR=/tmp/kc-$1 PYTHONPATH=$PWD/.carry/w67:/tmp/site \
    timeout 200 python3 $R/vitab.py $1 /tmp/$1.npz ${2:-} 2>&1 | grep -v Warn
}
{ run base
  for v in lvl0 lvl6 base lvl0 lvl6; do run $v /tmp/base.npz; done
} | tee $OUT/usage-level-2.log
for v in base lvl0 lvl6; do
  GPUSEQ_PROBE_PTXAS="$(opt $v)" GPUSEQ_CACHE_DIR=/tmp/kc-$v PYTHONPATH=$PWD/.carry/w67:/tmp/site \
    timeout 150 python3 benchmarks/bench_hmm_filters.py --filters ssv,msv \
    --models 50,100,150,200,224,300,400,800,1142,1200,1600,2048,2400,3000 \
    --cpu-residues 0 --repeat 3 --pfam-models "" --out /tmp/ssvmsv-$v.json > $OUT/ssv-msv-$v-2.log 2>&1
done
