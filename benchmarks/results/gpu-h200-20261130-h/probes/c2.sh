# Session 71, call 2: the upload's host work indexed once a distinct length (.carry/w106: the
# working tree, db8fb7d + index_target_lengths) against db8fb7d (.carry/w105), both carried in
# .carry/ab106.tar.xz. The chunk's upload alone (session 62's upload.py), whole commands
# alternated with their outputs compared, the hmmsearch benchmark on w106, every cuda-marked
# test and the search tests on w106, memcheck of the claims and streams sections beside them.
set -uo pipefail
S0=$(date +%s)
tar xJf .carry/ab106.tar.xz -C .carry
K=benchmarks/results/gpu-h200-20261129-k/probes
DATA_WHEEL=w106 source $K/data.sh
echo "data at $(( $(date +%s) - S0 )) s"
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > $OUT/device-2.txt; nproc >> $OUT/device-2.txt
export GPUSEQ_CACHE_DIR=/tmp/kc-71
ARGS="hmmsearch --cpu 16 --noali --backend cuda --no-progress"
for w in w105 w106; do
  PYTHONPATH=$PWD/.carry/$w:/tmp/site python3 -m gpuseq.cli $ARGS --tblout /tmp/warm.tbl -o /dev/null $MANY $DB
  PYTHONPATH=$PWD/.carry/$w:/tmp/site python3 -m gpuseq.cli $ARGS --tblout /tmp/warm.tbl -o /dev/null $SIX $DB
done
for r in 0 1 2 3 4; do for w in w105 w106; do echo -n "$w "; PYTHONPATH=$PWD/.carry/$w:/tmp/site python3 $K/upload.py $DB plain; done; done > $OUT/upload-2.log 2>&1
echo "upload at $(( $(date +%s) - S0 )) s"; cat $OUT/upload-2.log
python3 - > $OUT/ab-2.log 2>&1 <<PY
import os, subprocess, sys, time, statistics
wheels = {"w105": "$PWD/.carry/w105", "w106": "$PWD/.carry/w106"}
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
    ref_tbl, ref_out = body(f"/tmp/ab-{f}-w105-0.tbl"), body(f"/tmp/ab-{f}-w105-0.out")
    same = all(body(f"/tmp/ab-{f}-{w}-{r}.tbl") == ref_tbl and body(f"/tmp/ab-{f}-{w}-{r}.out") == ref_out
               for w in wheels for r in range(8))
    for w in wheels:
        print(f, w, "median", round(statistics.median(times[f, w]), 3), "min", round(min(times[f, w]), 3))
    print(f, "every tblout and report (but # lines) the same as w105's first:", same, len(ref_tbl), "rows")
PY
echo "ab at $(( $(date +%s) - S0 )) s"; grep -E "median|same" $OUT/ab-2.log
export PYTHONPATH=$PWD/.carry/w106:/tmp/site
timeout 200 python3 benchmarks/bench_hmmsearch.py --examples-dir .carry/hmmer/examples --workdir /tmp/bench \
  --cpu 16 --seqs 1400000 --many-models 100 --repeat 3 --skip hmmsearch_many,pyhmmer \
  --out $OUT/bench_hmmsearch-2.json > $OUT/bench_hmmsearch-2.log 2>&1
echo "bench rc $? at $(( $(date +%s) - S0 )) s"; grep -A3 "speedups\|ratio" $OUT/bench_hmmsearch-2.log | tail -n 12
export PYTHONPATH=$PWD/.carry/w106:/tmp/site:$PWD/tests
( GPUSEQ_CACHE_DIR=/tmp/kc-m SECTIONS=claims,streams timeout 240 compute-sanitizer --tool memcheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/memcheck-2.log 2>&1; echo "memcheck rc $? at $(( $(date +%s) - S0 )) s" >> /tmp/rc-2.txt ) &
{ GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 220 python3 -m pytest -n 8 -q -ra -p no:cacheprovider -m cuda tests
  GPUSEQ_CACHE_DIR=/tmp/kc-t timeout 60 python3 -m pytest -n 8 -q -p no:cacheprovider tests/test_hmmsearch.py tests/test_hmmsearch_streaming.py tests/test_cli.py tests/test_large_search.py tests/test_gpu_multi.py; } > $OUT/pytest-2.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; grep -E "passed|failed" $OUT/pytest-2.log; grep -E "^(FAILED|ERROR)" $OUT/pytest-2.log | head
wait; cat /tmp/rc-2.txt; tail -3 $OUT/memcheck-2.log
echo "done at $(( $(date +%s) - S0 )) s"
