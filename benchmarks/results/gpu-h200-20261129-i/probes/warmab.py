"""Session 59: warm NVRTC cache runs of `gpuseq hmmsearch`, two wheels alternated, after
../gpu-h200-20261129-b/probes/cold.py has made /tmp/cold (its database, query files and one
round's caches: kc-old-*-0, kc-new-*-0). Each run a process, timed from start to end.
Usage: warmab.py OLD_WHEEL NEW_WHEEL ROUNDS (from the repository root)."""
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

old, new, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
work = Path("/tmp/cold")
for queries in ("six.hmm", "spread.hmm"):
    times = {"old": [], "new": []}
    for r in range(rounds):
        for name in ("old", "new") if r % 2 == 0 else ("new", "old"):
            wheel = old if name == "old" else new
            env = {**os.environ, "PYTHONPATH": f"{wheel}:/tmp/site",
                   "GPUSEQ_CACHE_DIR": str(work / f"kc-{name}-{queries}-0")}
            t = time.perf_counter()
            subprocess.run([sys.executable, "-m", "gpuseq.cli", "hmmsearch", "--cpu", "16",
                            "--noali", "--tblout", str(work / f"ab-{name}.tbl"), "-o",
                            "/dev/null", "--backend", "cuda", "--no-progress",
                            str(work / queries), str(work / "db.gsdb")], env=env, check=True)
            times[name].append(time.perf_counter() - t)
    print(queries, {k: " ".join(f"{x:.3f}" for x in v) for k, v in times.items()})
    print(queries, "median old", f"{statistics.median(times['old']):.3f}",
          "new", f"{statistics.median(times['new']):.3f}", flush=True)
