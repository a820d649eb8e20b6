# Session 56, call 4: the split kernel with its D->D words held and resident stripes by count
# (12 at 17-18 stripes a warp, 10 at 19-21, 9 at 22: call 3's best), its exchange records
# packed into one 16-byte store and load a warp (GPUSEQ_SPLIT_PACKED 1) or not (0), against w57
# (HEAD), two rounds; then wP's split tests with the defaults (packed).
set -uo pipefail
export PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
S0=$(date +%s)
P=benchmarks/results/gpu-h200-20261129-f/probes/splitchain.py
export CASES=1600:2,2048:2,2176:2,2304:2,2400:2,2560:2,2600:2,2816:2,3000:4,3500:4,4096:4
run() {  # label wheel defines [reference]
  GPUSEQ_PROBE_DEFINE="$3" GPUSEQ_CACHE_DIR=/tmp/kc-$1 PYTHONPATH=$PWD/.carry/$2:/tmp/site \
    timeout 150 python3 $P $1 /tmp/$1.npz ${4:-} 2>&1 | grep -v Warn
}
{ run head w57 ""
  for round in 1 2; do
    run packed0 wP "GPUSEQ_SPLIT_PACKED=0" /tmp/head.npz
    run packed1 wP "" /tmp/head.npz
    [ $round = 1 ] && run head w57 "" /tmp/head.npz
  done; } | tee $OUT/split-packed-4.log
echo "done at $(( $(date +%s) - S0 )) s"
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples"
PYTHONPATH=$PWD/.carry/wP:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 200 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda \
  tests/test_gpu_viterbi_fused.py -k "split or warps_per_target" > $OUT/pytest-split-4.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; tail -2 $OUT/pytest-split-4.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-split-4.log | head
