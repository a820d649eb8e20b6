"""The S-lane SSV/MSV kernels (CUDAMPF++, cuda/hmm/msv_multi.cuh: S targets per warp on
warp-based sequence blocks) give the CPU filters' scores bit for bit, and so HMMER's
(tests/test_filters.py checks the CPU filters against HMMER itself), for every S and both lane
widths (16-bit DPX words, S up to 64; the paper's bytes, S up to 128); the GPU
cascade with S chosen by model length gives the CPU cascade. The block builder
(cpp/hmm/sequence_blocks.cpp) is checked on the host, without a GPU."""

from __future__ import annotations

import math

import numpy as np
import pytest
from pyhmmer.easel import Alphabet
from pyhmmer.plan7 import HMM, HMMFile

import gpuseq
from conftest import HMMER_EXAMPLES, bit_equal
from gpuseq import _core
from gpuseq.hmm import search_profile
from synthetic import hmmemit, mutate, plant, random_proteins

cuda = pytest.mark.cuda

# (lane bits, targets per warp): every compiled S-lane kernel family.
LANES_AND_S = [(16, S) for S in (2, 4, 8, 16, 32, 64)] + [
    (8, S) for S in (2, 4, 8, 16, 32, 64, 128)
]
MAX_STRIPES = 48  # the most stripes compiled (MultiStripeCounts in cuda/hmm/gpu_filters.cu)
AMINO = np.frombuffer(b"ACDEFGHIKLMNPQRSTVWY", dtype=np.uint8)


def _lanes(S: int, bits: int = 16) -> int:
    """W: nodes per stripe of one target (a warp holds 64 words or 128 bytes)."""
    return (64 if bits == 16 else 128) // S


def _digitize(seqs: list[str]):
    db = gpuseq.SequenceDatabase.from_records([(f"t{i}", s) for i, s in enumerate(seqs)])
    return db.residues, db.offsets


def _random_text(rng, n: int) -> str:
    return AMINO[rng.integers(0, 20, n)].tobytes().decode()


def _sampled_profile(M: int, seed: int):
    hmm = HMM.sample(Alphabet.amino(), M, seed)
    hmm.set_composition()
    return hmm, search_profile(hmm)


def _weakened_homologs(rng, consensus: str, n: int) -> list[str]:
    """Mutated double consensus (rates 0.1 to 0.7), planted: for short models these are the
    targets the SSV leaves to the full MSV (a planted consensus overflows: the SSV decides)."""
    return [plant(rng, mutate(rng, consensus * 2, r)) for r in np.linspace(0.1, 0.7, n)]


def _assert_multi_equals_cpu(profile, residues, offsets, bits, S, name):
    """SSV and MSV scores of the S-lane kernels equal the CPU filters' for every target.
    Returns how many targets the SSV leaves to the full MSV (its kernel's launch size)."""
    gpu_profile = _core.GpuProfile(profile, bits, "warp", S)
    assert (gpu_profile.msv_bits, gpu_profile.sequences_per_warp) == (bits, S)
    targets = _core.GpuTargets(residues, offsets)
    for which in ("ssv", "msv"):
        gpu = _core.gpu_filter_scores(gpu_profile, targets, which, residues, offsets)
        cpu = _core.filter_scores(profile, which, residues, offsets)
        bad = np.flatnonzero(~bit_equal(gpu, cpu))
        assert bad.size == 0, (name, bits, S, which, [(i, gpu[i], cpu[i]) for i in bad[:5]])
    ssv = _core.filter_scores(profile, "ssv", residues, offsets)
    return int((np.isnan(ssv) & (np.diff(offsets) > 0)).sum())


def _placed_fraction(offsets, S: int) -> float:
    """Share of the targets the blocks hold (the rest run a warp each) when every target
    launches (as many warps as they fill, so the lowest length limit): a guard that a test
    database reaches the S-lane kernel."""
    plan = _core.sequence_blocks(np.zeros(int(offsets[-1]), np.uint8), offsets, S, 1 << 20)
    n = len(offsets) - 1
    return 1 - len(plan["single"]) / max(n, 1)


# ---- the block builder, on the host -------------------------------------------------------


def _check_blocks(residues, offsets, S: int, max_warps: int):
    plan = _core.sequence_blocks(residues, offsets, S, max_warps)
    lengths = np.diff(offsets)
    n = len(lengths)
    end, pad = _core.block_end_marker, _core.block_pad_marker
    assert end >= 29 and pad >= 29 and end != pad  # outside the residue codes

    warps = plan["warps"]
    assert warps == min(max_warps, math.ceil(n / S))
    columns = warps * S
    items, single = plan["column_items"], plan["single"]
    # Every target exactly once: in one column or left to the warp-per-target kernel.
    assert np.array_equal(np.sort(np.concatenate([items, single])), np.arange(n))
    assert np.array_equal(single, np.sort(single))
    assert (plan["item_offset"][single] == -1).all()
    # The length limit: the longest targets, and only those over it, are left out.
    if n:
        mean = math.ceil(int((lengths + 1).sum()) / columns)
        limit = _core.block_limit_over_mean * mean
        assert (lengths[single] + 1 > limit).all()
        assert (lengths[items] + 1 <= limit).all()

    blocks, start = plan["blocks"], plan["column_start"]
    assert len(start) == columns + 1 and start[0] == 0 and start[-1] == len(items)
    group_rows = 4  # a column's bytes of 4 rows form a word
    placed_rows = int((lengths[items] + 1).sum())
    used = []
    for w in range(warps):
        rows = int(plan["warp_rows"][w])
        first = int(plan["warp_offset"][w])
        assert rows % group_rows == 0
        assert plan["warp_offset"][w + 1] - first == rows * S
        # Groups of rows, each S words of group_rows bytes, back to rows x columns.
        grouped = blocks[first : first + rows * S].reshape(rows // group_rows, S, group_rows)
        block = grouped.transpose(0, 2, 1).reshape(rows, S)
        for c in range(S):
            column = block[:, c]
            members = items[start[w * S + c] : start[w * S + c + 1]]
            assert (np.diff(lengths[members]) <= 0).all()  # longest first, top down
            row = 0
            for p in members:
                L = int(lengths[p])
                group, in_group = divmod(row, group_rows)
                assert plan["item_offset"][p] == first + (group * S + c) * group_rows + in_group
                got = column[row : row + L]
                assert np.array_equal(got, residues[offsets[p] : offsets[p + 1]])
                assert column[row + L] == end
                row += L + 1
            assert (column[row:] == pad).all()  # padding only after the column's last target
            used.append(row)
        # The block is as high as its longest column, in whole groups of rows.
        assert rows == math.ceil(max(used[-S:]) / group_rows) * group_rows
    assert plan["warp_offset"][-1] == len(blocks)
    if items.size:
        # Greedy onto the shortest column: no column exceeds the mean by more than one target.
        longest = int(lengths[items].max()) + 1
        assert max(used) <= math.ceil(placed_rows / columns) + longest
    return plan


def _codes_database(rng, lengths):
    lengths = np.asarray(lengths, dtype=np.int64)
    offsets = np.zeros(len(lengths) + 1, np.int64)
    np.cumsum(lengths, out=offsets[1:])
    return rng.integers(0, 29, int(offsets[-1])).astype(np.uint8), offsets


@pytest.mark.parametrize("S", [1, 2, 4, 8, 16, 32, 64, 128])
def test_sequence_blocks_hold_every_target_once_in_length_order(S):
    """On the host: each target once, in one column, longest first down the column, with its
    end marker; padding only below a column's last target; blocks as high as their longest
    column; targets over the length limit left to the warp-per-target kernel."""
    rng = np.random.default_rng(S)
    mixes = [
        [],
        [0, 0, 0],
        [1],
        [5] * 3 * S,
        rng.integers(0, 400, 10 * S + 3),
        np.concatenate([rng.integers(0, 20, 300), [5000, 20000, 100000]]),
        np.clip(rng.lognormal(4, 2, 2000), 0, 30000).astype(int),
    ]
    for lengths in mixes:
        residues, offsets = _codes_database(rng, lengths)
        for max_warps in (1, 3, 1 << 20):
            _check_blocks(residues, offsets, S, max_warps)
    # Many short targets beside a few very long ones: the long ones go to a warp each.
    residues, offsets = _codes_database(rng, [100000] + [50] * 4000)
    plan = _check_blocks(residues, offsets, S, 64)
    assert list(plan["single"]) == [0]


def test_sequence_blocks_refuse_bad_arguments():
    residues, offsets = _codes_database(np.random.default_rng(0), [3, 4])
    for S in (0, 3, 256):
        with pytest.raises(ValueError, match="power of two"):
            _core.sequence_blocks(residues, offsets, S, 4)
    with pytest.raises(ValueError, match="at least one warp"):
        _core.sequence_blocks(residues, offsets, 2, 0)


def test_target_length_index_equals_numpy():
    """The upload's index of the target lengths (cpp/hmm/sequence_blocks.cpp): the counting
    pass, and the sort for a target longer than 2^24, give NumPy's non-empty targets, distinct
    lengths, classes and stable longest-first order."""
    rng = np.random.default_rng(71)
    mixes = [
        [],
        [0, 0],
        [7],
        rng.integers(0, 3, 50),
        np.clip(rng.lognormal(5.6, 0.7, 20000), 0, 40000).astype(int),
        [(1 << 24) + 1, 0, 3, 1 << 24, 3, 1],
    ]
    for lengths in mixes:
        lengths = np.asarray(lengths, dtype=np.int64)
        offsets = np.concatenate([[5], 5 + np.cumsum(lengths)]).astype(np.int64)
        for order_from in (0, len(lengths) + 1):
            index = _core.target_length_index(offsets, order_from)
            non_empty = np.flatnonzero(lengths > 0)
            distinct = np.unique(lengths[non_empty])
            classes = np.full(len(lengths), -1)
            classes[non_empty] = np.searchsorted(distinct, lengths[non_empty])
            assert np.array_equal(index["non_empty"], non_empty)
            assert np.array_equal(index["lengths"], distinct)
            assert np.array_equal(index["length_class"], classes)
            order = np.argsort(-lengths[non_empty], kind="stable")
            expected = order if len(non_empty) >= order_from else order[:0]
            assert np.array_equal(index["longest_first"], expected), (lengths[:8], order_from)
    with pytest.raises(ValueError, match="not increasing"):
        _core.target_length_index(np.array([0, 4, 2], dtype=np.int64))


# ---- the kernels, on the GPU --------------------------------------------------------------


@cuda
@pytest.mark.parametrize("bits,S", LANES_AND_S)
def test_every_S_equals_cpu_on_the_stress_corpora(corpora, bits, S):
    """Every example, pyhmmer and synthetic model that S targets per warp can hold, on its
    stress corpus (overflow, the J state, SSV no-result, odd symbols, lengths 1 to 9000)."""
    tested = 0
    for model_path, fasta in corpora:
        db = gpuseq.read_fasta(fasta)
        with HMMFile(model_path) as f:
            for hmm in f:
                if hmm.M > _lanes(S, bits) * MAX_STRIPES:
                    continue
                profile = search_profile(hmm)
                _assert_multi_equals_cpu(profile, db.residues, db.offsets, bits, S, hmm.name)
                assert _placed_fraction(db.offsets, S) > 0.5
                tested += 1
    assert tested >= 5


@cuda
@pytest.mark.parametrize("bits", (16, 8))
def test_chosen_S_equals_cpu_on_the_stress_corpora(corpora, bits):
    """S chosen by model length (the default), every filter, every corpus."""
    for model_path, fasta in corpora:
        db = gpuseq.read_fasta(fasta)
        with HMMFile(model_path) as f:
            for hmm in f:
                profile = search_profile(hmm)
                gpu_profile = _core.GpuProfile(profile, bits)
                S = gpu_profile.sequences_per_warp
                assert S == _core.gpu_choose_sequences_per_warp(hmm.M, bits)
                if S > 1:
                    assert _lanes(S, bits) * gpu_profile.ssv_multi_stripes >= hmm.M
                    assert _lanes(S, bits) * gpu_profile.msv_multi_stripes >= hmm.M
                targets = _core.GpuTargets(db.residues, db.offsets)
                for which in ("ssv", "msv", "viterbi"):
                    gpu = _core.gpu_filter_scores(
                        gpu_profile, targets, which, db.residues, db.offsets
                    )
                    cpu = _core.filter_scores(profile, which, db.residues, db.offsets)
                    assert bit_equal(gpu, cpu).all(), (hmm.name, bits, S, which)


def _boundary_models(bits: int, S: int) -> list[int]:
    """Models that fill W x H exactly, by one node more or less, for a few H (and M = 1)."""
    W = _lanes(S, bits)
    Ms = {1} | {W * H + d for H in (2, 3, 32, MAX_STRIPES) for d in (-1, 0, 1)}
    return sorted(M for M in Ms if 1 <= M <= W * MAX_STRIPES)


@cuda
@pytest.mark.parametrize("bits,S", LANES_AND_S)
def test_models_at_the_W_x_H_boundaries(bits, S):
    """Models at the stripe boundaries of S targets per warp, against random, planted,
    repeated-consensus and all-X targets (enough of them to fill the blocks, and enough
    homologs that the full MSV's launch fills blocks too)."""
    most_msv = 0
    for M in _boundary_models(bits, S):
        rng = np.random.default_rng(M * 100 + S + bits)
        hmm, profile = _sampled_profile(M, M + 7)
        consensus = hmm.consensus.upper()
        seqs = random_proteins(rng, 4 * S + 40, mean_length=200)
        seqs += _weakened_homologs(rng, consensus, 6 * S + 12)
        seqs += [plant(rng, consensus), consensus * 3, consensus, "X" * 50, "A", "W"]
        residues, offsets = _digitize(seqs)
        msv = _assert_multi_equals_cpu(profile, residues, offsets, bits, S, f"M={M}")
        most_msv = max(most_msv, msv)
    assert most_msv >= 2 * S


@cuda
@pytest.mark.parametrize("bits,S", LANES_AND_S)
def test_targets_of_length_0_1_and_100000(bits, S):
    """Lengths 0 (NaN on both), 1 and 100,000 (HMMER's limit), planted or not: few targets
    (the long ones run a warp each) and enough long ones to fill blocks (they stay in them)."""
    rng = np.random.default_rng(S + bits)
    hmm, profile = _sampled_profile(min(20 * _lanes(S, bits), 400), S)
    consensus = hmm.consensus.upper()

    def long_target(planted: bool) -> str:
        text = _random_text(rng, 100000)
        if planted:
            at = int(rng.integers(0, 100000 - len(consensus)))
            text = text[:at] + consensus + text[at + len(consensus) :]
        return text[:100000]

    few = ["", "A", "", long_target(False), long_target(True), "W", ""]
    residues, offsets = _digitize(few)
    _assert_multi_equals_cpu(profile, residues, offsets, bits, S, "few")
    gpu = _core.gpu_filter_scores(_core.GpuProfile(profile, bits, "warp", S),
                                  _core.GpuTargets(residues, offsets), "msv", residues, offsets)
    assert np.isnan(gpu[[0, 2, 6]]).all()

    k = max(2 * S - 3, 3)  # enough 100,000-residue targets that the blocks keep them
    many = ["", "A"] + [long_target(i % 4 == 0) for i in range(k)] + ["W"]
    residues, offsets = _digitize(many)
    assert _placed_fraction(offsets, S) == 1.0
    _assert_multi_equals_cpu(profile, residues, offsets, bits, S, "many long")


@cuda
@pytest.mark.parametrize("bits,S", LANES_AND_S)
def test_columns_of_very_different_lengths(bits, S):
    """Heavy-tailed lengths (0 to 30,000): columns of a warp end at very different rows, many
    short targets end on the same rows, padding runs long."""
    rng = np.random.default_rng(1000 + S + bits)
    hmm, profile = _sampled_profile(min(10 * _lanes(S, bits), 300), 40 + S)
    consensus = hmm.consensus.upper()
    lengths = np.clip(rng.lognormal(3.5, 1.8, 30 * S + 100), 0, 30000).astype(int)
    seqs = [_random_text(rng, int(L)) for L in lengths]
    for i in rng.choice(len(seqs), 20, replace=False):
        seqs[i] = plant(rng, consensus * int(rng.integers(1, 4)))
    seqs += _weakened_homologs(rng, consensus, 3 * S + 12)
    seqs += [""] * 5 + ["C"] * 40
    residues, offsets = _digitize(seqs)
    _assert_multi_equals_cpu(profile, residues, offsets, bits, S, "mixed lengths")


@cuda
def test_bad_sequences_per_warp_are_refused():
    _, profile = _sampled_profile(100, 1)
    for bits, S in ((16, 3), (16, 128), (16, -1), (8, 256), (8, 6)):
        with pytest.raises(ValueError, match="sequences_per_warp"):
            _core.GpuProfile(profile, bits, "warp", S)
    with pytest.raises(ValueError, match="targets per warp take"):
        _core.GpuProfile(profile, 16, "warp", 64)  # W = 1: at most 48 nodes
    with pytest.raises(ValueError, match="targets per warp take"):
        _core.GpuProfile(profile, 8, "warp", 128)


@cuda
@pytest.mark.parametrize("bits", (16, 8))
def test_gpu_cascade_with_chosen_S_equals_cpu_cascade(bits):
    """Stages, scores and pass counts of the whole cascade (bias filter on and off) with S
    chosen by model length, for tutorial models and short sampled ones (large S); the SSV on
    its own kernel and on the S-lane kernels (ssv_multi, as a search of several models runs it)."""
    rng = np.random.default_rng(12)
    models = []
    for name in ("globins4", "fn3", "Pkinase"):
        path = HMMER_EXAMPLES / "tutorial" / f"{name}.hmm"
        with HMMFile(path) as f:
            models.append((next(iter(f)), hmmemit(path, 40, seed=6)))
    for M in (12, 30, 60):
        hmm, _ = _sampled_profile(M, M)
        # Sampled models have no calibration; plausible STATS (the same for both backends).
        ev = hmm.evalue_parameters
        ev.m_mu, ev.m_lambda, ev.v_mu, ev.v_lambda, ev.f_tau, ev.f_lambda = (
            -12.0, 0.69, -12.5, 0.69, -7.0, 0.69
        )
        models.append((hmm, [hmm.consensus.upper()] * 20))
    for hmm, homologs in models:
        seqs = random_proteins(rng, 3000, mean_length=300)
        seqs += [plant(rng, s) for s in homologs]
        residues, offsets = _digitize(seqs)
        profile = search_profile(hmm)
        gpu_profile = _core.GpuProfile(profile, bits)  # S by model length
        assert gpu_profile.sequences_per_warp > 1, hmm.M
        targets = _core.GpuTargets(residues, offsets)
        for ssv_multi in (False, True):
            gpu_profile.ssv_multi = ssv_multi  # the SSV a warp per target, or S per warp
            for bias in (True, False):
                for F1, F2 in ((0.02, 1e-3), (1.0, 1.0)):
                    gpu = _core.gpu_run_cascade(gpu_profile, targets, residues, offsets, F1, F2,
                                                bias, 4)
                    cpu = _core.run_cascade(profile, residues, offsets, F1, F2, bias, 4)
                    for key, value in cpu.items():
                        if isinstance(value, np.ndarray) and value.dtype.kind == "f":
                            assert bit_equal(gpu[key], value).all(), (hmm.name, key)
                        else:
                            assert np.array_equal(gpu[key], value), (hmm.name, key)
                    assert cpu["n_past_msv"] > 0


@cuda
def test_ssv_blocks_planned_in_the_background_give_the_same_cascade():
    """A search's profiles need not wait for the SSV's sequence blocks (ssv_blocks_background):
    the first SSV on fresh targets starts their plan on a host thread and runs a warp per
    target; a later SSV fills the blocks once the plan is done and runs on them; a profile
    that waits takes a plan in progress. Every cascade equals the CPU's."""
    rng = np.random.default_rng(13)
    path = HMMER_EXAMPLES / "tutorial" / "globins4.hmm"
    with HMMFile(path) as f:
        hmm = next(iter(f))
    seqs = random_proteins(rng, 20000, mean_length=300)
    seqs += [plant(rng, s) for s in hmmemit(path, 40, seed=7)]
    residues, offsets = _digitize(seqs)
    profile = search_profile(hmm)
    cpu = _core.run_cascade(profile, residues, offsets, 0.02, 1e-3, True, 4)
    assert cpu["n_past_msv"] > 0

    def cascade_equals_cpu(gpu_profile, targets):
        gpu = _core.gpu_run_cascade(gpu_profile, targets, residues, offsets, 0.02, 1e-3, True, 4)
        for key, value in cpu.items():
            if isinstance(value, np.ndarray) and value.dtype.kind == "f":
                assert bit_equal(gpu[key], value).all(), key
            else:
                assert np.array_equal(gpu[key], value), key

    waits, background = _core.GpuProfile(profile), _core.GpuProfile(profile)
    assert waits.sequences_per_warp > 1
    for gpu_profile in (waits, background):
        gpu_profile.ssv_multi = True
    assert not waits.ssv_blocks_background
    background.ssv_blocks_background = True

    targets = _core.GpuTargets(residues, offsets)
    cascade_equals_cpu(waits, targets)
    assert targets.ssv_block_sets == 1  # made by the first SSV

    targets = _core.GpuTargets(residues, offsets)
    cascade_equals_cpu(background, targets)
    assert targets.ssv_block_sets == 0  # being planned; this SSV ran a warp per target
    for _ in range(10_000):  # each cascade ~ms; the plan of 20,000 targets takes < 10 ms
        cascade_equals_cpu(background, targets)
        if targets.ssv_block_sets == 1:
            break
    assert targets.ssv_block_sets == 1
    cascade_equals_cpu(background, targets)  # on the blocks

    targets = _core.GpuTargets(residues, offsets)
    cascade_equals_cpu(background, targets)
    cascade_equals_cpu(waits, targets)  # waits for the plan in progress, fills it
    assert targets.ssv_block_sets == 1
