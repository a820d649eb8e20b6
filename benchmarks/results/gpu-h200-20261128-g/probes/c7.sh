# Session 47, call 7: the fused Viterbi kernel in blocks of one warp (B, .carry/w47f: PROBE_FUSED_THREADS 32)
# against blocks of four (A, .carry/w47e = 7a85254's kernels): more warps an SM where the registers leave
# room for 1-3 more than a multiple of four (Q = 3-5 at T = 2, 11 at T = 1). Plus B's fused/filter tests.
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
S0=$(date +%s)
MS="50 100 129 150 200 256 300 400 640 704 1024 1200"
( PYTHONPATH=$PWD/.carry/w47f:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-tB timeout 240 python3 -m pytest -n 6 -q -ra -p no:cacheprovider -m cuda tests/test_gpu_viterbi_fused.py tests/test_gpu_filters.py > $OUT/pytest-B.log 2>&1; echo "pytest B rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc.txt ) &
for w in A B; do for i in 0 1; do
  d=$([ $w = A ] && echo w47e || echo w47f)
  PYTHONPATH=$PWD/.carry/$d:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-$w VIT_M="$MS" PART=$i/2 timeout 150 python3 .carry/vprobe.py $w warm > $OUT/warm-$w-$i.log 2>&1 &
done; done
wait; cat $OUT/rc.txt; tail -2 $OUT/pytest-B.log; echo "warm at $(( $(date +%s) - S0 )) s"
for r in 1 2 3; do for w in A B; do
  d=$([ $w = A ] && echo w47e || echo w47f)
  PYTHONPATH=$PWD/.carry/$d:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-$w VIT_M="$MS" EQ=$([ $r = 1 ] && echo 1 || echo 0) timeout 100 python3 .carry/vprobe.py $w run 2>&1 | grep -v Warn
done; done > $OUT/fused-block-size.log
echo "all at $(( $(date +%s) - S0 )) s"
python3 - $OUT/fused-block-size.log <<'PY'
import sys, re, collections, statistics
g = collections.defaultdict(list); eq = {}
for line in open(sys.argv[1]):
    m = re.match(r"\[\s*(\w+)\]\s+(\S+) M=\s*(\d+) T=(\d) Q=\s*(\d+) W=\d\s+([\d.]+) GCUPS equal=(\w+)", line)
    if m:
        w, name, M, T, Q, gc, e = m.groups(); g[(name, int(M), T, Q, w)].append(float(gc))
        if e != "False": eq[(name, int(M), w)] = e
keys = sorted({k[:4] for k in g}, key=lambda k: k[1])
for name, M, T, Q in keys:
    a = statistics.median(g[(name, M, T, Q, "A")]); b = statistics.median(g[(name, M, T, Q, "B")])
    print(f"{name:>15} M={M:5d} T={T} Q={Q:>2}  A {a:7.1f}  B {b:7.1f}  B/A {b/a:5.3f}  eq {eq.get((name, M, 'A'))}/{eq.get((name, M, 'B'))}")
PY
