# Session 50 (prepared in 49): A = .carry/w49h (HEAD f0c2f0b); B = A + .carry/p49/carry-prmt.patch
# (.carry/w49i): the D->D carry as one PRMT, a redundant max dropped. B's fused tests and
# fused memcheck during the warm-up.
set -uo pipefail
export VIT_W=0 PATH="$PWD/.carry/hmmer/bin:$PATH" GPUSEQ_HMMER_EXAMPLES="$PWD/.carry/hmmer/examples" PYTHONUNBUFFERED=1
[ -d /tmp/site ] || python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl 2>&1 | tail -2
S0=$(date +%s)
MS="50 100 129 150 200 300 512 1024 2000 2400"
export VIT_PFAM="RRM_1 fn3 Caudal_act globins4 Pkinase"
dir() { case $1 in A) echo w49h;; B) echo w49i;; esac; }
( PYTHONPATH=$PWD/.carry/w49i:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-tB timeout 150 python3 -m pytest -n 4 -q -ra -p no:cacheprovider -m cuda tests/test_gpu_viterbi_fused.py > $OUT/pytest-B.log 2>&1; echo "pytest B rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc.txt ) &
( PYTHONPATH=$PWD/.carry/w49i:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-mB SECTIONS=fused timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/memcheck-fused-B.log 2>&1; echo "memcheck B rc $? at $(( $(date +%s) - S0 )) s" >> $OUT/rc.txt ) &
for w in A B; do for i in 0 1; do
  PYTHONPATH=$PWD/.carry/$(dir $w):/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-$w VIT_M="$MS" PART=$i/2 timeout 150 python3 .carry/vprobe.py $w warm > $OUT/warm-$w-$i.log 2>&1 &
done; done
wait; cat $OUT/rc.txt; tail -2 $OUT/pytest-B.log; tail -2 $OUT/memcheck-fused-B.log; echo "warm at $(( $(date +%s) - S0 )) s"
for r in 1 2 3; do for w in A B; do
  PYTHONPATH=$PWD/.carry/$(dir $w):/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-$w VIT_M="$MS" EQ=$([ $r = 1 ] && echo 1 || echo 0) timeout 60 python3 .carry/vprobe.py $w run 2>&1 | grep -v Warn
done; done > $OUT/carry-prmt-ab.log
echo "vprobe at $(( $(date +%s) - S0 )) s"
python3 - $OUT/carry-prmt-ab.log <<'PY'
import sys, re, collections, statistics
g = collections.defaultdict(list); eq = {}
for line in open(sys.argv[1]):
    m = re.match(r"\[\s*(\w+)\]\s+(\S+) M=\s*(\d+) T=(\d) Q=\s*(\d+) W=(\d)\s+([\d.]+) GCUPS equal=(\w+)", line)
    if m:
        w, name, M, T, Q, W, gc, e = m.groups(); g[(name, int(M), T, Q + "/" + W, w)].append(float(gc))
        if e != "False": eq[(name, int(M), w)] = e
for name, M, T, Q in sorted({k[:4] for k in g}, key=lambda k: k[1]):
    a, b = (statistics.median(g[(name, M, T, Q, x)]) for x in "AB")
    print(f"{name:>15} M={M:5d} T={T} Q/W={Q:>5}  A {a:7.1f}  B/A {b/a:5.3f}  eq {eq.get((name, M, 'A'))}/{eq.get((name, M, 'B'))}")
PY
