#!/usr/bin/env python3
"""SSV and MSV warp kernels (16-bit lanes, a warp per target) at every stripe count Q from 20
to 40: the kernel a search uses for a model needing Q stripes (NVRTC-compiled, or the static one
when the static set has Q) beside the static kernel of the next compiled count. The table
kSlowWarpSsvWordStripes in cuda/hmm/gpu_filters.cu comes from this sweep.

    python benchmarks/sweep_warp_stripes.py --out sweep.log
    python benchmarks/sweep_warp_stripes.py --exact --first 36 --last 41   # the slow counts too

Needs a CUDA GPU; M = 64 (Q - 1) + 10 for each Q, 100 M random residues of log-normal lengths.
"""

from __future__ import annotations

import argparse

import numpy as np
from pyhmmer.easel import Alphabet
from pyhmmer.plan7 import HMM

from gpuseq import _core
from gpuseq.hmm import search_profile


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--first", type=int, default=20)
    ap.add_argument("--last", type=int, default=40)
    ap.add_argument("--out", default=None, help="also write the table here")
    ap.add_argument("--exact", action="store_true",
                    help="NVRTC kernels at every exact Q, the slow counts included "
                    "(_core.gpu_warp_stripes_past_slow(False)), without the static ones")
    args = ap.parse_args()
    if args.exact:
        _core.gpu_warp_stripes_past_slow(False)
    rng = np.random.default_rng(3)
    lengths = np.clip(rng.lognormal(np.log(300), 0.6, size=300_000).astype(np.int64), 1, 5000)
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    residues = rng.integers(0, 20, offsets[-1], dtype=np.uint8)
    targets = _core.GpuTargets(residues, offsets)
    lines = [f"{offsets[-1]} residues; TCUPS of one launch over all targets (median of 5)"]
    for Q in range(args.first, args.last + 1):
        M = 64 * (Q - 1) + 10
        hmm = HMM.sample(Alphabet.amino(), M, 7)
        hmm.set_composition()
        profile = search_profile(hmm)
        row = [f"M={M:5d} Q={Q:2d}"]
        for runtime in (True,) if args.exact else (True, False):
            g = _core.GpuProfile(profile, msv_bits=16, sequences_per_warp=1,
                                 runtime_compiled=runtime)  # fmt: skip
            tcups = [offsets[-1] * M / _core.gpu_filter_kernel_seconds(g, targets, w) / 1e12
                     for w in ("ssv", "msv")]  # fmt: skip
            kind = "nvrtc" if g.runtime_compiled else "static"
            row.append(f"{kind}(SSV/MSV Q={g.msv_stripes}) ssv {tcups[0]:5.2f} msv {tcups[1]:5.2f}")
        lines.append("  |  ".join(row))
        print(lines[-1], flush=True)
    if args.out:
        with open(args.out, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
