# Session 53, call 1: HMMER's downstream in the packed six-model command (wheel .carry/wNew2 =
# HEAD's code): its timeline in process, per variant of the parts' split; then whole commands
# alternated.
set -uo pipefail
S0=$(date +%s)
P=benchmarks/results/gpu-h200-20261129-c/probes
source $P/data.sh
echo "data ready at $(( $(date +%s) - S0 )) s"
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; nproc; uptime; } > $OUT/device.txt 2>&1
export GPUSEQ_CACHE_DIR=/tmp/kc-53 PYTHONPATH=$PWD/.carry/wNew2:/tmp/site
ARGS="hmmsearch --cpu 16 --noali --backend cuda --no-progress"
python3 -m gpuseq.cli $ARGS --tblout /tmp/warm.tbl -o /dev/null $SIX $DB  # the kernel cache
echo "warm at $(( $(date +%s) - S0 )) s"
for v in base cap8:1 base cap2:2 cap4:1 cap8:1; do
  python3 $P/dsprobe.py timeline $v -- $ARGS --tblout /tmp/t-$v.tbl -o /tmp/t-$v.out $SIX $DB
  cmp <(grep -v "^#" /tmp/t-$v.tbl) <(grep -v "^#" /tmp/warm.tbl) && echo "tblout $v same"
done > $OUT/timeline-1.log 2>&1
echo "timelines at $(( $(date +%s) - S0 )) s"
python3 - > $OUT/commands-1.log 2>&1 <<PY
import subprocess, sys, time, statistics
variants = ["base", "cap2:2", "cap4:1", "cap8:1"]
times = {v: [] for v in variants}
for r in range(6):
    order = variants if r % 2 == 0 else variants[::-1]
    for v in order:
        t = time.perf_counter()
        subprocess.run([sys.executable, "$P/dsprobe.py", "run", v, "--", *"$ARGS".split(),
                        "--tblout", f"/tmp/c-{v}.tbl", "-o", f"/tmp/c-{v}.out", "$SIX", "$DB"], check=True)
        times[v].append(time.perf_counter() - t)
    print("round", r, {v: round(times[v][-1], 3) for v in variants}, flush=True)
ref = [l for l in open("/tmp/warm.tbl") if not l.startswith("#")]
for v in variants:
    same = [l for l in open(f"/tmp/c-{v}.tbl") if not l.startswith("#")] == ref
    print(v, "median", round(statistics.median(times[v]), 3), "min", round(min(times[v]), 3), "tblout same", same)
PY
echo "commands at $(( $(date +%s) - S0 )) s"
cat $OUT/timeline-1.log | grep -v "^    " ; tail -5 $OUT/commands-1.log
