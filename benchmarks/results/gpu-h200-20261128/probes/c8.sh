# Planned (session 42) for the next device session: the 100-model command's cascades beside the
# downstream (1.08 s against 0.78 s alone) and the reporting thread's tail (0.12-0.14 s).
# Variants alternated on one host (knobs: cli_knobs.py; PHASES=1 prints the cascades' mean
# ssv_wait, i.e. whether the SSV lock has a queue). ~2.5 min after the data.
set -uo pipefail
source .carry/data.sh
export GPUSEQ_CACHE_DIR=/tmp/kc-h PYTHONPATH=$PWD/.carry/wh:/tmp/site
k() { env ${2//,/ } python3 -c "
import subprocess, sys, time
t = time.perf_counter()
subprocess.run([sys.executable, '.carry/cli_knobs.py', 'hmmsearch', '--cpu', '16', '--noali', '--tblout', '/tmp/k-$1-$4.tbl', '-o', '/tmp/k-$1-$4.out', '--backend', 'cuda', '--no-progress', '$3', '$DB'], check=True)
print('variant [$1] $4:', round(time.perf_counter() - t, 3), 's')"; }
V="base:PHASES=1 la16:PHASES=1,LOOKAHEAD=16 la32:PHASES=1,LOOKAHEAD=32 sw1:PHASES=1,SWITCH=0.001 ds14:PHASES=1,DS_THREADS=14"
k base PHASES=1 $SIX six > /dev/null; k base PHASES=1 $MANY many > /dev/null
for r in 1 2 3 4 5; do for x in $V; do k ${x%%:*} ${x#*:} $MANY many; done; done 2>&1 | tee $OUT/knobs-many.log
for r in 1 2 3 4; do for x in $V; do k ${x%%:*} ${x#*:} $SIX six; done; done 2>&1 | tee $OUT/knobs-six.log
for x in $V; do n=${x%%:*}; for q in many six; do cmp -s <(grep -v "^#" /tmp/k-base-$q.tbl) <(grep -v "^#" /tmp/k-$n-$q.tbl) && echo "$n $q tblout equal" || echo "$n $q tblout DIFFERS"; done; done
python3 - <<'PY' 2>&1 | tee $OUT/knobs-summary.log
import os, re, statistics, collections
for f in ("many", "six"):
    d = collections.defaultdict(list)
    for line in open(os.environ["OUT"] + f"/knobs-{f}.log"):
        m = re.match(r"variant \[(\w+)\] \w+: ([\d.]+) s", line)
        if m: d[m[1]].append(float(m[2]))
    print(f, " | ".join(f"{k}: median {statistics.median(v):.3f} ({min(v):.2f}-{max(v):.2f})" for k, v in d.items()))
PY
