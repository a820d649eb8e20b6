# Session 56, call 1: the split Viterbi kernel's D->D chain from per-stripe sums
# (.carry/wP: the working tree with probes/probe-define.patch; GPUSEQ_SPLIT_CHAIN 0 serial as
# HEAD, 1 the carry from sums, 2 the D out of each half and the carry from sums). Its split
# tests, then w57 (HEAD) and wP's three modes on probes/splitchain.py, alternated.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $OUT/device-1.txt
S0=$(date +%s)
PYTHONPATH=$PWD/.carry/wP:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 200 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda \
  tests/test_gpu_viterbi_fused.py -k "split or warps_per_target" > $OUT/pytest-split-1.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; tail -2 $OUT/pytest-split-1.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-split-1.log | head
P=benchmarks/results/gpu-h200-20261129-f/probes/splitchain.py
run() {  # label wheel mode
  GPUSEQ_PROBE_DEFINE=GPUSEQ_SPLIT_CHAIN=$3 GPUSEQ_CACHE_DIR=/tmp/kc-$1 PYTHONPATH=$PWD/.carry/$2:/tmp/site \
    timeout 150 python3 $P $1 /tmp/$1.npz ${4:-} 2>&1 | grep -v Warn
}
{ run head w57 0; run chain2 wP 2 /tmp/head.npz; run chain1 wP 1 /tmp/head.npz; run chain0 wP 0 /tmp/head.npz
  run head w57 0 /tmp/head.npz; run chain2 wP 2 /tmp/head.npz; } | tee $OUT/split-chain-1.log
echo "done at $(( $(date +%s) - S0 )) s"
