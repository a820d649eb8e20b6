# Session 65, call 6: .carry/w92: targets fuzzed on the GPU backend, the file whole, in small
# blocks and packed (fuzz_targets_gpu.py modes), 14 processes (seeds 11-24), 270 s.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
export PYTHONPATH=$PWD/.carry/w92:/tmp/site:$PWD/tests
P=benchmarks/results/gpu-h200-20261130-b/probes
mkdir -p /tmp/o6; t=$(date +%s)
for s in $(seq 11 24); do
  ( OUT=/tmp/o6 GPUSEQ_CACHE_DIR=/tmp/kc-g$s timeout 300 python3 -W ignore $P/fuzz_targets_gpu.py $s 270 > /tmp/o6/targets-6-$s.log 2>&1; echo "targets seed $s rc $?" >> /tmp/o6/rc-6.txt ) &
done
wait; echo "fuzz done after $(( $(date +%s) - t )) s"; sort -V /tmp/o6/rc-6.txt | tr '\n' ';'; echo
tail -q -n 1 /tmp/o6/targets-6-*.log; grep -h "example" /tmp/o6/targets-6-*.log | cut -c1-400 | head -20
tar -C /tmp/o6 -czf $OUT/call-6.tar.gz .
