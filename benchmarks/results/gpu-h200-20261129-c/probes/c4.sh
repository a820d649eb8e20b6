# Session 53, call 4: whole commands alternated, the downstream's parts split by estimated work
# (dsprobe.py cost<ms>: parts of at least that many ms, at most one a thread) against the
# package's split (base: a part a thread, at least 4 targets), six models and 100.
set -uo pipefail
S0=$(date +%s)
P=benchmarks/results/gpu-h200-20261129-c/probes
source $P/data.sh
export GPUSEQ_CACHE_DIR=/tmp/kc-53 PYTHONPATH=$PWD/.carry/wNew2:/tmp/site
ARGS="hmmsearch --cpu 16 --noali --backend cuda --no-progress"
python3 -m gpuseq.cli $ARGS --tblout /tmp/warm100.tbl -o /dev/null $MANY $DB
python3 -m gpuseq.cli $ARGS --tblout /tmp/warm.tbl -o /dev/null $SIX $DB
echo "warm at $(( $(date +%s) - S0 )) s"
python3 - > $OUT/cost-split-4.log 2>&1 <<PY
import subprocess, sys, time, statistics
variants = ["base", "cost25", "cost50", "cost100"]
files = {"six": ("$SIX", "/tmp/warm.tbl"), "100": ("$MANY", "/tmp/warm100.tbl")}
times = {(f, v): [] for f in files for v in variants}
for r in range(6):
    order = variants if r % 2 == 0 else variants[::-1]
    for f, (hmm, _) in files.items():
        for v in order:
            t = time.perf_counter()
            subprocess.run([sys.executable, "$P/dsprobe.py", "run", v, "--", *"$ARGS".split(),
                            "--tblout", f"/tmp/c-{f}-{v}.tbl", "-o", f"/tmp/c-{f}-{v}.out", hmm, "$DB"],
                           check=True)
            times[f, v].append(time.perf_counter() - t)
    print("round", r, {f"{f}/{v}": round(times[f, v][-1], 3) for f in files for v in variants}, flush=True)
for f, (_, ref_path) in files.items():
    ref = [l for l in open(ref_path) if not l.startswith("#")]
    for v in variants:
        same = [l for l in open(f"/tmp/c-{f}-{v}.tbl") if not l.startswith("#")] == ref
        print(f, v, "median", round(statistics.median(times[f, v]), 3), "min", round(min(times[f, v]), 3),
              "tblout same", same)
PY
echo "commands at $(( $(date +%s) - S0 )) s"
for v in cost25 cost50; do
  python3 $P/dsprobe.py timeline $v -- $ARGS --tblout /tmp/t100.tbl -o /tmp/t100.out $MANY $DB > $OUT/end-100-$v-4.log 2>&1
  grep -E "^\[|downstream|finish|__exit__" $OUT/end-100-$v-4.log | grep -v busy
done
tail -8 $OUT/cost-split-4.log
