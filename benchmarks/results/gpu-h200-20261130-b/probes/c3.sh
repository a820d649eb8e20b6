# Session 65, call 3: .carry/w92 (3ffbed8: NUL bytes and non-ASCII consensus bytes in model
# files refused): models fuzzed on the GPU backend again (seeds 1-7 from the start, the
# examples that failed or crashed in call 2 among them), targets fuzzed (seeds 1-7), 230 s
# each, and beside them the error, fuzz and search tests.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
export PYTHONPATH=$PWD/.carry/w92:/tmp/site:$PWD/tests
P=benchmarks/results/gpu-h200-20261130-b/probes
t=$(date +%s)
for s in $(seq 1 7); do
  ( GPUSEQ_CACHE_DIR=/tmp/kc-f$s timeout 270 python3 -W ignore $P/fuzz_hmm_gpu.py $s 230 > $OUT/fuzz-3-$s.log 2>&1; echo "models seed $s rc $?" >> /tmp/rc-3.txt ) &
  ( GPUSEQ_CACHE_DIR=/tmp/kc-g$s timeout 270 python3 -W ignore $P/fuzz_targets_gpu.py $s 230 > $OUT/targets-3-$s.log 2>&1; echo "targets seed $s rc $?" >> /tmp/rc-3.txt ) &
done
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 300 python3 -m pytest -n 2 -q -ra -p no:cacheprovider tests/test_errors.py tests/test_fuzz.py > $OUT/pytest-3.log 2>&1
echo "pytest rc $? after $(( $(date +%s) - t )) s"; tail -1 $OUT/pytest-3.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-3.log | head -30
wait; echo "fuzz done after $(( $(date +%s) - t )) s"; sort /tmp/rc-3.txt | tr '\n' ';'; echo; tail -q -n 1 $OUT/fuzz-3-*.log $OUT/targets-3-*.log; grep -h "example" $OUT/fuzz-3-*.log $OUT/targets-3-*.log | cut -c1-400 | head -20
