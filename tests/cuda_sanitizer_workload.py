"""Runs every GPU kernel once on small inputs (both metrics, missing values, several tiles):
the workload compute-sanitizer's memcheck and racecheck are run on (run_on_gpu_host.sh).
Exits non-zero if a GPU result differs from the CPU twin."""

import numpy as np

import gpuseq

rng = np.random.default_rng(0)
X = rng.integers(0, 3, (70, 300)).astype(np.int8)
Y = rng.integers(0, 3, (45, 300)).astype(np.int8)
Xm = X.astype(float)
Xm[rng.random(X.shape) < 0.1] = np.nan
failures = 0
for metric in ("hamming", "manhattan"):
    cpu = gpuseq.pairwise_distances(X, Y, metric, backend="cpu")
    for kernel in ("naive", "coalesced", "char4", "register", "shared", "bitplane"):
        gpu = gpuseq.pairwise_distances(X, Y, metric, kernel=kernel, backend="cuda", tile=40)
        failures += not np.array_equal(gpu, cpu)
    cpu = gpuseq.pairwise_distances(Xm, metric=metric, backend="cpu")
    gpu = gpuseq.pairwise_distances(Xm, metric=metric, backend="cuda", tile=40)
    failures += not np.array_equal(gpu, cpu)
# Every tiling of the tensor-core product (wgmma on sm_90a) on edge-sized bit matrices.
a = rng.integers(0, 2**63, (130, 32), dtype=np.uint64)
b = rng.integers(0, 2**63, (260, 32), dtype=np.uint64)
bits = lambda m: np.unpackbits(m.view(np.uint8), axis=1).astype(np.int32)  # noqa: E731
expected = bits(a) @ bits(b).T
for variant in gpuseq._core.b1_gemm_variants():
    failures += not np.array_equal(gpuseq._core.b1_gemm_product(variant, a, b), expected)
print("GPU kernels differing from the CPU:", failures)
raise SystemExit(1 if failures else 0)
