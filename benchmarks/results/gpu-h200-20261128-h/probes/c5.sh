# Session 48 call 5: A = .carry/w47h (HEAD's kernels), B = splat_s16 as one PRMT (.carry/w48b),
# C = B + the emission address through an opaque pointer (one IMAD.WIDE; .carry/w48c). Fused
# Viterbi GCUPS (vprobe), alternated, 3 rounds; C's fused/filter tests; SSV/MSV warp kernel A/B.
set -uo pipefail
export VIT_W=0 PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
S0=$(date +%s)
MS="50 100 129 140 150 160 200 300 400 640 1024 1600 2400"
dir() { case $1 in A) echo w47h;; B) echo w48b;; C) echo w48c;; esac; }
( PYTHONPATH=$PWD/.carry/w48c:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-tC timeout 240 python3 -m pytest -n 6 -q -ra -p no:cacheprovider -m cuda tests/test_gpu_viterbi_fused.py tests/test_gpu_filters.py > $OUT/pytest-C.log 2>&1; echo "pytest C rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc.txt ) &
for w in A B C; do for i in 0 1; do
  PYTHONPATH=$PWD/.carry/$(dir $w):/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-$w VIT_M="$MS" PART=$i/2 timeout 200 python3 .carry/vprobe.py $w warm > $OUT/warm-$w-$i.log 2>&1 &
done; done
wait; cat $OUT/rc.txt; tail -2 $OUT/pytest-C.log; echo "warm at $(( $(date +%s) - S0 )) s"
for r in 1 2 3; do for w in A B C; do
  PYTHONPATH=$PWD/.carry/$(dir $w):/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-$w VIT_M="$MS" EQ=$([ $r = 1 ] && echo 1 || echo 0) timeout 100 python3 .carry/vprobe.py $w run 2>&1 | grep -v Warn
done; done > $OUT/alu-ab.log
echo "vprobe at $(( $(date +%s) - S0 )) s"
for r in 1 2; do for w in A B; do echo "== $w"; PYTHONPATH=$PWD/.carry/$(dir $w):/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-$w timeout 100 python3 .carry/p48/s16_probe.py 1600,2400 1; done; done > $OUT/warp-msv-ab.log 2>&1
echo "all at $(( $(date +%s) - S0 )) s"; cat $OUT/warp-msv-ab.log
python3 - $OUT/alu-ab.log <<'PY'
import sys, re, collections, statistics
g = collections.defaultdict(list); eq = {}
for line in open(sys.argv[1]):
    m = re.match(r"\[\s*(\w+)\]\s+(\S+) M=\s*(\d+) T=(\d) Q=\s*(\d+) W=(\d)\s+([\d.]+) GCUPS equal=(\w+)", line)
    if m:
        w, name, M, T, Q, W, gc, e = m.groups(); g[(name, int(M), T, Q + "/" + W, w)].append(float(gc))
        if e != "False": eq[(name, int(M), w)] = e
keys = sorted({k[:4] for k in g}, key=lambda k: k[1])
for name, M, T, Q in keys:
    a, b, c = (statistics.median(g[(name, M, T, Q, x)]) for x in "ABC")
    print(f"{name:>15} M={M:5d} T={T} Q/W={Q:>5}  A {a:7.1f}  B/A {b/a:5.3f}  C/A {c/a:5.3f}  eq {eq.get((name, M, 'A'))}/{eq.get((name, M, 'B'))}/{eq.get((name, M, 'C'))}")
PY
