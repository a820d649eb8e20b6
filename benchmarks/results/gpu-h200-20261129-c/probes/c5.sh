# Session 53, call 5: the change (wheel .carry/w53: HEAD's module with hmmsearch.py's parts
# split by estimated work) against HEAD (.carry/wNew2): the GPU search tests, whole commands
# alternated (six models, 100), then the hmmsearch benchmark.
set -uo pipefail
S0=$(date +%s)
P=benchmarks/results/gpu-h200-20261129-c/probes
source $P/data.sh
export GPUSEQ_CACHE_DIR=/tmp/kc-53
ARGS="hmmsearch --cpu 16 --noali --backend cuda --no-progress"
for w in wNew2 w53; do
  PYTHONPATH=$PWD/.carry/$w:/tmp/site python3 -m gpuseq.cli $ARGS --tblout /tmp/warm100-$w.tbl -o /dev/null $MANY $DB
  PYTHONPATH=$PWD/.carry/$w:/tmp/site python3 -m gpuseq.cli $ARGS --tblout /tmp/warm-$w.tbl -o /dev/null $SIX $DB
done
echo "warm at $(( $(date +%s) - S0 )) s"
{ PYTHONPATH=$PWD/.carry/w53:/tmp/site timeout 200 python3 -m pytest -q -n 8 -p no:cacheprovider -m cuda \
  tests/test_hmmsearch.py tests/test_hmmsearch_streaming.py tests/test_cli.py
  PYTHONPATH=$PWD/.carry/w53:/tmp/site python3 -m pytest -q -p no:cacheprovider \
  -k "split_by_cost or equal_work" tests/test_hmmsearch_streaming.py; } > $OUT/pytest-5.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; tail -2 $OUT/pytest-5.log
python3 - > $OUT/ab-5.log 2>&1 <<PY
import os, subprocess, sys, time, statistics
wheels = ["wNew2", "w53"]
files = {"six": "$SIX", "100": "$MANY"}
times = {(f, w): [] for f in files for w in wheels}
for r in range(6):
    for f, hmm in files.items():
        for w in (wheels if r % 2 == 0 else wheels[::-1]):
            env = dict(os.environ, PYTHONPATH=f"$PWD/.carry/{w}:/tmp/site")
            t = time.perf_counter()
            subprocess.run([sys.executable, "-m", "gpuseq.cli", *"$ARGS".split(), "--tblout",
                            f"/tmp/ab-{f}-{w}.tbl", "-o", f"/tmp/ab-{f}-{w}.out", hmm, "$DB"],
                           check=True, env=env)
            times[f, w].append(time.perf_counter() - t)
    print("round", r, {f"{f}/{w}": round(times[f, w][-1], 3) for f in files for w in wheels}, flush=True)
for f in files:
    ref = [l for l in open(f"/tmp/ab-{f}-wNew2.tbl") if not l.startswith("#")]
    new = [l for l in open(f"/tmp/ab-{f}-w53.tbl") if not l.startswith("#")]
    out_same = [l for l in open(f"/tmp/ab-{f}-wNew2.out") if not l.startswith("#")] == \
               [l for l in open(f"/tmp/ab-{f}-w53.out") if not l.startswith("#")]
    for w in wheels:
        print(f, w, "median", round(statistics.median(times[f, w]), 3), "min", round(min(times[f, w]), 3))
    print(f, "tblout same", ref == new, "report same (but # lines)", out_same)
PY
echo "ab at $(( $(date +%s) - S0 )) s"; tail -6 $OUT/ab-5.log
export PYTHONPATH=$PWD/.carry/w53:/tmp/site GPUSEQ_CACHE_DIR=/tmp/kc-bench
left=$(( 585 - ($(date +%s) - S0) )); echo "left $left s"
timeout $left python3 benchmarks/bench_hmmsearch.py --examples-dir .carry/hmmer/examples --workdir /tmp/bench \
  --cpu 16 --seqs 1400000 --many-models 100 --repeat 3 --skip hmmsearch_many,pyhmmer \
  --out $OUT/bench_hmmsearch-5.json > $OUT/bench_hmmsearch-5.log 2>&1
echo "bench rc $? at $(( $(date +%s) - S0 )) s"; tail -n 14 $OUT/bench_hmmsearch-5.log
