"""Benchmark of the all-pairs distances, in one run: end to end first, kernels second.

1. End to end, as a user calls it: ``gpuseq.pairwise_distances(G, backend="cuda")`` from a
   NumPy array to the result in host memory (encoding, upload, kernel, copies), the median of
   ``--repeat`` runs after a warm-up, beside the kernel alone and the copy bound (the n x n
   int32 result's device-to-host copy at the measured pinned and pageable rates).
2. The GPU peers a user would pick instead, in the same run, results cross-checked: one-hot
   int8 ``torch._int_mm`` and a one-hot bf16 product (matches = one-hot(X) one-hot(Y)^T).
3. The CPU: scipy's cdist, scikit-learn's pairwise_distances (all cores) and our CPU bit-plane
   kernel, each timed on a size where it runs at least a second; our kernel's popcount rate
   beside its compute bound (the same 4 x 4 register block on L1-resident rows, all cores).
4. The paper's ladder: CPU loop (one thread, as in the paper), naive, coalesced, char4,
   register and shared GPU kernels, on the paper's 112 x 512 setting and larger ones; the
   speed-ups over the CPU loop are printed beside the paper's (20x, 25x, 25x, 65x, 1700x).
5. The default kernel's tensor-core rate against the binary tensor-core bound: the faster of
   the measured rates of the b1 instructions themselves (mma.sync from registers; wgmma from
   shared memory where the GPU has it). Operations are counted both ways, labelled: the
   attributes' one-hot bits as given, and as the kernel pads them (1024-bit planes).

Every GPU result is checked against a CPU kernel (all of it for the ladder, sampled rows for
the large runs). Writes JSON to benchmarks/results/ with the device, commit and command.

    python benchmarks/bench_distance.py                       # the full run (GPU machine)
    python benchmarks/bench_distance.py --quick               # small sizes (smoke test)
    python benchmarks/bench_distance.py --cpu-only            # section 3 alone (any machine)
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


def default_kernel(X, tile, threads):
    """The default GPU kernel alone on all pairs of X, tile by tile into host memory."""
    n, a = X.shape
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
    rows = np.random.default_rng(2).choice(n, size=min(n, 64), replace=False)
    cpu_eng = engine(X[rows], X, "bitplane", "cpu", threads)
    check = np.empty((len(rows), n), dtype=np.int32)
    cpu_eng.compute_into(check, None, 0, 0)
    if not np.array_equal(check, out[rows]):
        raise SystemExit("FAIL: GPU bit planes differ from the CPU kernel")
    k_bits = 3 * ((a + 1023) // 1024 * 1024)  # one-hot planes as the tensor cores see them
    tops = 2.0 * n * n * k_bits / device_s / 1e12
    tops_unpadded = 2.0 * n * n * (3 * a) / device_s / 1e12
    pairs = float(n) * n
    result = {"instances": n, "attributes": a, "tile": tile, "device_s": device_s,
              "wall_s_with_copies": wall_s, "tensor_core_tops_padded": tops,
              "tensor_core_tops_unpadded": tops_unpadded, "b1_peak_tops": peak,
              "b1_peaks": bound, "fraction_of_peak": tops / peak,
              "gpu_pairs_per_s": pairs / device_s}
    log(f"default kernel {n} x {n} x {a}: {device_s:.3f} s on the GPU ({tops:.0f} TOPS counting "
        f"the padded 1024-bit planes, {tops_unpadded:.0f} TOPS counting 3 x {a} one-hot bits; "
        f"{100 * tops / peak:.1f}% of the measured b1 bound {peak:.0f} TOPS), "
        f"{wall_s:.2f} s with copies to host memory")

    return result


def median_seconds(fn, repeat):
    """Median wall seconds of fn() over `repeat` runs after one untimed warm-up."""
    fn()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return float(np.median(times))


def end_to_end(X, repeat, threads, kernel_device_s):
    """The whole call as a user makes it, beside the kernel alone and the copy bound."""
    n, a = X.shape
    holder = {}

    def call():
        holder["D"] = None  # the previous result freed first: one n x n array at a time
        holder["D"] = gpuseq.pairwise_distances(X, backend="cuda", threads=threads)

    seconds = median_seconds(call, repeat)
    rows = np.random.default_rng(0).choice(n, size=min(n, 32), replace=False)
    check = gpuseq.pairwise_distances(X[rows], X, backend="cpu", threads=threads)
    if not np.array_equal(check, holder["D"][rows]):
        raise SystemExit("FAIL: pairwise_distances on the GPU differs from the CPU kernel")
    result_bytes = 4.0 * n * n
    copy = copy_rates()
    result = {"instances": n, "attributes": a, "repeat": repeat, "seconds": seconds,
              "kernel_device_s": kernel_device_s, "result_bytes": result_bytes,
              "copy_rates_gb_s": copy}
    if copy:
        result["copy_bound_pinned_s"] = result_bytes / (copy["pinned"] * 1e9)
        result["copy_bound_pageable_s"] = result_bytes / (copy["pageable"] * 1e9)
    log(f"end to end pairwise_distances({n} x {a}, backend='cuda'): {seconds:.2f} s "
        f"(median of {repeat}); kernel alone {kernel_device_s:.3f} s; copy bound "
        + (f"{result['copy_bound_pinned_s']:.2f} s pinned ({copy['pinned']:.1f} GB/s), "
           f"{result['copy_bound_pageable_s']:.2f} s pageable ({copy['pageable']:.1f} GB/s)"
           if copy else "n/a (no torch to measure it)"))
    return result


def copy_rates(nbytes=1 << 30):
    """Device-to-host copy rates (GB/s) of 1 GiB into pinned and into pageable memory, with
    torch (the GPU peer's own copies; None without torch)."""
    try:
        import torch
    except ImportError:
        return None
    src = torch.empty(nbytes, dtype=torch.uint8, device="cuda")
    rates = {}
    for name, dst in (("pinned", torch.empty(nbytes, dtype=torch.uint8, pin_memory=True)),
                      ("pageable", torch.empty(nbytes, dtype=torch.uint8))):
        def copy(dst=dst):
            dst.copy_(src)
            torch.cuda.synchronize()
        rates[name] = nbytes / median_seconds(copy, 3) / 1e9
    return rates


def torch_peers(X, repeat):
    """One-hot products through torch on the GPU: matches = onehot(X) onehot(X)^T, hamming =
    attributes - matches; the product alone and from the NumPy array to the NumPy result."""
    try:
        import torch
    except ImportError:
        log("torch peers: torch is not installed here")
        return None
    n, a = X.shape
    ours_rows = np.random.default_rng(1).choice(n, size=min(n, 32), replace=False)
    expected = gpuseq.pairwise_distances(X[ours_rows], X, backend="cpu")
    peers = {}
    for name, dtype in (("torch_int_mm_onehot_int8", torch.int8),
                        ("torch_bf16_onehot", torch.bfloat16)):
        def onehot(dtype=dtype):
            g = torch.from_numpy(X).to("cuda")
            return torch.stack([g == v for v in range(3)], dim=2).reshape(n, 3 * a).to(dtype)

        def product(h, dtype=dtype):
            if dtype == torch.int8:
                return torch._int_mm(h, h.t())  # int32, exact
            # fp32 output (bf16 output would round counts above 256): exact below 2^24
            return torch.mm(h, h.t(), out_dtype=torch.float32)

        def whole(onehot=onehot, product=product):
            matches = product(onehot())
            return (a - matches).to(torch.int32).cpu().numpy()

        try:
            h = onehot()
            product(h)
            torch.cuda.synchronize()
            t_product = []
            for _ in range(repeat):
                t = time.perf_counter()
                product(h)
                torch.cuda.synchronize()
                t_product.append(time.perf_counter() - t)
            del h
            seconds_whole = median_seconds(whole, repeat)
            D = whole()
        except (RuntimeError, TypeError, torch.cuda.OutOfMemoryError) as exc:
            log(f"  {name}: failed ({exc.__class__.__name__}: {str(exc)[:120]})")
            peers[name] = {"error": str(exc)[:500]}
            torch.cuda.empty_cache()
            continue
        if not np.array_equal(D[ours_rows], expected):
            raise SystemExit(f"FAIL: {name} differs from gpuseq")
        del D
        torch.cuda.empty_cache()
        peers[name] = {"product_s": float(np.median(t_product)), "end_to_end_s": seconds_whole}
        log(f"  {name}: product {peers[name]['product_s']:.3f} s, from NumPy to NumPy "
            f"{seconds_whole:.2f} s")
    return peers


def nearest_section(rng, n, a, k, threads, repeat):
    """k nearest neighbours of every instance among n (n x n x a), selected on the GPU, checked
    against the CPU kernel on sampled rows; torch's peer: one-hot _int_mm blocks + topk."""
    X = genotypes(rng, n, a)
    seconds = median_seconds(lambda: gpuseq.nearest_neighbors(X, k, backend="cuda",
                                                              threads=threads), repeat)
    idx, dist = gpuseq.nearest_neighbors(X, k, backend="cuda", threads=threads)
    rows = np.random.default_rng(3).choice(n, size=min(n, 256), replace=False)
    t = time.perf_counter()
    cpu_idx, cpu_dist = gpuseq.nearest_neighbors(X[rows], k, X, backend="cpu", threads=threads)
    cpu_s = time.perf_counter() - t
    # Y = X here is passed as a different array, so each sampled row finds itself at 0.
    cpu_idx, cpu_dist = cpu_idx[:, 1:], cpu_dist[:, 1:]
    if not (np.array_equal(cpu_dist, dist[rows, : k - 1]) and
            np.array_equal(cpu_idx, idx[rows, : k - 1])):
        raise SystemExit("FAIL: GPU k nearest differ from the CPU kernel")
    result = {"instances": n, "attributes": a, "k": k, "seconds": seconds,
              "pairs_per_s": float(n) * n / seconds,
              "cpu_rows_sampled": len(rows), "cpu_seconds_for_sample": cpu_s,
              "cpu_pairs_per_s": float(len(rows)) * n / cpu_s}
    log(f"k nearest (k = {k}) of {n} x {n} x {a}: {seconds:.2f} s on the GPU "
        f"({result['pairs_per_s']:.3g} pairs/s); CPU kernel {result['cpu_pairs_per_s']:.3g} "
        f"pairs/s on {len(rows)} rows")
    try:
        import torch
    except ImportError:
        return result

    def torch_knn(block=8192):
        g = torch.from_numpy(X).to("cuda")
        h = torch.stack([g == v for v in range(3)], dim=2).reshape(n, 3 * a).to(torch.int8)
        del g
        out = []
        for r0 in range(0, n, block):
            d = a - torch._int_mm(h[r0 : r0 + block], h.t())
            d[torch.arange(d.shape[0], device="cuda"), torch.arange(r0, r0 + d.shape[0],
                                                                       device="cuda")] = 1 << 30
            out.append(torch.topk(d, k, dim=1, largest=False, sorted=True).values.cpu())
        return torch.cat(out).numpy()

    try:
        result["torch_int_mm_topk_s"] = median_seconds(torch_knn, repeat)
        peer = torch_knn()
        if not np.array_equal(peer, dist):  # distances only: topk orders ties its own way
            raise SystemExit("FAIL: torch's k nearest distances differ from gpuseq's")
        log(f"  torch one-hot _int_mm + topk: {result['torch_int_mm_topk_s']:.2f} s "
            f"({result['torch_int_mm_topk_s'] / seconds:.1f}x gpuseq)")
    except (RuntimeError, torch.cuda.OutOfMemoryError) as exc:
        result["torch_error"] = str(exc)[:500]
        log(f"  torch peer failed: {str(exc)[:120]}")
    finally:
        torch.cuda.empty_cache()
    return result


def timed_at_least(fn, seconds, start_n, limit_n):
    """Grows n (doubling) until fn(n) takes at least `seconds`; returns (n, seconds)."""
    n = start_n
    while True:
        t = time.perf_counter()
        fn(n)
        took = time.perf_counter() - t
        if took >= seconds or n >= limit_n:
            return n, took
        n = min(limit_n, n * 2 if took < seconds / 4 else int(n * 1.5))


def cpu_section(rng, a, threads, min_seconds, limit_n):
    """scipy, scikit-learn and our CPU kernel, each on a size where it runs >= min_seconds;
    our popcount rate beside its compute bound."""
    from scipy.spatial.distance import cdist

    X = genotypes(rng, limit_n, a)
    small = X[:300]
    if not np.array_equal(np.rint(cdist(small, small, "hamming") * a).astype(np.int32),
                          gpuseq.pairwise_distances(small, backend="cpu", threads=threads)):
        raise SystemExit("FAIL: CPU bit planes differ from scipy")
    tools = {"scipy_cdist": lambda n: cdist(X[:n], X[:n], "hamming"),
             "gpuseq_cpu_bitplane": lambda n: gpuseq.pairwise_distances(
                 X[:n], backend="cpu", threads=threads)}
    try:
        from sklearn.metrics import pairwise_distances as sk_pairwise
        tools["sklearn_n_jobs_all"] = lambda n: sk_pairwise(X[:n], metric="hamming", n_jobs=-1)
    except ImportError:
        log("scikit-learn is not installed here: left out")
    result = {"attributes": a, "threads": threads, "min_seconds": min_seconds}
    for name, fn in tools.items():
        n, took = timed_at_least(fn, min_seconds, 256, limit_n)
        result[name] = {"instances": n, "seconds": took, "pairs_per_s": n * n / took}
        log(f"  {name}: {n} x {n} x {a} in {took:.2f} s, {n * n / took:.3g} pairs/s")
    ours = result["gpuseq_cpu_bitplane"]
    words = 3 * ((a + 1023) // 1024 * 16)  # 64-bit words a pair's popcount reads (hamming)
    rate = ours["pairs_per_s"] * words
    bound = _core.cpu_and_popcount_rate(words=min(words, 256), threads=threads, seconds=1.0)
    result["popcount_words_per_s"] = rate
    result["popcount_bound_words_per_s"] = bound
    result["fraction_of_bound"] = rate / bound
    log(f"  our CPU kernel: {rate / 1e9:.2f} G popcount words/s, {100 * rate / bound:.0f}% of "
        f"its compute bound {bound / 1e9:.2f} G/s (the same register block on L1-resident "
        f"rows, {threads} threads)")
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
    p.add_argument("--cpu-only", action="store_true",
                   help="only the CPU section (scipy, scikit-learn, our CPU kernel)")
    p.add_argument("--instances", type=int, default=50000)
    p.add_argument("--attributes", type=int, default=10000)
    p.add_argument("--tile", type=int, default=16384)
    p.add_argument("--knn-instances", type=int, default=200000)
    p.add_argument("--knn-k", type=int, default=10)
    p.add_argument("--cpu-seconds", type=float, default=1.0,
                   help="each CPU tool runs on a size that takes at least this long")
    p.add_argument("--repeat", type=int, default=3, help="timed runs after a warm-up")
    p.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    p.add_argument("--seed", type=int, default=2010)
    p.add_argument("--out", default=None)
    p.add_argument("--variants", action="store_true",
                   help="time every tiling variant of the tensor-core product and stop")
    args = p.parse_args()
    if not args.cpu_only and not gpuseq.cuda_devices():
        raise SystemExit("needs a CUDA build of gpuseq and an NVIDIA GPU (or --cpu-only)")
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
    cpu_limit = 20000
    if args.quick:
        sizes = [(112, 512)]
        args.instances, args.attributes, args.cpu_seconds, cpu_limit = 4096, 2000, 0.2, 2000
        args.knn_instances = 8192
    started = datetime.datetime.now(datetime.timezone.utc)
    result = {
        "benchmark": "distance",
        "started": started.isoformat(),
        "command": " ".join(shlex.quote(a) for a in [sys.executable, *sys.argv]),
        "device": device_info(),
        "software": {"gpuseq": gpuseq.__version__, "git": source_info(),
                     "numpy": np.__version__},
        "metric": "hamming",
    }
    if not args.cpu_only:
        X = genotypes(rng, args.instances, args.attributes)
        kernel = default_kernel(X, args.tile, args.threads)
        result["end_to_end"] = end_to_end(X, args.repeat, args.threads, kernel["device_s"])
        result["torch_peers"] = torch_peers(X, args.repeat)
        del X
        result["nearest"] = nearest_section(rng, args.knn_instances, args.attributes,
                                            args.knn_k, args.threads, args.repeat)
    log("CPU (each tool on a size where it runs at least "
        f"{args.cpu_seconds:g} s, {args.threads} threads):")
    result["cpu"] = cpu_section(rng, args.attributes, args.threads, args.cpu_seconds, cpu_limit)
    if not args.cpu_only:
        result["default_kernel"] = kernel
        result["ladder"] = ladder(rng, sizes, args.repeat)
    name = "distance-cpu" if args.cpu_only else "distance"
    out = Path(args.out or Path(__file__).parent / "results" /
               f"{name}-{platform.node()}-{started:%Y%m%d-%H%M%S}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1) + "\n")
    print_summary(result)
    print(f"\nwrote {out}")


def print_summary(result):
    c = result["cpu"]
    if "end_to_end" in result:
        e, d = result["end_to_end"], result["default_kernel"]
        pairs = float(e["instances"]) ** 2
        print(f"\nend to end, {e['instances']} x {e['instances']} x {e['attributes']} into host "
              f"memory: gpuseq {e['seconds']:.2f} s (kernel alone {e['kernel_device_s']:.3f} s"
              + (f", copy bound {e['copy_bound_pinned_s']:.2f} s pinned / "
                 f"{e['copy_bound_pageable_s']:.2f} s pageable)" if "copy_bound_pinned_s" in e
                 else ")"))
        for name, peer in (result.get("torch_peers") or {}).items():
            if "error" not in peer:
                print(f"  {name}: {peer['end_to_end_s']:.2f} s end to end "
                      f"({peer['end_to_end_s'] / e['seconds']:.1f}x gpuseq), product alone "
                      f"{peer['product_s']:.3f} s ({peer['product_s'] / d['device_s']:.1f}x "
                      f"our kernel)")
        for name in ("scipy_cdist", "sklearn_n_jobs_all", "gpuseq_cpu_bitplane"):
            if name in c:
                print(f"  vs {name} ({c[name]['pairs_per_s']:.3g} pairs/s): "
                      f"{pairs / e['seconds'] / c[name]['pairs_per_s']:.0f}x end to end, "
                      f"{d['gpu_pairs_per_s'] / c[name]['pairs_per_s']:.0f}x kernel alone")
        if "nearest" in result:
            nn = result["nearest"]
            print(f"\nk nearest (k = {nn['k']}), {nn['instances']} x {nn['instances']} x "
                  f"{nn['attributes']}: {nn['seconds']:.2f} s"
                  + (f"; torch _int_mm + topk {nn['torch_int_mm_topk_s']:.2f} s"
                     if "torch_int_mm_topk_s" in nn else ""))
        print(f"\ndefault kernel: {d['device_s']:.3f} s GPU, {d['tensor_core_tops_padded']:.0f} "
              f"TOPS padded ({d['tensor_core_tops_unpadded']:.0f} unpadded) = "
              f"{100 * d['fraction_of_peak']:.1f}% of the b1 bound ({d['b1_peak_tops']:.0f} TOPS)")
        print("\nPayne et al. 2010 ladder (hamming; kernel time, speed-up over the 1-thread "
              "CPU loop)")
        print(f"{'instances x attributes':>24} {'kernel':>10} {'ms':>9} {'ours':>8} {'paper':>6}")
        for row in result["ladder"]:
            print(f"{row['instances']:>12} x {row['attributes']:<9} {'cpu':>10} "
                  f"{row['cpu_loop_s'] * 1e3:9.3f}")
            for k, v in row["kernels"].items():
                print(f"{'':>24} {k:>10} {v['kernel_s'] * 1e3:9.3f} "
                      f"{v['speedup_vs_cpu']:7.0f}x {v['paper_speedup']:5d}x")
    print(f"\nCPU, {c['threads']} threads, {c['attributes']} attributes:")
    for name in ("scipy_cdist", "sklearn_n_jobs_all", "gpuseq_cpu_bitplane"):
        if name in c:
            print(f"  {name:<22} {c[name]['pairs_per_s']:10.3g} pairs/s "
                  f"({c[name]['instances']} x {c[name]['instances']}, {c[name]['seconds']:.2f} s)")
    print(f"  our kernel's popcount rate: {100 * c['fraction_of_bound']:.0f}% of its compute bound")


if __name__ == "__main__":
    main()
