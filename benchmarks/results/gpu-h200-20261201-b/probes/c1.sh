# Session 73, call 1: .carry/w110 (e01f6f6's module: HEAD's C++, unchanged since 769d0d6, and
# package) with NCBI BLAST+ 2.12. Every cuda-marked test (none of the suite has run on the
# Python of session 72's last commits, nor on this session's blastp number texts), then, to the
# call's end, the random blastp (3 processes) and hmmsearch (3) commands on the GPU, seeds no
# session drew. (Not carried: the genotype readers' wheels, bed-reader and cyvcf2: no cuda test needs them.)
set -uo pipefail
S0=$(date +%s)
tar xJf .carry/w110.tar.xz -C /tmp
[ -x /tmp/blastpkg/bin/blastp ] || tar xJf .carry/blast.tar.xz -C /tmp
mkdir -p /tmp/blastpkg/wrap
for p in blastp makeblastdb; do
  printf '#!/bin/sh\nLD_LIBRARY_PATH=/tmp/blastpkg/lib exec /tmp/blastpkg/bin/%s "$@"\n' $p > /tmp/blastpkg/wrap/$p
  chmod +x /tmp/blastpkg/wrap/$p; done
python3 -m pip install -q --no-index --no-deps --target /tmp/site1 .carry/wheels/*.whl 2>&1 | tail -2
export PATH="/tmp/blastpkg/wrap:$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
export PYTHONPATH=/tmp/w110:/tmp/site1:$PWD/tests
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $OUT/device-1.txt; nproc >> $OUT/device-1.txt
python3 -c 'import gpuseq, json; print(json.dumps(gpuseq.build_info()))' >> $OUT/device-1.txt; cat $OUT/device-1.txt
blastp -version | head -1; hmmsearch -h | sed -n 2p
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 330 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests > $OUT/pytest-1.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; grep -E "passed|failed" $OUT/pytest-1.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-1.log | head
O=/tmp/o1; mkdir -p $O; SECS=$(( 560 - $(date +%s) + S0 - 30 )); echo "fuzzing for $SECS s"
for k in 4 5 6; do
  GPUSEQ_CACHE_DIR=/tmp/kc-f timeout $(( SECS + 60 )) python3 -W ignore benchmarks/results/gpu-h200-20261130-g/probes/seeds.py blastp cuda $(( 10100000 + k * 10000 )) 1 $SECS > $O/seeds-blastp-cuda-$k.log 2>&1 &
  GPUSEQ_CACHE_DIR=/tmp/kc-f timeout $(( SECS + 60 )) python3 -W ignore benchmarks/results/gpu-h200-20261130-g/probes/seeds.py hmmsearch cuda $(( 10200000 + k * 10000 )) 1 $SECS > $O/seeds-hmmsearch-cuda-$k.log 2>&1 &
done
wait; echo "ended at $(( $(date +%s) - S0 )) s"
tail -q -n 1 $O/*.log; grep -h "FAILED\|Traceback" $O/*.log | head -20
tar -C $O -czf $OUT/fuzz-1.tar.gz . ; tar -C /tmp -czf $OUT/failed-1.tar.gz $(cd /tmp && ls -d seeds-*/s* 2>/dev/null) 2>/dev/null
ls -la $OUT
