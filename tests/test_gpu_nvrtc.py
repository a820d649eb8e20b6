"""Run-time specialisation of the GPU filter kernels (cuda/hmm/runtime_compile.cpp): NVRTC
compiles the kernel headers embedded in the module for a model's exact stripe count, through a
disk cache, with the static kernels as the fallback.

Without a GPU (any build, where libnvrtc is installed): the embedded headers compile under
NVRTC for Hopper and Ampere, and the disk cache is written, read back, and rebuilt when an entry
is corrupt. With a GPU (marked `cuda`): the NVRTC kernels, for stripe counts the static set
lacks and for models longer than it takes, give the static kernels' scores and the CPU filters'
bit for bit (and so HMMER's: tests/test_filters.py), and profiles reuse the disk cache."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from pyhmmer.easel import Alphabet
from pyhmmer.plan7 import HMM

import gpuseq
from conftest import bit_equal
from gpuseq import _core
from gpuseq.hmm import search_profile
from synthetic import plant, random_proteins

FILTERS = ("ssv", "msv", "viterbi")
NS = "gpuseq::cuda::hmm::"
REPO = Path(__file__).resolve().parent.parent


def _needs_nvrtc():
    info = _core.nvrtc_info()
    if not info["available"]:
        pytest.skip(f"libnvrtc is not installed here: {info['reason']}")
    return info


def _kernel_set(byte_stripes: int, word_stripes: int) -> list[str]:
    return [
        f"{NS}ssv_warp_kernel<{byte_stripes}>",
        f"{NS}msv_warp_kernel<{byte_stripes}>",
        f"{NS}ssv_warp_kernel_s16<{word_stripes}>",
        f"{NS}msv_warp_kernel_s16<{word_stripes}>",
        f"{NS}viterbi_warp_kernel<{word_stripes}>",
        f"{NS}ssv_multi_kernel<16, 8, {word_stripes}>",
        f"{NS}msv_multi_kernel<8, 4, {byte_stripes}>",
    ]


# ---- no GPU needed --------------------------------------------------------------------------


@pytest.mark.parametrize("arch", ["sm_90a", "sm_80"])
def test_embedded_kernel_headers_compile_under_nvrtc(arch):
    """Every kernel template of the embedded headers instantiates for a stripe count that no
    static kernel has (a CUBIN for the architecture, with each kernel's mangled name)."""
    _needs_nvrtc()
    names = _kernel_set(5, 9)
    image, lowered = _core.nvrtc_compile(names, arch, cache=False)
    assert image[:4] == b"\x7fELF"
    assert len(lowered) == len(names)
    for name, mangled in zip(names, lowered):
        template = name.removeprefix(NS).split("<")[0]
        assert mangled.startswith("_ZN6gpuseq4cuda3hmm") and template in mangled, (name, mangled)
        assert mangled.encode() in image


def test_ptx_names_the_stripe_count():
    """compute_XY gives PTX, one entry per instantiated kernel."""
    _needs_nvrtc()
    ptx, lowered = _core.nvrtc_compile([f"{NS}viterbi_warp_kernel<13>"], "compute_80", cache=False)
    text = ptx.rstrip(b"\0").decode()
    assert ".entry " + lowered[0] in text and "ILi13E" in lowered[0]


def test_compile_errors_are_clear():
    _needs_nvrtc()
    with pytest.raises(RuntimeError, match="NVRTC could not compile"):
        _core.nvrtc_compile([f"{NS}no_such_kernel<3>"], "sm_80", cache=False)


def test_options_reach_ptxas_and_the_cache_key(tmp_path, monkeypatch):
    """Options added to a compilation (the register usage level that gpu_filters.cu passes for
    some fused Viterbi kernels, with the define their tables follow) reach ptxas, change the
    code, and make a cache entry of their own; a bad one is a clear error."""
    _needs_nvrtc()
    if _core.nvrtc_info()["version"][0] < 13:
        pytest.skip("the register usage level is passed to NVRTC 13 and later only")
    monkeypatch.setenv("GPUSEQ_CACHE_DIR", str(tmp_path))
    names = [f"{NS}viterbi_split_kernel<19, 2>"]
    ptxas_level0 = "--ptxas-options=--register-usage-level=0"
    default, lowered = _core.nvrtc_compile(names, "sm_90a")
    # ptxas alone (the same source): other machine code, as the kernel's tables are the same
    ptxas_only, _ = _core.nvrtc_compile(names, "sm_90a", options=[ptxas_level0])
    assert _code_sections(ptxas_only) != _code_sections(default)
    at_level0, lowered0 = _core.nvrtc_compile(
        names, "sm_90a", options=[ptxas_level0, "-DGPUSEQ_PTXAS_REGISTER_USAGE_LEVEL=0"]
    )
    assert lowered0 == lowered and lowered[0].encode() in at_level0
    assert _code_sections(at_level0) != _code_sections(ptxas_only)  # 16 stripes held, not 10
    assert len(_entries(tmp_path)) == 3
    assert sum(b"register-usage-level=0" in e.read_bytes() for e in _entries(tmp_path)) == 2
    with pytest.raises(RuntimeError, match="NVRTC could not compile"):
        _core.nvrtc_compile(names, "sm_90a", cache=False, options=["--ptxas-options=--no-such"])


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.kernel"))


def test_disk_cache_is_written_read_back_and_rebuilt_when_corrupt(tmp_path, monkeypatch):
    _needs_nvrtc()
    cache = tmp_path / "kernels"
    monkeypatch.setenv("GPUSEQ_CACHE_DIR", str(cache))
    assert _core.nvrtc_info()["cache_dir"] == str(cache)
    names = [f"{NS}ssv_warp_kernel_s16<3>"]
    device = "test device (compute capability 8.0)"

    def compile_counting():
        before = _core.nvrtc_cache_stats()
        image, lowered = _core.nvrtc_compile(names, "sm_80", device=device)
        after = _core.nvrtc_cache_stats()
        return image, lowered, {k: after[k] - before[k] for k in after}

    image, lowered, delta = compile_counting()
    assert delta == {"compiled": 1, "disk_loads": 0, "disk_rejected": 0, "disk_writes": 1}
    (entry,) = _entries(cache)
    assert "ssv_warp_kernel_s16-3" in entry.name and "sm_80" in entry.name
    assert sorted(p.name for p in cache.iterdir()) == [entry.name]  # no temp file left

    again, lowered_again, delta = compile_counting()
    assert delta == {"compiled": 0, "disk_loads": 1, "disk_rejected": 0, "disk_writes": 0}
    assert again == image and lowered_again == lowered

    good = entry.read_bytes()
    assert image in good and all(name.encode() in good for name in lowered)
    flipped = bytearray(good)
    flipped[len(flipped) // 2] ^= 0x40
    for corrupt in (b"", b"garbage", good[: len(good) // 2], bytes(flipped), good + b"x"):
        entry.write_bytes(corrupt)
        rebuilt, rebuilt_lowered, delta = compile_counting()
        assert delta == {"compiled": 1, "disk_loads": 0, "disk_rejected": 1, "disk_writes": 1}
        assert rebuilt[:4] == b"\x7fELF" and rebuilt_lowered == lowered
        # The rewritten entry is whole: read back, not compiled (NVRTC's output is not
        # byte-identical between compilations, so it is compared with what was just built).
        read_back, _, delta = compile_counting()
        assert delta == {"compiled": 0, "disk_loads": 1, "disk_rejected": 0, "disk_writes": 0}
        assert read_back == rebuilt

    # Another device (or architecture) is another entry.
    _core.nvrtc_compile(names, "sm_80", device="another device")
    assert len(_entries(cache)) == 2


def test_unwritable_cache_is_skipped(tmp_path, monkeypatch):
    _needs_nvrtc()
    blocker = tmp_path / "not_a_directory"
    blocker.write_text("")
    monkeypatch.setenv("GPUSEQ_CACHE_DIR", str(blocker / "kernels"))
    before = _core.nvrtc_cache_stats()
    image, _ = _core.nvrtc_compile([f"{NS}ssv_warp_kernel_s16<4>"], "sm_80")
    assert image[:4] == b"\x7fELF"
    assert _core.nvrtc_cache_stats()["disk_writes"] == before["disk_writes"]


def _code_sections(image: bytes) -> dict[str, bytes]:
    """The machine code of a CUBIN (an ELF64 file), by section name (.text.<kernel>). NVRTC's
    images differ between compilations only outside them (.strtab)."""
    import struct

    table, = struct.unpack_from("<Q", image, 0x28)
    entry_size, count, names_index = struct.unpack_from("<HHH", image, 0x3A)
    heads = [struct.unpack_from("<IIQQQQIIQQ", image, table + i * entry_size)
             for i in range(count)]
    names = heads[names_index][4]  # sh_offset of the section names

    def name(offset: int) -> str:
        start = names + offset
        return image[start : image.index(b"\0", start)].decode()

    sections = {name(h[0]): image[h[4] : h[4] + h[5]] for h in heads}
    return {k: v for k, v in sections.items() if k.startswith(".text.")}


def test_threads_compile_at_once_into_the_same_code():
    """Profiles compile their kernels on the threads that make them (a search makes its
    models' tables side by side): NVRTC runs several programs at once, and each thread's
    kernels are the machine code a compilation alone gives."""
    from concurrent.futures import ThreadPoolExecutor

    _needs_nvrtc()
    programs = [[f"{NS}ssv_warp_kernel_s16<{q}>", f"{NS}viterbi_fused_kernel<{q}, {t}>"]
                for q, t in ((3, 2), (9, 2), (11, 1), (17, 1))]
    alone = [_core.nvrtc_compile(names, "sm_90a", cache=False) for names in programs]
    with ThreadPoolExecutor(len(programs)) as pool:
        together = list(pool.map(lambda n: _core.nvrtc_compile(n, "sm_90a", cache=False),
                                 programs))
    for names, (image, lowered), (image_alone, lowered_alone) in zip(programs, together, alone):
        assert lowered == lowered_alone, names
        code = _code_sections(image)
        assert len(code) >= len(names) and all(any(m in k for k in code) for m in lowered)
        assert code == _code_sections(image_alone), names


def test_cache_directory_follows_xdg(tmp_path, monkeypatch):
    monkeypatch.delenv("GPUSEQ_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert _core.nvrtc_info()["cache_dir"] == str(tmp_path / "gpuseq" / "kernels")
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert _core.nvrtc_info()["cache_dir"] == str(tmp_path / ".cache" / "gpuseq" / "kernels")


def _run_python(code: str, **env) -> subprocess.CompletedProcess:
    environ = {**os.environ, **env}
    python_dir = str(Path(gpuseq.__file__).parent.parent)
    paths = [python_dir, str(REPO / "tests"), environ.get("PYTHONPATH", "")]
    environ["PYTHONPATH"] = os.pathsep.join(paths)
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], env=environ, capture_output=True, text=True
    )


def test_missing_nvrtc_is_reported_not_fatal(tmp_path):
    """GPUSEQ_NVRTC_LIBRARY names the only library tried: a missing one turns NVRTC off."""
    missing = tmp_path / "libnvrtc.so.99"
    r = _run_python(
        """
        from gpuseq import _core
        info = _core.nvrtc_info()
        assert not info["available"] and "no such file" in info["reason"], info
        try:
            _core.nvrtc_compile(["gpuseq::cuda::hmm::ssv_warp_kernel_s16<3>"], "sm_80")
        except RuntimeError as e:
            assert "no usable libnvrtc" in str(e), e
        else:
            raise AssertionError("compiled without NVRTC")
        """,
        GPUSEQ_NVRTC_LIBRARY=str(missing),
    )
    assert r.returncode == 0, r.stderr


# ---- on the GPU -----------------------------------------------------------------------------


def _exact_stripes(M: int, nodes_per_stripe: int) -> int:
    return max((M - 1) // nodes_per_stripe + 1, 2)


def _model_and_targets(M: int, seed: int):
    rng = np.random.default_rng(seed)
    hmm = HMM.sample(Alphabet.amino(), M, seed)
    hmm.set_composition()
    consensus = hmm.consensus.upper()
    seqs = random_proteins(rng, 40, mean_length=300)
    seqs += [plant(rng, consensus), consensus * 3, consensus[: max(1, M // 2)], "X" * 50, ""]
    seqs += [random_proteins(rng, 1, L, L, L)[0] for L in (1, 2, 129, 4000)]
    db = gpuseq.SequenceDatabase.from_records([(f"t{i}", s) for i, s in enumerate(seqs)])
    return search_profile(hmm), db.residues, db.offsets


def _scores(gpu_profile, profile, residues, offsets):
    targets = _core.GpuTargets(residues, offsets)
    return {
        which: _core.gpu_filter_scores(gpu_profile, targets, which, residues, offsets)
        for which in FILTERS
    }


def _assert_all_equal(label, *score_sets):
    first = score_sets[0]
    for other in score_sets[1:]:
        for which in FILTERS:
            bad = np.flatnonzero(~bit_equal(first[which], other[which]))
            assert bad.size == 0, (label, which, bad[:5], first[which][bad[:5]])


def _cpu(profile, residues, offsets):
    return {which: _core.filter_scores(profile, which, residues, offsets) for which in FILTERS}


def _assert_runtime_static_cpu(label, profile, residues, offsets, runtime, static):
    """The NVRTC kernels' scores, the static kernels' and the CPU's: all the same."""
    _assert_all_equal(
        label,
        _cpu(profile, residues, offsets),
        _scores(runtime, profile, residues, offsets),
        _scores(static, profile, residues, offsets),
    )


@pytest.mark.cuda
@pytest.mark.parametrize("msv_bits", [8, 16])
# 16-bit stripe counts 9, 9, 10, 11, 13, 27, 30, 38 and 47 (bytes 5 ... 24); 10 is static
# (M = 577); 27 is one where the SSV warp kernel is slow: its SSV/MSV take 28
# (gpu_run_time_msv_stripes).
@pytest.mark.parametrize("M", [520, 576, 577, 700, 800, 1700, 1900, 2400, 3000])
def test_exact_stripe_counts_equal_static_and_cpu(M, msv_bits):
    profile, residues, offsets = _model_and_targets(M, M)
    runtime = _core.GpuProfile(profile, msv_bits, runtime_compiled=True)
    static = _core.GpuProfile(profile, msv_bits, runtime_compiled=False)
    assert not static.runtime_compiled
    msv_nodes = 128 if msv_bits == 8 else 64
    # The fused Viterbi of M > 1344 splits the model over the warps of a block: its stripes
    # are a warp's (NVRTC only; the static kernels take one warp).
    warps = _core.gpu_choose_viterbi_warps_per_target(M)
    assert runtime.viterbi_warps_per_target == warps and static.viterbi_warps_per_target == 1
    exact = (
        _core.gpu_run_time_msv_stripes(msv_bits, _exact_stripes(M, msv_nodes)),
        _exact_stripes(M, 64),
    )
    if msv_bits == 16 and M == 1700:
        assert exact == (28, 27) and warps == 2
    rounded = (static.msv_stripes, static.viterbi_stripes)
    # The S-lane kernels (S chosen by M) take H exactly too (test below).
    S = runtime.sequences_per_warp
    exact_h = tuple(
        _core.gpu_run_time_multi_stripes(msv_bits, S, _exact_stripes(M, msv_nodes // S), msv)
        if S > 1
        else 0
        for msv in (False, True)
    )
    assert (runtime.ssv_multi_stripes, runtime.msv_multi_stripes) == exact_h
    assert static.ssv_multi_stripes == static.msv_multi_stripes >= max(exact_h)
    # NVRTC where the static set lacks the exact counts; the static kernel where it has them.
    assert runtime.runtime_compiled == (
        rounded != exact or any(static.ssv_multi_stripes != h for h in exact_h) or warps > 1
    )
    assert runtime.msv_stripes == exact[0]
    assert runtime.viterbi_stripes == _exact_stripes(M, 64 * warps)
    _assert_runtime_static_cpu(f"M={M}", profile, residues, offsets, runtime, static)


@pytest.mark.cuda
@pytest.mark.parametrize("msv_bits", [8, 16])
@pytest.mark.parametrize("S", [2, 4, 8, 16])
def test_s_lane_kernels_of_the_exact_stripe_count_equal_static_and_cpu(S, msv_bits):
    """The S-lane SSV and MSV (msv_multi.cuh) compiled for a model's exact H, here 5, 11, 25,
    29, 31, 38 and 43 where the static set has 6, 12, 28, 32, 32, 40 and 48 (or the count past
    a slow one, each filter its own: at 11 the 16-bit SSV of S = 16 takes 12 and its MSV 11):
    the static kernels' (H rounded up: padding nodes) and the CPU's scores, bit for bit."""
    W = (128 if msv_bits == 8 else 64) // S
    for H in (5, 11, 25, 29, 31, 38, 43):
        M = W * (H - 1) + 1  # the fewest nodes that need H stripes
        profile, residues, offsets = _model_and_targets(M, M + S)
        runtime = _core.GpuProfile(profile, msv_bits, "warp", S, runtime_compiled=True)
        static = _core.GpuProfile(profile, msv_bits, "warp", S, runtime_compiled=False)
        used = tuple(_core.gpu_run_time_multi_stripes(msv_bits, S, H, msv) for msv in (False, True))
        if msv_bits == 16 and S == 16 and H == 11:
            assert used == (12, 11), used
        assert (runtime.ssv_multi_stripes, runtime.msv_multi_stripes) == used, (M, S)
        assert min(used) >= H, (M, S)
        assert runtime.runtime_compiled or used == (static.ssv_multi_stripes,) * 2
        assert static.ssv_multi_stripes == static.msv_multi_stripes > H
        assert runtime.ssv_multi and static.ssv_multi
        _assert_runtime_static_cpu(f"M={M} S={S}", profile, residues, offsets, runtime, static)


@pytest.mark.cuda
@pytest.mark.parametrize("runtime_compiled", [True, False])
def test_warp_kernels_read_long_tables_from_shared_memory_or_l1_with_the_same_scores(
    runtime_compiled,
):
    """The 16-bit SSV/MSV warp kernels from 25 to 48 stripes (the models past the S-lane
    kernels) copy their table into shared memory (msv.cuh, *_shared); with the hook off they
    read it from L1 as below 25. Both, NVRTC's (exact stripes) and the static kernels' (28, 40,
    48), give the CPU's scores; so do 24 and 49 stripes, either side of the range."""
    try:
        for M in (64 * 23 + 1, 64 * 24 + 1, 2400, 64 * 47 + 1, 3072, 64 * 48 + 1):
            if not runtime_compiled and M > 3072:
                continue  # past the static kernels (48 stripes)
            profile, residues, offsets = _model_and_targets(M, M)
            cpu = _cpu(profile, residues, offsets)
            for in_shared in (True, False):
                _core.gpu_warp_tables_in_shared(in_shared)
                # One target per warp: the warp kernels run the SSV and MSV throughout.
                gp = _core.GpuProfile(profile, 16, "auto", 1, runtime_compiled=runtime_compiled)
                _assert_all_equal(
                    f"M={M} Q={gp.msv_stripes} shared={in_shared}",
                    cpu,
                    _scores(gp, profile, residues, offsets),
                )
    finally:
        _core.gpu_warp_tables_in_shared(True)


@pytest.mark.cuda
def test_cuda_mpf_viterbi_equals_cpu_at_every_stripe_count_from_26():
    """The CUDAMPF Viterbi kernel (viterbi="warp", not fused) as NVRTC compiles it for every
    stripe count from 26 to 48 and beyond the static kernels (49, 56, 64): the CPU's scores.
    Before its packed adds took their constants from constant memory (warp_lanes.cuh), its
    scores came out higher at Q = 35, 38 and 39, most likely from the ptxas defect that file
    works around (the SASS of those builds was not inspected)."""
    for Q in [*range(26, 49), 49, 56, 64]:
        M = 64 * (Q - 1) + 17
        profile, residues, offsets = _model_and_targets(M, M)
        gp = _core.GpuProfile(profile, 16, "warp", 1)
        assert gp.viterbi_stripes == Q  # NVRTC's, or the static kernel of exactly Q
        targets = _core.GpuTargets(residues, offsets)
        gpu = _core.gpu_filter_scores(gp, targets, "viterbi", residues, offsets)
        cpu = _core.filter_scores(profile, "viterbi", residues, offsets)
        bad = np.flatnonzero(~bit_equal(gpu, cpu))
        assert bad.size == 0, (Q, gp.viterbi_stripes, bad[:5], gpu[bad[:5]], cpu[bad[:5]])


@pytest.mark.cuda
@pytest.mark.parametrize("msv_bits", [8, 16])
def test_models_longer_than_the_static_kernels_run_on_the_gpu(msv_bits):
    static_limit = _core.gpu_static_max_model_length
    assert _core.gpu_max_model_length > static_limit  # NVRTC is installed on the GPU host
    for M in (static_limit + 1, 3500, _core.gpu_max_model_length):
        profile, residues, offsets = _model_and_targets(M, M)
        runtime = _core.GpuProfile(profile, msv_bits)
        warps = _core.gpu_choose_viterbi_warps_per_target(M)  # a fused Viterbi's warps a target
        assert warps == 4 and runtime.viterbi_warps_per_target == warps
        assert runtime.runtime_compiled and runtime.viterbi_stripes == _exact_stripes(M, 64 * warps)
        _assert_all_equal(
            f"M={M}", _cpu(profile, residues, offsets), _scores(runtime, profile, residues, offsets)
        )
        with pytest.raises(ValueError, match="longer than the GPU filter kernels"):
            _core.GpuProfile(profile, msv_bits, runtime_compiled=False)


@pytest.mark.cuda
def test_cascade_of_a_long_model_equals_the_cpu():
    profile, residues, offsets = _model_and_targets(3300, 17)
    gp = _core.GpuProfile(profile)
    targets = _core.GpuTargets(residues, offsets)
    for F1, F2 in ((0.02, 1e-3), (1.0, 1.0)):
        gpu = _core.gpu_run_cascade(gp, targets, residues, offsets, F1, F2, True, 2)
        cpu = _core.run_cascade(profile, residues, offsets, F1, F2, True, 2)
        for key, value in cpu.items():
            if isinstance(value, np.ndarray) and value.dtype.kind == "f":
                assert bit_equal(gpu[key], value).all(), key
            else:
                assert np.array_equal(gpu[key], value), key


@pytest.mark.cuda
def test_profiles_reuse_the_disk_cache_and_rebuild_a_corrupt_entry(tmp_path, monkeypatch):
    cache = tmp_path / "kernels"
    monkeypatch.setenv("GPUSEQ_CACHE_DIR", str(cache))
    profile, residues, offsets = _model_and_targets(1100, 4)  # 16-bit Q = 18: not static
    cpu = _cpu(profile, residues, offsets)

    def build():
        _core.gpu_clear_runtime_kernels()  # else this process's loaded copy is used
        before = _core.nvrtc_cache_stats()
        gp = _core.GpuProfile(profile, 16, "auto", 1)  # the warp kernels alone: one program
        after = _core.nvrtc_cache_stats()
        assert gp.runtime_compiled
        _assert_all_equal("M=1100", cpu, _scores(gp, profile, residues, offsets))
        return {k: after[k] - before[k] for k in after}

    assert build() == {"compiled": 1, "disk_loads": 0, "disk_rejected": 0, "disk_writes": 1}
    (entry,) = _entries(cache)
    assert build() == {"compiled": 0, "disk_loads": 1, "disk_rejected": 0, "disk_writes": 0}
    entry.write_bytes(entry.read_bytes()[:100])
    assert build() == {"compiled": 1, "disk_loads": 0, "disk_rejected": 1, "disk_writes": 1}
    assert build() == {"compiled": 0, "disk_loads": 1, "disk_rejected": 0, "disk_writes": 0}


@pytest.mark.cuda
@pytest.mark.parametrize(
    ("M", "warps", "level0"), [(2400, 2, True), (1800, 2, False), (4096, 4, True), (3000, 4, False)]
)
def test_viterbi_kernels_take_their_register_usage_level(tmp_path, monkeypatch, M, warps, level0):
    """A split Viterbi kernel is compiled at ptxas's register usage level 0 where
    fused_register_usage_level says so (19 stripes over two warps, 16 over four), in a program
    of its own, the SSV and MSV kernels in another at the default; elsewhere (15 over two, 12
    over four) all of them are one program at the default. The CPU's scores either way."""
    if _core.nvrtc_info()["version"][0] < 13:
        pytest.skip("the register usage level is passed to NVRTC 13 and later only")
    monkeypatch.setenv("GPUSEQ_CACHE_DIR", str(tmp_path))
    profile, residues, offsets = _model_and_targets(M, 11)
    _core.gpu_clear_runtime_kernels()  # else this process's loaded copy is used
    gp = _core.GpuProfile(profile, 16, "warp_fused", 1, viterbi_warps_per_target=warps)
    assert gp.runtime_compiled and gp.viterbi_warps_per_target == warps
    keys = [e.read_bytes()[:2000] for e in _entries(tmp_path)]
    (viterbi,) = [k for k in keys if b"viterbi_split_kernel" in k]
    (filters,) = [k for k in keys if b"ssv_warp_kernel_s16" in k]
    assert len(keys) == (2 if level0 else 1) and b"msv_warp_kernel_s16" in filters
    assert (b"--register-usage-level=0" in viterbi) == level0
    assert b"register-usage-level" not in filters
    _assert_all_equal(f"M={M}", _cpu(profile, residues, offsets),
                      _scores(gp, profile, residues, offsets))


@pytest.mark.cuda
def test_profiles_made_on_several_threads_compile_each_kernel_set_once(tmp_path, monkeypatch):
    """Eight threads make the tables of two models at once (as a search does, with a cold
    disk cache): each model's kernels are compiled once, by the first thread to need them,
    while the other model's compile beside them; the threads that wait get the same kernels,
    and every profile gives the CPU's scores."""
    from concurrent.futures import ThreadPoolExecutor

    monkeypatch.setenv("GPUSEQ_CACHE_DIR", str(tmp_path / "kernels"))
    models = [_model_and_targets(M, 7) for M in (1100, 700)]  # 16-bit Q = 18 and 11: not static
    _core.gpu_clear_runtime_kernels()
    before = _core.nvrtc_cache_stats()
    with ThreadPoolExecutor(8) as pool:  # the warp kernels alone: one program a model
        made = list(pool.map(lambda i: _core.GpuProfile(models[i % 2][0], 16, "auto", 1),
                             range(8)))
    after = _core.nvrtc_cache_stats()
    assert {k: after[k] - before[k] for k in after} == {
        "compiled": 2, "disk_loads": 0, "disk_rejected": 0, "disk_writes": 2}
    assert all(gp.runtime_compiled for gp in made)
    for i, gp in enumerate(made):
        profile, residues, offsets = models[i % 2]
        _assert_all_equal(f"thread {i}", _cpu(profile, residues, offsets),
                          _scores(gp, profile, residues, offsets))


@pytest.mark.cuda
def test_without_nvrtc_the_static_kernels_run_with_one_warning(tmp_path):
    """NVRTC missing: one RuntimeWarning, the static limit, rounded-up stripes, same scores."""
    r = _run_python(
        """
        import warnings
        import numpy as np
        from gpuseq import _core
        from test_gpu_nvrtc import _model_and_targets, _cpu, _scores, _assert_all_equal
        assert _core.gpu_max_model_length == _core.gpu_static_max_model_length
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            for M in (700, 1900):
                profile, residues, offsets = _model_and_targets(M, M)
                gp = _core.GpuProfile(profile)
                assert not gp.runtime_compiled, M
                assert gp.viterbi_stripes in (12, 32), gp.viterbi_stripes
                _assert_all_equal(M, _cpu(profile, residues, offsets),
                                  _scores(gp, profile, residues, offsets))
        notices = [w for w in caught if issubclass(w.category, RuntimeWarning)]
        assert len(notices) == 1 and "NVRTC" in str(notices[0].message), notices
        """,
        GPUSEQ_NVRTC_LIBRARY=str(tmp_path / "libnvrtc.so.99"),
    )
    assert r.returncode == 0, r.stderr

