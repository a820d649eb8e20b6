#!/usr/bin/env bash
# Device-side driver (session 33): wheels, build, then optional TESTS, SAN, PROBE, BLAST_ARGS.
set -uo pipefail
R=$OUT/${TAG:-run}; mkdir -p $R
export PYTHONUNBUFFERED=1
nvidia-smi -L | tee $R/device.txt
python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
export PYTHONPATH=/tmp/site
mkdir -p /tmp/blastpkg && [ -x /tmp/blastpkg/bin/blastp ] || tar xJf .carry/blast.tar.xz -C /tmp
export PATH=/tmp/blastpkg/bin:$PWD/.carry/hmmer/bin:$PATH LD_LIBRARY_PATH=/tmp/blastpkg/lib
t=$(date +%s)
python3 -m pip install -q --no-build-isolation --no-deps --target /tmp/gpuseq --upgrade \
  -Ccmake.define.GPUSEQ_CUDA=ON -Ccmake.define.CMAKE_CUDA_ARCHITECTURES=90a \
  -Cbuild-dir=/tmp/gpuseq-build . > $R/build.log 2>&1 || { tail -30 $R/build.log; exit 1; }
echo "build $(( $(date +%s) - t )) s"
export PYTHONPATH=/tmp/gpuseq:/tmp/site
python3 -c 'import gpuseq, json; print(json.dumps(gpuseq.build_info()))' | tee -a $R/build.log
if [ -n "${TESTS:-}" ]; then
  timeout ${TEST_S:-300} python3 -m pytest -q -ra -p no:cacheprovider $TESTS > $R/pytest.log 2>&1
  echo "pytest rc $?"; tail -15 $R/pytest.log
fi
for tool in ${SAN:-}; do
  timeout ${SAN_S:-300} compute-sanitizer --tool $tool --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $R/$tool.log 2>&1
  echo "$tool rc $?"; tail -3 $R/$tool.log
done
if [ -n "${PROBE:-}" ]; then
  timeout ${PROBE_S:-300} python3 $PROBE > $R/probe.log 2>&1; echo "probe rc $?"; tail -30 $R/probe.log
fi
if [ -n "${BLAST_ARGS:-}" ]; then
  timeout ${BLAST_S:-500} python3 benchmarks/bench_blastp.py --out $R/bench_blastp.json $BLAST_ARGS > $R/bench_blastp.log 2>&1
  echo "bench rc $?"; tail -25 $R/bench_blastp.log
fi
