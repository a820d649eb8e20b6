# Session 53, call 11: K models of one S (the first K of the 100 built from globins4), the
# shared SSV blocks from 4 models (the package) or never (10**6), whole commands alternated.
set -uo pipefail
P=benchmarks/results/gpu-h200-20261129-c/probes
source $P/data.sh
export GPUSEQ_CACHE_DIR=/tmp/kc-53 PYTHONPATH=$PWD/.carry/w53:/tmp/site
python3 $P/minblocks.py split $MANY /tmp
ARGS="hmmsearch --cpu 16 --noali --backend cuda --no-progress"
python3 -m gpuseq.cli $ARGS --tblout /tmp/warm.tbl -o /dev/null /tmp/first-32.hmm $DB
python3 - > $OUT/min-blocks-11.log 2>&1 <<PY
import subprocess, sys, time, statistics
times = {}
for r in range(4):
    for k in (4, 8, 16, 32):
        for n in ((4, 1000000) if r % 2 == 0 else (1000000, 4)):
            t = time.perf_counter()
            subprocess.run([sys.executable, "$P/minblocks.py", "run", str(n), "--", *"$ARGS".split(),
                            "--tblout", f"/tmp/m-{k}-{n}.tbl", "-o", "/dev/null", f"/tmp/first-{k}.hmm", "$DB"], check=True)
            times.setdefault((k, n), []).append(time.perf_counter() - t)
    print("round", r, {f"{k}/{n}": round(v[-1], 3) for (k, n), v in times.items()}, flush=True)
for k in (4, 8, 16, 32):
    a, b = [l for l in open(f"/tmp/m-{k}-4.tbl") if not l.startswith("#")], [l for l in open(f"/tmp/m-{k}-1000000.tbl") if not l.startswith("#")]
    print(k, "models: blocks", round(statistics.median(times[k, 4]), 3), "none", round(statistics.median(times[k, 1000000]), 3), "tblout same", a == b)
PY
tail -5 $OUT/min-blocks-11.log
