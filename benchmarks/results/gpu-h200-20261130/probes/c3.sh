# Session 64, call 3: .carry/w89 (3a15ac0: pyhmmer imported by one thread at a time): the
# format, CLI and streaming tests on the GPU backend (call 1's five stdin failures), the
# Stockholm pipe of call 2 ten times, and racecheck over the whole workload in four groups
# of sections side by side (call 1's single racecheck ran past its 540 s).
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
export PYTHONPATH=$PWD/.carry/w89:/tmp/site
t=$(date +%s); i=0
for S in filters,warp_tables,claims streams,nvrtc,walters slane,fused distances,b1gemm,mrf,blast; do
  i=$((i+1))
  ( GPUSEQ_CACHE_DIR=/tmp/kc-r$i SECTIONS=$S timeout 520 compute-sanitizer --tool racecheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/racecheck-3-$i.log 2>&1; echo "racecheck $S rc $? after $(( $(date +%s) - t )) s" >> /tmp/rc-3.txt ) &
done
T=.carry/hmmer/examples/tutorial
for k in 1 2 3 4 5 6 7 8 9 10; do
  cat $T/globins4.sto | GPUSEQ_CACHE_DIR=/tmp/kc-t python3 -m gpuseq.cli hmmsearch --backend cuda --tformat stockholm --tblout /dev/null -o /dev/null $T/globins4.hmm - > /tmp/err.txt 2>&1; echo "sto pipe $k rc $?"; grep -v "^gpuseq:" /tmp/err.txt | tail -3
done 2>&1 | tee $OUT/stdin-3.log | sort | uniq -c
GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 200 python3 -m pytest -n 8 -q -ra -p no:cacheprovider tests/test_formats.py tests/test_fasta.py tests/test_cli.py tests/test_hmmsearch_streaming.py > $OUT/pytest-files-3.log 2>&1
echo "files rc $? after $(( $(date +%s) - t )) s"; tail -1 $OUT/pytest-files-3.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-files-3.log | head
wait; cat /tmp/rc-3.txt; for i in 1 2 3 4; do echo "== racecheck-3-$i"; tail -n 2 $OUT/racecheck-3-$i.log; done
