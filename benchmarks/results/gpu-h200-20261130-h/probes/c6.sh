# Session 71, call 6: .carry/w108 (0697bd6: blastp's HSPs in Blast_HSPListSortByEvalue's order),
# carried as .carry/w108.tar.xz, with NCBI BLAST+ 2.12 (as c3.sh). The blastp random commands
# on both backends, the kept seed 9200568 included, and test_blast_cuda.py (the first try carried
# pyhmmer alone, and test_random_commands.py needs Biopython: pytest-6-first.log).
set -uo pipefail
S0=$(date +%s)
tar xJf .carry/w108.tar.xz -C .carry
[ -x /tmp/blastpkg/bin/blastp ] || tar xJf .carry/blast.tar.xz -C /tmp
mkdir -p /tmp/blastpkg/wrap
for p in blastp makeblastdb; do
  printf '#!/bin/sh\nLD_LIBRARY_PATH=/tmp/blastpkg/lib exec /tmp/blastpkg/bin/%s "$@"\n' $p > /tmp/blastpkg/wrap/$p
  chmod +x /tmp/blastpkg/wrap/$p; done
python3 -m pip install -q --no-index --no-deps --target /tmp/site6 .carry/wheels/*.whl 2>&1 | tail -2
export PATH="/tmp/blastpkg/wrap:$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
export PYTHONPATH=$PWD/.carry/w108:/tmp/site6:$PWD/tests
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 150 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -k "blastp or blast_cuda" tests/test_random_commands.py tests/test_blast_cuda.py > $OUT/pytest-6.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; grep -E "passed|failed" $OUT/pytest-6.log; grep -E "^(FAILED|ERROR)|9200568" $OUT/pytest-6.log | head
