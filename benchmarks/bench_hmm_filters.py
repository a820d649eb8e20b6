"""Filter kernel speed: GCUPS of the SSV, MSV and Viterbi filters per model length, on the GPU
(cuda/hmm, CUDAMPF warp kernels, and the Viterbi filter a thread per target, Walters et al.
2009) and on all CPU cores (cpp/hmm), in one run.

GCUPS = model length x target residues / seconds / 1e9. GPU times are device events around one
kernel launch over every target of a random database (median of --repeat); the full MSV
recurrence runs on every target (in a search it runs only where the SSV cannot decide). CPU
times are the wall time of `_core.filter_scores` on all cores over a smaller database (the
filter's whole cost, SSV before MSV as HMMER does). The thread-per-target Viterbi runs on the
large database: it needs a target per resident thread (about 135,000 on an H100, 8 blocks of
128 per SM at the kernel's 64 registers), and the Viterbi database (about 29,000 targets) would
leave most of them idle; both Viterbi variants are printed side by side (thread/warp). Writes
JSON to benchmarks/results/ with the device, commit and command.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

import numpy as np

import gpuseq
from gpuseq import _core

# HMMER's background amino-acid frequencies, codes 0..19 in Easel's order (ACDEFGHIKLMNPQRSTVWY).
_BACKGROUND = np.array(_core.background_frequencies[:20], dtype=np.float64)


def random_database(residues: int, mean_length: float, seed: int):
    """Digitized random proteins (log-normal lengths, 10..3000) totalling about `residues`."""
    rng = np.random.default_rng(seed)
    n = max(1, int(residues / mean_length))
    lengths = np.clip(rng.lognormal(np.log(mean_length) - 0.18, 0.6, n), 10, 3000).astype(np.int64)
    offsets = np.zeros(n + 1, np.int64)
    np.cumsum(lengths, out=offsets[1:])
    codes = rng.choice(20, size=int(offsets[-1]), p=_BACKGROUND / _BACKGROUND.sum())
    return codes.astype(np.uint8), offsets


def model(M: int, seed: int):
    from pyhmmer.easel import Alphabet
    from pyhmmer.plan7 import HMM

    from gpuseq.hmm import search_profile

    hmm = HMM.sample(Alphabet.amino(), M, seed)
    hmm.set_composition()
    return search_profile(hmm)


def provenance() -> dict:
    here = Path(__file__).resolve().parent
    info = {"host": platform.node(), "cpus": os.cpu_count(), "build": gpuseq.build_info()}
    try:
        info["commit"] = subprocess.run(
            ["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True, cwd=here
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        info["commit"] = os.environ.get("GPUSEQ_GIT_COMMIT")
    return info


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--models", default="50,100,150,200,400,800,1200,1600,2400")
    p.add_argument("--residues", type=float, default=100e6, help="GPU database size")
    p.add_argument("--viterbi-residues", type=float, default=10e6)
    p.add_argument("--cpu-residues", type=float, default=2e6, help="CPU database size (0: skip)")
    p.add_argument("--mean-length", type=float, default=350)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--out", default=None)
    args = p.parse_args()
    if not gpuseq.cuda_devices():
        print("no GPU: nothing to measure", file=sys.stderr)
        return 1
    lengths = [int(m) for m in args.models.split(",")]
    db = random_database(args.residues, args.mean_length, 1)
    vdb = random_database(args.viterbi_residues, args.mean_length, 2)
    cdb = random_database(args.cpu_residues, args.mean_length, 3) if args.cpu_residues else None
    targets = _core.GpuTargets(*db)
    vtargets = _core.GpuTargets(*vdb)
    rows = []
    print(
        f"{'M':>6} {'filter':>8} {'lanes':>6} {'variant':>8} {'GPU GCUPS':>10} {'CPU GCUPS':>10}"
        f" {'GPU/CPU':>8}"
    )
    variants = [("ssv", bits, "warp") for bits in (8, 16)]
    variants += [("msv", bits, "warp") for bits in (8, 16)]
    variants += [("viterbi", 16, "warp"), ("viterbi", 16, "thread")]
    thread_vs_warp = {}
    for M in lengths:
        profile = model(M, M)
        for which, bits, variant in variants:
            if which == "viterbi":
                gp = _core.GpuProfile(profile, 0, variant)
            else:
                gp = _core.GpuProfile(profile, bits)
            on_viterbi_db = which == "viterbi" and variant == "warp"
            t_db, t_dev = (vdb, vtargets) if on_viterbi_db else (db, targets)
            cells = M * int(t_db[1][-1])
            seconds = _core.gpu_filter_kernel_seconds(gp, t_dev, which, *t_db, args.repeat)
            gpu = cells / seconds / 1e9
            cpu = None
            if cdb is not None and bits == 16 and variant == "warp":
                start = time.perf_counter()
                _core.filter_scores(profile, which, *cdb)
                cpu = M * int(cdb[1][-1]) / (time.perf_counter() - start) / 1e9
            rows.append(
                dict(M=M, filter=which, lane_bits=bits, variant=variant, gpu_seconds=seconds,
                     gpu_gcups=gpu,
                     cpu_gcups=cpu,
                     stripes=None if variant == "thread"
                     else gp.viterbi_stripes if which == "viterbi" else gp.msv_stripes,
                     residues=int(t_db[1][-1]))
            )
            ratio = f"{gpu / cpu:8.1f}" if cpu else ""
            cpu_text = f"{cpu:10.1f}" if cpu else ""
            print(
                f"{M:>6} {which:>8} {bits:>6} {variant:>8} {gpu:10.1f} {cpu_text:>10} {ratio}",
                flush=True,
            )
            if which == "viterbi":
                thread_vs_warp.setdefault(M, {})[variant] = gpu
    # The issue's comparison: Walters' thread per target against CUDAMPF's warp per target.
    for M, v in thread_vs_warp.items():
        v["thread/warp"] = v["thread"] / v["warp"]
        print(f"{M:>6} viterbi thread/warp GCUPS {v['thread/warp']:.2f}")
    result = {
        "benchmark": "hmm_filters",
        "command": " ".join(sys.argv),
        "date": datetime.now().isoformat(timespec="seconds"),
        "provenance": provenance(),
        "kernels": "CUDAMPF warp per target: SSV/MSV in 8-bit (paper) or 16-bit DPX lanes, "
        "16-bit Viterbi; static stripe counts. Viterbi also a thread per target (Walters et al. "
        "2009): length-sorted targets, int16 rows interleaved by thread in global memory",
        "rows": rows,
        "viterbi_thread_vs_warp": {str(M): v for M, v in thread_vs_warp.items()},
    }
    out = Path(args.out) if args.out else (
        Path(__file__).parent / "results" / f"hmm-filters-{platform.node()}-{datetime.now():%Y%m%d-%H%M%S}.json"
    )
    out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
