"""gpuseq: biological sequence search on NVIDIA GPUs, with exact CPU twins.

All-pairs distances (SNP genotypes), equal to scipy's cdist/pdist::

    D = gpuseq.pairwise_distances(genotypes, metric="hamming")

Profile-HMM search equal to HMMER3's hmmsearch::

    import gpuseq
    res = gpuseq.hmmsearch("Pkinase.hmm", "uniprot_sprot.fasta.gz")
    res.hits        # pandas DataFrame, --tblout columns
    res.domains     # pandas DataFrame, --domtblout columns
    res.pipeline    # per-query filter pass counts
"""

from . import _core
from ._version import __version__
from .backend import cuda_devices
from .distance import nearest_neighbors, pairwise_distances, read_genotypes
from .errors import (
    AlphabetError,
    BackendError,
    EmptyInputError,
    FormatError,
    GpuseqError,
    HmmFormatError,
    InputError,
    InvalidDataError,
    OutputTooLargeError,
    SequenceTooLongError,
)
from .hmm import read_hmms
from .hmmsearch import HmmsearchOptions, HmmsearchResult, hmmsearch
from .sequences import SequenceDatabase, makedb, open_database, read_fasta, read_sequences

__all__ = [
    "__version__",
    "hmmsearch",
    "HmmsearchOptions",
    "HmmsearchResult",
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
    "InvalidDataError",
    "OutputTooLargeError",
    "pairwise_distances",
    "nearest_neighbors",
    "read_genotypes",
]


def build_info() -> dict:
    """What this installation can do: version, CUDA build, visible GPUs, CPU kernel set."""
    return {
        "version": __version__,
        "built_with_cuda": bool(_core.built_with_cuda),
        "cuda_status": _core.cuda_runtime_status() or "ok",
        "cuda_devices": cuda_devices(),
        "cpu_kernels": _core.cpu_kernel_isa(),
    }
