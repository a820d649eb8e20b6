"""The systolic Viterbi pipeline (cuda/hmm/viterbi_systolic.cuh, `GpuProfile(...,
viterbi_systolic=1)`: G lanes hold the model, B nodes a lane, rows move a lane a step, two
targets in each lane word, xB held at its starting value) gives the CPU Viterbi filter's scores
bit for bit, and so HMMER's (tests/test_filters.py checks the CPU filter against HMMER): the
targets it keeps are exact, and it hands the rest (xC above xN, gap/'*'/'~' residues, empty
targets) to the fused kernel. The tests count both, so that neither path goes untested: the
stress corpora's homologs and overflows are handed back, their background is piped.
Run on the device machine; skipped without a GPU."""

from __future__ import annotations

import numpy as np
import pytest
from pyhmmer.plan7 import HMMFile
from test_gpu_filters import _digitize
from test_gpu_viterbi_fused import _assert_equal, _sampled_model

import gpuseq
from gpuseq import _core
from gpuseq.hmm import search_profile
from synthetic import plant, random_protein, random_proteins

LONGEST = 384  # the pipeline's longest model (G = 32 lanes of B = 12 nodes)


def _systolic_vs_cpu(profile, residues, offsets):
    """(GPU scores with the pipeline, CPU scores, (targets piped, targets handed back))."""
    gp = _core.GpuProfile(profile, viterbi="warp_fused", viterbi_systolic=1)
    assert gp.viterbi_systolic and gp.viterbi_warps_per_target == 1
    targets = _core.GpuTargets(residues, offsets)
    gpu = _core.gpu_filter_scores(gp, targets, "viterbi", residues, offsets)
    counts = _core.gpu_viterbi_systolic_counts()
    cpu = _core.filter_scores(profile, "viterbi", residues, offsets)
    return gpu, cpu, (counts["piped"], counts["handed_back"])


def _sampled(M: int, seed: int):
    return search_profile(_sampled_model(M, seed))


@pytest.mark.cuda
def test_equals_cpu_on_every_model(corpora):
    """Every example, pyhmmer and synthetic model of at most 384 nodes on its stress corpus:
    homologs, overflow, the J state, odd symbols, lengths 1 to 9000."""
    seen = {"piped": 0, "handed_back": 0, "overflow": 0, "models": 0}
    for model_path, fasta in corpora:
        db = gpuseq.read_fasta(fasta)
        with HMMFile(model_path) as f:
            for hmm in f:
                if hmm.M > LONGEST:
                    continue
                gpu, cpu, (piped, back) = _systolic_vs_cpu(
                    search_profile(hmm), db.residues, db.offsets
                )
                _assert_equal(hmm.name, gpu, cpu)
                seen["piped"] += piped
                seen["handed_back"] += back
                seen["overflow"] += int(np.isposinf(cpu).sum())
                seen["models"] += 1
    assert seen["models"] >= 5 and min(seen.values()) > 20, seen


@pytest.mark.cuda
@pytest.mark.parametrize(
    "M", [1, 24, 37, 48, 49, 71, 90, 96, 97, 143, 160, 161, 200, 224, 256, 300, 352, 384]
)
def test_equals_cpu_on_every_shape(M):
    """One model for each lane count (4, 8, 16, 32) and node count a lane (6 to 12), padding
    nodes in front of node 1 or none (M = 24, 48, 96, 160, 224, 256, 352, 384): background
    with planted homologs, an odd number of targets, pairs of very different lengths, lengths
    1 to 5000 (a sampled model's consensus may score below xN: the hand-back is tested
    below)."""
    rng = np.random.default_rng(M)
    hmm = _sampled_model(M, 7 * M)
    consensus = hmm.consensus.upper()
    seqs = random_proteins(rng, 601, mean_length=300)
    seqs += [plant(rng, consensus) for _ in range(6)]
    seqs += [random_protein(rng, n) for n in (1, 2, 3, 5000, 4999, 17)]
    residues, offsets = _digitize(seqs)
    gpu, cpu, (piped, back) = _systolic_vs_cpu(search_profile(hmm), residues, offsets)
    _assert_equal(M, gpu, cpu)
    assert piped > 400, (piped, back)


@pytest.mark.cuda
def test_hands_back_weak_residues_and_long_targets():
    """Targets with '*' or '~' (a -32768 emission: the pipeline cannot go without floors) are
    handed back, one member of a pair at a time; a 100,000-residue target is scored (its N/C/J
    move is within the bound) or handed back, and equal either way."""
    rng = np.random.default_rng(5)
    profile = _sampled(149, 11)
    seqs = random_proteins(rng, 200, mean_length=250)
    weak = [s[:50] + sym + s[51:] for s, sym in zip(seqs[:4], "*~*~")]
    seqs = seqs + weak + [random_protein(rng, 100_000)]
    residues, offsets = _digitize(seqs)
    gpu, cpu, (piped, back) = _systolic_vs_cpu(profile, residues, offsets)
    _assert_equal("weak", gpu, cpu)
    assert back >= 4 and piped >= 190, (piped, back)


@pytest.mark.cuda
def test_pfam_model_with_homologs(example_models):
    """globins4 (M = 149, real transitions) on background with emitted homologs: the
    pipeline's model length, the search's Viterbi input."""
    from synthetic import hmmemit

    rng = np.random.default_rng(9)
    path = example_models["globins4"]
    with HMMFile(path) as f:
        hmm = next(iter(f))
    seqs = random_proteins(rng, 3000, mean_length=350)
    seqs += [plant(rng, s) for s in hmmemit(path, 40, seed=3)]
    residues, offsets = _digitize(seqs)
    gpu, cpu, (piped, back) = _systolic_vs_cpu(search_profile(hmm), residues, offsets)
    _assert_equal("globins4", gpu, cpu)
    assert piped > 2900 and back >= 30, (piped, back)


@pytest.mark.cuda
def test_choice():
    """Off by default (the fused kernel alone was faster on the models a search runs, see
    gpu_filters.cu), on where asked and the model fits (up to 384 nodes, the fused kernel with
    one warp a target), never with the warp kernel."""
    for M in (50, 149, 384):
        gp = _core.GpuProfile(_sampled(M, 1), viterbi="warp_fused")
        assert not gp.viterbi_systolic and gp.viterbi_systolic_shape == (0, 0), M
    for M, shape in [(1, (4, 6)), (24, (4, 6)), (25, (4, 7)), (48, (4, 12)), (49, (8, 7)),
                     (71, (8, 9)), (96, (8, 12)), (97, (16, 7)), (160, (16, 10)),
                     (161, (32, 6)), (384, (32, 12))]:
        gp = _core.GpuProfile(_sampled(M, 1), viterbi="warp_fused", viterbi_systolic=1)
        assert gp.viterbi_systolic and gp.viterbi_systolic_shape == shape, M
    with pytest.raises(ValueError, match="384"):
        _core.GpuProfile(_sampled(400, 1), viterbi="warp_fused", viterbi_systolic=1)
    with pytest.raises(ValueError, match="384"):
        _core.GpuProfile(_sampled(149, 1), viterbi="warp", viterbi_systolic=1)
    with pytest.raises(ValueError, match="-1, 0 or 1"):
        _core.GpuProfile(_sampled(149, 1), viterbi="warp_fused", viterbi_systolic=2)
