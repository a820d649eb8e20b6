# Session 70, call 2: .carry/w103 with NCBI BLAST+ 2.12 (.carry/blast.tar.xz, as session 69's
# c2.sh runs it). The cuda-marked random commands (both tools, blastp's skipped in call 1), then
# seeds.py for 6 processes of blastp and 2 of hmmsearch on the GPU, new seeds.
set -uo pipefail
S0=$(date +%s)
[ -x /tmp/blastpkg/bin/blastp ] || tar xJf .carry/blast.tar.xz -C /tmp
mkdir -p /tmp/blastpkg/wrap  # (the libraries for the two programs only, not for python3)
for p in blastp makeblastdb; do
  printf '#!/bin/sh\nLD_LIBRARY_PATH=/tmp/blastpkg/lib exec /tmp/blastpkg/bin/%s "$@"\n' $p > /tmp/blastpkg/wrap/$p
  chmod +x /tmp/blastpkg/wrap/$p; done
export PATH="/tmp/blastpkg/wrap:$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
blastp -version | head -1
python3 -m pip install -q --no-index --no-deps --target /tmp/site2 .carry/wh-min/*.whl 2>&1 | tail -2
export PYTHONPATH=$PWD/.carry/w103:/tmp/site2:$PWD/tests
P=benchmarks/results/gpu-h200-20261130-g/probes
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 200 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests/test_random_commands.py tests/test_blast_cuda.py > $OUT/pytest-2.log 2>&1
echo "pytest at $(( $(date +%s) - S0 )) s"; grep -E "passed|failed" $OUT/pytest-2.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-2.log | head
O=/tmp/o2; mkdir -p $O; SECS=$(( 540 - $(date +%s) + S0 - 40 )); echo "fuzzing for $SECS s"
for k in 1 2 3 4 5 6; do
  GPUSEQ_CACHE_DIR=/tmp/kc-f timeout $(( SECS + 60 )) python3 -W ignore $P/seeds.py blastp cuda $(( k * 100000 )) 1 $SECS > $O/seeds-blastp-cuda-$k.log 2>&1 &
done
for k in 7 8; do
  GPUSEQ_CACHE_DIR=/tmp/kc-f timeout $(( SECS + 60 )) python3 -W ignore $P/seeds.py hmmsearch cuda $(( k * 100000 )) 1 $SECS > $O/seeds-hmmsearch-cuda-$k.log 2>&1 &
done
wait; echo "fuzzing ended at $(( $(date +%s) - S0 )) s"
tail -q -n 1 $O/*.log; grep -h "FAILED\|Traceback" $O/*.log | head -20
tar -C $O -czf $OUT/fuzz-2.tar.gz . ; tar -C /tmp -czf $OUT/failed-2.tar.gz $(cd /tmp && ls -d seeds-*/s* 2>/dev/null) 2>/dev/null
ls -la $OUT
