# Session 73, call 2: .carry/w111 (c7717a7's module: this session's blastp fixes). The random
# blastp case call 1 found on the GPU (seed 10150132; probes/case_10150132.py, its inputs in
# .carry/case); the cuda-marked blastp, FASTA and random-command tests; then random blastp
# (4 processes) and hmmsearch (2) commands on the GPU to the call's end, seeds not drawn.
set -uo pipefail
S0=$(date +%s)
R=benchmarks/results/gpu-h200-20261201-b/probes
tar xJf .carry/w111.tar.xz -C /tmp
[ -x /tmp/blastpkg/bin/blastp ] || tar xJf .carry/blast.tar.xz -C /tmp
mkdir -p /tmp/blastpkg/wrap
for p in blastp makeblastdb; do
  printf '#!/bin/sh\nLD_LIBRARY_PATH=/tmp/blastpkg/lib exec /tmp/blastpkg/bin/%s "$@"\n' $p > /tmp/blastpkg/wrap/$p
  chmod +x /tmp/blastpkg/wrap/$p; done
[ -d /tmp/site1 ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site1 .carry/wheels/*.whl 2>&1 | tail -2
export PATH="/tmp/blastpkg/wrap:$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
export PYTHONPATH=/tmp/w111:/tmp/site1:$PWD/tests
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $OUT/device-2.txt; nproc >> $OUT/device-2.txt
mkdir -p $OUT/case-2
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 150 python3 -W ignore $R/case_10150132.py .carry/case/s10150132 $OUT/case-2 > $OUT/case-2.log 2>&1
echo "case rc $? at $(( $(date +%s) - S0 )) s"; cat $OUT/case-2.log | head -60
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 200 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests/test_blast_cuda.py tests/test_random_commands.py tests/test_blastp_api.py tests/test_fasta.py tests/test_cli.py > $OUT/pytest-2.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; grep -E "passed|failed" $OUT/pytest-2.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-2.log | head
O=/tmp/o2; mkdir -p $O; SECS=$(( 560 - $(date +%s) + S0 - 30 )); echo "fuzzing for $SECS s"
for s in 10170000 10180000 10190000 10210000; do
  GPUSEQ_CACHE_DIR=/tmp/kc-f timeout $(( SECS + 60 )) python3 -W ignore benchmarks/results/gpu-h200-20261130-g/probes/seeds.py blastp cuda $s 1 $SECS > $O/seeds-blastp-cuda-$s.log 2>&1 &
done
for s in 10270000 10280000; do
  GPUSEQ_CACHE_DIR=/tmp/kc-f timeout $(( SECS + 60 )) python3 -W ignore benchmarks/results/gpu-h200-20261130-g/probes/seeds.py hmmsearch cuda $s 1 $SECS > $O/seeds-hmmsearch-cuda-$s.log 2>&1 &
done
wait; echo "ended at $(( $(date +%s) - S0 )) s"
tail -q -n 1 $O/*.log; grep -h -A8 "FAILED" $O/*.log | grep -v "^  File\|^    " | head -30
tar -C $O -czf $OUT/fuzz-2.tar.gz . ; tar -C /tmp -czf $OUT/failed-2.tar.gz $(cd /tmp && ls -d seeds-*/s* 2>/dev/null) 2>/dev/null
ls -la $OUT
