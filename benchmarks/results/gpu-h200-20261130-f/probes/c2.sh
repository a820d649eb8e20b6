# Session 69, call 2: blastp_fuzz.py with --backend cuda on .carry/w102 (a8a619f's module):
# 8 processes for 400 s, -num_threads 2 each. NCBI BLAST+ 2.12 carried from Debian's package
# (.carry/blast.tar.xz: the two programs and the libraries they load beyond libc and libstdc++).
set -uo pipefail
[ -x /tmp/blastpkg/bin/blastp ] || tar xJf .carry/blast.tar.xz -C /tmp
mkdir -p /tmp/blastpkg/wrap  # (the libraries for the two programs only, not for python3)
for p in blastp makeblastdb; do
  printf '#!/bin/sh\nLD_LIBRARY_PATH=/tmp/blastpkg/lib exec /tmp/blastpkg/bin/%s "$@"\n' $p > /tmp/blastpkg/wrap/$p
  chmod +x /tmp/blastpkg/wrap/$p; done
export PATH="/tmp/blastpkg/wrap:$PATH" PYTHONUNBUFFERED=1
blastp -version | head -1; makeblastdb -version | head -1
export PYTHONPATH=$PWD/.carry/w102:$PWD/tests GPUSEQ_CACHE_DIR=/tmp/kc-f2
O=/tmp/o2; mkdir -p $O; t=$(date +%s)
for s in $(seq 201 208); do
  timeout 480 python3 -W ignore benchmarks/results/gpu-h200-20261130-f/probes/blastp_fuzz.py $s ${SECS:-400} cuda 2 > $O/bfuzz-$s.log 2>&1 &
done
wait; echo "fuzzing ended after $(( $(date +%s) - t )) s"
tail -q -n 1 $O/bfuzz-*.log; grep -h "DIFFERENT\|Error\|Traceback" $O/bfuzz-*.log | head -20
for s in $(seq 201 208); do
  for d in /tmp/blastfuzz-$s/c*; do [ -f "$d/ours.tsv" ] || continue
    mkdir -p $O/cases/$s-$(basename $d); cp $d/q.fa $d/flags.txt $d/*.tsv $O/cases/$s-$(basename $d)/
    gzip -c $d/db.fa > $O/cases/$s-$(basename $d)/db.fa.gz; done
done
tar -C $O -czf $OUT/bfuzz-2.tar.gz .
ls -la $OUT
