"""On a machine with an NVIDIA GPU and a CUDA build: the device is seen, and backend choice
behaves as documented (skipped elsewhere; run on the device machine)."""

from __future__ import annotations

import warnings

import pytest

import gpuseq
from conftest import HMMER_EXAMPLES
from gpuseq import _core
from gpuseq.backend import GPU_ALGORITHMS, resolve_backend

pytestmark = pytest.mark.cuda


def test_cuda_build_sees_the_gpu():
    assert _core.built_with_cuda
    assert _core.cuda_runtime_status() == ""
    devices = gpuseq.cuda_devices()
    assert devices and devices[0]["compute_capability"] >= (8, 0)  # built for sm_80 and sm_90
    assert devices[0]["total_memory"] > 1 << 30


def test_backend_auto_picks_the_gpu_for_hmmsearch():
    assert "hmm_filters" in GPU_ALGORITHMS
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert resolve_backend("auto", "hmm_filters") == "cuda"
    tut = HMMER_EXAMPLES / "tutorial"
    res = gpuseq.hmmsearch(tut / "globins4.hmm", tut / "globins45.fa", backend="auto")
    cpu = gpuseq.hmmsearch(tut / "globins4.hmm", tut / "globins45.fa", backend="cpu")
    assert len(res.hits) == 45 and res.hits.equals(cpu.hits)
