"""Session 74 (for the next GPU session): does writing the environment while the CUDA driver
starts crash the process? Each of RUNS processes starts the driver on a thread
(gpuseq._core.cuda_initialize, as backend.start_cuda does) while its main thread, in mode
"putenv", adds variables with os.putenv as fast as it can until the start ends (glibc may
move the environment array that the driver's getenv walks), in mode "numpy" imports NumPy
without the fix's variable set (the write gpuseq blastp crashed after), in mode "none" waits.
Mode "fixed" (session 75) starts the driver as the commands do, through backend.start_cuda
(the fix: NumPy's variable set first), then imports NumPy.
Prints the count of runs per exit status.

    python3 env_race.py putenv|numpy|none|fixed RUNS [PARALLEL]"""

from __future__ import annotations

import collections
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

CHILD = """
import os, sys, threading
from gpuseq import _core
mode = sys.argv[1]
if mode == "fixed":
    from gpuseq import backend
    assert "numpy" not in sys.modules
    started = backend.start_cuda("race")
    import numpy
    started.result()
    sys.exit(0)
done = threading.Event()
def start():
    _core.cuda_initialize("auto")
    done.set()
threading.Thread(target=start).start()
if mode == "putenv":
    i = 0
    while not done.is_set():
        os.putenv(f"GPUSEQ_RACE_{i}", "1"); i += 1
elif mode == "numpy":
    import numpy
done.wait()
"""

mode, runs = sys.argv[1], int(sys.argv[2])
parallel = int(sys.argv[3]) if len(sys.argv) > 3 else 8
env = {k: v for k, v in os.environ.items() if not k.endswith("BLAS_MAIN_FREE")}


def one(_):
    run = subprocess.run([sys.executable, "-c", CHILD, mode], capture_output=True, text=True,
                         env=env, timeout=120)  # fmt: skip
    return run.returncode, run.stderr[-300:]


with ThreadPoolExecutor(parallel) as pool:
    results = list(pool.map(one, range(runs)))
counts = collections.Counter(code for code, _ in results)
print(f"{mode}: {runs} runs, exit status counts {dict(sorted(counts.items()))}")
for code, err in results:
    if code:
        print(f"  status {code}: {err.strip()[:300]}")
        break
