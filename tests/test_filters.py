"""SSV, MSV, Viterbi and bias filters (cpp/hmm) give HMMER 3.4's per-sequence scores bit for bit.

References: pyhmmer 0.12.3's OptimizedProfile.ssv_filter / msv_filter and Background.null1, and
for the Viterbi and bias filters (not exposed by pyhmmer) a driver linked against pyhmmer's own
libhmmer (tests/reference). Every CPU kernel set this machine runs is checked (SSE2 and AVX2 on
x86-64, and the plain C++ fallback of other CPUs)."""

from __future__ import annotations

import numpy as np
import pytest
from pyhmmer.easel import Alphabet, SequenceFile
from pyhmmer.plan7 import Background, HMMFile, Profile

import gpuseq
from conftest import bit_equal, run_driver
from gpuseq import _core
from gpuseq.hmm import search_profile
from synthetic import random_proteins, write_fasta


def kernel_sets() -> list[str]:
    sets = ["baseline", "portable"]
    try:
        np.asarray(
            _core.filter_scores(
                _tiny_profile(), "msv", np.zeros(1, np.uint8), np.array([0, 1]), 1, "avx2"
            )
        )
        sets.append("avx2")
    except ValueError:
        pass
    return sets


def _tiny_profile():
    from pyhmmer.plan7 import HMM

    hmm = HMM.sample(Alphabet.amino(), 3, 1)
    hmm.set_composition()
    return search_profile(hmm)


KERNELS = kernel_sets()


def _pyhmmer_ssv_msv_null1(hmm, seqs):
    abc = Alphabet.amino()
    bg = Background(abc)
    gm = Profile(hmm.M, abc)
    gm.configure(hmm, bg, L=100)
    om = gm.to_optimized()
    ssv, msv, null = [], [], []
    for s in seqs:
        om.L = len(s)
        bg.L = len(s)
        if len(s) == 0:
            ssv.append(np.nan), msv.append(np.nan), null.append(np.nan)
            continue
        ssv.append(om.ssv_filter(s))
        msv.append(om.msv_filter(s))
        null.append(bg.null1(s))
    return [np.array(v, dtype=np.float32) for v in (ssv, msv, null)]


@pytest.mark.parametrize("kernels", KERNELS)
def test_ssv_msv_null1_equal_pyhmmer_on_every_model(corpora, kernels):
    compared = 0
    for model_path, fasta in corpora:
        db = gpuseq.read_fasta(fasta)
        with SequenceFile(fasta, digital=True, alphabet=Alphabet.amino()) as f:
            seqs = list(f)
        with HMMFile(model_path) as f:
            for hmm in f:
                ref_ssv, ref_msv, ref_null = _pyhmmer_ssv_msv_null1(hmm, seqs)
                p = search_profile(hmm)
                for which, ref in (("ssv", ref_ssv), ("msv", ref_msv), ("null1", ref_null)):
                    ours = _core.filter_scores(p, which, db.residues, db.offsets, 2, kernels)
                    bad = np.flatnonzero(~bit_equal(ours, ref))
                    assert bad.size == 0, (
                        hmm.name,
                        which,
                        [(db.name(i), ours[i], ref[i]) for i in bad[:5]],
                    )
                compared += len(seqs)
    assert compared > 2000


@pytest.mark.parametrize("kernels", KERNELS)
def test_all_filters_equal_hmmer_driver_on_every_model(corpora, hmmer_driver, kernels):
    """null1, SSV, MSV, Viterbi filter and bias filter against HMMER's own functions."""
    seen = {"ssv_noresult": 0, "msv_overflow": 0, "vf_overflow": 0}
    for model_path, fasta in corpora:
        db = gpuseq.read_fasta(fasta)
        ref_by_model = run_driver(hmmer_driver, model_path, fasta)
        with HMMFile(model_path) as f:
            for hmm in f:
                ref = ref_by_model[hmm.name]
                p = search_profile(hmm)
                for col, which in enumerate(("null1", "ssv", "msv", "viterbi", "bias")):
                    ours = _core.filter_scores(p, which, db.residues, db.offsets, 2, kernels)
                    bad = np.flatnonzero(~bit_equal(ours, ref[:, col]))
                    assert bad.size == 0, (
                        hmm.name,
                        which,
                        [(db.name(i), ours[i], ref[i, col]) for i in bad[:5]],
                    )
                seen["ssv_noresult"] += int(np.isnan(ref[:, 1]).sum())
                seen["msv_overflow"] += int(np.isposinf(ref[:, 2]).sum())
                seen["vf_overflow"] += int(np.isposinf(ref[:, 3]).sum())
    # The corpus must reach the rare branches, or the comparison proves little.
    assert seen["ssv_noresult"] > 50 and seen["msv_overflow"] > 50 and seen["vf_overflow"] > 50, (
        seen
    )


@pytest.mark.parametrize("kernels", KERNELS)
def test_long_targets_and_long_model_hit_ssv_precondition(
    tmp_path, synthetic_models, hmmer_driver, kernels
):
    """M = 2000 and targets of 100,000 to 120,000 residues: the SSV's byte range fails its
    precondition (tjb + tbm + tec + bias >= 127, spec 5.2 (P)) and the full MSV decides."""
    rng = np.random.default_rng(7)
    path = synthetic_models["random2000"]
    with HMMFile(path) as f:
        hmm = next(iter(f))
    p = search_profile(hmm)
    lengths = (100000, 120000)
    assert any(p.tjb(L) + p.tbm + p.tec + p.bias_b >= 127 for L in lengths)
    records = [(f"bg{L}", random_proteins(rng, 1, L, L, L)[0]) for L in lengths]
    planted = random_proteins(rng, 1, 97000, 97000, 97000)[0]
    records.append(("hit100k", planted[:50000] + hmm.consensus.upper() + planted[50000:]))
    fasta = write_fasta(tmp_path / "long.fa", records)
    db = gpuseq.read_fasta(fasta)
    ref = run_driver(hmmer_driver, path, fasta)[hmm.name]
    assert np.isnan(ref[1:, 1]).all()  # SSV undecided: the full MSV gives these scores
    for col, which in enumerate(("null1", "ssv", "msv", "viterbi", "bias")):
        ours = _core.filter_scores(p, which, db.residues, db.offsets, 2, kernels)
        assert bit_equal(ours, ref[:, col]).all(), (which, ours, ref[:, col])


def test_kernel_sets_agree_with_each_other(corpora):
    """Every kernel set this machine has, and the run-time default, give the same scores on
    every model's corpus (the tests above compare each set with HMMER; this one also covers
    the default dispatch, `kernels="auto"`)."""
    default = {"sse2": "baseline"}.get(_core.cpu_kernel_isa(), _core.cpu_kernel_isa())
    assert default in KERNELS, (default, KERNELS)
    compared = 0
    for model_path, fasta in corpora:
        db = gpuseq.read_fasta(fasta)
        with HMMFile(model_path) as f:
            for hmm in f:
                p = search_profile(hmm)
                for which in ("ssv", "msv", "viterbi", "bias"):
                    scores = {
                        k: np.asarray(_core.filter_scores(p, which, db.residues, db.offsets, 2, k))
                        for k in [*KERNELS, "auto"]
                    }
                    for k, ours in scores.items():
                        bad = np.flatnonzero(~bit_equal(ours, scores[default]))
                        assert bad.size == 0, (hmm.name, which, k, default, bad[:5])
                compared += len(db)
    assert compared > 2000


@pytest.mark.parametrize("at", [0, (1 << 22) - 1, 3 << 22, (5 << 22) + 17])
def test_residue_code_out_of_range_is_refused_wherever_it_is(at):
    """Codes index the score tables: one code past the alphabet anywhere in a large residue
    array (checked by blocks on several threads) is a ValueError, never a read out of bounds."""
    residues = np.ones(6 << 22, dtype=np.uint8)
    offsets = np.array([0, 1 << 22, residues.size], dtype=np.int64)
    np.asarray(_core.filter_scores(_tiny_profile(), "ssv", residues, offsets, 2))  # valid
    residues[at] = 29
    with pytest.raises(ValueError, match="residue code out of range"):
        _core.filter_scores(_tiny_profile(), "ssv", residues, offsets, 2)
