#!/usr/bin/env bash
# One call on a GPU host without network: build gpuseq with CUDA, run the cuda-marked tests and
# the CPU comparisons, compute-sanitizer on every GPU kernel, then the benchmarks asked for
# (DIST_BENCH_ARGS: bench_distance.py; BENCH_ARGS: bench_hmmsearch.py).
# Carried in $CARRY (ignored by git; see benchmarks/README.md): wheels/*.whl (pyhmmer,
# bed-reader, cyvcf2, biopython for the host's Python), hmmer/bin (Debian's hmmsearch, hmmemit,
# hmmbuild: they need only libc), hmmer/examples (tutorial/ and testsuite/ of Debian's hmmer-examples).
# Results go to $OUT (build log, pytest log, benchmark JSON and log).
set -uo pipefail
CARRY="${CARRY:-.carry}"
OUT="${OUT:-/tmp/gpuseq-out}"
mkdir -p "$OUT"
export PATH="$PWD/$CARRY/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/$CARRY/hmmer/examples"
export PYTHONUNBUFFERED=1 MPLBACKEND=Agg
nvidia-smi -L; python3 --version; echo "cores: $(nproc)"; grep -m1 "model name" /proc/cpuinfo

python3 -m pip install -q --no-index --no-deps --target /tmp/site "$CARRY"/wheels/*.whl
export PYTHONPATH=/tmp/site
if ! python3 -m pip install -q --no-build-isolation --no-deps --target /tmp/gpuseq \
     -Ccmake.define.GPUSEQ_CUDA=ON -Cbuild-dir=/tmp/gpuseq-build . >"$OUT/build.log" 2>&1; then
  tail -40 "$OUT/build.log"; exit 1
fi
export PYTHONPATH=/tmp/gpuseq:/tmp/site
python3 -c 'import gpuseq, json; print(json.dumps(gpuseq.build_info()))'

python3 -m pytest -q -ra -p no:cacheprovider ${TESTS:-tests/test_cuda.py tests/test_filters.py \
  tests/test_profile.py tests/test_hmmsearch.py tests/test_errors.py tests/test_fasta.py} \
  >"$OUT/pytest.log" 2>&1
echo "pytest exit $?"; tail -6 "$OUT/pytest.log"

# Every GPU kernel under compute-sanitizer (memory errors, shared-memory races).
for tool in memcheck racecheck; do
  compute-sanitizer --tool $tool --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py \
    >"$OUT/$tool.log" 2>&1
  echo "$tool exit $?"; tail -2 "$OUT/$tool.log"
done
cuobjdump -sass /tmp/gpuseq/gpuseq/_core*.so 2>/dev/null | grep -oE "\bBG?MMA[.A-Z0-9x]*" | sort | uniq -c

if [ -n "${DIST_BENCH_ARGS+x}" ]; then
  python3 benchmarks/bench_distance.py --out "$OUT/bench_distance.json" $DIST_BENCH_ARGS \
    >"$OUT/bench_distance.log" 2>&1
  echo "distance bench exit $?"; tail -25 "$OUT/bench_distance.log"
fi
if [ -n "${BENCH_ARGS+x}" ]; then
  python3 benchmarks/bench_hmmsearch.py --examples-dir "$GPUSEQ_HMMER_EXAMPLES" \
    --workdir /tmp/bench --out "$OUT/bench_hmmsearch.json" $BENCH_ARGS >"$OUT/bench.log" 2>&1
  echo "bench exit $?"; tail -22 "$OUT/bench.log"
fi
