# Session 54, call 4: the targets' classes and longest-first order made with the upload
# (.carry/w55 = 4c6e777 + that change) against 4c6e777 (.carry/w54): the first cascades
# (firstcascade.py), whole packed six-model commands alternated, the GPU tests of targets and
# the search, memcheck of the sections that launch over them.
set -uo pipefail
S0=$(date +%s)
P=benchmarks/results/gpu-h200-20261129-d/probes
source $P/data.sh
export GPUSEQ_CACHE_DIR=/tmp/kc-54
for w in w54 w55; do PYTHONPATH=$PWD/.carry/$w:/tmp/site python3 $P/firstcascade.py $DB $SIX > /dev/null 2>&1; done
for r in 1 2; do for w in w54 w55; do
  echo "== round $r $w"; PYTHONPATH=$PWD/.carry/$w:/tmp/site python3 $P/firstcascade.py $DB $SIX | grep -v again
done; done > $OUT/first-cascade-4.log 2>&1
grep -B1 "M=1142" $OUT/first-cascade-4.log | grep -v "^--"
ARGS="hmmsearch --cpu 16 --noali --backend cuda --no-progress"
python3 - > $OUT/ab-six-4.log 2>&1 <<PY
import os, subprocess, sys, time, statistics
times = {}
for r in range(6):
    for w in (("w54", "w55") if r % 2 == 0 else ("w55", "w54")):
        env = dict(os.environ, PYTHONPATH=f"$PWD/.carry/{w}:/tmp/site")
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "gpuseq.cli", *"$ARGS".split(), "--tblout", f"/tmp/six-{w}.tbl",
                        "-o", f"/tmp/six-{w}.out", "$SIX", "$DB"], check=True, env=env)
        times.setdefault(w, []).append(time.perf_counter() - t)
    print("round", r, {w: round(v[-1], 3) for w, v in times.items()}, flush=True)
rows = lambda p: [l for l in open(p) if not l.startswith("#")]
print({w: round(statistics.median(v), 3) for w, v in times.items()}, "tblout same", rows("/tmp/six-w54.tbl") == rows("/tmp/six-w55.tbl"))
PY
echo "ab at $(( $(date +%s) - S0 )) s"; tail -1 $OUT/ab-six-4.log
export PYTHONPATH=$PWD/.carry/w55:/tmp/site
timeout 200 python3 -m pytest -q -n 8 -p no:cacheprovider -ra -m cuda tests/test_gpu_filters.py tests/test_gpu_multi.py tests/test_gpu_nvrtc.py tests/test_hmmsearch.py tests/test_hmmsearch_streaming.py tests/test_cli.py > $OUT/pytest-search-4.log 2>&1
echo "pytest rc $? at $(( $(date +%s) - S0 )) s"; tail -2 $OUT/pytest-search-4.log
SECTIONS=filters,claims,slane timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 python3 tests/cuda_sanitizer_workload.py > $OUT/memcheck-targets-4.log 2>&1; echo "memcheck rc $? at $(( $(date +%s) - S0 )) s"; tail -n 2 $OUT/memcheck-targets-4.log
