set -uo pipefail
source .carry/data.sh
export GPUSEQ_CACHE_DIR=/tmp/kc-n PYTHONPATH=$PWD/.carry/wn:/tmp/site
v() { python3 -c "
import subprocess, sys, time, os
t = time.perf_counter()
subprocess.run([sys.executable, '.carry/cli_variant.py', 'hmmsearch', '--cpu', '16', '--noali', '--tblout', '/tmp/v-$1.tbl', '-o', '/tmp/v-$1.out', '--backend', 'cuda', '--no-progress', '$2', '$DB'], check=True, env=dict(os.environ, VARIANT='$1'))
print('variant [$1] $3:', round(time.perf_counter() - t, 3), 's')"; }
v base $SIX warm > /dev/null; v base $MANY warm > /dev/null
for r in 1 2 3 4 5 6; do v base $SIX six; v first_alone $SIX six; done 2>&1 | tee $OUT/first-alone-six.log
cmp <(grep -v "^#" /tmp/v-base.tbl) <(grep -v "^#" /tmp/v-first_alone.tbl) && echo "tblout equal" | tee -a $OUT/first-alone-six.log
for r in 1 2 3; do v base $MANY many; v first_alone $MANY many; done 2>&1 | tee $OUT/first-alone-many.log
