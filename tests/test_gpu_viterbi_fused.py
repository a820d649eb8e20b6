"""The fused Viterbi filter kernel (cuda/hmm/viterbi_fused.cuh, `GpuProfile(..., viterbi=
"warp_fused")`: a warp per target with the saturating adds fused into DPX instructions, the
transition words in registers for short models) gives the CPU Viterbi filter's scores bit for
bit, and so HMMER's (tests/test_filters.py checks the CPU filter against HMMER itself): on the
cases tests/test_gpu_filters.py runs the warp kernel on, with and without NVRTC, and on scores
on both sides of the 16-bit overflow level (near it the kernel checks its rows for a wrapped
emission add). Every test runs the kernel with 1, 2 and 4 targets per warp (each target on a
group of 32, 16 or 8 threads), where a warp's targets run their rows together: a group past
its target's end or overflow must neither change nor be changed by the others.
Run on the device machine; skipped without a GPU. The NVRTC compilation of the kernel for
Hopper and Ampere needs no GPU (only libnvrtc)."""

from __future__ import annotations

import numpy as np
import pytest
from pyhmmer.easel import Alphabet
from pyhmmer.plan7 import HMM, HMMFile
from test_gpu_filters import _digitize

import gpuseq
from conftest import HMMER_EXAMPLES, assert_cascades_equal, bit_equal
from gpuseq import _core
from gpuseq.hmm import search_profile
from synthetic import hmmemit, plant, random_protein, random_proteins

NS = "gpuseq::cuda::hmm::"


TARGETS_PER_WARP = [1, 2, 4]


def _longest_for(targets_per_warp: int) -> int:
    """The longest model the kernel takes with T targets per warp (64 stripes of 64 / T nodes
    with NVRTC, 8 without)."""
    stripes = 64 if _core.gpu_max_model_length > _core.gpu_static_max_model_length else 8
    return 1 << 30 if targets_per_warp == 1 else stripes * 64 // targets_per_warp


def _fused_vs_cpu(
    profile, residues, offsets, runtime_compiled=True, targets_per_warp=1, warps_per_target=1
):
    """(GPU fused-kernel Viterbi scores, CPU Viterbi scores, the GPU profile); one warp a
    target unless asked (0: chosen by model length, as is the targets per warp)."""
    gpu_profile = _core.GpuProfile(
        profile,
        viterbi="warp_fused",
        runtime_compiled=runtime_compiled,
        viterbi_targets_per_warp=targets_per_warp,
        viterbi_warps_per_target=warps_per_target,
        viterbi_systolic=-1,  # every target on this kernel (test_gpu_viterbi_systolic.py)
    )
    assert targets_per_warp == 0 or gpu_profile.viterbi_targets_per_warp == targets_per_warp
    assert warps_per_target == 0 or gpu_profile.viterbi_warps_per_target == warps_per_target
    targets = _core.GpuTargets(residues, offsets)
    gpu = _core.gpu_filter_scores(gpu_profile, targets, "viterbi", residues, offsets)
    cpu = _core.filter_scores(profile, "viterbi", residues, offsets)
    return gpu, cpu, gpu_profile


def _assert_equal(name, gpu, cpu):
    bad = np.flatnonzero(~bit_equal(gpu, cpu))
    assert bad.size == 0, (name, [(i, gpu[i], cpu[i]) for i in bad[:5]])


def _sampled_model(M: int, seed: int):
    hmm = HMM.sample(Alphabet.amino(), M, seed)
    hmm.set_composition()
    return hmm


# ---- no GPU needed --------------------------------------------------------------------------


@pytest.mark.parametrize("arch", ["sm_90a", "sm_80"])
def test_kernel_compiles_under_nvrtc(arch):
    """The embedded header instantiates for stripe counts no static kernel has, with the
    transitions in registers (9, 16) and read every row (17, 64), with 1, 2 and 4 targets per
    warp."""
    info = _core.nvrtc_info()
    if not info["available"]:
        pytest.skip(f"libnvrtc is not installed here: {info['reason']}")
    pairs = [(9, 1), (16, 1), (17, 1), (64, 1), (9, 2), (17, 2), (5, 4), (20, 4)]
    names = [f"{NS}viterbi_fused_kernel<{q}, {t}>" for q, t in pairs]
    # The split kernel: Q stripes a warp, W warps a target.
    names += [f"{NS}viterbi_split_kernel<{q}, {w}>" for q, w in [(2, 2), (9, 2), (16, 3), (13, 4)]]
    image, lowered = _core.nvrtc_compile(names, arch, cache=False)
    assert image[:4] == b"\x7fELF"
    for mangled in lowered:
        assert "viterbi_" in mangled and mangled.encode() in image


# ---- on the GPU -----------------------------------------------------------------------------


@pytest.mark.cuda
@pytest.mark.parametrize("targets_per_warp", TARGETS_PER_WARP)
def test_equals_cpu_on_every_model(corpora, targets_per_warp):
    """Every example, pyhmmer and synthetic model (M = 1 to 2000) on its stress corpus:
    overflow, the J state, odd symbols, all-X, lengths 1 to 9000 (with T targets per warp, the
    models it takes)."""
    seen = {"overflow": 0, "finite": 0}
    for model_path, fasta in corpora:
        db = gpuseq.read_fasta(fasta)
        with HMMFile(model_path) as f:
            for hmm in f:
                if hmm.M > _longest_for(targets_per_warp):
                    continue
                gpu, cpu, _ = _fused_vs_cpu(
                    search_profile(hmm), db.residues, db.offsets, targets_per_warp=targets_per_warp
                )
                _assert_equal(hmm.name, gpu, cpu)
                seen["overflow"] += int(np.isposinf(cpu).sum())
                seen["finite"] += int(np.isfinite(cpu).sum())
    assert min(seen.values()) > 50, seen


@pytest.mark.cuda
@pytest.mark.parametrize("runtime_compiled", [True, False])
@pytest.mark.parametrize(
    "M",
    # Stripe boundaries as in test_gpu_filters.py, the last model with all its transitions in
    # registers (1024 = 16 stripes), the first with some read every row (1025), the last
    # counts of each number of resident stripes (fused_resident_stripes: 1216, 1280, 1344,
    # 1408 = 19-22 stripes) and the first with none (1409), and the largest static model
    # (3072 = 48 stripes).
    [
        1,
        2,
        3,
        63,
        64,
        65,
        127,
        128,
        129,
        256,
        257,
        383,
        640,
        768,
        1024,
        1025,
        1216,
        1280,
        1344,
        1408,
        1409,
        1537,
        2048,
        2561,
        3072,
    ],
)
def test_every_stripe_count_and_model_boundary(M, runtime_compiled):
    """Models that fill their stripes exactly, by one node more or less, and that need a
    rounded-up stripe count, against random, planted and repeated-consensus targets; NVRTC's
    exact stripe count and the static kernels' rounded-up one."""
    rng = np.random.default_rng(M)
    hmm = _sampled_model(M, M + 11)
    consensus = hmm.consensus.upper()
    seqs = random_proteins(rng, 40, mean_length=300)
    seqs += [plant(rng, consensus), consensus * 3, consensus[: max(1, M // 2)], "X" * 50]
    seqs += [random_proteins(rng, 1, L, L, L)[0] for L in (1, 2, 129, 4000)]
    gpu, cpu, gp = _fused_vs_cpu(search_profile(hmm), *_digitize(seqs), runtime_compiled)
    _assert_equal(f"M={M}", gpu, cpu)
    if runtime_compiled and gp.runtime_compiled:
        assert gp.viterbi_stripes == max((M - 1) // 64 + 1, 2)


# Stripes of 32 nodes (T = 2) and 16 (T = 4): one node more or less than a whole number of
# them, the last static count (8) and past it (NVRTC only), the last model with its transitions
# in registers (16 stripes) and the first without.
_GROUPED_CASES = [(2, m) for m in (1, 2, 31, 32, 33, 64, 65, 149, 255, 256, 257, 512, 513, 1025)]
_GROUPED_CASES += [(4, m) for m in (1, 15, 16, 17, 33, 64, 100, 128, 129, 192, 256, 257, 500)]


@pytest.mark.cuda
@pytest.mark.parametrize(
    ("targets_per_warp", "M", "runtime_compiled"),
    [(t, m, True) for t, m in _GROUPED_CASES]
    # The static kernels: up to 8 stripes.
    + [(t, m, False) for t, m in _GROUPED_CASES if m <= 8 * 64 // t],
)
def test_several_targets_per_warp_at_every_stripe_boundary(targets_per_warp, M, runtime_compiled):
    """A warp's targets run their rows together: pairs and quartets of very different
    lengths (0, 1, 4000 next to short ones, as the launcher orders targets longest first),
    overflowing targets next to finite ones of the same length, and an odd count (the last
    warp with fewer targets than groups)."""
    assert M <= _longest_for(targets_per_warp)  # NVRTC is installed on the GPU host
    rng = np.random.default_rng(M + 100 * targets_per_warp)
    hmm = _sampled_model(M, M + 7)
    consensus = hmm.consensus.upper()
    seqs = random_proteins(rng, 37, mean_length=200)
    # Same length, one overflowing (the consensus repeated) and one not.
    repeated = consensus * max(2, 600 // max(M, 1))
    seqs += [repeated, random_protein(rng, len(repeated)), repeated]
    seqs += [plant(rng, consensus), consensus[: max(1, M // 2)], "X" * 50, "", "A"]
    seqs += [random_proteins(rng, 1, L, L, L)[0] for L in (1, 2, 129, 4000)]
    gpu, cpu, gp = _fused_vs_cpu(
        search_profile(hmm), *_digitize(seqs), runtime_compiled, targets_per_warp
    )
    _assert_equal(f"T={targets_per_warp} M={M}", gpu, cpu)
    assert len(seqs) % targets_per_warp != 0
    if runtime_compiled and gp.runtime_compiled:
        assert gp.viterbi_stripes == max((M - 1) // (64 // targets_per_warp) + 1, 2)


@pytest.mark.cuda
@pytest.mark.parametrize("M", [128, 129, 256, 257, 512, 513])
@pytest.mark.parametrize("runtime_compiled", [True, False])
def test_targets_per_warp_chosen_by_model_length(M, runtime_compiled):
    """Left to the profile, two targets a warp up to M = 256 (8 stripes, the static kernels)
    and, with NVRTC, up to 512 (9-16 stripes, measured faster there); one past that, and past
    256 without NVRTC. Four a warp on the launches with rows enough for them up to M = 128 (8
    stripes of 16 nodes, static) and, with NVRTC, 256, and the systolic pipeline on larger ones
    up to 384 where the profile leaves it to its default (viterbi_by_launch). The kernel chosen
    gives the CPU's scores."""
    nvrtc = _core.gpu_max_model_length > _core.gpu_static_max_model_length
    compiled = runtime_compiled and nvrtc
    two = M <= 256 or (M <= 512 and compiled)
    four = M <= 128 or (M <= 256 and compiled)
    assert _core.gpu_choose_viterbi_targets_per_warp(M, runtime_compiled) == (2 if two else 1)
    assert _core.gpu_viterbi_four_targets_by_launch(M, runtime_compiled) == four
    rng = np.random.default_rng(M)
    hmm = _sampled_model(M, M + 11)
    seqs = random_proteins(rng, 41, mean_length=250)
    seqs += [hmm.consensus.upper(), plant(rng, hmm.consensus.upper()), "", "A"]
    residues, offsets = _digitize(seqs)
    profile = search_profile(hmm)
    cpu = _core.filter_scores(profile, "viterbi", residues, offsets)
    for by_launch, systolic in ((0, -1), (-1, -1), (0, 0)):
        gp = _core.GpuProfile(profile, viterbi="warp_fused", runtime_compiled=runtime_compiled,
                              viterbi_systolic=systolic, viterbi_by_launch=by_launch)
        assert gp.viterbi_targets_per_warp == (2 if two else 1)
        # The pipeline takes up to 384 nodes where the profile leaves it to its default.
        piped = systolic == 0 and M <= 384
        assert gp.viterbi_by_launch == (by_launch == 0 and (four or piped))
        gpu = _core.gpu_filter_scores(gp, _core.GpuTargets(residues, offsets), "viterbi",
                                      residues, offsets)
        _assert_equal(f"M={M} by_launch={by_launch} systolic={systolic}", gpu, cpu)
        # (45 targets, the longest about 1,000: too few rows for four a warp or the pipeline.)
        assert _core.gpu_last_viterbi_kernel() == f"fused/T{gp.viterbi_targets_per_warp}"


@pytest.mark.cuda
@pytest.mark.parametrize("runtime_compiled", [True, False])
@pytest.mark.parametrize("M", [1, 50, 71, 149, 200, 256, 300, 384])
def test_kernel_chosen_by_launch(M, runtime_compiled):
    """A profile that chooses by launch runs four targets a warp where a launch's residues
    reach kFourTargetsRowsPerLongest times its longest target's (where four take the model),
    the systolic pipeline from kPipelineRowsPerLongest (where the profile leaves it to its
    default), and its own kernel below: each scores as the CPU does, on short random targets
    beside long ones, planted homologs (overflowing where repeated), `*`/`~` residues, empty,
    1-residue and 100,000-residue targets."""
    four = _core.gpu_viterbi_four_targets_by_launch(M, runtime_compiled)
    rng = np.random.default_rng(M + 40)
    hmm = _sampled_model(M, M + 40)
    consensus = hmm.consensus.upper()
    seqs = random_proteins(rng, 3000, min_length=5, max_length=300, mean_length=120)
    seqs += random_proteins(rng, 12, min_length=1500, max_length=6000, mean_length=3000)
    seqs += [plant(rng, consensus) for _ in range(20)]
    seqs += [consensus * 40, "*" + consensus + "~~" + consensus, "", "A"]
    seqs.append(random_proteins(rng, 1, 100000, 100000, 100000)[0])
    order = rng.permutation(len(seqs))  # the long ones anywhere in the database
    residues, offsets = _digitize([seqs[i] for i in order])
    profile = search_profile(hmm)
    cpu = _core.filter_scores(profile, "viterbi", residues, offsets)
    assert np.isfinite(cpu).sum() > 1000
    assert M < 50 or np.isposinf(cpu).any()  # the repeated consensus overflows
    targets = _core.GpuTargets(residues, offsets)
    for systolic in (-1, 0):
        if systolic == -1 and not four:
            continue  # neither applies: test_targets_per_warp_chosen_by_model_length
        gp = _core.GpuProfile(profile, viterbi="warp_fused", runtime_compiled=runtime_compiled,
                              viterbi_systolic=systolic, viterbi_by_launch=1)
        own = f"fused/T{gp.viterbi_targets_per_warp}"
        assert gp.viterbi_by_launch and not gp.viterbi_systolic
        # ~500,000 residues, the longest 100,000: the profile's own kernel at the defaults.
        cases = [((0.0, 0.0), own), ((1e12, 1e12), own)]
        cases.append(((1.0, 1e12), "fused/T4" if four else own))
        if systolic == 0:
            cases.append(((1.0, 1.0), "systolic"))
        try:
            for (four_rows, pipeline_rows), kernel in cases:
                _core.gpu_viterbi_by_launch_rows(four_rows, pipeline_rows)
                gpu = _core.gpu_filter_scores(gp, targets, "viterbi", residues, offsets)
                _assert_equal(f"M={M} rows={four_rows},{pipeline_rows}", gpu, cpu)
                assert _core.gpu_last_viterbi_kernel() == kernel
        finally:
            _core.gpu_viterbi_by_launch_rows(0.0, 0.0)


@pytest.mark.cuda
def test_by_launch_errors():
    profile = search_profile(_sampled_model(60, 2))
    with pytest.raises(ValueError, match="-1, 0 or 1, not 2"):
        _core.GpuProfile(profile, viterbi="warp_fused", viterbi_by_launch=2)
    for kwargs in (
        dict(viterbi_targets_per_warp=2),
        dict(viterbi_targets_per_warp=4),
        dict(viterbi_systolic=1),
        dict(viterbi_warps_per_target=2),
    ):
        with pytest.raises(ValueError, match="viterbi_by_launch needs"):
            _core.GpuProfile(profile, viterbi="warp_fused", viterbi_by_launch=1, **kwargs)
    with pytest.raises(ValueError, match="viterbi_by_launch needs"):
        _core.GpuProfile(profile, viterbi="warp", viterbi_by_launch=1)
    # Past 384 nodes neither four a warp nor the pipeline take the model.
    with pytest.raises(ValueError, match="M = 400"):
        _core.GpuProfile(search_profile(_sampled_model(400, 2)), viterbi="warp_fused",
                         viterbi_by_launch=1)
    # Asked for two or four targets a warp, every launch runs them.
    for T in (2, 4):
        gp = _core.GpuProfile(profile, viterbi="warp_fused", viterbi_targets_per_warp=T)
        assert gp.viterbi_targets_per_warp == T and not gp.viterbi_by_launch


@pytest.mark.cuda
@pytest.mark.parametrize("M", [3500, 4096])
def test_models_longer_than_the_static_kernels(M):
    """Only NVRTC takes these (up to 64 stripes, the transitions read every row)."""
    if M > _core.gpu_max_model_length:
        pytest.skip("NVRTC is unavailable: the static kernels do not take this model")
    rng = np.random.default_rng(M)
    hmm = _sampled_model(M, M)
    seqs = random_proteins(rng, 30, mean_length=300)
    seqs += [hmm.consensus.upper(), plant(rng, hmm.consensus.upper()), "", "A"]
    gpu, cpu, gp = _fused_vs_cpu(search_profile(hmm), *_digitize(seqs))
    assert gp.runtime_compiled
    _assert_equal(f"M={M}", gpu, cpu)


@pytest.mark.cuda
@pytest.mark.parametrize("targets_per_warp", TARGETS_PER_WARP)
def test_empty_single_and_100000_residue_targets(synthetic_models, targets_per_warp):
    """Empty targets are NaN on both; lengths 1 and 100,000 (HMMER's limit), planted or not,
    far longer than the kernel's 128-residue staging."""
    rng = np.random.default_rng(3)
    with HMMFile(synthetic_models["random2000"]) as f:
        hmm = next(iter(f))
    long_bg = random_proteins(rng, 1, 100000, 100000, 100000)[0]
    planted = long_bg[:40000] + hmm.consensus.upper() + long_bg[42000:]
    seqs = ["", "A", "", long_bg, planted, "W", ""]
    for model in (hmm, _sampled_model(100, 4)):
        if model.M > _longest_for(targets_per_warp):
            continue
        gpu, cpu, _ = _fused_vs_cpu(
            search_profile(model), *_digitize(seqs), targets_per_warp=targets_per_warp
        )
        _assert_equal("edges", gpu, cpu)
        assert np.isnan(gpu[[0, 2, 6]]).all()
        assert not np.isnan(cpu[[1, 3, 4, 5]]).any()


@pytest.mark.cuda
@pytest.mark.parametrize("targets_per_warp", TARGETS_PER_WARP)
@pytest.mark.parametrize("name", ["fn3", "globins4", "Pkinase"])
def test_scores_on_both_sides_of_the_overflow_level(name, targets_per_warp):
    """Consensus prefixes of a tutorial model growing a residue at a time in random flanks, and
    repeated pieces (the J state): the best scores run into the 16-bit ceiling (+inf), which the
    kernel finds by checking for a wrapped emission add (it has no upper clamp) in rows where a
    lane could reach 32767; some finite ones had their best row within the model's largest
    emission of 32767, so the rows after it were checked and passed."""
    with HMMFile(HMMER_EXAMPLES / "tutorial" / f"{name}.hmm") as f:
        hmm = next(iter(f))
    rng = np.random.default_rng(hmm.M + 1)
    consensus = hmm.consensus.upper()

    def flank():
        return random_protein(rng, int(rng.integers(0, 300)))

    seqs = [flank() + consensus[:n] + flank() for n in range(3, hmm.M + 1)]
    for n in (10, 20, 40):
        seqs += [(consensus[:n] + random_protein(rng, 15)) * r for r in range(2, 9)]
    residues, offsets = _digitize(seqs)
    profile = search_profile(hmm)
    if hmm.M > _longest_for(targets_per_warp):
        pytest.skip("longer than the kernels with this many targets per warp take")
    gpu, cpu, _ = _fused_vs_cpu(profile, residues, offsets, targets_per_warp=targets_per_warp)
    _assert_equal(name, gpu, cpu)
    assert np.isposinf(cpu).any()
    # The best row's xE from the score (spec 5.1): xC = xE + E.MOVE, sc = (xC + ncj_move -
    # base_w) / scale_w - 3.
    finite = np.flatnonzero(np.isfinite(cpu))
    ncj = np.array([_core.SearchProfile.ncj_move_w(int(L)) for L in np.diff(offsets)[finite]])
    scale = _core.SearchProfile.scale_w
    best_xe = (cpu[finite].astype(np.float64) + 3) * scale + 12000 - ncj - profile.e_move_w
    emission_max = int(np.asarray(profile.viterbi_emissions).max())
    assert (best_xe + emission_max >= 32767 + 2).sum() >= 2


@pytest.mark.cuda
@pytest.mark.parametrize(
    ("name", "L"),
    [("fn3", 100000), ("globins4", 100000), ("Pkinase", 100000), ("M400", 100000)]
    + [("M1000", 100000), ("M2400", 30000)],
)
def test_rows_without_floors_take_every_target_here(name, L):
    """The bound of the kernel's rows without floors (viterbi_fused.cuh) holds for targets of
    HMMER's longest length, 100,000, with the tutorial models and sampled ones up to M = 1000
    (transitions all in registers up to 1024, some or all read every row above), and to 30,000
    at M = 2400 (84,000 for this one): the tests here run those rows."""
    if name.startswith("M"):
        hmm = _sampled_model(int(name[1:]), 5)
    else:
        with HMMFile(HMMER_EXAMPLES / "tutorial" / f"{name}.hmm") as f:
            hmm = next(iter(f))
    gp = _core.GpuProfile(search_profile(hmm), viterbi="warp_fused", viterbi_targets_per_warp=1)
    assert gp.viterbi_fast_min_move <= _core.SearchProfile.ncj_move_w(L)


@pytest.mark.cuda
@pytest.mark.parametrize("targets_per_warp", TARGETS_PER_WARP)
@pytest.mark.parametrize("without_floors", [True, False])
def test_rows_after_weak_residues_keep_their_floors(targets_per_warp, without_floors):
    """`*` and `~` have a -32768 emission at every node: in their rows M may be -32768, so a
    warp with such a residue in a target keeps its floors in every row. Homologs with such
    residues alone, in pairs, in runs, first, last and every third, and targets of nothing
    else, beside targets without (warps of both kinds); equal to the CPU with the rows
    without floors and with floors in every row."""
    rng = np.random.default_rng(17 + targets_per_warp)
    for hmm in (_sampled_model(120, 21), _sampled_model(700, 22), _sampled_model(1500, 23)):
        if hmm.M > _longest_for(targets_per_warp):
            continue
        consensus = hmm.consensus.upper()
        seqs = []
        for weak in ("*", "~"):
            for gap in (1, 2, 3, 7, 40):
                s = list(plant(rng, consensus))
                for i in range(int(rng.integers(0, gap)), len(s), gap):
                    s[i] = weak
                seqs.append("".join(s))
            seqs += [weak + consensus, consensus + weak, weak * 3 + consensus[:60] + weak * 2]
            seqs += [weak, weak * 5, consensus[: hmm.M // 2] + weak + consensus[hmm.M // 2 :]]
        seqs += [plant(rng, consensus) for _ in range(5)]
        seqs += random_proteins(rng, 20, mean_length=200)
        _core.gpu_viterbi_rows_without_floors(without_floors)
        try:
            gpu, cpu, _ = _fused_vs_cpu(
                search_profile(hmm), *_digitize(seqs), targets_per_warp=targets_per_warp
            )
        finally:
            _core.gpu_viterbi_rows_without_floors(True)
        _assert_equal(f"M={hmm.M}", gpu, cpu)
        assert np.isfinite(cpu).sum() > 20


@pytest.mark.cuda
@pytest.mark.parametrize("targets_per_warp", TARGETS_PER_WARP)
def test_more_targets_than_resident_warps(targets_per_warp):
    """20,000 short targets: every warp of the persistent grid takes several, each starting
    from fresh rows."""
    rng = np.random.default_rng(8)
    hmm = _sampled_model(60, 8)
    lengths = rng.integers(1, 80, 20_000)
    offsets = np.zeros(lengths.size + 1, np.int64)
    np.cumsum(lengths, out=offsets[1:])
    residues = rng.integers(0, 20, int(offsets[-1])).astype(np.uint8)
    gpu, cpu, _ = _fused_vs_cpu(
        search_profile(hmm), residues, offsets, targets_per_warp=targets_per_warp
    )
    _assert_equal("20000 targets", gpu, cpu)
    assert np.unique(cpu).size > 1000


@pytest.mark.cuda
def test_gpu_cascade_equals_cpu_cascade():
    """Stages, scores and pass counts of the filter cascade with the fused Viterbi kernel,
    on background plus planted homologs of three tutorial models."""
    rng = np.random.default_rng(13)
    tut = HMMER_EXAMPLES / "tutorial"
    for name in ("globins4", "fn3", "Pkinase"):
        path = tut / f"{name}.hmm"
        with HMMFile(path) as f:
            hmm = next(iter(f))
        seqs = random_proteins(rng, 3000, mean_length=300)
        seqs += [plant(rng, s) for s in hmmemit(path, 60, seed=7)]
        residues, offsets = _digitize(seqs)
        profile = search_profile(hmm)
        # The targets per warp this model is given by default.
        gpu_profile = _core.GpuProfile(profile, viterbi="warp_fused")
        targets = _core.GpuTargets(residues, offsets)
        # F2 = 1e-300: the Viterbi filter runs on all but the few the MSV P-value passes.
        for F1, F2 in ((0.02, 1e-3), (1.0, 1e-300)):
            gpu = _core.gpu_run_cascade(gpu_profile, targets, residues, offsets, F1, F2, True, 4)
            cpu = _core.run_cascade(profile, residues, offsets, F1, F2, True, 4)
            assert_cascades_equal(gpu, cpu, name)
            assert cpu["n_past_vit"] > 0


@pytest.mark.cuda
def test_unknown_variant_is_refused():
    with pytest.raises(ValueError, match="'warp_fused'"):
        _core.GpuProfile(search_profile(_sampled_model(10, 1)), viterbi="fused")


@pytest.mark.cuda
def test_unsupported_targets_per_warp_are_refused():
    profile = search_profile(_sampled_model(10, 1))
    with pytest.raises(ValueError, match="0, 1, 2 or 4, not 3"):
        _core.GpuProfile(profile, viterbi="warp_fused", viterbi_targets_per_warp=3)
    with pytest.raises(ValueError, match="needs the fused Viterbi kernel"):
        _core.GpuProfile(profile, viterbi="warp", viterbi_targets_per_warp=2)
    with pytest.raises(ValueError, match="use fewer targets per warp"):
        _core.GpuProfile(
            search_profile(_sampled_model(1100, 2)),
            viterbi="warp_fused",
            viterbi_targets_per_warp=4,
        )


# A model split over W warps (viterbi_split_kernel): warps whose nodes end exactly at the
# model's end, a node before or past it, warps holding only padding (M = 129 over 4), every
# transition in registers (up to 1,024 nodes a warp), and past that a warp's last stripes
# streamed (17-22 stripes a warp) or all of them (23 on; 4096 is the longest model); the D->D
# chain in two parts (dd_chain_split_at: 20 stripes over two warps, 2560); compiled at ptxas's
# register usage level 0 with 14-16 stripes in registers (16-22 stripes over two warps:
# 2048-2816, fused_register_usage_level).
_SPLIT_CASES = [
    (2, m)
    for m in (129, 1025, 1100, 1280, 1537, 2048, 2049, 2304, 2432, 2560, 2688, 2816, 2817, 4096)
]
_SPLIT_CASES += [(3, m) for m in (1025, 2049, 2500, 3072, 3073)]
_SPLIT_CASES += [(4, m) for m in (129, 3073, 4096)]


@pytest.mark.cuda
@pytest.mark.parametrize(("warps", "M"), _SPLIT_CASES)
def test_model_split_over_warps(warps, M):
    """The warps' rows run together, exchanging each row's boundary M, I and D, xE and the D->D
    chain's carry: random and planted targets, overflowing ones (the consensus repeated),
    all-X, empty, length 1 and 4000, and `*`/`~` rows (with floors)."""
    rng = np.random.default_rng(M + 1000 * warps)
    hmm = _sampled_model(M, M + 5)
    consensus = hmm.consensus.upper()
    seqs = random_proteins(rng, 40, mean_length=300)
    repeated = consensus * max(2, 3000 // M)
    seqs += [repeated, plant(rng, consensus), consensus[: M // 2], "X" * 50, "", "A"]
    seqs += ["*" + consensus + "~~" + consensus]
    seqs += [random_proteins(rng, 1, L, L, L)[0] for L in (1, 2, 129, 4000)]
    gpu, cpu, gp = _fused_vs_cpu(search_profile(hmm), *_digitize(seqs), warps_per_target=warps)
    _assert_equal(f"W={warps} M={M}", gpu, cpu)
    assert gp.viterbi_stripes == max((M - 1) // (64 * warps) + 1, 2)
    assert np.isfinite(cpu).sum() > 30
    if M > 1000:  # the repeated consensus overflows (sampled models this short score lower)
        assert np.isposinf(cpu).any()


@pytest.mark.cuda
def test_split_model_errors():
    """A split needs the fused kernel with one target a warp, and a model the GPU takes."""
    too_long = search_profile(_sampled_model(_core.gpu_max_model_length + 1, 3))
    with pytest.raises(ValueError, match="longer than the GPU filter kernels"):
        _core.GpuProfile(too_long, viterbi="warp_fused", viterbi_warps_per_target=4)
    profile = search_profile(_sampled_model(2100, 3))
    with pytest.raises(ValueError, match="one target a warp"):
        _core.GpuProfile(
            profile, viterbi="warp_fused", viterbi_warps_per_target=3, viterbi_targets_per_warp=2
        )
    with pytest.raises(ValueError, match="0 to 4"):
        _core.GpuProfile(profile, viterbi="warp_fused", viterbi_warps_per_target=5)


@pytest.mark.cuda
@pytest.mark.parametrize("M", [1344, 1345, 1600, 2048, 2049, 2688, 2689, 2816, 2817, 4096])
def test_warps_per_target_by_model_length(M):
    """By default a long model runs on the warps per target chosen by its length (two from M
    = 1345 to 2816 where NVRTC 13 compiles them at register usage level 0, else to 2688; four
    past it), with the CPU's scores."""
    rng = np.random.default_rng(M)
    hmm = _sampled_model(M, M + 9)
    seqs = random_proteins(rng, 30, mean_length=300) + [plant(rng, hmm.consensus.upper())]
    gpu, cpu, gp = _fused_vs_cpu(
        search_profile(hmm), *_digitize(seqs), targets_per_warp=0, warps_per_target=0
    )
    _assert_equal(f"M={M}", gpu, cpu)
    two_up_to = 2816 if _core.nvrtc_info()["version"][0] >= 13 else 2688
    expected = 1 if M <= 1344 else 2 if M <= two_up_to else 4
    assert _core.gpu_choose_viterbi_warps_per_target(M) == expected
    assert gp.viterbi_warps_per_target == expected


def _shortest_beyond_the_fused_kernels() -> int:
    """The shortest target length whose xN + ncj_move is below 0 (about 5e7 residues): the
    fused kernels refuse it (their rows have no floor on xB + B, viterbi_fused.cuh)."""
    low, high = 1, 1 << 30  # ncj_move falls as L grows
    while low < high:
        mid = (low + high) // 2
        if _core.SearchProfile.base_w + _core.SearchProfile.ncj_move_w(mid) < 0:
            high = mid
        else:
            low = mid + 1
    return low


@pytest.mark.cuda
@pytest.mark.parametrize("warps_per_target", [1, 2])
def test_targets_too_long_for_the_fused_kernels_are_refused(warps_per_target):
    """A target of about 5e7 residues (a search takes at most 100,000) gives a clear error
    naming it, not a score computed with a wrapped xB + B; the longest one the kernels take
    has xN + ncj_move >= 0."""
    too_long = _shortest_beyond_the_fused_kernels()
    assert 4e7 < too_long < 6e7
    assert _core.SearchProfile.base_w + _core.SearchProfile.ncj_move_w(too_long - 1) >= 0
    profile = search_profile(_sampled_model(1500 if warps_per_target > 1 else 60, 3))
    gpu_profile = _core.GpuProfile(profile, viterbi="warp_fused",
                                   viterbi_warps_per_target=warps_per_target)
    residues = np.full(too_long + 10, 3, dtype=np.uint8)
    offsets = np.array([0, 10, too_long + 10], dtype=np.int64)
    targets = _core.GpuTargets(residues, offsets)
    with pytest.raises(ValueError, match=f"target 1 has {too_long} residues: the fused Viterbi"):
        _core.gpu_filter_scores(gpu_profile, targets, "viterbi", residues, offsets)
