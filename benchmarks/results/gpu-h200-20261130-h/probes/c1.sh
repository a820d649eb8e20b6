# Session 71, call 1: .carry/w105 (db8fb7d, HEAD at the start: every fix of session 70
# after c0d48f7, none of them run on the device yet).
# Every cuda-marked test and the search tests; then 6 processes of seeds.py (the random
# hmmsearch commands on the GPU, seeds not drawn before) and 2 of session 69's api_fuzz.py.
set -uo pipefail
S0=$(date +%s)
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $OUT/device.txt; nproc >> $OUT/device.txt
python3 -m pip install -q --no-index --no-deps --target /tmp/site1 .carry/wheels/*.whl 2>&1 | tail -2
export PYTHONPATH=$PWD/.carry/w105:/tmp/site1:$PWD/tests
P=benchmarks/results/gpu-h200-20261130-g/probes
{ GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 280 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests
  GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 120 python3 -m pytest -n 8 -q -p no:cacheprovider tests/test_hmmsearch.py tests/test_hmmsearch_streaming.py tests/test_cli.py tests/test_large_search.py tests/test_random_commands.py; } > $OUT/pytest-1.log 2>&1
echo "pytest at $(( $(date +%s) - S0 )) s"; grep -E "passed|failed" $OUT/pytest-1.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-1.log | head
O=/tmp/o1; mkdir -p $O; SECS=$(( 540 - $(date +%s) + S0 - 40 )); echo "fuzzing for $SECS s"
for k in 1 2 3 4 5 6; do
  GPUSEQ_CACHE_DIR=/tmp/kc-f timeout $(( SECS + 60 )) python3 -W ignore $P/seeds.py hmmsearch cuda $(( k * 100000 + 20000 )) 1 $SECS > $O/seeds-hmmsearch-cuda-$k.log 2>&1 &
done
for s in 711 712; do
  GPUSEQ_CACHE_DIR=/tmp/kc-f timeout $(( SECS + 60 )) python3 -W ignore benchmarks/results/gpu-h200-20261130-f/probes/api_fuzz.py $s $SECS > $O/afuzz-$s.log 2>&1 &
done
wait; echo "fuzzing ended at $(( $(date +%s) - S0 )) s"
tail -q -n 1 $O/*.log; grep -h "FAILED\|DIFFER\|Traceback" $O/*.log | head -20
tar -C $O -czf $OUT/fuzz-1.tar.gz . ; tar -C /tmp -czf $OUT/failed-1.tar.gz $(cd /tmp && ls -d seeds-*/s* 2>/dev/null) 2>/dev/null
ls -la $OUT
