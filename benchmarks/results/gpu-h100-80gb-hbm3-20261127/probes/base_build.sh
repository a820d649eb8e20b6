rm -f /tmp/base.done; rm -rf /tmp/base-src && mkdir -p /tmp/base-src && git ls-files -z | xargs -0 cp --parents -t /tmp/base-src
cp .carry/base/viterbi_fused.cuh /tmp/base-src/cuda/hmm/; cp .carry/base/gpu_filters.cu /tmp/base-src/cuda/hmm/
t=$(date +%s)
(cd /tmp/base-src && PYTHONPATH=/tmp/site python3 -m pip install -q --no-build-isolation --no-deps --target /tmp/gpuseq-base --upgrade \
  -Ccmake.define.GPUSEQ_CUDA=ON -Ccmake.define.CMAKE_CUDA_ARCHITECTURES=90a -Cbuild-dir=/tmp/gpuseq-base-build . > /tmp/build-base.log 2>&1) && echo "base build ok $(( $(date +%s) - t )) s" > /tmp/base.done || echo "base build FAILED" > /tmp/base.done
