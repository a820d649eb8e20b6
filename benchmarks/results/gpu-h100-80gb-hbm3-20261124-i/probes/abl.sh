#!/usr/bin/env bash
# Build HEAD (.carry/head.tar) beside the working tree's build, then alternate lay_probe.py.
export PYTHONUNBUFFERED=1
mkdir -p /tmp/headsrc && tar xf .carry/head.tar -C /tmp/headsrc
(cd /tmp/headsrc && python3 -m pip install -q --no-build-isolation --no-deps --target /tmp/gpuseq-head \
  -Ccmake.define.GPUSEQ_CUDA=ON -Ccmake.define.CMAKE_CUDA_ARCHITECTURES=90a -Cbuild-dir=/tmp/gpuseq-build-head . > /tmp/build-head.log 2>&1; echo "head built rc=$?")
for r in 1 2; do
  for v in "" -head; do echo "== build [$v] round $r"; PYTHONPATH=/tmp/gpuseq$v:/tmp/site python3 .carry/lay_probe.py 2>&1 | grep -v Warn; done
done
