"""The Forward score in double (cpp/hmm/forward_bound.hpp) against HMMER's own Forward filter
(p7_ForwardParser through pyhmmer's libhmmer: the driver of tests/reference), on the stress
corpora of every model: it lies within a small part of its margin, so the decision it makes
ahead of HMMER (a target that cannot pass P <= F3 is not sent downstream) never drops a target
that HMMER passes."""

from __future__ import annotations

import math
import sys

import numpy as np
import pytest
from pyhmmer.plan7 import HMMFile

import gpuseq
from conftest import run_driver
from gpuseq import _core
from gpuseq.hmm import search_profile

F3 = 1e-5  # hmmsearch's default
_UNSET = -99999.0  # p7_EVPARAM_UNSET


def test_forward_scores_within_margin_of_hmmer_and_never_drop_a_pass(corpora, hmmer_driver):
    compared = passed = dropped = 0
    worst = 0.0
    for model_path, fasta in corpora:
        db = gpuseq.read_fasta(fasta)
        lengths = np.diff(db.offsets)
        ref_by_model = run_driver(hmmer_driver, model_path, fasta)
        with HMMFile(model_path) as f:
            for hmm in f:
                ref = ref_by_model[hmm.name]
                profile = search_profile(hmm)
                ours = _core.forward_scores(profile, db.residues, db.offsets, 2)
                # FORWARD tau, lambda, as float32 STATS values (the same as search_profile's).
                tau, lam = (float(np.float32(v)) for v in hmm.evalue_parameters.as_vector()[4:6])
                for i in np.flatnonzero(np.isfinite(ref[:, 5]) & (lengths <= 100_000)):
                    L, hmmer_fwd, filtersc = int(lengths[i]), float(ref[i, 5]), ref[i, 4]
                    margin = _core.forward_margin(L, hmm.M, hmmer_fwd)
                    gap = abs(ours[i] - hmmer_fwd)
                    assert gap <= margin / 20, (hmm.name, db.name(i), L, ours[i], hmmer_fwd)
                    worst = max(worst, gap / margin)
                    if lam == _UNSET:  # no FORWARD STATS line (hmmsearch refuses the model)
                        continue
                    # HMMER's own Forward test, as p7_Pipeline computes it.
                    bits = float(np.float32(hmmer_fwd) - np.float32(filtersc)) / math.log(2)
                    P = 1.0 if bits < tau else math.exp(-lam * (bits - tau))
                    may = _core.forward_may_pass(ours[i], float(filtersc), L, hmm.M, tau, lam, F3)
                    if P <= F3:
                        passed += 1
                        assert may, (hmm.name, db.name(i), ours[i], hmmer_fwd)
                    dropped += not may
                    compared += 1
    assert compared > 2000 and passed > 50 and dropped > 500, (compared, passed, dropped)
    assert worst < 0.01  # the margin is wide: at most 1/300 of it is used on these corpora


def test_a_nan_forward_p_value_passes_as_in_hmmer():
    """p7_Pipeline drops a target when P > F3: a NaN P (a NaN bias filter score) passes."""
    tau, lam = -4.1637, 0.70957  # globins4's FORWARD STATS
    assert _core.forward_may_pass(-20.0, math.nan, 300, 149, tau, lam, F3)
    assert not _core.forward_may_pass(-20.0, -1.0, 300, 149, tau, lam, F3)
    assert _core.forward_may_pass(300.0, -1.0, 300, 149, tau, lam, F3)


def test_a_forward_p_value_below_dbl_min_is_zero_as_in_hmmsearch():
    """hmmsearch's threads flush denormals to zero (impl_Init), so a Forward P-value below
    DBL_MIN is 0 there and passes `--F3 1e-400` (which is 0), and a subnormal F3 is 0 too. The
    bound dropped such a target on the GPU (random command 11740153: a homolog scoring 1,027
    bits against a model of 3,000 columns, P 1.3e-317)."""
    tau, lam = -4.1637, 0.70957  # globins4's FORWARD STATS
    L, M, filtersc = 3000, 3000, -1.0

    def plain_p(score):  # P at the bound's score, in plain double (no flush)
        high = score + _core.forward_margin(L, M, score)
        return math.exp(-lam * ((high - filtersc) / math.log(2) - tau))

    subnormal, normal = 695.0, 670.0  # nats: P about 3e-314 (a subnormal), and 5e-303
    assert 0.0 < plain_p(subnormal) < sys.float_info.min
    assert plain_p(normal) > sys.float_info.min
    for F3 in (0.0, 1e-400, 5e-324, 1e-310):  # 0, and a subnormal threshold, which is 0 too
        assert _core.forward_may_pass(subnormal, filtersc, L, M, tau, lam, F3), F3
        assert not _core.forward_may_pass(normal, filtersc, L, M, tau, lam, F3), F3
    assert _core.forward_may_pass(normal, filtersc, L, M, tau, lam, 1e-300)


def _assert_same_bits(cpu, gpu, label, names):
    same = (cpu.view(np.uint64) == gpu.view(np.uint64)) | (np.isnan(cpu) & np.isnan(gpu))
    bad = np.flatnonzero(~same)
    assert bad.size == 0, (label, [(names(i), cpu[i], gpu[i]) for i in bad[:5]])


@pytest.mark.cuda
@pytest.mark.parametrize("rows_in_registers", [True, False], ids=["registers", "scratch"])
def test_gpu_forward_scores_equal_the_cpu_twin(corpora, rows_in_registers):
    """Both kernels of cuda/hmm/forward_bound.cuh (a lane's nodes in registers, the row in
    global scratch) give forward_scores' bits."""
    compared = 0
    for model_path, fasta in corpora:
        db = gpuseq.read_fasta(fasta)
        targets = _core.GpuTargets(db.residues, db.offsets)
        with HMMFile(model_path) as f:
            for hmm in f:
                profile = search_profile(hmm)
                if profile.M > _core.gpu_max_model_length:
                    continue
                cpu = _core.forward_scores(profile, db.residues, db.offsets, 2)
                gpu = _core.gpu_forward_scores(_core.GpuProfile(profile), targets,
                                               rows_in_registers=rows_in_registers)
                _assert_same_bits(cpu, gpu, hmm.name, db.name)
                compared += len(cpu)
    assert compared > 2000


@pytest.mark.cuda
@pytest.mark.parametrize("M", [320, 321, 330, 640, 641, 700, 1280, 1281])
def test_gpu_forward_scores_at_every_block_shape(M, tmp_path):
    """Models at the edges of one, two and four warps per target and of the register kernel
    (10 nodes a lane, M <= 1,280): both kernels equal the CPU twin on sampled targets, short,
    long and of the model's own kind."""
    from pyhmmer.easel import Alphabet
    from pyhmmer.plan7 import HMM

    from synthetic import write_fasta

    abc = Alphabet.amino()
    hmm = HMM.sample(abc, M, M)
    hmm.name = f"random{M}"
    hmm.set_composition()
    rng = np.random.default_rng(M)
    consensus = hmm.consensus.upper()
    records = [(f"t{k}", "".join(rng.choice(list("ACDEFGHIKLMNPQRSTVWY"), size=n)))
               for k, n in enumerate((1, 2, 31, 200, 1500))]
    records += [("consensus", consensus), ("twice", consensus + consensus[: M // 2])]
    db = gpuseq.read_fasta(write_fasta(tmp_path / "t.fa", records))
    profile = search_profile(hmm)
    cpu = _core.forward_scores(profile, db.residues, db.offsets, 2)
    targets = _core.GpuTargets(db.residues, db.offsets)
    for registers in (True, False):
        gpu = _core.gpu_forward_scores(_core.GpuProfile(profile), targets,
                                       rows_in_registers=registers)
        _assert_same_bits(cpu, gpu, (M, registers), db.name)
