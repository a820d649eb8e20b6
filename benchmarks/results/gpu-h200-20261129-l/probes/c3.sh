# Session 63, call 3: (a) the new GPU tests against the module before the fixes (.carry/w85,
# 4ff8941): the one-thread staging test and the offsets test must fail there; (b) the packed
# commands, six models and 100, before (w85) and after (w86), 6 rounds alternated, every
# output compared (w86 checks the database's offsets when it opens it).
set -uo pipefail
S0=$(date +%s)
P=benchmarks/results/gpu-h200-20261129-k/probes
DATA_WHEEL=w86 source $P/data.sh
echo "data at $(( $(date +%s) - S0 )) s"
PYTHONPATH=$PWD/.carry/w85:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-o timeout 120 python3 -m pytest -q -p no:cacheprovider \
  tests/test_distance.py -k "staging_pieces" > $OUT/old-tests-3.log 2>&1
echo "w85 staging test rc $?" | tee -a $OUT/old-tests-3.log
PYTHONPATH=$PWD/.carry/w85:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-o timeout 120 python3 -m pytest -q -p no:cacheprovider \
  tests/test_gpu_filters.py -k "start_inside" >> $OUT/old-tests-3.log 2>&1
echo "w85 offsets test rc $?" | tee -a $OUT/old-tests-3.log
grep -E "^(FAILED|E  )" $OUT/old-tests-3.log | head -8
ARGS="hmmsearch --cpu 16 --noali --backend cuda --no-progress"
export GPUSEQ_CACHE_DIR=/tmp/kc-63
for w in w85 w86; do for f in $MANY $SIX; do
  PYTHONPATH=$PWD/.carry/$w:/tmp/site python3 -m gpuseq.cli $ARGS --tblout /tmp/warm.tbl -o /dev/null $f $DB; done; done
echo "warm at $(( $(date +%s) - S0 )) s"
python3 - > $OUT/ab-3.log 2>&1 <<PY
import os, subprocess, sys, time, statistics
wheels = {"w85": "$PWD/.carry/w85", "w86": "$PWD/.carry/w86"}
files = {"six": "$SIX", "100": "$MANY"}
times = {(f, w): [] for f in files for w in wheels}
R = 6
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
    ref_tbl, ref_out = body(f"/tmp/ab-{f}-w85-0.tbl"), body(f"/tmp/ab-{f}-w85-0.out")
    same = all(body(f"/tmp/ab-{f}-{w}-{r}.tbl") == ref_tbl and body(f"/tmp/ab-{f}-{w}-{r}.out") == ref_out
               for w in wheels for r in range(R))
    for w in wheels:
        print(f, w, "median", round(statistics.median(times[f, w]), 3), "min", round(min(times[f, w]), 3))
    print(f, "every tblout and report (but # lines) the same as w85's first:", same, len(ref_tbl), "rows")
PY
echo "ab at $(( $(date +%s) - S0 )) s"; tail -6 $OUT/ab-3.log
