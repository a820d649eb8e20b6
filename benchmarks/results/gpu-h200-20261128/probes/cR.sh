# Session 43: the text report's share of the 100-model command's tail: base against NOREPORT=1.
set -uo pipefail
source .carry/data.sh
export GPUSEQ_CACHE_DIR=/tmp/kc-h PYTHONPATH=$PWD/.carry/wh:/tmp/site
k() { NOREPORT=$2 python3 -c "
import subprocess, sys, time
t = time.perf_counter()
subprocess.run([sys.executable, '.carry/noreport.py', 'hmmsearch', '--cpu', '16', '--noali', '--tblout', '/tmp/r-$1-$4.tbl', '-o', '/tmp/r-$1-$4.out', '--backend', 'cuda', '--no-progress', '$3', '$DB'], check=True)
print('variant [$1] $4:', round(time.perf_counter() - t, 3), 's')"; }
k base "" $MANY many > /dev/null
for r in 1 2 3 4 5 6; do k base "" $MANY many; k norep 1 $MANY many; done | tee $OUT/noreport-many.log
for r in 1 2 3; do k base "" $SIX six; k norep 1 $SIX six; done | tee $OUT/noreport-six.log
for q in many six; do cmp -s <(grep -v "^#" /tmp/r-base-$q.tbl) <(grep -v "^#" /tmp/r-norep-$q.tbl) && echo "$q tblout equal" || echo "$q tblout DIFFERS"; done
python3 - <<'PY'
import os, re, statistics, collections
for f in ("many", "six"):
    d = collections.defaultdict(list)
    for line in open(os.environ["OUT"] + f"/noreport-{f}.log"):
        m = re.match(r"variant \[(\w+)\] \w+: ([\d.]+) s", line)
        if m: d[m[1]].append(float(m[2]))
    print(f, " | ".join(f"{k}: median {statistics.median(v):.3f} ({min(v):.2f}-{max(v):.2f})" for k, v in d.items()))
PY
