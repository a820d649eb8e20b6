# Session 52, call 3: the fused Viterbi kernels without their copy for targets of 5e7 residues
# or more (.carry/wNew2) against the tree before (.carry/wNew): the profiles' making with an
# empty NVRTC cache (the compilations timed) and GCUPS, two rounds alternated; then the fused
# kernel's GPU tests.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
P=benchmarks/results/gpu-h200-20261129-b/probes
for r in 0 1; do
  order="wNew wNew2"; [ $r = 1 ] && order="wNew2 wNew"
  for w in $order; do
    GPUSEQ_CACHE_DIR=/tmp/kc3-$w-$r PYTHONPATH=$PWD/.carry/$w:/tmp/site timeout 150 \
      python3 $P/vab.py $w-$r 2>&1 | grep -v Warn | tee -a $OUT/vab-3.log
  done
done
export PYTHONPATH=$PWD/.carry/wNew2:/tmp/site
GPUSEQ_CACHE_DIR=/tmp/kc-tests3 timeout 210 python3 -m pytest -q -n 8 -m cuda -p no:cacheprovider \
  tests/test_gpu_viterbi_fused.py > $OUT/pytest-fused-3.log 2>&1
echo "pytest rc $?"; tail -n 3 $OUT/pytest-fused-3.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-fused-3.log | head -20
