# Session 44 plan: 518ed62 (wh) against 99ed26c (w43: the report from tabular tokens, to_pyhmmer on plain arrays, and
# REPORT_THREADS 0, 2, 4), alternated on one host; 100 models and six.
set -uo pipefail
source .carry/data.sh
export GPUSEQ_CACHE_DIR=/tmp/kc-h
k() { PYTHONPATH=$PWD/.carry/$2:/tmp/site RT=$3 python3 -c "
import subprocess, sys, time
t = time.perf_counter()
subprocess.run([sys.executable, '.carry/rt_cli.py', 'hmmsearch', '--cpu', '16', '--noali', '--tblout', '/tmp/w-$1-$5.tbl', '-o', '/tmp/w-$1-$5.out', '--backend', 'cuda', '--no-progress', '$4', '$DB'], check=True)
print('variant [$1] $5:', round(time.perf_counter() - t, 3), 's')"; }
V="old:wh: rt0:w43:0 rt2:w43:2 rt4:w43:4"
run() { IFS=: read n w r <<< "$1"; k $n $w "$r" $2 $3; }
run old:wh: $MANY many > /dev/null; run rt2:w43:2 $SIX six > /dev/null
for i in 1 2 3 4 5; do for x in $V; do run $x $MANY many; done; done 2>&1 | tee $OUT/rt-many.log
for i in 1 2 3 4; do for x in $V; do run $x $SIX six; done; done 2>&1 | tee $OUT/rt-six.log
for x in $V; do n=${x%%:*}; for q in many six; do [ -s /tmp/w-$n-$q.out ] && [ -s /tmp/w-old-$q.out ] && cmp -s <(grep -v "^#" /tmp/w-old-$q.tbl) <(grep -v "^#" /tmp/w-$n-$q.tbl) && cmp -s <(grep -v "^#" /tmp/w-old-$q.out) <(grep -v "^#" /tmp/w-$n-$q.out) && echo "$n $q outputs equal" || echo "$n $q outputs DIFFER"; done; done | tee $OUT/rt-equal.log
python3 - <<'PY' 2>&1 | tee $OUT/rt-summary.log
import os, re, statistics, collections
for f in ("many", "six"):
    d = collections.defaultdict(list)
    for line in open(os.environ["OUT"] + f"/rt-{f}.log"):
        m = re.match(r"variant \[(\w+)\] \w+: ([\d.]+) s", line)
        if m: d[m[1]].append(float(m[2]))
    print(f, " | ".join(f"{k}: median {statistics.median(v):.3f} ({min(v):.2f}-{max(v):.2f})" for k, v in d.items()))
PY
