# Session 56, call 2: the split kernel's D->D words held in registers at 17-22 stripes a warp,
# with fewer transition stripes resident (GPUSEQ_SPLIT_HOLD_R = R; .carry/wP, the working tree
# with probes/probe-define.patch), against w57 (HEAD), alternated; M = 2048 (16 stripes, no
# change) and 3000 over two warps (24 stripes, no change) as controls.
set -uo pipefail
export PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $OUT/device-2.txt
S0=$(date +%s)
P=benchmarks/results/gpu-h200-20261129-f/probes/splitchain.py
export CASES=2048:2,2176:2,2400:2,2600:2,2816:2,3000:2
run() {  # label wheel defines [reference]
  GPUSEQ_PROBE_DEFINE="$3" GPUSEQ_CACHE_DIR=/tmp/kc-$1 PYTHONPATH=$PWD/.carry/$2:/tmp/site \
    timeout 150 python3 $P $1 /tmp/$1.npz ${4:-} 2>&1 | grep -v Warn
}
{ run head w57 ""
  for round in 1 2; do
    for R in 8 9 10; do run hold$R wP "GPUSEQ_SPLIT_HOLD_R=$R" /tmp/head.npz; done
    run head w57 "" /tmp/head.npz
  done; } | tee $OUT/split-hold-2.log
echo "done at $(( $(date +%s) - S0 )) s"
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples"
PYTHONPATH=$PWD/.carry/wP:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 200 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda \
  tests/test_gpu_viterbi_fused.py -k "split or warps_per_target" > $OUT/pytest-split-2.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; tail -2 $OUT/pytest-split-2.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-split-2.log | head
