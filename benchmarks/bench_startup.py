#!/usr/bin/env python3
"""Start-up time: ``import gpuseq``, ``gpuseq --help`` and ``gpuseq hmmsearch`` on the bundled
example, each in a fresh interpreter.

On a small database most of a search can be Python starting and importing (numpy, pyhmmer),
so these are timed apart. Each command runs ``--repeat`` times after one warm-up run (the files
are then in the page cache); the median, minimum and maximum wall times are printed and
written as JSON to benchmarks/results/ with the machine, the commit and the command. The
targets: ``import gpuseq`` <= 0.15 s, ``gpuseq --help`` <= 0.2 s. Where the time goes:
``python -X importtime -c "import gpuseq"``.

    python benchmarks/bench_startup.py                 # 15 runs each
    python benchmarks/bench_startup.py --repeat 5 --out /tmp/startup.json
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from provenance import REPO, record_header, source_info, wall_times, write_record  # noqa: E402

EXAMPLES = REPO / "examples"
# `python -m gpuseq.cli` is what the `gpuseq` console script runs (gpuseq.cli:main), without
# depending on where the script was installed.
CLI = [sys.executable, "-m", "gpuseq.cli"]
COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "import gpuseq": [sys.executable, "-c", "import gpuseq"],
    "gpuseq --help": [*CLI, "--help"],
    "gpuseq hmmsearch (example)": [*CLI, "hmmsearch", "--cpu", "1", "--no-progress",
                                   str(EXAMPLES / "globins4.hmm"),
                                   str(EXAMPLES / "globins45.fa")],
}
TARGETS = {"import gpuseq": 0.15, "gpuseq --help": 0.2}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=15, help="runs per command [15]")
    p.add_argument("--out", help="JSON output (default benchmarks/results/startup-<host>-<date>"
                   ".json)")
    args = p.parse_args(argv)

    started = datetime.datetime.now().astimezone()
    rows = []
    print(f"{'command':<28} {'median s':>9} {'min s':>7} {'max s':>7} {'target':>7}")
    for name, cmd in COMMANDS.items():
        times = wall_times(cmd, args.repeat, warm_up=True)
        row = {"name": name, "argv": cmd, "median_s": statistics.median(times),
               "min_s": min(times), "max_s": max(times), "target_s": TARGETS.get(name),
               "times_s": times}
        rows.append(row)
        target = f"{row['target_s']:.2f}" if row["target_s"] else ""
        print(f"{name:<28} {row['median_s']:9.3f} {row['min_s']:7.3f} {row['max_s']:7.3f} "
              f"{target:>7}")

    import gpuseq

    record = {
        **record_header("startup", started),
        "software": {"gpuseq": gpuseq.__version__, "git": source_info(),
                     "gpuseq_path": os.path.dirname(gpuseq.__file__)},
        "repeat": args.repeat,
        "results": rows,
    }
    write_record(record, args.out, "startup", started)
    return 0


if __name__ == "__main__":
    sys.exit(main())
