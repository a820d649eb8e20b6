# Session 69, call 4: api_fuzz.py on .carry/w102 (a8a619f's module): 8 processes for 300 s,
# GPU searches (at times two at once in threads) against the CPU backend in process.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --target /tmp/site4 .carry/wh-min/*.whl 2>&1 | tail -2
export PYTHONPATH=$PWD/.carry/w102:/tmp/site4:$PWD/tests GPUSEQ_CACHE_DIR=/tmp/kc-f4
O=/tmp/o4; mkdir -p $O; t=$(date +%s)
for s in $(seq 401 408); do
  timeout 420 python3 -W ignore benchmarks/results/gpu-h200-20261130-f/probes/api_fuzz.py $s ${SECS:-300} > $O/afuzz-$s.log 2>&1 &
done
wait; echo "fuzzing ended after $(( $(date +%s) - t )) s"
tail -q -n 1 $O/afuzz-*.log; grep -h "DIFFERENT\|Error\|Traceback" $O/afuzz-*.log | head -20
tar -C $O -czf $OUT/afuzz-4.tar.gz .
