# Session 68, call 4: the cases of call 3 that differed, taken apart (oom_diff.py): fc95f93's
# module (w99), 4ae8ba6's (w98: before _ChunkCopies), and w99 with one cascade in flight.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site/pyhmmer ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
# w98: w99 with 4ae8ba6's hmmsearch.py (the one file that differs).
rm -rf /tmp/w98 && mkdir -p /tmp/w98 && cp -r .carry/w99/gpuseq /tmp/w98/ && cp .carry/w98/hmmsearch.py /tmp/w98/gpuseq/
O=/tmp/o4; mkdir -p $O; P=benchmarks/results/gpu-h200-20261130-e/probes/oom_diff.py
for w in w99 w98 w99-1; do
  for s in 1 4 7; do
    mod=$PWD/.carry/${w%-1}; [ "$w" = w98 ] && mod=/tmp/w98; extra=""; [ "$w" = w99-1 ] && extra=1
    PYTHONPATH=$mod:/tmp/site:$PWD/tests GPUSEQ_CACHE_DIR=/tmp/kc-d$w$s timeout 250 python3 -W ignore $P $s 35 115 200000 $extra > $O/diff-$w-$s.log 2>&1 &
  done
done
wait
for f in $O/diff-*.log; do echo "== $f"; grep -c DIFFERENT $f; tail -n 1 $f; done
tar -C $O -czf $OUT/diff-4.tar.gz .
