# Session 74, call 3: .carry/w113 (fa7cfa4: `gpuseq blastp` ends by os._exit as hmmsearch does;
# the HMM parse errors' model names). The cuda-marked tests of the changed and new code (the
# model files in every form; blastp's quick end; the CLI, errors and streaming tests); then
# blastp's quick end against the teardown, whole commands alternated (probes/quick_end.py: the
# blastp benchmark's database of 300,000 subjects, and session 73's seed 10210280); then random
# blastp commands on the GPU to the call's end.
set -uo pipefail
S0=$(date +%s); LIMIT=${LIMIT:-400}
tar xJf .carry/w113.tar.xz -C /tmp
[ -x /tmp/blastpkg/bin/blastp ] || tar xJf .carry/blast.tar.xz -C /tmp
mkdir -p /tmp/blastpkg/wrap
for p in blastp makeblastdb; do
  printf '#!/bin/sh\nLD_LIBRARY_PATH=/tmp/blastpkg/lib exec /tmp/blastpkg/bin/%s "$@"\n' $p > /tmp/blastpkg/wrap/$p
  chmod +x /tmp/blastpkg/wrap/$p; done
[ -d /tmp/site1 ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site1 .carry/wheels/*.whl 2>&1 | tail -2
export PATH="/tmp/blastpkg/wrap:$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
export PYTHONPATH=/tmp/w113:/tmp/site1:$PWD/tests
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $OUT/device-3.txt; nproc >> $OUT/device-3.txt
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 150 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests/test_formats.py tests/test_blastp_api.py tests/test_cli.py tests/test_errors.py tests/test_hmmsearch_streaming.py > $OUT/pytest-3.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; grep -E "passed|failed" $OUT/pytest-3.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-3.log | head
GPUSEQ_CACHE_DIR=/tmp/kc-q timeout 150 python3 benchmarks/results/gpu-h200-20261201-c/probes/quick_end.py /tmp/qe 300000 6 .carry/case/s10210280 > $OUT/quick-end-3.log 2>&1
echo "quick_end rc $? at $(( $(date +%s) - S0 )) s"; cat $OUT/quick-end-3.log
export PYTHONFAULTHANDLER=1
rm -rf /tmp/seeds-*
O=/tmp/o3; mkdir -p $O; SECS=$(( LIMIT - $(date +%s) + S0 - 30 )); echo "fuzzing for $SECS s"
if [ $SECS -gt 30 ]; then
for s in 11210000 11240000 11250000 11260000 11270000 11280000; do
  GPUSEQ_CACHE_DIR=/tmp/kc-f timeout $(( SECS + 40 )) python3 -W ignore benchmarks/results/gpu-h200-20261130-g/probes/seeds.py blastp cuda $s 1 $SECS > $O/seeds-blastp-cuda-$s.log 2>&1 &
done
wait; fi; echo "ended at $(( $(date +%s) - S0 )) s"
tail -q -n 1 $O/*.log; grep -h -A14 "FAILED" $O/*.log | grep -v "^  File\|^    " | cut -c1-1500 | head -40
tar -C $O -czf $OUT/fuzz-3.tar.gz . ; tar -C /tmp -czf $OUT/failed-3.tar.gz $(cd /tmp && grep -l FAILED $O/*.log >/dev/null 2>&1; ls -d seeds-*/s* 2>/dev/null) 2>/dev/null
ls -la $OUT
