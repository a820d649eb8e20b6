# Session 43: the exit of the 100-model and six-model commands (0.22 s on an H100 host in
# session 42): base against os._exit after flushing, alternated on one host.
set -uo pipefail
source .carry/data.sh
export GPUSEQ_CACHE_DIR=/tmp/kc-h PYTHONPATH=$PWD/.carry/wh:/tmp/site
k() { FASTEXIT=$2 python3 -c "
import subprocess, sys, time
t = time.perf_counter()
subprocess.run([sys.executable, '.carry/exit_probe.py', 'hmmsearch', '--cpu', '16', '--noali', '--tblout', '/tmp/e-$1-$4.tbl', '-o', '/tmp/e-$1-$4.out', '--backend', 'cuda', '--no-progress', '$3', '$DB'], check=True)
print('variant [$1] $4:', round(time.perf_counter() - t, 3), 's')" 2>&1 | tr '\n' ' '; echo; }
k base "" $SIX six > /dev/null; k base "" $MANY many > /dev/null
for r in 1 2 3 4 5; do k base "" $MANY many; k fast 1 $MANY many; done | tee $OUT/exit-many.log
for r in 1 2 3 4; do k base "" $SIX six; k fast 1 $SIX six; done | tee $OUT/exit-six.log
for q in many six; do cmp -s <(grep -v "^#" /tmp/e-base-$q.tbl) <(grep -v "^#" /tmp/e-fast-$q.tbl) && echo "$q tblout equal" || echo "$q tblout DIFFERS"; cmp -s <(grep -v "^#" /tmp/e-base-$q.out) <(grep -v "^#" /tmp/e-fast-$q.out) && echo "$q report equal" || echo "$q report DIFFERS (dates?)"; done | tee $OUT/exit-equal.log
