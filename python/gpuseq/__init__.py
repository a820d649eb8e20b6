"""gpuseq: HMMER3 hmmsearch with exact results, and all-pairs distances on CPU and GPU.

3-D MRF segmentation of a volume (labels identical on any thread count)::

    res = gpuseq.segment_mrf(ct, classes=3, beta=1.0, neighbourhood=26)

All-pairs distances (SNP genotypes), equal to scipy's cdist/pdist::

    D = gpuseq.pairwise_distances(genotypes, metric="hamming")

Profile-HMM search equal to HMMER3's hmmsearch::

    import gpuseq
    res = gpuseq.hmmsearch("Pkinase.hmm", "uniprot_sprot.fasta.gz")
    res.hits        # pandas DataFrame, --tblout columns
    res.domains     # pandas DataFrame, --domtblout columns
    res.pipeline    # per-query filter pass counts

The public names are imported on first use (module ``__getattr__``), so ``import gpuseq`` and
``gpuseq --help`` do not pay for numpy, pandas or pyhmmer.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from typing import TYPE_CHECKING, Any

from ._version import __version__

# public name -> submodule that defines it
_LAZY = {
    "cuda_devices": "backend",
    "makedb": "sequences",
    "open_database": "sequences",
    "nearest_neighbors": "distance",
    "pairwise_distances": "distance",
    "read_genotypes": "distance",
    "MrfResult": "mrf",
    "segment_mrf": "mrf",
    "AlphabetError": "errors",
    "BackendError": "errors",
    "EmptyInputError": "errors",
    "FormatError": "errors",
    "GpuseqError": "errors",
    "GpuError": "errors",
    "GpuOutOfMemoryError": "errors",
    "HmmFormatError": "errors",
    "InputError": "errors",
    "InvalidDataError": "errors",
    "OutputTooLargeError": "errors",
    "UnsupportedOptionError": "errors",
    "MissingDependencyError": "errors",
    "Volume": "volumes",
    "read_volume": "volumes",
    "write_labels": "volumes",
    "blastp": "blast",
    "SequenceTooLongError": "errors",
    "read_hmms": "hmm",
    "HmmsearchOptions": "hmmsearch",
    "HmmsearchResult": "hmmsearch",
    "HmmsearchWriter": "hmmsearch_results",
    "hmmsearch": "hmmsearch",
    "SequenceDatabase": "sequences",
    "read_fasta": "sequences",
    "read_sequences": "sequences",
}

__all__ = [
    "__version__",
    "hmmsearch",
    "HmmsearchOptions",
    "HmmsearchResult",
    "HmmsearchWriter",
    "SequenceDatabase",
    "read_fasta",
    "read_sequences",
    "read_hmms",
    "makedb",
    "open_database",
    "cuda_devices",
    "build_info",
    "GpuseqError",
    "InputError",
    "FormatError",
    "AlphabetError",
    "EmptyInputError",
    "HmmFormatError",
    "SequenceTooLongError",
    "BackendError",
    "GpuError",
    "GpuOutOfMemoryError",
    "InvalidDataError",
    "OutputTooLargeError",
    "UnsupportedOptionError",
    "MissingDependencyError",
    "blastp",
    "pairwise_distances",
    "nearest_neighbors",
    "read_genotypes",
    "segment_mrf",
    "MrfResult",
    "Volume",
    "read_volume",
    "write_labels",
]

if TYPE_CHECKING:  # static checkers and IDEs see the eager imports
    from .backend import cuda_devices
    from .blast import blastp
    from .database import makedb, open_database
    from .distance import nearest_neighbors, pairwise_distances, read_genotypes
    from .errors import (
        AlphabetError,
        BackendError,
        EmptyInputError,
        FormatError,
        GpuError,
        GpuOutOfMemoryError,
        GpuseqError,
        HmmFormatError,
        InputError,
        InvalidDataError,
        MissingDependencyError,
        OutputTooLargeError,
        SequenceTooLongError,
        UnsupportedOptionError,
    )
    from .hmm import read_hmms
    from .hmmsearch import HmmsearchOptions, HmmsearchResult, hmmsearch
    from .mrf import MrfResult, segment_mrf
    from .sequences import SequenceDatabase, read_fasta
    from .volumes import Volume, read_volume, write_labels


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        # A submodule not imported yet (gpuseq._core, gpuseq.backend ...), as an eager package
        # would have it.
        if importlib.util.find_spec(f"{__name__}.{name}") is None:
            raise AttributeError(f"module 'gpuseq' has no attribute {name!r}")
        return importlib.import_module(f".{name}", __name__)
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value  # later look-ups skip __getattr__
    return value


class _Package(types.ModuleType):
    """The package's module type. When a submodule named like the public name it defines
    (``gpuseq.hmmsearch``) is first imported directly, Python binds the package attribute to
    the submodule; the public name must stay the function, as with an eager import."""

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, types.ModuleType) and _LAZY.get(name) == name:
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


def build_info() -> dict:
    """What this installation can do: version, CUDA build, visible GPUs, CPU kernel set."""
    from . import _core
    from .backend import cuda_devices

    return {
        "version": __version__,
        "built_with_cuda": bool(_core.built_with_cuda),
        "cuda_status": _core.cuda_runtime_status() or "ok",
        "cuda_devices": cuda_devices(),
        "cpu_kernels": _core.cpu_kernel_isa(),
    }
