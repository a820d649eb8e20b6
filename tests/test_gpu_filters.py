"""The GPU filters (cuda/hmm: CUDAMPF warp kernels) give the CPU filters' scores bit for bit,
and so HMMER's (tests/test_filters.py checks the CPU filters against HMMER itself); the GPU
cascade and hmmsearch(backend="cuda") give the CPU backend's results. Run on the device
machine; skipped without a GPU."""

from __future__ import annotations

import numpy as np
import pytest
from pyhmmer.easel import Alphabet
from pyhmmer.plan7 import HMM, HMMFile

import gpuseq
from conftest import HMMER_EXAMPLES, assert_cascades_equal, bit_equal
from gpuseq import _core
from gpuseq.hmm import search_profile
from synthetic import hmmemit, plant, random_proteins, write_fasta

pytestmark = pytest.mark.cuda

FILTERS = ("ssv", "msv", "viterbi")
MSV_BITS = (8, 16)  # the paper's byte lanes and the DPX word lanes: the same scores


def _gpu_vs_cpu(profile, residues, offsets, msv_bits):
    """Per filter: (GPU scores, CPU scores) on the same targets."""
    # A warp per target (CUDAMPF); tests/test_gpu_multi.py tests S targets per warp.
    gpu_profile = _core.GpuProfile(profile, msv_bits, "warp", 1)
    assert gpu_profile.msv_bits == msv_bits
    targets = _core.GpuTargets(residues, offsets)
    return {
        which: (
            _core.gpu_filter_scores(gpu_profile, targets, which, residues, offsets),
            _core.filter_scores(profile, which, residues, offsets),
        )
        for which in FILTERS
    }


def _assert_equal(name, results, ids=None):
    for which, (gpu, cpu) in results.items():
        bad = np.flatnonzero(~bit_equal(gpu, cpu))
        assert bad.size == 0, (name, which, [(i, gpu[i], cpu[i]) for i in bad[:5]])


def _digitize(seqs: list[str]):
    db = gpuseq.SequenceDatabase.from_records([(f"t{i}", s) for i, s in enumerate(seqs)])
    return db.residues, db.offsets


@pytest.mark.parametrize("msv_bits", MSV_BITS)
def test_every_filter_equals_cpu_on_every_model(corpora, msv_bits):
    """Every example, pyhmmer and synthetic model (M = 1 to 2000) on its stress corpus:
    overflow, the J state, SSV no-result, odd symbols, lengths 1 to 9000."""
    seen = {"ssv_noresult": 0, "msv_overflow": 0, "vf_overflow": 0, "targets": 0}
    for model_path, fasta in corpora:
        db = gpuseq.read_fasta(fasta)
        with HMMFile(model_path) as f:
            for hmm in f:
                results = _gpu_vs_cpu(search_profile(hmm), db.residues, db.offsets, msv_bits)
                _assert_equal(hmm.name, results)
                seen["ssv_noresult"] += int(np.isnan(results["ssv"][1]).sum())
                seen["msv_overflow"] += int(np.isposinf(results["msv"][1]).sum())
                seen["vf_overflow"] += int(np.isposinf(results["viterbi"][1]).sum())
                seen["targets"] += len(db)
    assert min(seen.values()) > 50, seen


@pytest.mark.parametrize("msv_bits", MSV_BITS)
@pytest.mark.parametrize(
    "M", [1, 2, 3, 63, 64, 65, 127, 128, 129, 256, 257, 383, 640, 1025, 1537, 2048, 2561, 3072]
)
def test_every_stripe_count_and_model_boundary(M, msv_bits):
    """Models that fill their stripes exactly, by one node more or less, and that need a
    rounded-up stripe count, against random, planted and repeated-consensus targets."""
    rng = np.random.default_rng(M)
    hmm = HMM.sample(Alphabet.amino(), M, int(M) + 11)
    hmm.set_composition()
    consensus = hmm.consensus.upper()
    seqs = random_proteins(rng, 40, mean_length=300)
    seqs += [plant(rng, consensus), consensus * 3, consensus[: max(1, M // 2)], "X" * 50]
    seqs += [random_proteins(rng, 1, L, L, L)[0] for L in (1, 2, 129, 4000)]
    profile = search_profile(hmm)
    _assert_equal(f"M={M}", _gpu_vs_cpu(profile, *_digitize(seqs), msv_bits))


@pytest.mark.parametrize("msv_bits", MSV_BITS)
def test_empty_single_and_100000_residue_targets(synthetic_models, msv_bits):
    """Empty targets are NaN on both; lengths 1 and 100,000 (HMMER's limit), planted or not,
    and a target far longer than the 128-residue staging of the kernels."""
    rng = np.random.default_rng(3)
    with HMMFile(synthetic_models["random2000"]) as f:
        hmm = next(iter(f))
    long_bg = random_proteins(rng, 1, 100000, 100000, 100000)[0]
    planted = long_bg[:40000] + hmm.consensus.upper() + long_bg[42000:]
    seqs = ["", "A", "", long_bg, planted, "W", ""]
    residues, offsets = _digitize(seqs)
    results = _gpu_vs_cpu(search_profile(hmm), residues, offsets, msv_bits)
    _assert_equal("edges", results)
    for which in FILTERS:
        assert np.isnan(results[which][0][[0, 2, 6]]).all()


def test_bias_filter_on_the_gpu_equals_cpu(corpora):
    """The bias filter's GPU twin (thread per target, the host where its log might round
    otherwise, or the target is long) against the CPU's on every stress corpus and model,
    and on lengths 1 to 100,000."""
    seen = {"targets": 0, "on_host": 0, "long": 0}
    rng = np.random.default_rng(8)
    long = random_proteins(rng, 1, 100000, 100000, 100000)[0]
    edges = _digitize(["", "A", "W", long[:1536], long[:1537], long, "X" * 30, ""])
    cases = []
    for model_path, fasta in corpora:
        db = gpuseq.read_fasta(fasta)
        with HMMFile(model_path) as f:
            cases += [(hmm, db.residues, db.offsets) for hmm in f]
    cases.append((cases[0][0], *edges))
    for hmm, residues, offsets in cases:
        profile = search_profile(hmm)
        gpu_profile = _core.GpuProfile(profile)
        targets = _core.GpuTargets(residues, offsets)
        gpu, on_host = _core.gpu_bias_filter_scores(gpu_profile, targets, residues, offsets, 2)
        cpu = _core.filter_scores(profile, "bias", residues, offsets)
        bad = np.flatnonzero(~bit_equal(gpu, cpu))
        assert bad.size == 0, (hmm.name, [(i, gpu[i], cpu[i]) for i in bad[:5]])
        seen["targets"] += len(offsets) - 1
        seen["on_host"] += on_host
        seen["long"] += int((np.diff(offsets) > 1536).sum())  # the host takes those
    # Besides the long targets, a log the GPU cannot round for sure is rare.
    assert seen["long"] >= 2 and seen["long"] <= seen["on_host"], seen
    assert seen["on_host"] - seen["long"] < seen["targets"] // 100, seen


def test_model_longer_than_the_kernels_is_refused_clearly():
    hmm = HMM.sample(Alphabet.amino(), _core.gpu_max_model_length + 1, 5)
    hmm.set_composition()
    with pytest.raises(ValueError, match="longer than the GPU filter kernels"):
        _core.GpuProfile(search_profile(hmm))


def test_gpu_cascade_equals_cpu_cascade(tmp_path):
    """Stages, scores and pass counts of the whole filter cascade, with and without the bias
    filter, on background plus planted homologs of five tutorial/testsuite models."""
    rng = np.random.default_rng(11)
    tut = HMMER_EXAMPLES / "tutorial"
    for name in ("globins4", "fn3", "Pkinase"):
        path = tut / f"{name}.hmm"
        with HMMFile(path) as f:
            hmm = next(iter(f))
        seqs = random_proteins(rng, 3000, mean_length=300)
        seqs += [plant(rng, s) for s in hmmemit(path, 60, seed=5)]
        residues, offsets = _digitize(seqs)
        profile = search_profile(hmm)
        gpu_profile = _core.GpuProfile(profile)  # this device's default lanes
        targets = _core.GpuTargets(residues, offsets)
        for bias in (True, False):
            for F1, F2 in ((0.02, 1e-3), (1.0, 1.0)):
                gpu = _core.gpu_run_cascade(
                    gpu_profile, targets, residues, offsets, F1, F2, bias, 4
                )
                cpu = _core.run_cascade(profile, residues, offsets, F1, F2, bias, 4)
                assert_cascades_equal(gpu, cpu, name)
                assert cpu["n_past_vit"] > 0
                # As hmmsearch runs it: stages, counts and survivors, no scores.
                sparse = _core.gpu_run_cascade(
                    gpu_profile, targets, residues, offsets, F1, F2, bias, 4, all_scores=False
                )
                assert "msv_score" not in sparse
                for key in ("stage", "n_past_msv", "n_past_bias", "n_past_vit"):
                    assert np.array_equal(sparse[key], cpu[key]), (name, key)
                passed = np.flatnonzero(cpu["stage"] == 4)
                assert np.array_equal(sparse["survivors"], passed), name
                assert np.array_equal(gpu["survivors"], passed), name


def test_targets_that_start_inside_the_residues_equal_the_cpu():
    """Targets whose offsets do not start at 0 (the later half of a chunk split for GPU
    memory, hmmsearch's _ChunkCopies): every filter, every Viterbi kernel the launch
    chooses among, and the cascade read each target's own residues."""
    rng = np.random.default_rng(21)
    tut = HMMER_EXAMPLES / "tutorial"
    seqs = random_proteins(rng, 2500, mean_length=250)
    seqs += [plant(rng, s) for s in hmmemit(tut / "globins4.hmm", 40, seed=9)]
    residues, offsets = _digitize(seqs)
    later = offsets[900:]
    assert later[0] > 0
    with HMMFile(tut / "globins4.hmm") as f:
        profile = search_profile(next(iter(f)))
    for msv_bits in MSV_BITS:
        _assert_equal(f"globins4 {msv_bits}", _gpu_vs_cpu(profile, residues, later, msv_bits))
    cpu_viterbi = _core.filter_scores(profile, "viterbi", residues, later)
    targets = _core.GpuTargets(residues, later)
    for kwargs in ({}, {"viterbi": "warp_fused", "viterbi_systolic": 1}):
        gp = _core.GpuProfile(profile, **kwargs)
        gpu = _core.gpu_filter_scores(gp, targets, "viterbi", residues, later)
        assert bit_equal(gpu, cpu_viterbi).all(), kwargs
        if kwargs:  # (the systolic pipeline read the residues at its own offsets)
            assert _core.gpu_viterbi_systolic_counts()["piped"] > 1000
        cascade = _core.gpu_run_cascade(gp, targets, residues, later, 0.02, 1e-3, True, 4)
        cpu = _core.run_cascade(profile, residues, later, 0.02, 1e-3, True, 4)
        assert_cascades_equal(cascade, cpu, f"globins4 {kwargs}")
        assert cpu["n_past_vit"] >= 30


def test_every_allocation_that_fails_leaves_the_targets_usable():
    """Each device allocation of an upload and of a first cascade refused in turn (a testing
    hook): the failure is a MemoryError, and the same targets then give the CPU's cascade (a
    work buffer left half made once sent null pointers to the next cascade's kernels)."""
    rng = np.random.default_rng(22)
    tut = HMMER_EXAMPLES / "tutorial"
    seqs = random_proteins(rng, 1500, mean_length=250)
    seqs += [plant(rng, s) for s in hmmemit(tut / "fn3.hmm", 20, seed=2)]
    residues, offsets = _digitize(seqs)
    with HMMFile(tut / "fn3.hmm") as f:
        profile = search_profile(next(iter(f)))
    gp = _core.GpuProfile(profile)
    cpu = _core.run_cascade(profile, residues, offsets, 0.02, 1e-3, True, 4)
    refused = 0
    for n in range(1, 200):
        targets = None
        _core.gpu_fail_allocation_for_tests(n)
        try:
            targets = _core.GpuTargets(residues, offsets)
            _core.gpu_run_cascade(gp, targets, residues, offsets, 0.02, 1e-3, True, 4)
        except MemoryError as exc:
            assert "test allocation countdown" in str(exc)
            refused += 1
        else:
            break  # the n-th allocation came after the whole cascade: all were tried
        finally:
            _core.gpu_fail_allocation_for_tests(0)
        if targets is not None:
            again = _core.gpu_run_cascade(gp, targets, residues, offsets, 0.02, 1e-3, True, 4)
            assert_cascades_equal(again, cpu, f"fn3, allocation {n} refused")
    assert refused >= 8 and n < 200, refused


def test_a_cascade_that_fails_has_waited_for_its_launches():
    """Each device allocation of a cascade refused in turn, its SSV kernel long (M = 2000, a
    target of 100,000 residues claimed last): the cascade raises only once its launches have
    ended, the thread's stream idle. Before, one that failed after the SSV's launch left it
    writing to the targets' shared SSV buffers, and another model's cascade, on another
    thread's stream, took them at once: hmmsearch's results changed now and then when an
    allocation failed (results/gpu-h200-20261130-e)."""
    rng = np.random.default_rng(23)
    hmm = HMM.sample(Alphabet.amino(), 2000, 23)
    hmm.set_composition()
    profile = search_profile(hmm)
    seqs = random_proteins(rng, 3000, mean_length=300)
    seqs.append(random_proteins(rng, 1, 100_000, 100_000, 100_000)[0])
    residues, offsets = _digitize(seqs)
    gp = _core.GpuProfile(profile)
    targets = _core.GpuTargets(residues, offsets)
    cpu = _core.run_cascade(profile, residues, offsets, 0.02, 1e-3, True, 4)
    # The targets' shared buffers and the kernels made first: the refusals then reach the
    # cascade's own allocations, those after the SSV's launch among them.
    assert_cascades_equal(_core.gpu_run_cascade(gp, targets, residues, offsets, 0.02, 1e-3,
                                                True, 4), cpu, "M = 2000")
    refused = 0
    for n in range(1, 100):
        _core.gpu_fail_allocation_for_tests(n)
        try:
            _core.gpu_run_cascade(gp, targets, residues, offsets, 0.02, 1e-3, True, 4)
        except MemoryError as exc:
            assert "test allocation countdown" in str(exc)
            refused += 1
            assert _core.gpu_thread_stream_idle_for_tests(), f"allocation {n} refused"
        else:
            break  # past the cascade's last allocation
        finally:
            _core.gpu_fail_allocation_for_tests(0)
    assert refused >= 2 and n < 100, refused


@pytest.mark.parametrize("claimed", [True, False])
def test_many_targets_claimed_longest_first_equal_the_cpu(claimed):
    """From 8,192 targets (kLongestFirstMinTargets) the warps of the SSV/MSV warp kernels claim
    them longest first (TargetList::order; the cascade's SSV keeps its order per database); with
    the hook off they take them by CUDAMPF's static rule. Every filter's scores, at both lane
    widths, and the whole cascade (SSV over every target; with F1 = 1 the MSV over every target
    too) equal the CPU's either way."""
    rng = np.random.default_rng(17)
    path = HMMER_EXAMPLES / "tutorial" / "globins4.hmm"
    with HMMFile(path) as f:
        hmm = next(iter(f))
    seqs = random_proteins(rng, 9000, mean_length=120)
    seqs += [plant(rng, s) for s in hmmemit(path, 40, seed=9)] + ["", "W", "X" * 3000]
    residues, offsets = _digitize(seqs)
    profile = search_profile(hmm)
    targets = _core.GpuTargets(residues, offsets)
    _core.gpu_warp_kernels_claim_targets(claimed)
    try:
        for msv_bits in MSV_BITS:
            _assert_equal(f"bits={msv_bits}", _gpu_vs_cpu(profile, residues, offsets, msv_bits))
        gpu_profile = _core.GpuProfile(profile, 16, "warp", 1)
        for F1, F2 in ((0.02, 1e-3), (1.0, 1.0)):
            gpu = _core.gpu_run_cascade(gpu_profile, targets, residues, offsets, F1, F2, True, 4)
            cpu = _core.run_cascade(profile, residues, offsets, F1, F2, True, 4)
            assert_cascades_equal(gpu, cpu, F1)
            assert cpu["n_past_vit"] > 0
    finally:
        _core.gpu_warp_kernels_claim_targets(True)


def test_gpu_cascades_on_several_threads_equal_cpu_cascades():
    """Cascades of several models at once on one GpuTargets, a thread each, as hmmsearch runs
    them (each thread's launches, copies and temporaries on its own stream, the SSV's
    buffers shared): every model's stages, counts and survivors equal its CPU cascade's,
    round after round."""
    from concurrent.futures import ThreadPoolExecutor

    rng = np.random.default_rng(17)
    tut = HMMER_EXAMPLES / "tutorial"
    hmms = []
    for name in ("globins4", "fn3", "Pkinase"):
        with HMMFile(tut / f"{name}.hmm") as f:
            hmms.append(next(iter(f)))
    seqs = random_proteins(rng, 4000, mean_length=300)
    for name in ("globins4", "fn3", "Pkinase"):
        seqs += [plant(rng, s) for s in hmmemit(tut / f"{name}.hmm", 30, seed=2)]
    residues, offsets = _digitize(seqs)
    profiles = [search_profile(h) for h in hmms]
    gpu_profiles = [_core.GpuProfile(p) for p in profiles]
    targets = _core.GpuTargets(residues, offsets)
    cpu = [_core.run_cascade(p, residues, offsets, 0.02, 1e-3, True, 2) for p in profiles]
    assert all(c["n_past_vit"] > 0 for c in cpu)

    def run(q):
        return _core.gpu_run_cascade(gpu_profiles[q], targets, residues, offsets, 0.02, 1e-3,
                                     True, 2, all_scores=False)

    order = [0, 1, 2, 2, 1, 0]
    with ThreadPoolExecutor(max_workers=4) as pool:
        for _ in range(3):
            for q, gpu in zip(order, pool.map(run, order)):
                for key in ("stage", "n_past_msv", "n_past_bias", "n_past_vit"):
                    assert np.array_equal(gpu[key], cpu[q][key]), (q, key)
                assert np.array_equal(gpu["survivors"], np.flatnonzero(cpu[q]["stage"] == 4))


def test_hmmsearch_on_the_gpu_equals_the_cpu_backend(tmp_path):
    """The whole search: hits, domains and pass counts equal (and so hmmsearch's, which
    tests/test_hmmsearch.py checks for the CPU backend); several models, two whose Viterbi
    filter is split over the warps of a block (M = 2400 over two, 3000 over four), and one
    longer than the GPU kernels (it runs on the CPU filters)."""
    rng = np.random.default_rng(5)
    tut = HMMER_EXAMPLES / "tutorial"
    models = []
    for name in ("globins4", "fn3", "Pkinase"):
        with HMMFile(tut / f"{name}.hmm") as f:
            models.extend(f)
    sampled = []
    for M, seed, name in ((2400, 7, b"split_2"), (3000, 8, b"split_4"),
                          (_core.gpu_max_model_length + 20, 9, b"long_model")):
        hmm = HMM.sample(Alphabet.amino(), M, seed)
        hmm.name = name
        hmm.set_composition()
        # Sampled models have no calibration; plausible STATS (the same for both backends).
        ev = hmm.evalue_parameters
        ev.m_mu, ev.m_lambda, ev.v_mu, ev.v_lambda, ev.f_tau, ev.f_lambda = (
            -12.0, 0.69, -12.5, 0.69, -7.0, 0.69
        )
        sampled.append(hmm)
    assert [_core.gpu_choose_viterbi_warps_per_target(h.M) for h in sampled[:2]] == [2, 4]
    models += sampled
    seqs = random_proteins(rng, 4000, mean_length=300)
    for name in ("globins4", "fn3", "Pkinase"):
        seqs += [plant(rng, s) for s in hmmemit(tut / f"{name}.hmm", 20, seed=3)]
    seqs += [plant(rng, h.consensus.upper()) for h in sampled]
    fasta = write_fasta(tmp_path / "db.fa", [(f"t{i}", s) for i, s in enumerate(seqs)])
    cpu = gpuseq.hmmsearch(models, fasta, backend="cpu", cpus=4)
    gpu = gpuseq.hmmsearch(models, fasta, backend="cuda", cpus=4, block_bytes=200_000)
    assert len(cpu.hits) > 50
    assert {"split_2", "split_4"} <= set(cpu.hits["query_name"])  # their planted homologs
    for frame in ("hits", "domains", "pipeline"):
        a, b = getattr(gpu, frame), getattr(cpu, frame)
        assert a.equals(b), frame


def test_a_chunk_the_gpu_cannot_hold_is_split(tmp_path):
    """With device allocations capped (a testing hook), the search splits its chunks until
    they fit, and a target that still does not fit runs on the CPU filters: the same results."""
    rng = np.random.default_rng(8)
    tut = HMMER_EXAMPLES / "tutorial"
    seqs = random_proteins(rng, 1500, mean_length=300)
    seqs += [plant(rng, s) for s in hmmemit(tut / "globins4.hmm", 20, seed=4)]
    flank = random_proteins(rng, 1, 45000, 45000, 45000)[0]  # one target over the cap alone
    seqs.append(flank[:22000] + hmmemit(tut / "globins4.hmm", 1, seed=5)[0] + flank[22000:])
    fasta = write_fasta(tmp_path / "db.fa", [(f"t{i}", s) for i, s in enumerate(seqs)])
    cpu = gpuseq.hmmsearch(tut / "globins4.hmm", fasta, backend="cpu", cpus=4)
    _core.gpu_allocation_limit_for_tests(40_000)  # the model's tables fit, the targets do not
    try:
        with pytest.raises(MemoryError, match="test allocation limit"):
            _core.GpuTargets(*_digitize(seqs))
        gpu = gpuseq.hmmsearch(tut / "globins4.hmm", fasta, backend="cuda", cpus=4)
    finally:
        _core.gpu_allocation_limit_for_tests(0)
    assert len(cpu.hits) > 15
    for frame in ("hits", "domains", "pipeline"):
        assert getattr(gpu, frame).equals(getattr(cpu, frame)), frame


def test_a_chunk_the_gpu_cannot_hold_is_uploaded_once_for_every_model(tmp_path, monkeypatch):
    """With allocations capped, the upload thread cuts the chunk into parts that fit and each
    part is uploaded once for the three models (before, each model uploaded the chunk's halves
    for itself), and so is each part cut again where a model's buffers do not fit beside one;
    the results equal the CPU backend's."""
    import threading

    rng = np.random.default_rng(9)
    tut = HMMER_EXAMPLES / "tutorial"
    names = ("globins4", "fn3", "Pkinase")
    seqs = random_proteins(rng, 1500, mean_length=300)
    for name in names:
        seqs += [plant(rng, s) for s in hmmemit(tut / f"{name}.hmm", 10, seed=7)]
    fasta = write_fasta(tmp_path / "db.fa", [(f"t{i}", s) for i, s in enumerate(seqs)])
    models = tmp_path / "three.hmm"
    models.write_text("".join((tut / f"{name}.hmm").read_text() for name in names))
    cpu = gpuseq.hmmsearch(models, fasta, backend="cpu", cpus=4)
    uploaded: dict[str, int] = {}
    ranges: list[tuple] = []  # those uploaded beside the upload thread, by their residues
    real = _core.GpuTargets

    def counted(residues, offsets):
        made = real(residues, offsets)
        upload_thread = threading.current_thread().name.startswith("gpuseq-upload")
        thread = "upload" if upload_thread else "other"
        uploaded[thread] = uploaded.get(thread, 0) + len(offsets) - 1
        if not upload_thread:
            first, last = int(offsets[0]), int(offsets[-1])
            ranges.append((first, last, hash(residues[first:last].tobytes())))
        return made

    monkeypatch.setattr(_core, "GpuTargets", counted)
    _core.gpu_allocation_limit_for_tests(40_000)
    try:
        gpu = gpuseq.hmmsearch(models, fasta, backend="cuda", cpus=4)
    finally:
        _core.gpu_allocation_limit_for_tests(0)
    assert uploaded.get("upload") == len(seqs), uploaded
    # Where a model's work buffers do not fit beside a part, the models cut it again, each
    # range uploaded once for all three (hmmsearch._ChunkCopies).
    assert uploaded.get("other", 0) < len(seqs), uploaded
    assert len(ranges) == len(set(ranges)), ranges
    assert len(cpu.hits) > 20
    for frame in ("hits", "domains", "pipeline"):
        assert getattr(gpu, frame).equals(getattr(cpu, frame)), frame


def test_a_held_database_stays_on_the_gpu_between_searches(tmp_path):
    """A SequenceDatabase the caller holds is uploaded by the first GPU search and the next
    searches use those copies (the same objects); with allocations capped the copies are
    dropped and the chunks split: every result equals the CPU backend's."""
    rng = np.random.default_rng(12)
    tut = HMMER_EXAMPLES / "tutorial"
    seqs = random_proteins(rng, 3000, mean_length=300)
    for name in ("globins4", "fn3"):
        seqs += [plant(rng, s) for s in hmmemit(tut / f"{name}.hmm", 20, seed=6)]
    fasta = write_fasta(tmp_path / "db.fa", [(f"t{i}", s) for i, s in enumerate(seqs)])
    db = gpuseq.open_database(gpuseq.makedb(fasta, tmp_path / "db.gsdb"))

    def same(model, **kwargs):
        cpu = gpuseq.hmmsearch(tut / model, fasta, backend="cpu", cpus=4)
        gpu = gpuseq.hmmsearch(tut / model, db, backend="cuda", cpus=4, block_bytes=200_000)
        assert len(cpu.hits) >= 15
        for frame in ("hits", "domains", "pipeline"):
            assert getattr(gpu, frame).equals(getattr(cpu, frame)), (model, frame)

    same("globins4.hmm")
    copies = dict(db.device_copies)
    assert len(copies) > 1  # several chunks, each resident
    same("fn3.hmm")
    assert all(db.device_copies[key] is copy for key, copy in copies.items())
    _core.gpu_allocation_limit_for_tests(40_000)
    try:
        same("globins4.hmm")
    finally:
        _core.gpu_allocation_limit_for_tests(0)
    db.free_device_memory()
    assert not db.device_copies


# A fresh process: the staging (pinned buffers, their threads) is made by its first large
# upload. Prints the threads made by the first upload, and those of them left after a second.
_UPLOADS_IN_A_FRESH_PROCESS = """
import os
import numpy as np
from gpuseq import _core

def tasks():
    return set(os.listdir("/proc/self/task"))

residues = np.random.default_rng(5).integers(0, 20, size=40 * 100_000, dtype=np.uint8)
offsets = np.arange(0, len(residues) + 1, 100_000, dtype=np.int64)
_core.GpuTargets(residues[:1000], offsets[:2] // 100)  # the context and the driver's threads
before = tasks()
first = _core.GpuTargets(residues, offsets)
made = tasks() - before
second = _core.GpuTargets(residues, offsets)
print(len(made), len(made & tasks()))
"""


def test_the_threads_that_copy_a_large_upload_are_kept():
    """An upload of 1 MB or more is copied through pinned staging by several threads
    (cuda/common/device.cu). Those threads are kept for the process's life and copy the next
    upload too, as every thread that calls CUDA is: one ending while other threads of the
    process called CUDA hung the driver now and then (benchmarks/results/gpu-h200-20261130-c).
    They were made and ended for every upload."""
    import os
    import subprocess
    import sys

    if (os.cpu_count() or 1) < 2:
        pytest.skip("one core: an upload is copied by the caller's thread alone")
    out = subprocess.run([sys.executable, "-c", _UPLOADS_IN_A_FRESH_PROCESS], check=True,
                         capture_output=True, text=True, timeout=300).stdout
    made, left = map(int, out.split())
    assert made >= 1 and left == made, out


def test_instruction_rates_are_measured():
    """The micro-benchmarks behind bench_hmm_filters' bounds run and give rates a GPU can have:
    above 0 and at most 256 thread operations per SM per clock (4 warp schedulers, 2 ops in
    a fused instruction)."""
    rates = {r["name"]: r for r in _core.gpu_instruction_rates()}
    assert {"viaddmax_s16x2", "vimax3_s16x2", "vaddus4", "shfl", "ldg_l1_32bit"} <= set(rates)
    for r in rates.values():
        assert 0 < r["per_sm_clock"] <= 256, r  # (fused pairs, e.g. IADD3, count twice)
        assert r["per_second"] > 1e9, r
