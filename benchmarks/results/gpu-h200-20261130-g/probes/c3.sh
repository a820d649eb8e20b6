# Session 70, call 3: .carry/w104 (c0d48f7's module: --tformat on a pipe reads gzip) with
# ecd98e3's tests. test_formats.py (on the GPU here) and the cuda-marked random hmmsearch
# commands; then 8 processes of seeds.py hmmsearch on the GPU (targets also EMBL or GenBank,
# with --tformat or detected), new seeds.
set -uo pipefail
S0=$(date +%s)
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --target /tmp/site3 .carry/wheels/*.whl 2>&1 | tail -2
export PYTHONPATH=$PWD/.carry/w104:/tmp/site3:$PWD/tests
P=benchmarks/results/gpu-h200-20261130-g/probes
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 150 python3 -m pytest -n 8 -q -ra -p no:cacheprovider tests/test_formats.py "tests/test_random_commands.py::test_random_hmmsearch_command_equals_hmmsearch" > $OUT/pytest-3.log 2>&1
echo "pytest at $(( $(date +%s) - S0 )) s"; grep -E "passed|failed" $OUT/pytest-3.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-3.log | head
O=/tmp/o3; mkdir -p $O; SECS=$(( 470 - $(date +%s) + S0 )); echo "fuzzing for $SECS s"
for k in 11 12 13 14 15 16 17 18; do
  GPUSEQ_CACHE_DIR=/tmp/kc-f timeout $(( SECS + 60 )) python3 -W ignore $P/seeds.py hmmsearch cuda $(( k * 100000 )) 1 $SECS > $O/seeds-hmmsearch-cuda-$k.log 2>&1 &
done
wait; echo "fuzzing ended at $(( $(date +%s) - S0 )) s"
tail -q -n 1 $O/*.log; grep -h "FAILED\|Traceback" $O/*.log | head -20
tar -C $O -czf $OUT/fuzz-3.tar.gz . ; tar -C /tmp -czf $OUT/failed-3.tar.gz $(cd /tmp && ls -d seeds-*/s* 2>/dev/null) 2>/dev/null
ls -la $OUT
