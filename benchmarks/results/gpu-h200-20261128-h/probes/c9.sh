# Session 48 call 9: with rows together, does T = 2 beat T = 1 past M = 320 (Q 11-16 at T = 2)?
# The committed kernels (.carry/w48f), VIT_T = 1 and 2 alternated, 3 rounds (vprobe).
set -uo pipefail
export PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1 VIT_W=1
export PYTHONPATH=$PWD/.carry/w48f:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-g
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
S0=$(date +%s)
MS="288 320 352 384 416 448 480 512"
for t in 1 2; do for i in 0 1 2; do
  VIT_T=$t VIT_M="$MS" VIT_PFAM="LuxC" PART=$i/3 timeout 200 python3 .carry/vprobe.py T$t warm > $OUT/warm-$t-$i.log 2>&1 &
done; done; wait; echo "warm at $(( $(date +%s) - S0 )) s"
for r in 1 2 3; do for t in 1 2; do
  VIT_T=$t VIT_M="$MS" VIT_PFAM="LuxC" EQ=$([ $r = 1 ] && echo 1 || echo 0) timeout 100 python3 .carry/vprobe.py T$t run 2>&1 | grep -v Warn
done; done > $OUT/t2-past-320.log
echo "all at $(( $(date +%s) - S0 )) s"
python3 - $OUT/t2-past-320.log <<'PY'
import sys, re, collections, statistics
g = collections.defaultdict(list); eq = {}; q = {}
for line in open(sys.argv[1]):
    m = re.match(r"\[\s*(\w+)\]\s+(\S+) M=\s*(\d+) T=(\d) Q=\s*(\d+) W=(\d)\s+([\d.]+) GCUPS equal=(\w+)", line)
    if m:
        w, name, M, T, Q, W, gc, e = m.groups(); g[(name, int(M), w)].append(float(gc)); q[(name, int(M), w)] = Q
        if e != "False": eq[(name, int(M), w)] = e
for name, M in sorted({k[:2] for k in g}, key=lambda k: k[1]):
    a, b = (statistics.median(g[(name, M, x)]) for x in ("T1", "T2"))
    print(f"{name:>10} M={M:4d}  T=1 Q={q[(name, M, 'T1')]:>2} {a:7.1f}  T=2 Q={q[(name, M, 'T2')]:>2} {b:7.1f}  T2/T1 {b/a:5.3f}  eq {eq.get((name, M, 'T1'))}/{eq.get((name, M, 'T2'))}")
PY
