# Session 57, call 2: the fused and split Viterbi kernels with values in offset binary, only the adds
# that take no max (I->I, M->D, the emission) as IMAD (.carry/w61, the working tree) against HEAD (.carry/w59, 4fe9833's
# kernels), alternated, every case's scores compared with HEAD's; then the fused kernels' GPU
# tests on w61.
set -uo pipefail
export PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $OUT/device-2.txt
S0=$(date +%s)
P=benchmarks/results/gpu-h200-20261129-g/probes/vitab.py
export CASES=50:1:2,100:1:2,149:1:2,200:1:2,300:1:2,512:1:2,700:1:1,1024:1:1,1344:1:1,1600:2:1,2048:2:1,2304:2:1,2400:2:1,2560:2:1,2816:2:1,3000:4:1,3500:4:1
run() {  # label wheel [reference]
  GPUSEQ_CACHE_DIR=/tmp/kc-$1 PYTHONPATH=$PWD/.carry/$2:/tmp/site \
    timeout 200 python3 $P $1 /tmp/$1.npz ${3:-} 2>&1 | grep -v Warn
}
{ run head w59
  run hy w61 /tmp/head.npz
  run head2 w59 /tmp/head.npz
  run hy2 w61 /tmp/head.npz; } | tee $OUT/offset-binary-2.log
echo "probe done at $(( $(date +%s) - S0 )) s"
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples"
PYTHONPATH=$PWD/.carry/w61:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 240 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda \
  tests/test_gpu_viterbi_fused.py tests/test_gpu_nvrtc.py > $OUT/pytest-fused-2.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; tail -2 $OUT/pytest-fused-2.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-fused-2.log | head -20
