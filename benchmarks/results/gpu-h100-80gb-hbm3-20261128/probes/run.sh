#!/usr/bin/env bash
# Device-side driver (session 38): wheels, build (skipped when /tmp/gpuseq holds this tree's
# build), then optional TESTS, SAN (tools) with SECTIONS, and CMDS (a file of commands).
set -uo pipefail
R=$OUT; mkdir -p $R
export PYTHONUNBUFFERED=1 GPUSEQ_HMMER_EXAMPLES=$PWD/.carry/hmmer/examples
export PATH=$PWD/.carry/hmmer/bin:$PATH
nvidia-smi -L | tee -a $R/device.txt
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
export PYTHONPATH=/tmp/site
h=$(find cpp cuda python CMakeLists.txt -type f | sort | xargs cat | md5sum | cut -c1-12)
if [ "$(cat /tmp/gpuseq.hash 2>/dev/null)" != "$h" ]; then
  t=$(date +%s)
  python3 -m pip install -q --no-build-isolation --no-deps --target /tmp/gpuseq --upgrade \
    -Ccmake.define.GPUSEQ_CUDA=ON -Ccmake.define.CMAKE_CUDA_ARCHITECTURES=90a \
    -Cbuild-dir=/tmp/gpuseq-build . > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
  echo "build $(( $(date +%s) - t )) s (tree $h)"; echo $h > /tmp/gpuseq.hash
else echo "build kept (tree $h)"; fi
export PYTHONPATH=/tmp/gpuseq:/tmp/site
python3 -c 'import gpuseq, json; print(json.dumps(gpuseq.build_info()))' | tee -a $R/device.txt
if [ -n "${TESTS:-}" ]; then
  t=$(date +%s)
  timeout ${TEST_S:-300} python3 -m pytest -q -ra -p no:cacheprovider $TESTS > $R/pytest${TAG:-}.log 2>&1
  echo "pytest rc $? $(( $(date +%s) - t )) s"; tail -8 $R/pytest${TAG:-}.log
fi
for tool in ${SAN:-}; do
  t=$(date +%s)
  timeout ${SAN_S:-300} compute-sanitizer --tool $tool --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $R/$tool${TAG:-}.log 2>&1
  echo "$tool rc $? $(( $(date +%s) - t )) s"; tail -3 $R/$tool${TAG:-}.log
done
if [ -n "${CMDS:-}" ]; then
  bash $CMDS 2>&1 | tee $R/cmds${TAG:-}.log | tail -${CMDS_TAIL:-60}
fi
