# Session 42, call 6: how the GPU's feeding threads wait (GPUSEQ_CUDA_WAIT) and the downstream
# threads' nice value, alternated, 100 models and six; then the GPU tests of this build.
set -uo pipefail
source .carry/data.sh
export GPUSEQ_CACHE_DIR=/tmp/kc-x PYTHONPATH=$PWD/.carry/wx:/tmp/site
v() { GPUSEQ_CUDA_WAIT=$2 NICE=$3 python3 -c "
import subprocess, sys, time
t = time.perf_counter()
subprocess.run([sys.executable, '.carry/cli_wait.py', 'hmmsearch', '--cpu', '16', '--noali', '--tblout', '/tmp/v-$1-$5.tbl', '-o', '/tmp/v-$1-$5.out', '--backend', 'cuda', '--no-progress', '$4', '$DB'], check=True)
print('variant [$1] $5:', round(time.perf_counter() - t, 3), 's')"; }
V="base:auto:0 n10:auto:10 blk:block:0 blkn:block:10 yldn:yield:10"
v base auto 0 $SIX six > /dev/null; v base auto 0 $MANY many > /dev/null
for r in 1 2 3 4; do for x in $V; do IFS=: read n w k <<< "$x"; v $n $w $k $MANY many; done; done 2>&1 | tee $OUT/wait-nice-many.log
for r in 1 2 3; do for x in $V; do IFS=: read n w k <<< "$x"; v $n $w $k $SIX six; done; done 2>&1 | tee $OUT/wait-nice-six.log
for x in $V; do n=${x%%:*}; for q in many six; do cmp -s <(grep -v "^#" /tmp/v-base-$q.tbl) <(grep -v "^#" /tmp/v-$n-$q.tbl) && echo "$n $q tblout equal" || echo "$n $q tblout DIFFERS"; done; done 2>&1 | tee -a $OUT/wait-nice-six.log
python3 - <<'PY' 2>&1 | tee $OUT/wait-nice-summary.log
import re, statistics, collections
for f in ("many", "six"):
    d = collections.defaultdict(list)
    for line in open(f"/root/out/wait-nice-{f}.log" if False else __import__("os").environ["OUT"] + f"/wait-nice-{f}.log"):
        m = re.match(r"variant \[(\w+)\] \w+: ([\d.]+) s", line)
        if m: d[m[1]].append(float(m[2]))
    print(f, " ".join(f"{k}: median {statistics.median(v):.3f} ({min(v):.2f}-{max(v):.2f})" for k, v in d.items()))
PY
t=$(date +%s); timeout 220 python3 -m pytest -q -ra -p no:cacheprovider -n 8 -m cuda tests/test_gpu_filters.py tests/test_cuda.py tests/test_cli.py tests/test_hmmsearch.py tests/test_blast_cuda.py > $OUT/pytest-cuda-wait.log 2>&1; echo "pytest rc $? $(( $(date +%s) - t )) s"; tail -n 3 $OUT/pytest-cuda-wait.log
