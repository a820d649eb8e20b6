# Session 54, call 1: the SSV's shared blocks planned on a host thread (w54 = HEAD 972ac26 plus
# the change): the GPU tests it touches, memcheck of the S-lane section, and whole commands of
# K models of one S with the blocks planned in the background from 4 models, waited for from 16
# (972ac26's behaviour), or never.
set -uo pipefail
S0=$(date +%s)
P=benchmarks/results/gpu-h200-20261129-d/probes
source $P/data.sh
export GPUSEQ_CACHE_DIR=/tmp/kc-54 PYTHONPATH=$PWD/.carry/w54:/tmp/site
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader > $OUT/device.txt; nproc >> $OUT/device.txt
timeout 200 python3 -m pytest -q -n 8 -p no:cacheprovider -ra -m cuda tests/test_gpu_multi.py tests/test_hmmsearch.py tests/test_hmmsearch_streaming.py tests/test_cli.py > $OUT/pytest-search-1.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; tail -4 $OUT/pytest-search-1.log
SECTIONS=slane timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/memcheck-slane-1.log 2>&1; echo "memcheck rc $? at $(( $(date +%s) - S0 )) s"; tail -n 2 $OUT/memcheck-slane-1.log
python3 $P/bgblocks.py split $MANY /tmp
cp $MANY /tmp/first-100.hmm
ARGS="hmmsearch --cpu 16 --noali --backend cuda --no-progress"
python3 -m gpuseq.cli $ARGS --tblout /tmp/warm.tbl -o /dev/null /tmp/first-32.hmm $DB
timeout 240 python3 - > $OUT/bg-blocks-1.log 2>&1 <<PY
import subprocess, sys, time, statistics
VARIANTS = {"bg4": (4, 1), "wait16": (16, 0), "never": (10**6, 1)}
PLAN = {4: ("bg4", "never"), 8: ("bg4", "never"), 16: ("bg4", "wait16", "never"),
        32: ("bg4", "wait16", "never"), 100: ("bg4", "wait16", "never")}
times = {}
for r in range(3):
    for k, names in PLAN.items():
        for v in (names if r % 2 == 0 else names[::-1]):
            n, bg = VARIANTS[v]
            t = time.perf_counter()
            subprocess.run([sys.executable, "$P/bgblocks.py", "run", str(n), str(bg), "--", *"$ARGS".split(),
                            "--tblout", f"/tmp/b-{k}-{v}.tbl", "-o", "/dev/null", f"/tmp/first-{k}.hmm", "$DB"], check=True)
            times.setdefault((k, v), []).append(time.perf_counter() - t)
    print("round", r, {f"{k}/{v}": round(x[-1], 3) for (k, v), x in times.items()}, flush=True)
rows = lambda p: [l for l in open(p) if not l.startswith("#")]
for k, names in PLAN.items():
    same = all(rows(f"/tmp/b-{k}-{v}.tbl") == rows(f"/tmp/b-{k}-never.tbl") for v in names)
    print(k, "models:", ", ".join(f"{v} {statistics.median(times[k, v]):.3f}" for v in names), "| tblout same", same)
PY
echo "ab rc $? at $(( $(date +%s) - S0 )) s"; tail -6 $OUT/bg-blocks-1.log
