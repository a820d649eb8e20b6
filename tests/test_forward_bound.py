"""The Forward score in double (cpp/hmm/forward_bound.hpp) against HMMER's own Forward filter
(p7_ForwardParser through pyhmmer's libhmmer: the driver of tests/reference), on the stress
corpora of every model: it lies within a small part of its margin, so the decision it makes
ahead of HMMER (a target that cannot pass P <= F3 is not sent downstream) never drops a target
that HMMER passes."""

from __future__ import annotations

import math

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


@pytest.mark.cuda
def test_gpu_forward_scores_equal_the_cpu_twin(corpora):
    """The warp-per-target kernel (cuda/hmm/forward_bound.cuh) gives forward_scores' bits."""
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
                gpu = _core.gpu_forward_scores(_core.GpuProfile(profile), targets)
                same = (cpu.view(np.uint64) == gpu.view(np.uint64)) | (
                    np.isnan(cpu) & np.isnan(gpu)
                )
                bad = np.flatnonzero(~same)
                assert bad.size == 0, (hmm.name, [(db.name(i), cpu[i], gpu[i]) for i in bad[:5]])
                compared += len(cpu)
    assert compared > 2000
