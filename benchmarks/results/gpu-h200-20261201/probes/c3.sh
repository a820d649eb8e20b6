# Session 72, call 3: .carry/w109 (93f3b8c: hmmsearch's option values as hmmsearch reads them,
# thread counts, blastp's end gap runs stripped) with NCBI BLAST+ 2.12. The CLI, error, blastp
# GPU and random-command tests on both backends (the kept seeds and the new option values among
# them); then, to the call's end, the random commands on the GPU, seeds not drawn: hmmsearch
# (3 processes, now with filter thresholds of any real and negative scores) and blastp (3).
set -uo pipefail
S0=$(date +%s)
tar xJf .carry/w109.tar.xz -C /tmp
[ -x /tmp/blastpkg/bin/blastp ] || tar xJf .carry/blast.tar.xz -C /tmp
mkdir -p /tmp/blastpkg/wrap
for p in blastp makeblastdb; do
  printf '#!/bin/sh\nLD_LIBRARY_PATH=/tmp/blastpkg/lib exec /tmp/blastpkg/bin/%s "$@"\n' $p > /tmp/blastpkg/wrap/$p
  chmod +x /tmp/blastpkg/wrap/$p; done
python3 -m pip install -q --no-index --no-deps --target /tmp/site3 .carry/wheels/*.whl 2>&1 | tail -2
export PATH="/tmp/blastpkg/wrap:$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
export PYTHONPATH=/tmp/w109:/tmp/site3:$PWD/tests
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $OUT/device-3.txt; nproc >> $OUT/device-3.txt
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 240 python3 -m pytest -n 8 -q -ra -p no:cacheprovider tests/test_cli.py tests/test_errors.py tests/test_blast_cuda.py tests/test_random_commands.py tests/test_gpu_filters.py > $OUT/pytest-3.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; grep -E "passed|failed" $OUT/pytest-3.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-3.log | head
O=/tmp/o3; mkdir -p $O; SECS=$(( 470 - $(date +%s) + S0 - 30 )); echo "fuzzing for $SECS s"
F=benchmarks/results/gpu-h200-20261130-g/probes/seeds.py
for k in 1 2 3; do
  GPUSEQ_CACHE_DIR=/tmp/kc-f timeout $(( SECS + 60 )) python3 -W ignore $F hmmsearch cuda $(( 9620000 + k * 20000 )) 1 $SECS > $O/seeds-hmmsearch-cuda-$k.log 2>&1 &
  GPUSEQ_CACHE_DIR=/tmp/kc-f timeout $(( SECS + 60 )) python3 -W ignore $F blastp cuda $(( 9720000 + k * 20000 )) 1 $SECS > $O/seeds-blastp-cuda-$k.log 2>&1 &
done
wait; echo "ended at $(( $(date +%s) - S0 )) s"
tail -q -n 1 $O/*.log; grep -h "FAILED\|Traceback" $O/*.log | head -20
tar -C $O -czf $OUT/fuzz-3.tar.gz . ; tar -C /tmp -czf $OUT/failed-3.tar.gz $(cd /tmp && ls -d seeds-*/s* 2>/dev/null) 2>/dev/null
ls -la $OUT
