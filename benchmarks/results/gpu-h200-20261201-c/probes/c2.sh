# Session 74, call 2: .carry/w112 again. Random blastp (7 processes) and hmmsearch (5) commands
# on the GPU for the whole call, faulthandler on, seeds no session drew.
set -uo pipefail
S0=$(date +%s)
[ -d /tmp/w112 ] || tar xJf .carry/w112.tar.xz -C /tmp
[ -x /tmp/blastpkg/bin/blastp ] || tar xJf .carry/blast.tar.xz -C /tmp
mkdir -p /tmp/blastpkg/wrap
for p in blastp makeblastdb; do
  printf '#!/bin/sh\nLD_LIBRARY_PATH=/tmp/blastpkg/lib exec /tmp/blastpkg/bin/%s "$@"\n' $p > /tmp/blastpkg/wrap/$p
  chmod +x /tmp/blastpkg/wrap/$p; done
[ -d /tmp/site1 ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site1 .carry/wheels/*.whl 2>&1 | tail -2
export PATH="/tmp/blastpkg/wrap:$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
export PYTHONPATH=/tmp/w112:/tmp/site1:$PWD/tests PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $OUT/device-2.txt; nproc >> $OUT/device-2.txt
rm -rf /tmp/seeds-*
O=/tmp/o2; mkdir -p $O; SECS=$(( 565 - $(date +%s) + S0 - 30 )); echo "fuzzing for $SECS s"
for s in 11010000 11040000 11050000 11060000 11070000 11080000 11090000; do
  GPUSEQ_CACHE_DIR=/tmp/kc-f timeout $(( SECS + 60 )) python3 -W ignore benchmarks/results/gpu-h200-20261130-g/probes/seeds.py blastp cuda $s 1 $SECS > $O/seeds-blastp-cuda-$s.log 2>&1 &
done
for s in 11110000 11140000 11150000 11160000 11170000; do
  GPUSEQ_CACHE_DIR=/tmp/kc-f timeout $(( SECS + 60 )) python3 -W ignore benchmarks/results/gpu-h200-20261130-g/probes/seeds.py hmmsearch cuda $s 1 $SECS > $O/seeds-hmmsearch-cuda-$s.log 2>&1 &
done
wait; echo "ended at $(( $(date +%s) - S0 )) s"
tail -q -n 1 $O/*.log; grep -h -A14 "FAILED" $O/*.log | grep -v "^  File\|^    " | cut -c1-1500 | head -40
tar -C $O -czf $OUT/fuzz-2.tar.gz . ; tar -C /tmp -czf $OUT/failed-2.tar.gz $(cd /tmp && ls -d seeds-*/s* 2>/dev/null) 2>/dev/null
ls -la $OUT
