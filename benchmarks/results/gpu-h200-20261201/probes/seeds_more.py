"""Session 72: the random-case tests of the distances and the segmentation
(tests/test_random_distances.py, tests/test_random_segmentation.py) as fuzzers on the GPU. Runs
the cuda case of one for seeds FIRST, FIRST + STEP, ... until SECONDS have passed; a case that
fails prints its seed and assertion.

    python3 seeds_more.py distances|segmentation FIRST STEP SECONDS"""

from __future__ import annotations

import sys
import tempfile
import time
import traceback
from pathlib import Path

import test_random_distances as d
import test_random_segmentation as s

tool, first, step, seconds = sys.argv[1], *map(int, sys.argv[2:4]), float(sys.argv[4])
end, seed, cases, failed = time.time() + seconds, first, 0, 0
while time.time() < end:
    start = time.time()
    try:
        if tool == "distances":
            with tempfile.TemporaryDirectory() as work:
                d.test_random_distance_call_equals_the_reference(seed, "cuda", Path(work))
        else:
            for kernel in ("tiled", "paper"):
                s.test_random_segmentation_on_the_gpu_equals_the_cpu(seed, kernel)
        print(f"seed {seed}: same ({time.time() - start:.1f} s)", flush=True)
    except Exception:  # noqa: BLE001 - every failure is reported and the fuzzing goes on
        failed += 1
        print(f"seed {seed}: FAILED ({time.time() - start:.1f} s)\n{traceback.format_exc()[-3000:]}",
              flush=True)
    cases += 1
    seed += step
print(f"{tool} cuda from seed {first}: {cases} cases, {failed} failed")
