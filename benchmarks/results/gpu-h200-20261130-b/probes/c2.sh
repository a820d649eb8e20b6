# Session 65, call 2: .carry/w91 (dba61f6: the Forward bound lets a NaN P through): the model
# fuzzing past CI's examples on the GPU backend (10 processes, 250 s, seeds 1-10), and beside
# it the files that failed in call 1 and the GPU filter tests.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
export PYTHONPATH=$PWD/.carry/w91:/tmp/site:$PWD/tests
python3 -c 'import gpuseq, json; print(json.dumps(gpuseq.build_info()))' | tee $OUT/build-info-2.txt
t=$(date +%s)
for s in $(seq 1 10); do
  ( GPUSEQ_CACHE_DIR=/tmp/kc-f$s timeout 300 python3 -W ignore benchmarks/results/gpu-h200-20261130-b/probes/fuzz_hmm_gpu.py $s 250 > $OUT/fuzz-2-$s.log 2>&1 ) &
done
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 400 python3 -m pytest -n 5 -q -ra -p no:cacheprovider tests/test_fuzz.py tests/test_hmmsearch.py tests/test_text_output.py tests/test_forward_bound.py tests/test_gpu_filters.py > $OUT/pytest-2.log 2>&1
echo "pytest rc $? after $(( $(date +%s) - t )) s"; tail -1 $OUT/pytest-2.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-2.log | head -30
wait; echo "fuzz done after $(( $(date +%s) - t )) s"; tail -q -n 1 $OUT/fuzz-2-*.log; grep -h "example" $OUT/fuzz-2-*.log | head -20
