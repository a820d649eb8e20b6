# Session 51, call 4: the gpuseq command's end without the interpreter's teardown (os._exit,
# wheel .carry/wD) against the full teardown (GPUSEQ_FULL_EXIT=1), alternated, six models and
# 100 over the packed database; then the hmmsearch benchmark (hmmsearch and gpuseq, 3 repeats).
set -uo pipefail
S0=$(date +%s)
source .carry/data.sh
export GPUSEQ_CACHE_DIR=/tmp/kc-x PYTHONPATH=$PWD/.carry/wD:/tmp/site
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; nproc; uptime; } > $OUT/device.txt 2>&1
v() { GPUSEQ_FULL_EXIT=$2 python3 -c "
import subprocess, sys, time
t = time.perf_counter()
subprocess.run([sys.executable, '-m', 'gpuseq.cli', 'hmmsearch', '--cpu', '16', '--noali', '--tblout', '/tmp/v-$1-$4.tbl', '-o', '/tmp/v-$1-$4.out', '--backend', 'cuda', '--no-progress', '$3', '$DB'], check=True)
print('variant [$1] $4:', round(time.perf_counter() - t, 3), 's')"; }
v quick 0 $SIX six > /dev/null; v quick 0 $MANY many > /dev/null
for r in 1 2 3 4 5; do v quick 0 $SIX six; v full 1 $SIX six; done 2>&1 | tee $OUT/exit-ab-six.log
for r in 1 2 3 4; do v quick 0 $MANY many; v full 1 $MANY many; done 2>&1 | tee $OUT/exit-ab-many.log
for q in six many; do for f in tbl out; do cmp -s <(grep -v "^#" /tmp/v-quick-$q.$f | grep -v "CPU time\|Mc/sec") <(grep -v "^#" /tmp/v-full-$q.$f | grep -v "CPU time\|Mc/sec") && echo "$q $f equal" || echo "$q $f DIFFERS"; done; done 2>&1 | tee -a $OUT/exit-ab-six.log
echo "at $(( $(date +%s) - S0 )) s"
B="python3 benchmarks/bench_hmmsearch.py --examples-dir .carry/hmmer/examples --workdir /tmp/bench --cpu 16 --seqs 1400000 --many-models 100"
left=$(( 585 - ($(date +%s) - S0) )); echo "left $left s"
[ $left -gt 150 ] && { timeout $left $B --repeat 3 --skip hmmsearch_many,pyhmmer --out $OUT/bench_hmmsearch.json > $OUT/bench_hmmsearch.log 2>&1; echo "bench rc $? at $(( $(date +%s) - S0 )) s"; tail -n 16 $OUT/bench_hmmsearch.log; }
