"""Benchmark of the all-pairs distance kernels (Payne et al. 2010 and beyond), in one run.

1. The paper's ladder: CPU loop (one thread, as in the paper), naive, coalesced, char4,
   register and shared GPU kernels, on the paper's 112 x 512 setting and larger ones; the
   speed-ups over the CPU loop are printed beside the paper's (20x, 25x, 25x, 65x, 1700x).
2. The default kernel (bit planes on binary tensor cores) on a large problem (by default
   50,000 x 50,000 instances x 10,000 attributes), against scipy's cdist and scikit-learn's
   pairwise_distances on the CPU (timed on a subset, rates compared per pair), and against the
   binary tensor-core bound: the faster of the measured rates of the b1 instructions themselves
   (mma.sync from registers; wgmma from shared memory where the GPU has it).

Every GPU result is checked against a CPU kernel (all of it for the ladder, sampled rows for
the large run). Writes JSON to benchmarks/results/ with the device, commit and command.

    python benchmarks/bench_distance.py                       # the full run (GPU machine)
    python benchmarks/bench_distance.py --quick               # small sizes (smoke test)
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shlex
import sys
import time
from pathlib import Path

import numpy as np
from provenance import source_info  # benchmarks/provenance.py, beside this script

import gpuseq
from gpuseq import _core

PAPER_SPEEDUPS = {"naive": 20, "coalesced": 25, "char4": 25, "register": 65, "shared": 1700}
LADDER = ("naive", "coalesced", "char4", "register", "shared")


def genotypes(rng, n, a):
    """Random genotypes 0/1/2 (the paper's data: random() % 3)."""
    return rng.integers(0, 3, (n, a), dtype=np.int8)


def engine(X, Y, kernel, backend, threads, metric="hamming"):
    return _core.DistanceEngine(X, Y, metric, 3, False, kernel, backend, threads)


def time_full(eng, n, m, repeat):
    """Median wall and device seconds of filling the whole n x m matrix; the last result."""
    out = np.empty((n, m), dtype=np.int32)
    walls, devices = [], []
    for _ in range(repeat):
        t = time.perf_counter()
        eng.compute_into(out, None, 0, 0)
        walls.append(time.perf_counter() - t)
        devices.append(eng.last_device_seconds)
    return float(np.median(walls)), float(np.median(devices)), out


def ladder(rng, sizes, repeat):
    """CPU loop vs the paper's GPU kernels, each checked against the CPU loop."""
    rows = []
    for n, a in sizes:
        X = genotypes(rng, n, a)
        cpu_s, _, ref = time_full(engine(X, X, "cpu", "cpu", 1), n, n, 1)
        row = {"instances": n, "attributes": a, "cpu_loop_s": cpu_s, "kernels": {}}
        for k in LADDER:
            wall, dev, got = time_full(engine(X, X, k, "cuda", 1), n, n, repeat)
            if not np.array_equal(got, ref):
                raise SystemExit(f"FAIL: kernel {k} differs from the CPU loop at {n} x {a}")
            row["kernels"][k] = {"kernel_s": dev, "wall_s": wall, "speedup_vs_cpu": cpu_s / dev,
                                 "paper_speedup": PAPER_SPEEDUPS[k]}
        rows.append(row)
        log(f"ladder {n} x {a}: cpu {cpu_s * 1e3:.2f} ms; " + ", ".join(
            f"{k} {row['kernels'][k]['kernel_s'] * 1e3:.3f} ms" for k in LADDER))
    return rows


def default_kernel(rng, n, a, tile, cpu_sample, threads):
    """The default GPU kernel on an n x n problem, with the CPU references' rates."""
    X = genotypes(rng, n, a)
    bound = tensor_core_bound()
    peak = bound["bound_tops"]
    eng = engine(X, X, "bitplane", "cuda", threads)
    eng.compute_into(np.empty((1, 1), np.int32), None, 0, 0)  # module load, buffers: untimed
    out = np.empty((n, n), dtype=np.int32)
    device_s = 0.0
    t = time.perf_counter()
    for r0 in range(0, n, tile):
        for c0 in range(0, n, tile):
            block = out[r0 : r0 + tile, c0 : c0 + tile]
            eng.compute_into(block, None, r0, c0)
            device_s += eng.last_device_seconds
    wall_s = time.perf_counter() - t
    # Correctness at scale: sampled rows against the CPU bit-plane kernel.
    rows = rng.choice(n, size=min(n, 64), replace=False)
    cpu_eng = engine(X[rows], X, "bitplane", "cpu", threads)
    check = np.empty((len(rows), n), dtype=np.int32)
    cpu_eng.compute_into(check, None, 0, 0)
    if not np.array_equal(check, out[rows]):
        raise SystemExit("FAIL: GPU bit planes differ from the CPU kernel")
    k_bits = 3 * ((a + 1023) // 1024 * 1024)  # one-hot planes as the tensor cores see them
    tops = 2.0 * n * n * k_bits / device_s / 1e12
    pairs = float(n) * n
    result = {"instances": n, "attributes": a, "tile": tile, "device_s": device_s,
              "wall_s_with_copies": wall_s, "tensor_core_tops": tops, "b1_peak_tops": peak,
              "b1_peaks": bound, "fraction_of_peak": tops / peak,
              "gpu_pairs_per_s": pairs / device_s}
    log(f"default kernel {n} x {n} x {a}: {device_s:.3f} s on the GPU ({tops:.0f} TOPS, "
        f"{100 * tops / peak:.1f}% of the measured b1 bound {peak:.0f} TOPS), "
        f"{wall_s:.2f} s with copies to host memory")

    # CPU references on a subset, compared per pair (their cost is linear in pairs).
    from scipy.spatial.distance import cdist
    from sklearn.metrics import pairwise_distances as sk_pairwise

    S = X[:cpu_sample]
    t = time.perf_counter()
    ref = cdist(S, S, "hamming")
    scipy_s = time.perf_counter() - t
    t = time.perf_counter()
    sk_pairwise(S, metric="hamming", n_jobs=-1)
    sklearn_s = time.perf_counter() - t
    t = time.perf_counter()
    ours_cpu = gpuseq.pairwise_distances(S, backend="cpu", threads=threads)
    cpu_bitplane_s = time.perf_counter() - t
    if not np.array_equal(np.rint(ref * a).astype(np.int32), ours_cpu):
        raise SystemExit("FAIL: CPU bit planes differ from scipy")
    sample_pairs = float(cpu_sample) ** 2
    for name, secs in (("scipy_cdist", scipy_s), ("sklearn_n_jobs_all", sklearn_s),
                       ("gpuseq_cpu_bitplane", cpu_bitplane_s)):
        rate = sample_pairs / secs
        result[name] = {"sample": cpu_sample, "seconds": secs, "pairs_per_s": rate,
                        "gpu_speedup_kernel": result["gpu_pairs_per_s"] / rate,
                        "gpu_speedup_with_copies": (pairs / wall_s) / rate}
        log(f"  {name}: {rate:.3g} pairs/s on {cpu_sample} x {cpu_sample}; GPU kernel is "
            f"{result[name]['gpu_speedup_kernel']:.0f}x faster "
            f"({result[name]['gpu_speedup_with_copies']:.0f}x with copies to host)")
    return result


def tensor_core_bound():
    """Measured b1 AND+POPC rates of the instructions themselves; the bound is the faster."""
    peaks = {"mma_sync_tops": _core.b1_mma_peak_tops(20000), "wgmma_tops": None}
    if any(v.startswith("wgmma") for v in _core.b1_gemm_variants()):
        peaks["wgmma_tops"] = _core.b1_wgmma_peak_tops(20000)
    peaks["bound_tops"] = max(t for t in peaks.values() if t is not None)
    log("b1 tensor-core rates: mma.sync {mma_sync_tops:.0f} TOPS, wgmma {wg} TOPS".format(
        wg=f"{peaks['wgmma_tops']:.0f}" if peaks["wgmma_tops"] else "n/a", **peaks))
    return peaks


def gemm_variants(n, k_bits, repeats, peak):
    """Every tiling variant of the tensor-core product on one n x n x k_bits problem."""
    rows = []
    for name in _core.b1_gemm_variants():
        secs = _core.b1_gemm_seconds(name, n, n, k_bits, repeats)
        tops = 2.0 * n * n * k_bits / secs / 1e12
        rows.append({"variant": name, "seconds": secs, "tops": tops,
                     "fraction_of_peak": tops / peak})
        log(f"  {name:<46} {secs * 1e3:7.2f} ms {tops:6.0f} TOPS {100 * tops / peak:5.1f}%")
    return rows


def log(msg):
    print(msg, flush=True)


def device_info():
    info = {"gpuseq": gpuseq.build_info(), "host": platform.node(), "cpus": os.cpu_count()}
    try:
        with open("/proc/cpuinfo") as f:
            info["cpu"] = next(line.split(":", 1)[1].strip() for line in f
                               if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return info


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="small sizes (smoke test)")
    p.add_argument("--instances", type=int, default=50000)
    p.add_argument("--attributes", type=int, default=10000)
    p.add_argument("--tile", type=int, default=16384)
    p.add_argument("--cpu-sample", type=int, default=1000, help="instances for scipy/sklearn")
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    p.add_argument("--seed", type=int, default=2010)
    p.add_argument("--out", default=None)
    p.add_argument("--variants", action="store_true",
                   help="time every tiling variant of the tensor-core product and stop")
    args = p.parse_args()
    if not gpuseq.cuda_devices():
        raise SystemExit("needs a CUDA build of gpuseq and an NVIDIA GPU")
    rng = np.random.default_rng(args.seed)
    if args.variants:
        bound = tensor_core_bound()
        peak = bound["bound_tops"]
        log(f"variants on 16384 x 16384 x 30720 bits (% of the {peak:.0f} TOPS bound):")
        result = {"benchmark": "distance-gemm-variants", "command": " ".join(sys.argv),
                  "device": device_info(), "software": {"git": source_info()}, "peak_tops": peak,
                  "b1_peaks": bound,
                  "variants": gemm_variants(16384, 30720, args.repeat, peak)}
        out = Path(args.out or Path(__file__).parent / "results" / "distance-variants.json")
        out.write_text(json.dumps(result, indent=1) + "\n")
        return
    sizes = [(112, 512), (224, 4096), (448, 8192)]
    if args.quick:
        sizes = [(112, 512)]
        args.instances, args.attributes, args.cpu_sample = 4096, 2000, 300
    started = datetime.datetime.now(datetime.timezone.utc)
    result = {
        "benchmark": "distance",
        "started": started.isoformat(),
        "command": " ".join(shlex.quote(a) for a in [sys.executable, *sys.argv]),
        "device": device_info(),
        "software": {"gpuseq": gpuseq.__version__, "git": source_info(),
                     "numpy": np.__version__},
        "metric": "hamming",
        "ladder": ladder(rng, sizes, args.repeat),
        "default_kernel": default_kernel(rng, args.instances, args.attributes, args.tile,
                                         args.cpu_sample, args.threads),
    }
    out = Path(args.out or Path(__file__).parent / "results" /
               f"distance-{platform.node()}-{started:%Y%m%d-%H%M%S}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1) + "\n")

    print("\nPayne et al. 2010 ladder (hamming; kernel time, speed-up over the 1-thread CPU loop)")
    print(f"{'instances x attributes':>24} {'kernel':>10} {'ms':>9} {'ours':>8} {'paper':>6}")
    for row in result["ladder"]:
        print(f"{row['instances']:>12} x {row['attributes']:<9} {'cpu':>10} "
              f"{row['cpu_loop_s'] * 1e3:9.3f}")
        for k, v in row["kernels"].items():
            print(f"{'':>24} {k:>10} {v['kernel_s'] * 1e3:9.3f} {v['speedup_vs_cpu']:7.0f}x "
                  f"{v['paper_speedup']:5d}x")
    d = result["default_kernel"]
    print(f"\ndefault kernel {d['instances']} x {d['instances']} x {d['attributes']}: "
          f"{d['device_s']:.3f} s GPU, {d['tensor_core_tops']:.0f} TOPS = "
          f"{100 * d['fraction_of_peak']:.1f}% of the b1 bound ({d['b1_peak_tops']:.0f} TOPS); "
          f"{d['wall_s_with_copies']:.2f} s with copies")
    for name in ("scipy_cdist", "sklearn_n_jobs_all", "gpuseq_cpu_bitplane"):
        print(f"  vs {name}: {d[name]['gpu_speedup_kernel']:.0f}x "
              f"({d[name]['gpu_speedup_with_copies']:.0f}x with copies)")
    print(f"\nwrote {out}")


if __name__ == "__main__":
    main()
