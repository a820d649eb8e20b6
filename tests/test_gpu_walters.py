"""The thread-per-target Viterbi filter (Walters et al. 2009, cuda/hmm/viterbi_walters.cuh,
`GpuProfile(..., viterbi="thread")`) gives the CPU Viterbi filter's scores bit for bit, and so
HMMER's (tests/test_filters.py checks the CPU filter against HMMER itself), in the caller's
target order although the kernel runs them sorted by length; the GPU cascade with it gives the
CPU cascade's results. Run on the device machine; skipped without a GPU."""

from __future__ import annotations

import numpy as np
import pytest
from pyhmmer.easel import Alphabet
from pyhmmer.plan7 import HMM, HMMFile

import gpuseq
from conftest import HMMER_EXAMPLES, assert_cascades_equal, bit_equal
from gpuseq import _core
from gpuseq.hmm import search_profile
from synthetic import hmmemit, plant, random_proteins

pytestmark = pytest.mark.cuda


def _digitize(seqs: list[str]):
    db = gpuseq.SequenceDatabase.from_records([(f"t{i}", s) for i, s in enumerate(seqs)])
    return db.residues, db.offsets


def _thread_vs_cpu(profile, residues, offsets):
    """(GPU thread-per-target Viterbi scores, CPU Viterbi scores) on the same targets."""
    gpu_profile = _core.GpuProfile(profile, viterbi="thread")
    targets = _core.GpuTargets(residues, offsets)
    gpu = _core.gpu_filter_scores(gpu_profile, targets, "viterbi", residues, offsets)
    cpu = _core.filter_scores(profile, "viterbi", residues, offsets)
    return gpu, cpu


def _assert_equal(name, gpu, cpu):
    bad = np.flatnonzero(~bit_equal(gpu, cpu))
    assert bad.size == 0, (name, [(i, gpu[i], cpu[i]) for i in bad[:5]])


def test_equals_cpu_on_every_model(corpora):
    """Every example, pyhmmer and synthetic model (M = 1 to 2000) on its stress corpus:
    overflow, the J state, odd symbols, all-X, lengths 1 to 9000."""
    seen = {"overflow": 0, "finite": 0}
    for model_path, fasta in corpora:
        db = gpuseq.read_fasta(fasta)
        with HMMFile(model_path) as f:
            for hmm in f:
                gpu, cpu = _thread_vs_cpu(search_profile(hmm), db.residues, db.offsets)
                _assert_equal(hmm.name, gpu, cpu)
                seen["overflow"] += int(np.isposinf(cpu).sum())
                seen["finite"] += int(np.isfinite(cpu).sum())
    assert min(seen.values()) > 50, seen


@pytest.mark.parametrize(
    "M", [1, 2, 3, 63, 64, 65, 127, 128, 129, 256, 257, 383, 640, 1025, 1537, 2048, 2561, 3072]
)
def test_model_lengths_at_stripe_boundaries(M):
    """The warp kernel's stripe boundaries (nothing is striped here, but the same models make
    the two variants comparable), against random, planted and repeated-consensus targets."""
    rng = np.random.default_rng(M)
    hmm = HMM.sample(Alphabet.amino(), M, int(M) + 11)
    hmm.set_composition()
    consensus = hmm.consensus.upper()
    seqs = random_proteins(rng, 40, mean_length=300)
    seqs += [plant(rng, consensus), consensus * 3, consensus[: max(1, M // 2)], "X" * 50]
    seqs += [random_proteins(rng, 1, L, L, L)[0] for L in (1, 2, 129, 4000)]
    gpu, cpu = _thread_vs_cpu(search_profile(hmm), *_digitize(seqs))
    _assert_equal(f"M={M}", gpu, cpu)


def test_empty_single_and_100000_residue_targets(synthetic_models):
    """Empty targets are NaN on both; lengths 1 and 100,000 (HMMER's limit), planted or not:
    threads of one warp with lengths from 1 to 100,000."""
    rng = np.random.default_rng(3)
    with HMMFile(synthetic_models["random2000"]) as f:
        hmm = next(iter(f))
    long_bg = random_proteins(rng, 1, 100000, 100000, 100000)[0]
    planted = long_bg[:40000] + hmm.consensus.upper() + long_bg[42000:]
    seqs = ["", "A", "", long_bg, planted, "W", ""]
    gpu, cpu = _thread_vs_cpu(search_profile(hmm), *_digitize(seqs))
    _assert_equal("edges", gpu, cpu)
    assert np.isnan(gpu[[0, 2, 6]]).all()
    assert not np.isnan(cpu[[1, 3, 4, 5]]).any()


def test_more_targets_than_resident_threads_in_the_callers_order():
    """300,000 targets (more than an H100's resident threads, so threads take several) in
    ascending length order, the reverse of the kernel's: every score lands on its own target."""
    rng = np.random.default_rng(8)
    hmm = HMM.sample(Alphabet.amino(), 20, 8)
    hmm.set_composition()
    lengths = np.sort(rng.integers(1, 60, 300_000))
    offsets = np.zeros(lengths.size + 1, np.int64)
    np.cumsum(lengths, out=offsets[1:])
    residues = rng.integers(0, 20, int(offsets[-1])).astype(np.uint8)
    gpu, cpu = _thread_vs_cpu(search_profile(hmm), residues, offsets)
    _assert_equal("300000 targets", gpu, cpu)
    assert np.unique(cpu).size > 1000  # scores differ from target to target


def test_gpu_cascade_equals_cpu_cascade():
    """Stages, scores and pass counts of the whole filter cascade with the thread-per-target
    Viterbi filter, with and without the bias filter, on background plus planted homologs."""
    rng = np.random.default_rng(12)
    tut = HMMER_EXAMPLES / "tutorial"
    for name in ("globins4", "fn3", "Pkinase"):
        path = tut / f"{name}.hmm"
        with HMMFile(path) as f:
            hmm = next(iter(f))
        seqs = random_proteins(rng, 3000, mean_length=300)
        seqs += [plant(rng, s) for s in hmmemit(path, 60, seed=6)]
        residues, offsets = _digitize(seqs)
        profile = search_profile(hmm)
        gpu_profile = _core.GpuProfile(profile, viterbi="thread")
        targets = _core.GpuTargets(residues, offsets)
        for bias in (True, False):
            # F2 = 1e-300: the Viterbi filter runs on all but the few the MSV P-value passes.
            for F1, F2 in ((0.02, 1e-3), (1.0, 1.0), (1.0, 1e-300)):
                gpu = _core.gpu_run_cascade(
                    gpu_profile, targets, residues, offsets, F1, F2, bias, 4
                )
                cpu = _core.run_cascade(profile, residues, offsets, F1, F2, bias, 4)
                assert_cascades_equal(gpu, cpu, name)
                assert cpu["n_past_vit"] > 0


def test_unknown_variant_is_refused():
    hmm = HMM.sample(Alphabet.amino(), 10, 1)
    hmm.set_composition()
    with pytest.raises(ValueError, match="'auto', 'warp', 'warp_fused' or 'thread'"):
        _core.GpuProfile(search_profile(hmm), viterbi="block")
