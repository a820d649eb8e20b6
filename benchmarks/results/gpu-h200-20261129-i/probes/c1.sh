# Session 59, call 1: the change two warps up to M = 2816 (.carry/w72: bf150c4 with
# ../gpu-h200-20261129-h/probes/two-warps-to-2816.patch): every cuda-marked test, memcheck and
# racecheck of the fused section beside them, bench_hmm_filters' Viterbi rows about the new
# bound. Then three warps a target at ptxas's register usage level 0 (.carry/w73: w72 with
# probes/probe-on-landing.patch) against the four warps chosen from M = 2817.
set -uo pipefail
export PYTHONUNBUFFERED=1
S0=$(date +%s)
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > $OUT/device-1.txt
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples"
R=benchmarks/results/gpu-h200-20261129-i/probes
L0="--ptxas-options=--register-usage-level=0 -DGPUSEQ_PTXAS_REGISTER_USAGE_LEVEL=0"
MS="2880 3000 3072 3264 3456 3648 3840 4096"
BASE=""; W3=""
for m in $MS; do BASE="$BASE${BASE:+,}$m:4:1"; W3="$W3${W3:+,}$m:3:1"; done
BASE="$BASE,3000:3:1"
# Fill the probe's kernel caches beside the tests (CPU only).
( for v in "base||$BASE" "w3l0|$L0|$W3"; do echo "$v"; done | xargs -P 2 -I{} bash -c 'IFS="|" read -r l o c <<< "{}"; GPUSEQ_PROBE_PTXAS="$o" GPUSEQ_CACHE_DIR=/tmp/kc-$l PYTHONPATH='$PWD'/.carry/w73:/tmp/site CASES="$c" timeout 280 python3 '$R'/../../gpu-h200-20261129-h/probes/warm.py 2>&1 | grep -v Warn | tail -2; echo "warm $l rc $?"' > $OUT/warm-1.log 2>&1 ) &
export PYTHONPATH=$PWD/.carry/w72:/tmp/site
( GPUSEQ_CACHE_DIR=/tmp/kc-m SECTIONS=fused timeout 300 compute-sanitizer --tool memcheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/memcheck-fused-1.log 2>&1; echo "memcheck rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc-1.txt ) &
( GPUSEQ_CACHE_DIR=/tmp/kc-r SECTIONS=fused timeout 300 compute-sanitizer --tool racecheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/racecheck-fused-1.log 2>&1; echo "racecheck rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc-1.txt ) &
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 300 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests > $OUT/pytest-cuda-1.log 2>&1; echo "pytest rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc-1.txt
wait
cat $OUT/rc-1.txt $OUT/warm-1.log; tail -2 $OUT/pytest-cuda-1.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-cuda-1.log | head
GPUSEQ_CACHE_DIR=/tmp/kc-b timeout 120 python3 benchmarks/bench_hmm_filters.py --filters viterbi \
  --models 2560,2688,2689,2816,2817,3000 --pfam-models "" --thread-models 24 \
  --cpu-residues 0 --repeat 3 --examples .carry/hmmer/examples --out $OUT/bench_viterbi-1.json 2>&1 | grep -v Warn > $OUT/bench_viterbi-1.log
echo "bench rc $? at $(( $(date +%s) - S0 )) s"; grep -iE "gcups|tcups|M " $OUT/bench_viterbi-1.log | head -20
run() {
  GPUSEQ_PROBE_PTXAS="$2" GPUSEQ_CACHE_DIR=/tmp/kc-$1 PYTHONPATH=$PWD/.carry/w73:/tmp/site CASES="$3" \
    timeout 90 python3 $R/../../gpu-h200-20261129-h/probes/vitab.py $1 /tmp/$1.npz ${4:-} 2>&1 | grep -v Warn
}
{ run base "" $BASE; run w3l0 "$L0" $W3; } | tee $OUT/three-warps-1.log
echo "done at $(( $(date +%s) - S0 )) s"
python3 - <<'PY' | tee -a $OUT/three-warps-1.log
import numpy as np
b, t = np.load("/tmp/base.npz"), np.load("/tmp/w3l0.npz")
for k in t.files:
    m = k.split("-")[0]
    print(f"M {m}: three warps at level 0 equal four warps' scores: {np.array_equal(t[k], b[m + '-4-1'], equal_nan=True)}")
PY
