# Session 42, call 5: the CLI's timeline, 100 models and six (245c0d4).
set -uo pipefail
source .carry/data.sh
export GPUSEQ_CACHE_DIR=/tmp/kc-h PYTHONPATH=$PWD/.carry/wh:/tmp/site
tl() { python3 -c "
import subprocess, sys, time
t = time.perf_counter()
subprocess.run([sys.executable, '.carry/cli_timeline.py', 'hmmsearch', '--cpu', '16', '--noali', '--tblout', '/tmp/tl.tbl', '-o', '/tmp/tl.out', '--backend', 'cuda', '--no-progress', '$1', '$DB'], check=True)
print('$2 wall', round(time.perf_counter() - t, 3), 's', file=sys.stderr)"; }
cli h $SIX warm-six > /dev/null; cli h $MANY warm-many > /dev/null
for r in 1 2 3; do tl $MANY many; done 2>&1 | tee $OUT/timeline-many.log
for r in 1 2; do tl $SIX six; done 2>&1 | tee $OUT/timeline-six.log
