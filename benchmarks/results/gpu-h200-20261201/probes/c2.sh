# Session 72, call 2: .carry/w108 (HEAD's C++ and package) with NCBI BLAST+ 2.12 (as
# ../gpu-h200-20261130-h/probes/c6.sh). Every cuda-marked test (the new random-case tests among
# them; none of the suite has run on 0697bd6 whole), then, to the call's end, the random blastp
# commands on the GPU (4 processes) and the random hmmsearch commands (2), seeds not drawn.
set -uo pipefail
S0=$(date +%s)
tar xJf .carry/w108.tar.xz -C /tmp
[ -x /tmp/blastpkg/bin/blastp ] || tar xJf .carry/blast.tar.xz -C /tmp
mkdir -p /tmp/blastpkg/wrap
for p in blastp makeblastdb; do
  printf '#!/bin/sh\nLD_LIBRARY_PATH=/tmp/blastpkg/lib exec /tmp/blastpkg/bin/%s "$@"\n' $p > /tmp/blastpkg/wrap/$p
  chmod +x /tmp/blastpkg/wrap/$p; done
python3 -m pip install -q --no-index --no-deps --target /tmp/site2 .carry/wheels/*.whl 2>&1 | tail -2
export PATH="/tmp/blastpkg/wrap:$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
export PYTHONPATH=/tmp/w108:/tmp/site2:$PWD/tests
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $OUT/device-2.txt; nproc >> $OUT/device-2.txt
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 300 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests > $OUT/pytest-2.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; grep -E "passed|failed" $OUT/pytest-2.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-2.log | head
O=/tmp/o2; mkdir -p $O; SECS=$(( 560 - $(date +%s) + S0 - 30 )); echo "fuzzing for $SECS s"
for k in 1 2 3 4; do
  GPUSEQ_CACHE_DIR=/tmp/kc-f timeout $(( SECS + 60 )) python3 -W ignore benchmarks/results/gpu-h200-20261130-g/probes/seeds.py blastp cuda $(( 9600000 + k * 20000 )) 1 $SECS > $O/seeds-blastp-cuda-$k.log 2>&1 &
done
for k in 5 6; do
  GPUSEQ_CACHE_DIR=/tmp/kc-f timeout $(( SECS + 60 )) python3 -W ignore benchmarks/results/gpu-h200-20261130-g/probes/seeds.py hmmsearch cuda $(( 9500000 + k * 20000 )) 1 $SECS > $O/seeds-hmmsearch-cuda-$k.log 2>&1 &
done
wait; echo "ended at $(( $(date +%s) - S0 )) s"
tail -q -n 1 $O/*.log; grep -h "FAILED\|Traceback" $O/*.log | head -20
tar -C $O -czf $OUT/fuzz-2.tar.gz . ; tar -C /tmp -czf $OUT/failed-2.tar.gz $(cd /tmp && ls -d seeds-*/s* 2>/dev/null) 2>/dev/null
ls -la $OUT
