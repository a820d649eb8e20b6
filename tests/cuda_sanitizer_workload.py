"""Runs every GPU kernel once on small inputs (both metrics, missing values, several tiles,
k-nearest selection): the workload compute-sanitizer's memcheck and racecheck are run on
(run_on_gpu_host.sh). Exits non-zero if a GPU result differs from the CPU twin."""

import os

import numpy as np
from pyhmmer.easel import Alphabet
from pyhmmer.plan7 import HMM

import gpuseq
from gpuseq import _core as core
from gpuseq.hmm import search_profile

rng = np.random.default_rng(0)
amino = np.frombuffer(b"ACDEFGHIKLMNPQRSTVWY", dtype=np.uint8)
# SECTIONS=name,name... runs only those (distances, b1gemm, filters, warp_tables, claims, streams,
# nvrtc, walters, slane, fused, mrf, blast): a sanitizer on the kernels a change touched, when
# the whole workload takes too long.
SECTIONS = os.environ.get("SECTIONS")
# FILTER_M=3,130 runs the `filters` section on those of its model lengths only: under racecheck
# the whole section takes longer than one device call, so it runs as a process per length.
FILTER_M = [int(m) for m in os.environ.get("FILTER_M", "3,130,700,3000").split(",")]
# FILTER_STEPS=ssv,msv runs only those of its steps (ssv, msv, viterbi, cascade, bias,
# forward): M = 3000 under racecheck takes longer than one call even alone, so a process each.
FILTER_STEPS = os.environ.get("FILTER_STEPS", "ssv,msv,viterbi,cascade,bias,forward").split(",")


def want(section: str) -> bool:
    return SECTIONS is None or section in SECTIONS.split(",")


def sampled_case(M: int, seed: int, lengths, planted):
    """A sampled model of M nodes, random targets of these lengths, the targets
    planted(consensus) and an empty and a 1-residue target: (hmm, db, search profile)."""
    hmm = HMM.sample(Alphabet.amino(), M, seed)
    hmm.set_composition()
    seqs = ["".join(map(chr, rng.choice(amino, int(n)))) for n in lengths]
    seqs += planted(hmm.consensus.upper()) + ["", "A"]
    db = gpuseq.SequenceDatabase.from_records([(f"t{i}", s) for i, s in enumerate(seqs)])
    return hmm, db, search_profile(hmm)


X = rng.integers(0, 3, (70, 300)).astype(np.int8)
Y = rng.integers(0, 3, (45, 300)).astype(np.int8)
Xm = X.astype(float)
Xm[rng.random(X.shape) < 0.1] = np.nan
failures = 0
if want("distances"):
    for metric in ("hamming", "manhattan"):
        cpu = gpuseq.pairwise_distances(X, Y, metric, backend="cpu")
        for kernel in ("naive", "coalesced", "char4", "register", "shared", "bitplane"):
            gpu = gpuseq.pairwise_distances(X, Y, metric, kernel=kernel, backend="cuda", tile=40)
            failures += not np.array_equal(gpu, cpu)
        cpu = gpuseq.pairwise_distances(Xm, metric=metric, backend="cpu")
        gpu = gpuseq.pairwise_distances(Xm, metric=metric, backend="cuda", tile=40)
        failures += not np.array_equal(gpu, cpu)
        # k nearest selected on the device (blocks narrower than k, the row's own column left out).
        for k in (5, 64):
            cpu_knn = gpuseq.nearest_neighbors(Xm, k, metric=metric, backend="cpu", tile=30)
            gpu_knn = gpuseq.nearest_neighbors(Xm, k, metric=metric, backend="cuda", tile=30)
            failures += not all(np.array_equal(g, c) for g, c in zip(gpu_knn, cpu_knn))
        # Planes streamed tile by tile (allocations capped below the whole planes).
        cpu = gpuseq.pairwise_distances(Xm, Y, metric, backend="cpu")
        cpu_knn = gpuseq.nearest_neighbors(Xm, 5, metric=metric, backend="cpu")
        core.gpu_allocation_limit_for_tests(16 * 1024)
        try:
            gpu = gpuseq.pairwise_distances(Xm, Y, metric, backend="cuda", tile=20)
            gpu_knn = gpuseq.nearest_neighbors(Xm, 5, metric=metric, backend="cuda", tile=20)
        finally:
            core.gpu_allocation_limit_for_tests(0)
        failures += not np.array_equal(gpu, cpu)
        failures += not all(np.array_equal(g, c) for g, c in zip(gpu_knn, cpu_knn))
    # A 9 MB tile back through the pinned staging in 4 MB pieces, on one host thread and two.
    G = rng.integers(0, 3, (1500, 70)).astype(np.int8)
    cpu = gpuseq.pairwise_distances(G, backend="cpu")
    for threads in (1, 2):
        gpu = gpuseq.pairwise_distances(G, backend="cuda", tile=1500, threads=threads)
        failures += not np.array_equal(gpu, cpu)
    # The first rows of a panel against the whole panel (views of one start address).
    gpu = gpuseq.pairwise_distances(G[:10], G, backend="cuda")
    failures += not np.array_equal(gpu, cpu[:10])
# Every tiling of the tensor-core product (wgmma on sm_90a) on edge-sized bit matrices.
if want("b1gemm"):
    a = rng.integers(0, 2**63, (130, 32), dtype=np.uint64)
    b = rng.integers(0, 2**63, (260, 32), dtype=np.uint64)
    bits = lambda m: np.unpackbits(m.view(np.uint8), axis=1).astype(np.int32)  # noqa: E731
    expected = bits(a) @ bits(b).T
    for variant in core.b1_gemm_variants():
        failures += not np.array_equal(core.b1_gemm_product(variant, a, b), expected)
# The hmmsearch filter kernels (SSV, MSV, Viterbi; cuda/hmm) and the GPU cascade on a few
# models (stripe counts 2 to 24/48) and targets of lengths 0 to 3000 with planted consensus.
if want("filters"):
    for M in FILTER_M:
        hmm, db, profile = sampled_case(M, M, rng.integers(0, 3000, 60), lambda c: [c, c * 2])
        gp = core.GpuProfile(profile)
        targets = core.GpuTargets(db.residues, db.offsets)
        for which in ("ssv", "msv", "viterbi"):
            if which in FILTER_STEPS:
                gpu = core.gpu_filter_scores(gp, targets, which, db.residues, db.offsets)
                cpu = core.filter_scores(profile, which, db.residues, db.offsets)
                failures += not np.array_equal(gpu, cpu, equal_nan=True)
        if "cascade" in FILTER_STEPS:
            gpu = core.gpu_run_cascade(gp, targets, db.residues, db.offsets, 0.02, 1e-3, True,
                                       2, F3=1e-5)  # with the Forward bound's kernel
            cpu = core.run_cascade(profile, db.residues, db.offsets, 0.02, 1e-3, True, 2)
            failures += not np.array_equal(gpu["stage"], cpu["stage"])
            gpu = core.gpu_run_cascade(gp, targets, db.residues, db.offsets, 1.0, 1e-3, True,
                                       2, all_scores=False)  # every target past the SSV's floors
            cpu = core.run_cascade(profile, db.residues, db.offsets, 1.0, 1e-3, True, 2)
            failures += not np.array_equal(gpu["survivors"], np.flatnonzero(cpu["stage"] == 4))
        if "bias" in FILTER_STEPS:
            gpu, _ = core.gpu_bias_filter_scores(gp, targets, db.residues, db.offsets, 2)
            cpu = core.filter_scores(profile, "bias", db.residues, db.offsets)
            failures += not np.array_equal(gpu, cpu, equal_nan=True)
        if "forward" in FILTER_STEPS:
            cpu = core.forward_scores(profile, db.residues, db.offsets)
            for registers in (True, False):  # the Forward bound's two kernels
                gpu = core.gpu_forward_scores(gp, targets, rows_in_registers=registers)
                failures += not np.array_equal(gpu, cpu, equal_nan=True)
# The SSV/MSV warp kernels with the table copied into shared memory (msv.cuh, *_shared: 25 to
# 48 stripes), NVRTC's and the static ones: a smaller workload than `filters` for racecheck.
if want("warp_tables"):
    for M in (1600, 3000):
        hmm, db, profile = sampled_case(M, M, rng.integers(0, 2000, 40), lambda c: [c])
        targets = core.GpuTargets(db.residues, db.offsets)
        for runtime_compiled in (True, False):
            gp = core.GpuProfile(profile, 16, "auto", 1, runtime_compiled=runtime_compiled)
            for which in ("ssv", "msv"):
                gpu = core.gpu_filter_scores(gp, targets, which, db.residues, db.offsets)
                cpu = core.filter_scores(profile, which, db.residues, db.offsets)
                failures += not np.array_equal(gpu, cpu, equal_nan=True)
# More targets than kLongestFirstMinTargets (8,192): the SSV/MSV warp kernels' warps claim them
# longest first (TargetList::order), the cascade's order kept per GpuTargets.
if want("claims"):
    hmm, db, profile = sampled_case(200, 7, rng.integers(0, 60, 8500), lambda c: [c, c * 3])
    targets = core.GpuTargets(db.residues, db.offsets)
    for bits in (8, 16):
        gp = core.GpuProfile(profile, bits, "warp", 1)
        for which in ("ssv", "msv"):
            gpu = core.gpu_filter_scores(gp, targets, which, db.residues, db.offsets)
            cpu = core.filter_scores(profile, which, db.residues, db.offsets)
            failures += not np.array_equal(gpu, cpu, equal_nan=True)
    for F1 in (0.02, 1.0):
        gpu = core.gpu_run_cascade(gp, targets, db.residues, db.offsets, F1, 1e-3, True, 2)
        cpu = core.run_cascade(profile, db.residues, db.offsets, F1, 1e-3, True, 2)
        failures += not np.array_equal(gpu["stage"], cpu["stage"])
# Cascades of several models at once, a thread each, on one GpuTargets (hmmsearch's models in
# flight): each thread's stream-ordered temporaries and the shared SSV buffers.
if want("streams"):
    from concurrent.futures import ThreadPoolExecutor

    cases = [sampled_case(M, M + 1, rng.integers(0, 900, 80), lambda c: [c]) for M in (60, 200)]
    _, db, _ = cases[0]
    targets = core.GpuTargets(db.residues, db.offsets)
    profiles = [search_profile(h) for h, _, _ in cases]
    gpu_profiles = [core.GpuProfile(p) for p in profiles]
    expected = [np.flatnonzero(core.run_cascade(p, db.residues, db.offsets, 1.0, 1e-3, True, 2)
                               ["stage"] == 4) for p in profiles]

    def cascade(q):
        return core.gpu_run_cascade(gpu_profiles[q], targets, db.residues, db.offsets, 1.0, 1e-3,
                                    True, 2, F3=1e-5, all_scores=False)

    with ThreadPoolExecutor(max_workers=4) as pool:
        order = [0, 1, 0, 1, 1, 0]
        for q, r in zip(order, pool.map(cascade, order)):
            failures += not set(r["survivors"]) <= set(expected[q])
# The kernels NVRTC compiles at run time (cuda/hmm/runtime_compile.cpp): exact stripe counts
# the static set lacks (11, 30 16-bit stripes) and a model longer than it takes, against the
# static kernels and the CPU.
if want("nvrtc"):
    for M in (700, 1900, 3500):
        hmm, db, profile = sampled_case(M, M, rng.integers(0, 3000, 40), lambda c: [c])
        targets = core.GpuTargets(db.residues, db.offsets)
        for bits in (8, 16):
            profiles = [core.GpuProfile(profile, bits)]
            failures += not profiles[0].runtime_compiled
            if M <= core.gpu_static_max_model_length:
                profiles.append(core.GpuProfile(profile, bits, runtime_compiled=False))
            for gp in profiles:
                for which in ("ssv", "msv", "viterbi"):
                    gpu = core.gpu_filter_scores(gp, targets, which, db.residues, db.offsets)
                    cpu = core.filter_scores(profile, which, db.residues, db.offsets)
                    failures += not np.array_equal(gpu, cpu, equal_nan=True)
# The thread-per-target Viterbi filter (Walters et al.; viterbi_walters.cuh): M = 1 to 3000,
# mixed lengths (the launch sorts them; a thread walks a whole target, so they are kept short
# for the sanitizer), and the GPU cascade with it (F2 = 1e-300: the Viterbi filter runs on
# nearly every target).
if want("walters"):
    for M in (1, 130, 3000):
        hmm, db, profile = sampled_case(M, M + 1, rng.integers(0, 500, 60), lambda c: [c * 2])
        gp = core.GpuProfile(profile, viterbi="thread")
        targets = core.GpuTargets(db.residues, db.offsets)
        gpu = core.gpu_filter_scores(gp, targets, "viterbi", db.residues, db.offsets)
        cpu = core.filter_scores(profile, "viterbi", db.residues, db.offsets)
        failures += not np.array_equal(gpu, cpu, equal_nan=True)
        gpu = core.gpu_run_cascade(gp, targets, db.residues, db.offsets, 1.0, 1e-300, True, 2)
        cpu = core.run_cascade(profile, db.residues, db.offsets, 1.0, 1e-300, True, 2)
        failures += not np.array_equal(gpu["viterbi_score"], cpu["viterbi_score"], equal_nan=True)
# The S-lane SSV/MSV kernels (cuda/hmm/msv_multi.cuh) for every S and lane width, on enough
# targets to fill several sequence blocks (columns of very different lengths, empty and
# 1-residue targets).
# (16, 16, 44): the SSV and MSV at different H (12 and 11: each past its own slow counts).
if want("slane"):
    cases = [(16, S, 0) for S in (2, 4, 8, 16, 32, 64)] + [(8, S, 0) for S in (2, 16, 64, 128)]
    for bits, S, M in cases + [(16, 16, 44)]:
        nodes_per_stripe = (64 if bits == 16 else 128) // S
        lengths = np.clip(rng.lognormal(4, 1.5, 3 * S + 20), 0, 4000).astype(int)
        hmm, db, profile = sampled_case(
            M or min(10 * nodes_per_stripe, 300), S, lengths, lambda c, S=S: [c] * (2 * S)
        )
        gp = core.GpuProfile(profile, bits, "warp", S)
        targets = core.GpuTargets(db.residues, db.offsets)
        for which in ("ssv", "msv"):
            gpu = core.gpu_filter_scores(gp, targets, which, db.residues, db.offsets)
            cpu = core.filter_scores(profile, which, db.residues, db.offsets)
            failures += not np.array_equal(gpu, cpu, equal_nan=True)
        # The cascade with its SSV on the S-lane kernels, as a search of several models runs it.
        gp.ssv_multi = True
        gpu = core.gpu_run_cascade(gp, targets, db.residues, db.offsets, 0.02, 1e-3, True, 2)
        cpu = core.run_cascade(profile, db.residues, db.offsets, 0.02, 1e-3, True, 2)
        failures += not np.array_equal(gpu["stage"], cpu["stage"])
        # Fresh targets, the blocks planned on a host thread while the SSV runs a warp per
        # target, then filled by a later SSV.
        gp.ssv_blocks_background = True
        targets = core.GpuTargets(db.residues, db.offsets)
        for _ in range(3):
            gpu = core.gpu_run_cascade(gp, targets, db.residues, db.offsets, 0.02, 1e-3, True, 2)
            failures += not np.array_equal(gpu["stage"], cpu["stage"])
# The fused Viterbi kernel (cuda/hmm/viterbi_fused.cuh): transitions in registers (M up to
# 1024), partly (1100: 18 stripes, 16 in registers, NVRTC only; 1300: 21 stripes, 13; static:
# 20 stripes, 14) and read every row (3000), static and NVRTC kernels; the D->D chain in two
# parts (1024, 1300; 2560 over two warps: dd_chain_split_at); with
# 2 and 4 targets per warp on short models (46 targets: the last warp's groups partly empty;
# two a warp at 13 stripes, 400, NVRTC only); rows with and without floors (the `*` and `~`
# rows keep them); the kernel chosen by launch; a model split over warps; the systolic pipeline
# in front of it.
if want("fused"):
    cases = [(M, 1) for M in (1, 130, 800, 1024, 1100, 1300, 3000)]
    cases += [(1, 2), (130, 2), (250, 2), (400, 2), (1, 4), (100, 4)]
    for M, T in cases:
        hmm, db, profile = sampled_case(
            M, M + 3, rng.integers(0, 2000, 42), lambda c: [c * 2, "*" + c + "~~" + c]
        )
        targets = core.GpuTargets(db.residues, db.offsets)
        cpu = core.filter_scores(profile, "viterbi", db.residues, db.offsets)
        for runtime_compiled in (True, False):
            if not runtime_compiled and T > 1 and M > 8 * 64 // T:
                continue  # past the static grouped kernels (8 stripes)
            gp = core.GpuProfile(
                profile,
                viterbi="warp_fused",
                runtime_compiled=runtime_compiled,
                viterbi_targets_per_warp=T,
                viterbi_systolic=-1,
            )
            gpu = core.gpu_filter_scores(gp, targets, "viterbi", db.residues, db.offsets)
            failures += not np.array_equal(gpu, cpu, equal_nan=True)
    # A model split over 2, 3 and 4 warps (viterbi_split_kernel: the block's exchange each
    # row, as records up to 16 stripes a warp), every transition in registers, or a warp's
    # last stripes streamed and its D->D words held (2400, 2560 and 2816 over 2: 16, 15 and 14
    # resident at ptxas's register usage level 0 with NVRTC 13, else 10, 10 and 9); 3840 over 4
    # at level 0 (15 stripes).
    for M, W in ((1100, 2), (2500, 3), (2400, 2), (2560, 2), (2816, 2), (3500, 4), (3840, 4)):
        hmm, db, profile = sampled_case(
            M, M + 5, rng.integers(0, 2000, 42), lambda c: [c * 2, "*" + c + "~~" + c]
        )
        targets = core.GpuTargets(db.residues, db.offsets)
        cpu = core.filter_scores(profile, "viterbi", db.residues, db.offsets)
        gp = core.GpuProfile(profile, viterbi="warp_fused", viterbi_warps_per_target=W)
        gpu = core.gpu_filter_scores(gp, targets, "viterbi", db.residues, db.offsets)
        failures += not np.array_equal(gpu, cpu, equal_nan=True)
    # The kernel chosen by launch: four a warp, the pipeline, or the profile's own two a warp,
    # NVRTC (M = 200) and static (71) kernels; each other profile made at its first launch.
    for M, runtime_compiled in ((71, False), (200, True)):
        hmm, db, profile = sampled_case(
            M, M + 7, rng.integers(0, 400, 300), lambda c: [c * 9, "*" + c + "~~" + c]
        )
        targets = core.GpuTargets(db.residues, db.offsets)
        cpu = core.filter_scores(profile, "viterbi", db.residues, db.offsets)
        gp = core.GpuProfile(profile, viterbi="warp_fused", runtime_compiled=runtime_compiled,
                             viterbi_by_launch=1)
        for rows, kernel in (((1.0, 1e9), "fused/T4"), ((1.0, 1.0), "systolic"),
                             ((1e9, 1e9), "fused/T2")):
            core.gpu_viterbi_by_launch_rows(*rows)
            gpu = core.gpu_filter_scores(gp, targets, "viterbi", db.residues, db.offsets)
            failures += not np.array_equal(gpu, cpu, equal_nan=True)
            failures += core.gpu_last_viterbi_kernel() != kernel
        core.gpu_viterbi_by_launch_rows(0.0, 0.0)
    # The systolic pipeline (viterbi_systolic.cuh): 4 lanes of 6 nodes (M = 1, 23 padding
    # nodes), 8 lanes of 9 (71), 16 of 10 (150); 32 lanes of 12 (384, none); an odd number of
    # targets, the planted ones and `*`/`~` handed back to the fused kernel.
    for M in (1, 71, 150, 384):
        hmm, db, profile = sampled_case(
            M, M + 9, rng.integers(1, 2000, 43), lambda c: [c * 2, "*" + c + "~~" + c]
        )
        gp = core.GpuProfile(profile, viterbi="warp_fused", viterbi_systolic=1)
        # All the targets, and the later ones alone: offsets that start inside the residues
        # (a chunk split for GPU memory).
        for offsets in (db.offsets, db.offsets[20:]):
            targets = core.GpuTargets(db.residues, offsets)
            cpu = core.filter_scores(profile, "viterbi", db.residues, offsets)
            gpu = core.gpu_filter_scores(gp, targets, "viterbi", db.residues, offsets)
            failures += not np.array_equal(gpu, cpu, equal_nan=True)
# The MRF segmentation (cuda/mrf/segment.cu): both sweep kernels, every neighbourhood, both
# modes, on a small noisy volume cut by the tiles at every edge (and 12 classes: the class
# sums' second register chunk).
if want("mrf"):
    shape = (11, 13, 70)
    volume = (rng.integers(0, 3, shape) * 100 + rng.normal(0, 40, shape)).astype(np.float32)
    start = rng.integers(0, 3, shape)
    for kernel in ("tiled", "paper"):
        for neighbourhood in (6, 18, 26):
            for mode in ("icm", "metropolis"):
                kwargs = dict(init=start, neighbourhood=neighbourhood, mode=mode, max_sweeps=2,
                              tolerance=0.0, seed=5, threads=2)
                gpu = gpuseq.segment_mrf(volume, backend="cuda", kernel=kernel, **kwargs)
                cpu = gpuseq.segment_mrf(volume, backend="cpu", **kwargs)
                failures += not (np.array_equal(gpu.labels, cpu.labels)
                                 and np.array_equal(gpu.energy, cpu.energy))
        kwargs = dict(classes=12, max_sweeps=1, threads=2)
        gpu = gpuseq.segment_mrf(volume, backend="cuda", kernel=kernel, **kwargs)
        cpu = gpuseq.segment_mrf(volume, backend="cpu", **kwargs)
        failures += not (np.array_equal(gpu.labels, cpu.labels)
                         and np.array_equal(gpu.variances, cpu.variances))
# blastp's two-hit stage (cuda/blast): hit detection, assembling, segmented sort, filter and
# extension on random subjects (lengths 0 to 900) with a planted copy of the query, poly-A
# against poly-A (bins overflow), default bins, one slot per bin (every bin redone), and small
# batches, each extension variant with the PSSM and with BLOSUM62; rows and counters equal to
# the CPU stage's; then blastp with the GPU stage in batches handed to the CPU's threads (the
# GPU extending every HSP's seed for the gapped stage, also with rings too small for some), and
# twice from a held database's resident copy.
if want("blast"):
    from gpuseq import blast

    letters = np.array(list("ACDEFGHIKLMNPQRSTVWY"))
    query = "".join(rng.choice(letters, 150))
    records = [(f"s{i}", "".join(rng.choice(letters, int(n)))) for i, n in
               enumerate(rng.integers(0, 900, 60))]  # fmt: skip
    records += [("copy", "MK" + query[20:120] + "W"), ("one", "A"), ("polyA", "A" * 500)]
    codes, offsets, _ = blast.encode(records)
    for q in (query, "A" * 120):
        qcodes = blast.encode([("q", q)])[0]
        cpu_rows, cpu_count = core.blast_ungapped_hsps(qcodes, codes, offsets, 16, 15)
        for options in ({}, {"sort": "bins", "bin_capacity": 1, "bins": 32}, {"batch_hits": 3000},
                        {"sort": "bins", "batch_hits": 3000},
                        {"extension": "window"}, {"extension": "window", "batch_hits": 3000},
                        {"extension": "hit"}, {"extension": "hit", "batch_hits": 3000},
                        {"scoring": "blosum62"}, {"extension": "hit", "scoring": "blosum62"},
                        {"extension": "window", "scoring": "blosum62"}):
            gpu_rows, gpu_count = core.gpu_blast_ungapped_hsps(
                qcodes, codes, offsets, 16, 15, **options
            )
            failures += not all(np.array_equal(gpu_rows[c], cpu_rows[c]) for c in cpu_rows)
            failures += gpu_count["extensions"] != cpu_count["extensions"]
    pair = [("q", query), ("polyA", "A" * 120)]
    expected = blast.outfmt6_lines(blast.blastp(pair, records, backend="cpu", evalue=100.0))
    for gpu_options in ({"batch_hits": 3000, "extension": "diagonal"},
                        {"batch_hits": 3000, "extension": "hit"},
                        {"extend_seeds": True, "batch_hits": 3000},
                        {"extend_seeds": True, "seed_ring_columns": 64}):  # some do not fit
        got = blast.blastp(pair, records, backend="cuda", evalue=100.0, gpu_options=gpu_options)
        failures += blast.outfmt6_lines(got) != expected
    held = gpuseq.SequenceDatabase.from_records(records)  # uploaded once, searched twice
    for _ in range(2):
        got = blast.blastp(pair, held, backend="cuda", evalue=100.0)
        failures += blast.outfmt6_lines(got) != expected
print("GPU kernels differing from the CPU:", failures)
raise SystemExit(1 if failures else 0)
