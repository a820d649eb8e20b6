# Session 57, call 3: each pass of a thread's D->D chain in two parts side by side
# (dd_chain_split_at; .carry/w62, the working tree with probes/probe-define.patch, so that
# GPUSEQ_PROBE_DEFINE sets GPUSEQ_DD_SPLIT_FROM at run time: 1000 = one part as HEAD, 6 = the
# tree's default, 4), alternated twice, every case's scores compared with HEAD's (.carry/w59);
# then the fused kernels' GPU tests on w62 (its default).
set -uo pipefail
export PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $OUT/device-3.txt
S0=$(date +%s)
P=benchmarks/results/gpu-h200-20261129-g/probes/vitab.py
export CASES=50:1:2,100:1:2,149:1:2,200:1:2,300:1:2,512:1:2,700:1:1,1024:1:1,1344:1:1,1600:2:1,2048:2:1,2304:2:1,2400:2:1,2560:2:1,2816:2:1,3000:4:1,3500:4:1
run() {  # label wheel defines [reference]
  GPUSEQ_PROBE_DEFINE="$3" GPUSEQ_CACHE_DIR=/tmp/kc-$1 PYTHONPATH=$PWD/.carry/$2:/tmp/site \
    timeout 200 python3 $P $1 /tmp/$1.npz ${4:-} 2>&1 | grep -v Warn
}
{ run head w59 ""
  for round in 1 2; do
    run off w62 "GPUSEQ_DD_SPLIT_FROM=1000" /tmp/head.npz
    run split6 w62 "GPUSEQ_DD_SPLIT_FROM=6" /tmp/head.npz
    run split4 w62 "GPUSEQ_DD_SPLIT_FROM=4" /tmp/head.npz
  done; } | tee $OUT/dd-split-3.log
echo "probe done at $(( $(date +%s) - S0 )) s"
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples"
PYTHONPATH=$PWD/.carry/w62:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 240 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda \
  tests/test_gpu_viterbi_fused.py tests/test_gpu_nvrtc.py > $OUT/pytest-fused-3.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; tail -2 $OUT/pytest-fused-3.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-fused-3.log | head -20
