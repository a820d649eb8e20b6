# Session 66, call 6: call 5's A/B again, 10 rounds (call 5's 4 were within noise).
# Call 5: the fix's cost. .carry/w93 (7e8ad4d's module, _core rebuilt at it) against
# .carry/w94 (the fix). hmmsearch's packed-database commands of bench_hmmsearch (6 models and
# 100 models against 1.4 M targets, --cpu 16), 4 rounds alternated, outputs compared; then
# small_chunks.py (one search of 11 small chunks, 150 times in process) for each.
set -uo pipefail
S0=$(date +%s)
DATA_WHEEL=w94 source benchmarks/results/gpu-h200-20261129-k/probes/data.sh
echo "data at $(( $(date +%s) - S0 )) s"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $OUT/device-6.txt
P=benchmarks/results/gpu-h200-20261130-c/probes
export GPUSEQ_CACHE_DIR=/tmp/kc-66
ARGS="hmmsearch --cpu 16 --noali --backend cuda --no-progress"
for w in w93 w94; do
  PYTHONPATH=$PWD/.carry/$w:/tmp/site python3 -m gpuseq.cli $ARGS --tblout /tmp/warm.tbl -o /dev/null $MANY $DB
  PYTHONPATH=$PWD/.carry/$w:/tmp/site python3 -m gpuseq.cli $ARGS --tblout /tmp/warm.tbl -o /dev/null $SIX $DB
done
echo "warm at $(( $(date +%s) - S0 )) s"
python3 - > $OUT/ab-6.log 2>&1 <<PY
import os, subprocess, sys, time, statistics
wheels = {"w93": "$PWD/.carry/w93", "w94": "$PWD/.carry/w94"}
files = {"six": "$SIX", "100": "$MANY"}
times = {(f, w): [] for f in files for w in wheels}
R = 10
for r in range(R):
    for f, hmm in files.items():
        order = list(wheels) if r % 2 == 0 else list(wheels)[::-1]
        for w in order:
            env = dict(os.environ, PYTHONPATH=f"{wheels[w]}:/tmp/site")
            t = time.perf_counter()
            subprocess.run([sys.executable, "-m", "gpuseq.cli", *"$ARGS".split(), "--tblout",
                            f"/tmp/ab-{f}-{w}-{r}.tbl", "-o", f"/tmp/ab-{f}-{w}-{r}.out", hmm, "$DB"],
                           check=True, env=env)
            times[f, w].append(time.perf_counter() - t)
    print("round", r, {f"{f}/{w}": round(times[f, w][-1], 3) for f in files for w in wheels}, flush=True)
def body(path):
    return [l for l in open(path) if not l.startswith("#")]
for f in files:
    ref_tbl, ref_out = body(f"/tmp/ab-{f}-w93-0.tbl"), body(f"/tmp/ab-{f}-w93-0.out")
    same = all(body(f"/tmp/ab-{f}-{w}-{r}.tbl") == ref_tbl and body(f"/tmp/ab-{f}-{w}-{r}.out") == ref_out
               for w in wheels for r in range(R))
    for w in wheels:
        print(f, w, "median", round(statistics.median(times[f, w]), 3), "min", round(min(times[f, w]), 3))
    print(f, "every tblout and report (but # lines) the same as w93's first:", same, len(ref_tbl), "rows")
PY
echo "ab at $(( $(date +%s) - S0 )) s"; tail -6 $OUT/ab-6.log
echo "done at $(( $(date +%s) - S0 )) s"
