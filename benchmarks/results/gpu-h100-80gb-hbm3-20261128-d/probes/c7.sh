# Session 42, call 7: auto (spin) against block, alternated, 5 rounds each on 100 models and six;
# then the GPU tests with GPUSEQ_CUDA_WAIT=block.
set -uo pipefail
source .carry/data.sh
export GPUSEQ_CACHE_DIR=/tmp/kc-x PYTHONPATH=$PWD/.carry/wx:/tmp/site
v() { GPUSEQ_CUDA_WAIT=$2 NICE=$3 python3 -c "
import subprocess, sys, time
t = time.perf_counter()
subprocess.run([sys.executable, '.carry/cli_wait.py', 'hmmsearch', '--cpu', '16', '--noali', '--tblout', '/tmp/v-$1-$5.tbl', '-o', '/tmp/v-$1-$5.out', '--backend', 'cuda', '--no-progress', '$4', '$DB'], check=True)
print('variant [$1] $5:', round(time.perf_counter() - t, 3), 's')"; }
V="base:auto:0 blk:block:0"
v base auto 0 $SIX six > /dev/null; v base auto 0 $MANY many > /dev/null
for r in 1 2 3 4 5; do for x in $V; do IFS=: read n w k <<< "$x"; v $n $w $k $MANY many; v $n $w $k $SIX six; done; done 2>&1 | tee $OUT/wait-block.log
for q in many six; do cmp -s <(grep -v "^#" /tmp/v-base-$q.tbl) <(grep -v "^#" /tmp/v-blk-$q.tbl) && echo "blk $q tblout equal" || echo "blk $q tblout DIFFERS"; cmp -s <(grep -v "^#" /tmp/v-base-$q.out) <(grep -v "^#" /tmp/v-blk-$q.out) && echo "blk $q report equal" || echo "blk $q report differs (header lines?)"; done 2>&1 | tee -a $OUT/wait-block.log
python3 - <<'PY' 2>&1 | tee $OUT/wait-block-summary.log
import os, re, statistics, collections
d = collections.defaultdict(list)
for line in open(os.environ["OUT"] + "/wait-block.log"):
    m = re.match(r"variant \[(\w+)\] (\w+): ([\d.]+) s", line)
    if m: d[(m[1], m[2])].append(float(m[3]))
for k, v in sorted(d.items()):
    print(k, f"median {statistics.median(v):.3f} ({min(v):.2f}-{max(v):.2f})", v)
PY
t=$(date +%s); GPUSEQ_CUDA_WAIT=block timeout 120 python3 -m pytest -q -ra -p no:cacheprovider -n 8 -m cuda tests/test_gpu_filters.py tests/test_cuda.py tests/test_cli.py tests/test_hmmsearch.py tests/test_blast_cuda.py > $OUT/pytest-cuda-wait-block.log 2>&1; echo "pytest rc $? $(( $(date +%s) - t )) s"; tail -n 1 $OUT/pytest-cuda-wait-block.log
