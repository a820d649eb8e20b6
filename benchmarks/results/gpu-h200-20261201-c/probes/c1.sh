# Session 74, call 1: .carry/w112 (HEAD's module: c7717a7's C++, 2a1848c's ids and the random
# tests that print the status of a failed command). Every cuda-marked test; compute-sanitizer
# memcheck and racecheck of one blastp command on the GPU (session 73's seed 10210280, its
# reports to files this time); then random blastp (6 processes) and hmmsearch (4) commands on
# the GPU to the call's end, faulthandler on, seeds no session drew.
set -uo pipefail
S0=$(date +%s)
tar xJf .carry/w112.tar.xz -C /tmp
[ -x /tmp/blastpkg/bin/blastp ] || tar xJf .carry/blast.tar.xz -C /tmp
mkdir -p /tmp/blastpkg/wrap
for p in blastp makeblastdb; do
  printf '#!/bin/sh\nLD_LIBRARY_PATH=/tmp/blastpkg/lib exec /tmp/blastpkg/bin/%s "$@"\n' $p > /tmp/blastpkg/wrap/$p
  chmod +x /tmp/blastpkg/wrap/$p; done
[ -d /tmp/site1 ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site1 .carry/wheels/*.whl 2>&1 | tail -2
export PATH="/tmp/blastpkg/wrap:$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
export PYTHONPATH=/tmp/w112:/tmp/site1:$PWD/tests
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $OUT/device-1.txt; nproc >> $OUT/device-1.txt
python3 -c 'import gpuseq, json; print(json.dumps(gpuseq.build_info()))' >> $OUT/device-1.txt; cat $OUT/device-1.txt
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 240 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests > $OUT/pytest-1.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; grep -E "passed|failed" $OUT/pytest-1.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-1.log | head
C=.carry/case/s10210280
blastp -db $C/db -query $C/q.fa -outfmt "6 std qlen slen score" -num_threads 2 > /tmp/ref.tsv 2>/dev/null
for tool in memcheck racecheck; do
  GPUSEQ_CACHE_DIR=/tmp/kc-s timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 --log-file $OUT/$tool-1.log \
    python3 -m gpuseq.cli blastp -db $C/db.gsdb -query $C/q.fa -outfmt "6 std qlen slen score" -num_threads 2 --backend cuda > /tmp/$tool.tsv 2>/tmp/$tool.err
  echo "$tool rc $? at $(( $(date +%s) - S0 )) s"; grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" $OUT/$tool-1.log
  cmp -s /tmp/$tool.tsv /tmp/ref.tsv && echo "$tool run: rows equal blastp's ($(wc -l < /tmp/ref.tsv))"
done
export PYTHONFAULTHANDLER=1
O=/tmp/o1; mkdir -p $O; SECS=$(( 565 - $(date +%s) + S0 - 30 )); echo "fuzzing for $SECS s"
for s in 10810000 10840000 10850000 10860000 10870000 10880000; do
  GPUSEQ_CACHE_DIR=/tmp/kc-f timeout $(( SECS + 60 )) python3 -W ignore benchmarks/results/gpu-h200-20261130-g/probes/seeds.py blastp cuda $s 1 $SECS > $O/seeds-blastp-cuda-$s.log 2>&1 &
done
for s in 10910000 10940000 10950000 10960000; do
  GPUSEQ_CACHE_DIR=/tmp/kc-f timeout $(( SECS + 60 )) python3 -W ignore benchmarks/results/gpu-h200-20261130-g/probes/seeds.py hmmsearch cuda $s 1 $SECS > $O/seeds-hmmsearch-cuda-$s.log 2>&1 &
done
wait; echo "ended at $(( $(date +%s) - S0 )) s"
tail -q -n 1 $O/*.log; grep -h -A14 "FAILED" $O/*.log | grep -v "^  File\|^    " | cut -c1-1500 | head -40
tar -C $O -czf $OUT/fuzz-1.tar.gz . ; tar -C /tmp -czf $OUT/failed-1.tar.gz $(cd /tmp && ls -d seeds-*/s* 2>/dev/null) 2>/dev/null
ls -la $OUT
