#!/usr/bin/env bash
# One call on a GPU host without network: build gpuseq with CUDA, run every cuda-marked test
# and the CPU comparisons, compute-sanitizer on every GPU kernel, then the benchmarks asked for
# (DIST_BENCH_ARGS: bench_distance.py; FILTER_BENCH_ARGS: bench_hmm_filters.py; BENCH_ARGS:
# bench_hmmsearch.py; MRF_BENCH_ARGS: bench_mrf.py, whose peer needs a gco-wrapper wheel).
# Stops with a non-zero exit status at the first failure (build, pytest, a sanitizer, a
# benchmark); the logs written so far are kept.
# Carried in $CARRY (ignored by git; see benchmarks/README.md): wheels/*.whl (pyhmmer,
# bed-reader, cyvcf2, biopython for the host's Python), hmmer/bin (Debian's hmmsearch, hmmemit,
# hmmbuild: they need only libc), hmmer/examples (tutorial/ and testsuite/ of Debian's hmmer-examples).
# Evidence goes to one folder, $OUT/gpu-<device>-<commit>/ (OUT defaults to benchmarks/results,
# where the folder is committed): build.log (with the tensor-core instructions found in the
# SASS), pytest.log, memcheck.log, racecheck.log, and the benchmark JSON and logs. <commit> is
# the tree's own (benchmarks/provenance.py: git, or a source hash without .git).
set -uo pipefail
CARRY="${CARRY:-.carry}"
OUT="${OUT:-benchmarks/results}"
export PATH="$PWD/$CARRY/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/$CARRY/hmmer/examples"
export PYTHONUNBUFFERED=1 MPLBACKEND=Agg
nvidia-smi -L; python3 --version; echo "cores: $(nproc)"; grep -m1 "model name" /proc/cpuinfo

device=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 |
         tr '[:upper:]' '[:lower:]' | sed -E 's/^nvidia //; s/[^a-z0-9]+/-/g; s/-+$//')
LOGS="$OUT/gpu-${device:-nogpu}-$(python3 benchmarks/provenance.py --short)"
mkdir -p "$LOGS"
echo "logs: $LOGS"

fail() {  # fail LOG WHAT: show the end of the log, stop with status 1
  echo "FAILED: $2 (see $1)"; tail -40 "$1"; exit 1
}

python3 -m pip install -q --no-index --no-deps --target /tmp/site "$CARRY"/wheels/*.whl
export PYTHONPATH=/tmp/site
python3 benchmarks/provenance.py >"$LOGS/build.log"  # what is built: commit, source hash
python3 -m pip install -q --no-build-isolation --no-deps --target /tmp/gpuseq \
  -Ccmake.define.GPUSEQ_CUDA=ON -Cbuild-dir=/tmp/gpuseq-build . >>"$LOGS/build.log" 2>&1 ||
  fail "$LOGS/build.log" "build"
export PYTHONPATH=/tmp/gpuseq:/tmp/site
python3 -c 'import gpuseq, json; print(json.dumps(gpuseq.build_info()))' | tee -a "$LOGS/build.log"
echo "tensor-core instructions in the SASS:" >>"$LOGS/build.log"
cuobjdump -sass /tmp/gpuseq/gpuseq/_core*.so 2>/dev/null | grep -oE "\bBG?MMA[.A-Z0-9x]*" |
  sort | uniq -c | tee -a "$LOGS/build.log"

# Every cuda-marked test of the suite, then the CPU files that compare with the references.
# A CUDA build without a visible GPU would skip the cuda tests: that is a failure here.
PYTEST=(python3 -m pytest -q -ra -p no:cacheprovider)
{ echo "== ${PYTEST[*]} -m cuda tests/"; "${PYTEST[@]}" -m cuda tests/; } >"$LOGS/pytest.log" 2>&1 ||
  fail "$LOGS/pytest.log" "cuda-marked tests"
grep -qE "[0-9]+ skipped" "$LOGS/pytest.log" && fail "$LOGS/pytest.log" "cuda tests skipped"
CPU_TESTS=${TESTS:-tests/test_filters.py tests/test_profile.py tests/test_hmmsearch.py \
  tests/test_errors.py tests/test_fasta.py tests/test_distance.py tests/test_cli.py \
  tests/test_package.py tests/test_mrf.py}
{ echo "== ${PYTEST[*]} -m 'not cuda and not slow' $CPU_TESTS"
  "${PYTEST[@]}" -m "not cuda and not slow" $CPU_TESTS; } >>"$LOGS/pytest.log" 2>&1 ||
  fail "$LOGS/pytest.log" "CPU comparison tests"
echo "pytest ok"; grep -E "passed|failed" "$LOGS/pytest.log"

# Every GPU kernel under compute-sanitizer (memory errors, shared-memory races). Run whole,
# racecheck takes longer than a device call, so each section of the workload (the filters
# section a model length at a time: FILTER_M) is a process of its own, all side by side;
# $tool.log gathers their logs in order. SANITIZERS=memcheck runs one tool only.
PARTS="distances b1gemm warp_tables claims streams nvrtc walters slane fused mrf blast"
PARTS="$PARTS filters:3 filters:130 filters:700 filters:3000"
for tool in ${SANITIZERS:-memcheck racecheck}; do
  pids=()
  for part in $PARTS; do
    section=${part%%:*}; m=${part#*:}; [ "$m" = "$part" ] && m=3,130,700,3000
    SECTIONS=$section FILTER_M=$m GPUSEQ_CACHE_DIR=/tmp/gpuseq-kc-$tool-${part/:/-} \
      compute-sanitizer --tool $tool --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py \
      >"$LOGS/$tool-${part/:/-}.log" 2>&1 &
    pids+=($!)
  done
  status=0
  for pid in "${pids[@]}"; do wait "$pid" || status=1; done
  for part in $PARTS; do
    echo "== $part"; cat "$LOGS/$tool-${part/:/-}.log"; rm "$LOGS/$tool-${part/:/-}.log"
  done >"$LOGS/$tool.log"
  [ $status = 0 ] || fail "$LOGS/$tool.log" "compute-sanitizer $tool"
  echo "$tool ok"; grep -cE "SUMMARY: 0 (errors|hazards)" "$LOGS/$tool.log"
done

if [ -n "${DIST_BENCH_ARGS+x}" ]; then
  python3 benchmarks/bench_distance.py --out "$LOGS/bench_distance.json" $DIST_BENCH_ARGS \
    >"$LOGS/bench_distance.log" 2>&1 || fail "$LOGS/bench_distance.log" "bench_distance.py"
  tail -25 "$LOGS/bench_distance.log"
fi
if [ -n "${FILTER_BENCH_ARGS+x}" ]; then
  python3 benchmarks/bench_hmm_filters.py --out "$LOGS/bench_hmm_filters.json" $FILTER_BENCH_ARGS \
    >"$LOGS/bench_hmm_filters.log" 2>&1 || fail "$LOGS/bench_hmm_filters.log" "bench_hmm_filters.py"
  tail -40 "$LOGS/bench_hmm_filters.log"
fi
if [ -n "${BENCH_ARGS+x}" ]; then
  python3 benchmarks/bench_hmmsearch.py --examples-dir "$GPUSEQ_HMMER_EXAMPLES" \
    --workdir /tmp/bench --out "$LOGS/bench_hmmsearch.json" $BENCH_ARGS \
    >"$LOGS/bench_hmmsearch.log" 2>&1 || fail "$LOGS/bench_hmmsearch.log" "bench_hmmsearch.py"
  tail -30 "$LOGS/bench_hmmsearch.log"
fi
if [ -n "${MRF_BENCH_ARGS+x}" ]; then
  python3 benchmarks/bench_mrf.py --out "$LOGS/bench_mrf.json" $MRF_BENCH_ARGS \
    >"$LOGS/bench_mrf.log" 2>&1 || fail "$LOGS/bench_mrf.log" "bench_mrf.py"
  tail -40 "$LOGS/bench_mrf.log"
fi
echo "all passed; evidence in $LOGS"
