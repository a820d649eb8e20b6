# A/B: the tree at 011de5b's fused-Viterbi headers (before this session's commit 018050d) vs this tree.
t=$(date +%s)
rm -rf /tmp/base-src && mkdir -p /tmp/base-src && git ls-files -z | xargs -0 cp --parents -t /tmp/base-src
cp .carry/base/viterbi_fused.cuh .carry/base/warp_lanes.cuh /tmp/base-src/cuda/hmm/
(cd /tmp/base-src && PYTHONPATH=/tmp/site python3 -m pip install -q --no-build-isolation --no-deps --target /tmp/gpuseq-base --upgrade \
  -Ccmake.define.GPUSEQ_CUDA=ON -Ccmake.define.CMAKE_CUDA_ARCHITECTURES=90a -Cbuild-dir=/tmp/gpuseq-base-build . > $OUT/build-base.log 2>&1) || tail -20 $OUT/build-base.log
echo "base build $(( $(date +%s) - t )) s"
for round in 1 2; do
  echo "== base (011de5b headers), round $round"; XDG_CACHE_HOME=/tmp/cache-base PYTHONPATH=/tmp/gpuseq-base:/tmp/site timeout 150 python3 .carry/vit_ab.py
  echo "== this tree (018050d), round $round"; PYTHONPATH=/tmp/gpuseq:/tmp/site timeout 150 python3 .carry/vit_ab.py
done
