# Session 62, call 1: each downstream thread keeps its pyhmmer Pipeline (.carry/w83: the
# working tree, f2f47b7 + hmmsearch.py) against a new Pipeline a part (.carry/w82, f2f47b7's
# module; same _core). A third variant, /tmp/w84: w83 with PART_SECONDS 0.025 (made here).
# Timelines of the downstream in process, whole commands alternated with their outputs
# compared, then the search tests (they search on the GPU here) on w83.
set -uo pipefail
S0=$(date +%s)
P=benchmarks/results/gpu-h200-20261129-k/probes
DATA_WHEEL=w82 source $P/data.sh
echo "data at $(( $(date +%s) - S0 )) s"
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > $OUT/device-1.txt
mkdir -p /tmp/w84 && cp -r .carry/w83/gpuseq /tmp/w84/ && sed -i 's/    PART_SECONDS = 0.05$/    PART_SECONDS = 0.025/' /tmp/w84/gpuseq/hmmsearch.py
grep -n "PART_SECONDS = " /tmp/w84/gpuseq/hmmsearch.py
export GPUSEQ_CACHE_DIR=/tmp/kc-62
ARGS="hmmsearch --cpu 16 --noali --backend cuda --no-progress"
path() { case $1 in w84) echo /tmp/w84;; *) echo $PWD/.carry/$1;; esac; }
for w in w82 w83; do  # warm the kernel cache and the page cache
  PYTHONPATH=$(path $w):/tmp/site python3 -m gpuseq.cli $ARGS --tblout /tmp/warm-$w.tbl -o /dev/null $MANY $DB
  PYTHONPATH=$(path $w):/tmp/site python3 -m gpuseq.cli $ARGS --tblout /tmp/warm-$w.tbl -o /dev/null $SIX $DB
done
echo "warm at $(( $(date +%s) - S0 )) s"
{ for r in 0 1 2; do for f in SIX MANY; do for w in w82 w83 w84; do
  echo "== round $r $f $w"
  PYTHONPATH=$(path $w):/tmp/site python3 $P/cli_timeline.py $ARGS --tblout /tmp/tl.tbl -o /dev/null ${!f} $DB 2>&1
done; done; done; } > $OUT/timeline-1.log 2>&1
echo "timelines at $(( $(date +%s) - S0 )) s"
python3 - > $OUT/ab-1.log 2>&1 <<PY
import os, subprocess, sys, time, statistics
wheels = {"w82": "$PWD/.carry/w82", "w83": "$PWD/.carry/w83", "w84": "/tmp/w84"}
files = {"six": "$SIX", "100": "$MANY"}
times = {(f, w): [] for f in files for w in wheels}
for r in range(8):
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
    ref_tbl, ref_out = body(f"/tmp/ab-{f}-w82-0.tbl"), body(f"/tmp/ab-{f}-w82-0.out")
    same = all(body(f"/tmp/ab-{f}-{w}-{r}.tbl") == ref_tbl and body(f"/tmp/ab-{f}-{w}-{r}.out") == ref_out
               for w in wheels for r in range(8))
    for w in wheels:
        print(f, w, "median", round(statistics.median(times[f, w]), 3), "min", round(min(times[f, w]), 3))
    print(f, "every tblout and report (but # lines) the same as w82's first:", same, len(ref_tbl), "rows")
PY
echo "ab at $(( $(date +%s) - S0 )) s"; tail -8 $OUT/ab-1.log
PYTHONPATH=$PWD/.carry/w83:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 300 python3 -m pytest -q -n 8 -p no:cacheprovider \
  tests/test_hmmsearch.py tests/test_hmmsearch_streaming.py tests/test_cli.py tests/test_large_search.py > $OUT/pytest-search-1.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; tail -1 $OUT/pytest-search-1.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-search-1.log | head
grep -E "^== |_run_hmmer_downstream|main " $OUT/timeline-1.log | paste - - - | awk '{print}' | head -40
