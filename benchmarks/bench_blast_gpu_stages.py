#!/usr/bin/env python3
"""blastp's two-hit stage on the GPU (cuda/blast) stage by stage, against the CPU stage.

Random subjects (``--subjects``, lengths 50-700, Robinson & Robinson composition) and random
queries of ``--query-lengths`` residues. For each query: the CPU stage
(``_core.blast_ungapped_hsps``, one thread; up to ``--cpu-max-length``) and the GPU stage
(``_core.gpu_blast_ungapped_hsps``; its time and each stage's the median of ``--repeat``) for
each ``--bins``, each ``--extensions`` variant (cuBLASTP's diagonal-based: a thread per
diagonal; hit-based: a thread per pair, then each diagonal replayed; window-based: a warp per
diagonal, 32 cells a step; the paper reports window-based 12-24% faster than diagonal-based)
and each ``--scorings`` table (the query's PSSM or BLOSUM62 in shared memory; the paper's
Kepler crossover was between 127 and 517 residues), with the GPU's seconds per stage (upload,
hit detection, assembling + segmented sort, filter, extension, host ordering), its counters
(word hits, pairs, extensions, overflowed subjects, batches) and whether its HSPs equal the
CPU's (beyond ``--cpu-max-length``: the first GPU variant's).
A JSON record goes to benchmarks/results/.

    python benchmarks/bench_blast_gpu_stages.py --subjects 200000 --bins 32 64 128 256 \
        --extensions diagonal hit window --scorings pssm blosum62
"""

from __future__ import annotations

import argparse
import datetime
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from provenance import record_header, source_info, write_record  # noqa: E402

AMINO = np.array(list("ACDEFGHIKLMNPQRSTVWY"))
ROBINSON = np.array(
    [78.05, 19.25, 53.64, 62.95, 38.56, 73.77, 21.99, 51.42, 57.44, 90.19,
     22.43, 44.87, 52.03, 42.64, 51.29, 71.20, 58.41, 64.41, 13.30, 32.16]
)  # fmt: skip
STAGES = ["upload_s", "detect_s", "sort_s", "filter_s", "extend_s", "order_s"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--subjects", type=int, default=100_000, help="database size [100000]")
    ap.add_argument("--bins", type=int, nargs="+", default=[0],
                    help="bins per subject (0: from its expected hits) [0]")
    ap.add_argument("--extensions", nargs="+", default=["diagonal", "hit", "window"],
                    choices=["diagonal", "hit", "window"], help="extension variants [all]")
    ap.add_argument("--hits-per-bin", type=int, nargs="+", default=[24],
                    help="expected hits per automatic bin [24]")
    ap.add_argument("--scorings", nargs="+", default=["auto"],
                    choices=["auto", "pssm", "blosum62"], help="score tables [auto]")
    ap.add_argument("--query-lengths", type=int, nargs="+", default=[100, 500, 1000],
                    help="query lengths [100 500 1000]")
    ap.add_argument("--cpu-max-length", type=int, default=1000,
                    help="longest query the CPU stage runs for [1000]")
    ap.add_argument("--repeat", type=int, default=1, help="GPU runs per variant [1]")
    ap.add_argument("--x-drop", type=int, default=16, help="raw X-drop [16]")
    ap.add_argument("--cutoff", type=int, default=30, help="raw score cutoff [30]")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", help="JSON output (default benchmarks/results/blast_gpu_stages-...)")
    args = ap.parse_args(argv)

    import gpuseq
    from gpuseq import _core, blast

    if not hasattr(_core, "gpu_blast_ungapped_hsps") or not gpuseq.cuda_devices():
        sys.exit("needs a CUDA build of gpuseq and a GPU")
    started = datetime.datetime.now().astimezone()
    rng = np.random.default_rng(args.seed)
    p = ROBINSON / ROBINSON.sum()
    lengths = rng.integers(50, 701, size=args.subjects)
    letters = rng.choice(AMINO, size=int(lengths.sum()), p=p)
    bounds = np.concatenate([[0], np.cumsum(lengths)])
    records = [(f"s{i}", "".join(letters[bounds[i] : bounds[i + 1]])) for i in range(len(lengths))]
    codes, offsets, _ = blast.encode(records)
    print(f"{len(lengths)} subjects, {int(offsets[-1])} residues")
    header = f"{'qlen':>5} {'bins':>5} {'ext.':>8} {'scores':>8} {'cpu s':>7} {'gpu s':>7} "
    header += " ".join(f"{s[:-2]:>7}" for s in STAGES)
    print(header + f" {'hits':>11} {'pairs':>10} {'ext':>9} {'ovf':>5} {'equal':>5}")
    rows = []
    for qlen in args.query_lengths:
        query = blast.encode([("q", "".join(rng.choice(AMINO, size=qlen, p=p)))])[0]
        common = (query, codes, offsets, args.x_drop, args.cutoff)
        cpu_s, reference = None, None
        if qlen <= args.cpu_max_length:
            t0 = time.perf_counter()
            reference, cpu_count = _core.blast_ungapped_hsps(*common)
            cpu_s = time.perf_counter() - t0
        _core.gpu_blast_ungapped_hsps(*common, bins=args.bins[0])  # warm-up (context, modules)
        for bins, per_bin in [(b, h) for b in args.bins for h in args.hits_per_bin]:
            for extension in args.extensions:
                for scoring in args.scorings:
                    times, stage_times = [], {s: [] for s in STAGES}
                    for _ in range(args.repeat):
                        t0 = time.perf_counter()
                        gpu_rows, count = _core.gpu_blast_ungapped_hsps(
                            *common, bins=bins, extension=extension, scoring=scoring,
                            hits_per_bin=per_bin)
                        times.append(time.perf_counter() - t0)
                        for s in STAGES:
                            stage_times[s].append(count[s])
                    gpu_s = statistics.median(times)
                    count.update({s: statistics.median(v) for s, v in stage_times.items()})
                    if reference is None:
                        reference, cpu_count = gpu_rows, count
                    equal = all(np.array_equal(gpu_rows[c], reference[c]) for c in reference)
                    equal = equal and count["extensions"] == cpu_count["extensions"]
                    row = {"query_length": qlen, "bins": bins, "hits_per_bin": per_bin,
                           "extension": extension,
                           "scoring": scoring, "cpu_s": cpu_s, "gpu_s": gpu_s,
                           "gpu_times_s": times, "equal": bool(equal),
                           "reference": "cpu" if cpu_s is not None else "gpu", **count}  # fmt: skip
                    rows.append(row)
                    cpu_text = f"{cpu_s:7.3f}" if cpu_s is not None else f"{'-':>7}"
                    bins_text = bins if bins else f"a{per_bin}"  # automatic: hits per bin
                    print(f"{qlen:>5} {bins_text:>5} {extension:>8} {scoring:>8} {cpu_text} "
                          f"{gpu_s:7.3f} " + " ".join(f"{count[s]:7.3f}" for s in STAGES)
                          + f" {count['word_hits']:>11} {count['pairs']:>10}"
                          f" {count['extensions']:>9} {count['overflowed_subjects']:>5}"
                          f" {str(equal):>5}", flush=True)  # fmt: skip
    record = {
        **record_header("blast_gpu_stages", started),
        "devices": gpuseq.cuda_devices(),
        "software": {"gpuseq": gpuseq.__version__, "git": source_info()},
        "database": {"subjects": len(lengths), "residues": int(offsets[-1])},
        "results": rows,
    }
    write_record(record, args.out, "blast_gpu_stages", started)
    return 0


if __name__ == "__main__":
    sys.exit(main())
