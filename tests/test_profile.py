"""Profile building (cpp/hmm/profile.cpp) equals HMMER 3.4's tables.

MSV/SSV byte tables and constants are compared with pyhmmer 0.12.3's OptimizedProfile; the
Viterbi-filter word tables, which pyhmmer does not expose, with the driver built against
pyhmmer's own libhmmer (tests/reference)."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest
from pyhmmer.easel import Alphabet
from pyhmmer.plan7 import Background, HMMFile, Profile

from gpuseq.hmm import search_profile

LENGTHS = (0, 1, 100, 350, 1000, 33333, 100000)


def unstripe(row: np.ndarray, M: int, lanes: int) -> np.ndarray:
    """HMMER's striped order (spec 4.2) to node order k = 1..M."""
    Q = max(2, (M - 1) // lanes + 1)
    k = np.arange(M)
    return row[(k % Q) * lanes + k // Q]


def all_models(example_models, pyhmmer_models, synthetic_models):
    for group in (example_models, pyhmmer_models, synthetic_models):
        for path in group.values():
            with HMMFile(path) as f:
                yield from f


def test_msv_tables_equal_pyhmmer_optimized_profile_for_every_model(
    example_models, pyhmmer_models, synthetic_models
):
    abc = Alphabet.amino()
    bg = Background(abc)
    checked = 0
    for hmm in all_models(example_models, pyhmmer_models, synthetic_models):
        ours = search_profile(hmm)
        gm = Profile(hmm.M, abc)
        gm.configure(hmm, bg, L=100)
        om = gm.to_optimized()
        M = hmm.M
        rbv = np.asarray(om.rbv, dtype=np.uint8)
        ref_rb = np.stack([unstripe(rbv[x], M, 16) for x in range(29)])
        np.testing.assert_array_equal(ours.msv_costs, ref_rb, err_msg=hmm.name)
        sbv = np.asarray(om.sbv, dtype=np.uint8).view(np.int8)
        ref_sb = np.stack([unstripe(sbv[x], M, 16) for x in range(29)])
        derived_sb = np.minimum(ours.msv_costs.astype(int) - ours.bias_b, 127)
        np.testing.assert_array_equal(derived_sb, ref_sb, err_msg=hmm.name)
        assert (ours.bias_b, ours.tbm, ours.tec, ours.base_b) == (
            om.bias_b,
            om.tbm,
            om.tec,
            om.base_b,
        ), hmm.name
        assert np.float32(ours.scale_b) == np.float32(om.scale_b)
        assert np.float32(ours.scale_w) == np.float32(om.scale_w)
        assert (ours.base_w, ours.ddbound_w) == (om.base_w, om.ddbound_w), hmm.name
        assert om.ncj_roundoff == 0.0  # our VF never adds a roundoff term (spec 4.3)
        for L in LENGTHS:
            om.L = L
            assert ours.tjb(L) == om.tjb, (hmm.name, L)
        checked += 1
    assert checked >= 20


@pytest.mark.parametrize("L", [1, 300, 100000])
def test_viterbi_tables_equal_hmmer(
    hmmer_driver, example_models, pyhmmer_models, synthetic_models, L
):
    kinds = ("BM", "MM", "IM", "DM", "MD", "MI", "II", "DD")
    for group in (example_models, pyhmmer_models, synthetic_models):
        for path in group.values():
            ref = _driver_tables(hmmer_driver, path, L)
            with HMMFile(path) as f:
                hmms = list(f)
            assert [h.name for h in hmms] == list(ref)
            for hmm in hmms:
                r = ref[hmm.name]
                ours = search_profile(hmm)
                np.testing.assert_array_equal(ours.viterbi_emissions, r["rw"], err_msg=hmm.name)
                tw = ours.viterbi_transitions
                for kind in kinds:
                    np.testing.assert_array_equal(
                        tw[kind], r["tw"][kind], err_msg=f"{hmm.name} {kind}"
                    )
                assert ours.ddbound_w == r["ddbound_w"]
                E_move, E_loop, N_move, N_loop, J_move, J_loop, C_move, C_loop = r["xw"]
                assert ours.e_move_w == E_move == E_loop
                assert ours.ncj_move_w(L) == N_move == J_move == C_move
                assert N_loop == J_loop == C_loop == 0
                assert ours.tjb(L) == r["tjb"]


def _driver_tables(driver, path, L) -> dict:
    out = subprocess.run(
        [str(driver), "--tables", str(path), str(L)], check=True, capture_output=True, text=True
    ).stdout
    models: dict = {}
    cur = None
    for line in out.splitlines():
        f = line.split()
        if not f:
            continue
        if f[0] == "model":
            cur = models.setdefault(f[1], {"rw": [], "tw": {}})
        elif f[0] == "rw":
            cur["rw"].append([int(v) for v in f[2:]])
        elif f[0] == "tw":
            cur["tw"][f[1]] = np.array([int(v) for v in f[2:]])
        elif f[0] == "xw":
            cur["xw"] = [int(v) for v in f[1:]]
        elif f[0] in ("ddbound_w", "tjb"):
            cur[f[0]] = int(f[1])
    for m in models.values():
        m["rw"] = np.array(m["rw"])
    return models
