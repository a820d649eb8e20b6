# Session 73, call 3: .carry/w111 again. Random blastp seed 10210280 (packed database, blastp's
# defaults, -num_threads 2) ended with a non-zero status and nothing on stderr once in call 2,
# on the GPU, among six fuzzers; the CPU passes it. Its command on the GPU 48 times, 6 at once
# (as in call 2), with faulthandler on (a crash prints its Python stack); then once under
# compute-sanitizer memcheck; then random blastp commands on the GPU (4 processes,
# faulthandler on) to the call's end.
set -uo pipefail
S0=$(date +%s)
tar xJf .carry/w111.tar.xz -C /tmp
[ -x /tmp/blastpkg/bin/blastp ] || tar xJf .carry/blast.tar.xz -C /tmp
mkdir -p /tmp/blastpkg/wrap
for p in blastp makeblastdb; do
  printf '#!/bin/sh\nLD_LIBRARY_PATH=/tmp/blastpkg/lib exec /tmp/blastpkg/bin/%s "$@"\n' $p > /tmp/blastpkg/wrap/$p
  chmod +x /tmp/blastpkg/wrap/$p; done
[ -d /tmp/site1 ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site1 .carry/wheels/*.whl 2>&1 | tail -2
export PATH="/tmp/blastpkg/wrap:$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
export PYTHONPATH=/tmp/w111:/tmp/site1:$PWD/tests GPUSEQ_CACHE_DIR=/tmp/kc-3
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $OUT/device-3.txt; nproc >> $OUT/device-3.txt
C=.carry/case/s10210280; mkdir -p $OUT/repeat-3
blastp -db $C/db -query $C/q.fa -outfmt "6 std qlen slen score" -num_threads 2 > /tmp/ref.tsv 2>/dev/null
one() {  # one: run i, its status and whether its rows equal blastp's
  python3 -m gpuseq.cli blastp -db $C/db.gsdb -query $C/q.fa -outfmt "6 std qlen slen score" -num_threads 2 --backend cuda > /tmp/r$1.tsv 2> $OUT/repeat-3/stderr-$1.txt
  rc=$?; cmp -s /tmp/r$1.tsv /tmp/ref.tsv && same=same || same=DIFFERS; echo "run $1 rc $rc $same"
}
for g in 0 1 2 3 4 5 6 7; do
  for k in 0 1 2 3 4 5; do one $(( g * 6 + k )) & done; wait
done > $OUT/repeat-3.log
sort -k4 $OUT/repeat-3.log | awk '{print $4, $5}' | uniq -c; grep -v "rc 0 same" $OUT/repeat-3.log | head
for f in $OUT/repeat-3/stderr-*.txt; do [ -s $f ] && { echo "== $f"; head -30 $f; }; done | head -60
echo "repeats done at $(( $(date +%s) - S0 )) s"
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 python3 -m gpuseq.cli blastp -db $C/db.gsdb -query $C/q.fa -outfmt "6 std qlen slen score" -num_threads 2 --backend cuda > /tmp/m.tsv 2> $OUT/memcheck-3.log
echo "memcheck rc $? at $(( $(date +%s) - S0 )) s"; grep -E "ERROR SUMMARY" $OUT/memcheck-3.log; cmp /tmp/m.tsv /tmp/ref.tsv && echo "memcheck run: rows equal blastp's"
O=/tmp/o3; mkdir -p $O; SECS=$(( 440 - $(date +%s) + S0 - 30 )); echo "fuzzing for $SECS s"
for s in 10510000 10520000 10540000 10550000; do
  timeout $(( SECS + 60 )) python3 -W ignore benchmarks/results/gpu-h200-20261130-g/probes/seeds.py blastp cuda $s 1 $SECS > $O/seeds-blastp-cuda-$s.log 2>&1 &
done
wait; echo "ended at $(( $(date +%s) - S0 )) s"
tail -q -n 1 $O/*.log; grep -h -A12 "FAILED" $O/*.log | grep -v "^  File\|^    " | cut -c1-1500 | head -40
tar -C $O -czf $OUT/fuzz-3.tar.gz . ; tar -C /tmp -czf $OUT/failed-3.tar.gz $(cd /tmp && ls -d seeds-*/s* 2>/dev/null) 2>/dev/null
