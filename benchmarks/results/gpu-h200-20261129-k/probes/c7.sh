# Session 62, call 7: the upload's residue copy beside its host work per target, the length
# classes beside the longest-first order (.carry/w84: the working tree, c952b8e + that change in
# gpu_filters.cu) against c952b8e (.carry/w83, the same Python). The upload alone, whole
# commands alternated with their outputs compared, stamps; then every cuda-marked test, the
# search tests, and memcheck/racecheck of the filters, claims and streams sections.
set -uo pipefail
S0=$(date +%s)
P=benchmarks/results/gpu-h200-20261129-k/probes
DATA_WHEEL=w83 source $P/data.sh
echo "data at $(( $(date +%s) - S0 )) s"
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > $OUT/device-7.txt
export GPUSEQ_CACHE_DIR=/tmp/kc-62
ARGS="hmmsearch --cpu 16 --noali --backend cuda --no-progress"
for w in w83 w84; do
  PYTHONPATH=$PWD/.carry/$w:/tmp/site python3 -m gpuseq.cli $ARGS --tblout /tmp/warm.tbl -o /dev/null $MANY $DB
  PYTHONPATH=$PWD/.carry/$w:/tmp/site python3 -m gpuseq.cli $ARGS --tblout /tmp/warm.tbl -o /dev/null $SIX $DB
done
{ for r in 0 1 2 3; do for w in w83 w84; do echo -n "$w "; PYTHONPATH=$PWD/.carry/$w:/tmp/site python3 $P/upload.py $DB plain; done; done
  for r in 0 1 2; do echo "== six w84 $r"; PYTHONPATH=$PWD/.carry/w84:/tmp/site python3 $P/cmd_stamps.py $ARGS --tblout /tmp/s.tbl -o /dev/null $SIX $DB 2>&1 | grep -E "modules|first  |_upload|gpu_run_cascade|_run_hmmer|exit"; done; } > $OUT/upload-7.log 2>&1
echo "upload at $(( $(date +%s) - S0 )) s"; grep -E "^w8" $OUT/upload-7.log
python3 - > $OUT/ab-7.log 2>&1 <<PY
import os, subprocess, sys, time, statistics
wheels = {"w83": "$PWD/.carry/w83", "w84": "$PWD/.carry/w84"}
files = {"six": "$SIX", "100": "$MANY"}
times = {(f, w): [] for f in files for w in wheels}
for r in range(8):
    for f, hmm in files.items():
        for w in (list(wheels) if r % 2 == 0 else list(wheels)[::-1]):
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
    ref_tbl, ref_out = body(f"/tmp/ab-{f}-w83-0.tbl"), body(f"/tmp/ab-{f}-w83-0.out")
    same = all(body(f"/tmp/ab-{f}-{w}-{r}.tbl") == ref_tbl and body(f"/tmp/ab-{f}-{w}-{r}.out") == ref_out
               for w in wheels for r in range(8))
    for w in wheels:
        print(f, w, "median", round(statistics.median(times[f, w]), 3), "min", round(min(times[f, w]), 3))
    print(f, "every tblout and report (but # lines) the same as w83's first:", same, len(ref_tbl), "rows")
PY
echo "ab at $(( $(date +%s) - S0 )) s"; grep -E "median|same" $OUT/ab-7.log
export PYTHONPATH=$PWD/.carry/w84:/tmp/site
( GPUSEQ_CACHE_DIR=/tmp/kc-m SECTIONS=filters,claims,streams timeout 300 compute-sanitizer --tool memcheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/memcheck-7.log 2>&1; echo "memcheck rc $? at $(( $(date +%s) - S0 )) s" >> /tmp/rc-7.txt ) &
( GPUSEQ_CACHE_DIR=/tmp/kc-r SECTIONS=filters,claims,streams timeout 300 compute-sanitizer --tool racecheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/racecheck-7.log 2>&1; echo "racecheck rc $? at $(( $(date +%s) - S0 )) s" >> /tmp/rc-7.txt ) &
{ GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 280 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests
  GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 120 python3 -m pytest -n 8 -q -p no:cacheprovider tests/test_hmmsearch.py tests/test_hmmsearch_streaming.py tests/test_cli.py tests/test_large_search.py; } > $OUT/pytest-7.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; grep -E "passed|failed" $OUT/pytest-7.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-7.log | head
wait; cat /tmp/rc-7.txt; tail -2 $OUT/memcheck-7.log $OUT/racecheck-7.log
echo "done at $(( $(date +%s) - S0 )) s"
