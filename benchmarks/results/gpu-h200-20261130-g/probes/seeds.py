"""Session 70: the random-command tests (tests/test_random_commands.py) as a fuzzer. Runs the
test of one tool for seeds FIRST, FIRST + STEP, ... until SECONDS have passed, each case in its
own folder; a case that fails keeps its folder, prints the end of its assertion and writes the
whole of it (both commands' stderr) to the folder's failure.txt (session 75).

    python3 seeds.py hmmsearch|blastp BACKEND FIRST STEP SECONDS"""

from __future__ import annotations

import shutil
import sys
import time
import traceback
from pathlib import Path

import test_random_commands as t

tool, backend, first, step, seconds = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:5]), \
    float(sys.argv[5])
test = {"hmmsearch": t.test_random_hmmsearch_command_equals_hmmsearch,
        "blastp": t.test_random_blastp_command_equals_blastp}[tool]
root = Path(f"/tmp/seeds-{tool}-{backend}-{first}")
shutil.rmtree(root, ignore_errors=True)
end, seed, cases, failed = time.time() + seconds, first, 0, 0
while time.time() < end:
    work = root / f"s{seed}"
    work.mkdir(parents=True)
    start = time.time()
    try:
        test(seed, backend, work)
        shutil.rmtree(work)
        print(f"seed {seed}: same ({time.time() - start:.1f} s)", flush=True)
    except Exception:  # noqa: BLE001 - every failure is reported and the fuzzing goes on
        failed += 1
        whole = traceback.format_exc()
        (work / "failure.txt").write_text(whole)
        print(f"seed {seed}: FAILED ({time.time() - start:.1f} s)\n{whole[-3000:]}", flush=True)
    cases += 1
    seed += step
print(f"{tool} {backend} from seed {first}: {cases} cases, {failed} failed")
