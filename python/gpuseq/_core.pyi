"""Typed stubs of ``gpuseq._core``, the compiled core (cpp/bindings/*.cpp).

Array arguments accept anything NumPy converts (``c_style | forcecast``); arrays returned are
new NumPy arrays. Errors from bad input are ``gpuseq.errors`` exceptions naming the file,
record or line. The ``b1_*`` functions and the ``Gpu*``/``gpu_*`` names exist only in a CUDA build
(``built_with_cuda``).
"""

from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .errors import GpuError, GpuOutOfMemoryError

# ---- module.cpp --------------------------------------------------------------------------

alphabet_symbols: str
background_frequencies: list[float]
built_with_cuda: bool
max_target_length: int

def cuda_devices() -> list[dict[str, Any]]:
    """CUDA devices this process can use (empty without a driver or GPU): index, name,
    compute_capability, total_memory, multiprocessors."""

def cuda_runtime_status() -> str:
    """Why no CUDA device is usable ('' when one is)."""

def cuda_initialize(host_wait: str = "auto") -> str:
    """Create the CUDA context now (run on a thread during start-up): '' or the reason it
    failed. host_wait: how host threads wait for the GPU (auto, spin, yield or block)."""

def set_flush_denormals(on: bool) -> None:
    """Flush-to-zero and denormals-are-zero for the calling thread (as hmmsearch runs)."""

def flush_denormals_on() -> bool:
    """Whether the calling thread flushes denormals to zero."""

class flush_denormals:
    """Context manager: flush-to-zero and denormals-are-zero on the calling thread inside the
    block, its previous mode restored after it."""

    def __init__(self) -> None: ...
    def __enter__(self) -> None: ...
    def __exit__(self, *args: object) -> bool: ...

# ---- sequence_bindings.cpp ---------------------------------------------------------------

_Chunk = dict[str, Any]
"""``residues`` (uint8 codes), ``offsets`` (int64, count + 1), ``names``/``descriptions``
(bytes) with ``name_offsets``/``description_offsets`` (int64)."""

class FastaReader:
    """Streaming FASTA reader (plain or gzip) with Easel's rules. Thread-safe: concurrent
    read_chunk calls are serialized and each returns distinct records."""

    def __init__(self, path: str, threads: int = 1) -> None: ...
    def read_chunk(self, path: str, block_bytes: int = ...) -> _Chunk | None:
        """Next block of whole records, or None at the end; ``path`` names errors only."""
    def first_text_char(self, path: str) -> int:
        """The input's first character that is not white space (its code), or -1 if none."""
    def read_raw(self, path: str, n: int) -> bytes:
        """Up to n bytes of the input not yet parsed, as read; b'' at its end. Once called,
        read_chunk must not be."""

def parse_fasta(text: bytes, threads: int = 1, source: str = "<text>") -> _Chunk:
    """Parse FASTA text held in memory."""

def digitize(text: bytes, record: str = "", source: str = "<sequence>") -> NDArray[np.uint8]:
    """Digitize one amino-acid sequence (Easel FASTA rules) to alphabet codes."""

# ---- hmm_bindings.cpp --------------------------------------------------------------------

class SearchProfile:
    """A model configured for hmmsearch (local multihit) with HMMER's MSV, Viterbi-filter and
    bias-filter tables. Read-only once built: safe to share between threads."""

    base_b: ClassVar[int]
    scale_b: ClassVar[float]
    base_w: ClassVar[int]
    scale_w: ClassVar[float]

    def __init__(
        self,
        name: str,
        match_emissions: ArrayLike,
        transitions: ArrayLike,
        composition: ArrayLike,
        evalue_parameters: list[float],
    ) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def M(self) -> int: ...
    @property
    def evalue_parameters(self) -> list[float]: ...
    @property
    def msv_costs(self) -> NDArray[np.uint8]: ...
    @property
    def bias_b(self) -> int: ...
    @property
    def tbm(self) -> int: ...
    @property
    def tec(self) -> int: ...
    @staticmethod
    def tjb(L: int) -> int: ...
    @property
    def viterbi_emissions(self) -> NDArray[np.int16]: ...
    @property
    def viterbi_transitions(self) -> dict[str, NDArray[np.int16]]: ...
    @property
    def ddbound_w(self) -> int: ...
    @property
    def e_move_w(self) -> int: ...
    @staticmethod
    def ncj_move_w(L: int) -> int: ...

def filter_scores(
    profile: SearchProfile,
    which: str,
    residues: ArrayLike,
    offsets: ArrayLike,
    threads: int = 0,
    isa: str = "auto",
) -> NDArray[np.float32]:
    """Per-target score in nats of one filter (ssv, msv, viterbi, bias, null1)."""

def run_cascade(
    profile: SearchProfile,
    residues: ArrayLike,
    offsets: ArrayLike,
    F1: float = 0.02,
    F2: float = 1e-3,
    bias_filter: bool = True,
    threads: int = 0,
) -> dict[str, Any]:
    """MSV -> bias -> Viterbi filter stages: ``stage`` (uint8 per target), ``msv_score``,
    ``bias_score``, ``viterbi_score`` (float32) and ``n_past_msv``/``n_past_bias``/
    ``n_past_vit`` (int)."""

def forward_scores(
    profile: SearchProfile, residues: ArrayLike, offsets: ArrayLike, threads: int = 0
) -> NDArray[np.float64]:
    """Per-target Forward score in nats computed in double (cpp/hmm/forward_bound.hpp):
    HMMER's Forward filter score up to rounding (forward_margin); NaN for empty targets."""

def forward_margin(L: int, M: int, score: float) -> float:
    """Nats by which HMMER's float Forward score and forward_scores' may differ at most."""

def forward_may_pass(
    score: float, filtersc: float, L: int, M: int, tau: float, lambda_: float, F3: float
) -> bool:
    """False only when a target with this Forward score fails HMMER's Forward test even with
    the margin added. A NaN P (a NaN ``filtersc``) passes, as in HMMER."""

def sequence_blocks(
    residues: ArrayLike, offsets: ArrayLike, sequences_per_warp: int, max_warps: int
) -> dict[str, Any]:
    """The S-lane GPU filters' warp-based sequence blocks, built on the host: ``blocks``
    (uint8), ``warp_offset``, ``warp_rows``, ``column_start``, ``column_items``,
    ``item_offset`` (-1: left to the warp-per-target kernel), ``single``, ``warps``."""

def target_length_index(offsets: ArrayLike, order_from: int = 0) -> dict[str, Any]:
    """The targets' lengths as the GPU search indexes them with the upload: ``non_empty``,
    ``lengths`` (distinct, ascending), ``length_class`` (-1: empty) and, from ``order_from``
    non-empty targets, ``longest_first`` (positions in ``non_empty``)."""

block_end_marker: int
block_pad_marker: int
block_limit_over_mean: int

def cpu_kernel_isa() -> str: ...

# ---- distance_bindings.cpp ---------------------------------------------------------------

class DeviceOutOfMemory(GpuOutOfMemoryError): ...
class CudaError(GpuError): ...

class DistanceEngine:
    """All-pairs distance kernel for one (X, Y) problem. Thread-safe: concurrent compute_into
    calls are serialized."""

    def __init__(
        self,
        x: ArrayLike,
        y: ArrayLike,
        metric: str,
        alphabet_size: int,
        missing: bool,
        kernel: str,
        backend: str,
        threads: int,
    ) -> None: ...
    def compute_into(
        self, out: NDArray[np.int32], compared: NDArray[np.int32] | None, row: int, col: int
    ) -> None: ...
    def nearest_into(
        self,
        index: NDArray[np.int64],
        distance: NDArray[np.int32],
        row: int,
        col_begin: int,
        col_end: int,
        skip_self: bool,
    ) -> None:
        """The k nearest of columns [col_begin, col_end) for the rows of the k-wide outputs
        (ascending by distance, then column; -1 / INT32_MAX where a row has fewer)."""
    @property
    def last_device_seconds(self) -> float: ...

def cpu_and_popcount_rate(words: int = 256, threads: int = 1, seconds: float = 0.5) -> float:
    """The CPU distance kernel's compute bound: popcount(a AND b) words per second of its
    4 x 4 register block on L1-resident rows."""

# CUDA builds only.
def b1_mma_peak_tops(iterations: int = 20000) -> float: ...
def b1_wgmma_peak_tops(iterations: int = 20000) -> float: ...
def b1_gemm_variants() -> list[str]: ...
def b1_gemm_product(variant: str, a: ArrayLike, b: ArrayLike) -> NDArray[np.int32]: ...
def b1_gemm_seconds(
    variant: str, rows: int, cols: int, k_bits: int, repeats: int = 5
) -> float: ...

class GpuTargets:
    """Digitized targets uploaded to the GPU once, for every model."""

    def __init__(self, residues: ArrayLike, offsets: ArrayLike) -> None: ...
    @property
    def count(self) -> int: ...
    @property
    def residue_count(self) -> int: ...
    @property
    def ssv_block_sets(self) -> int:
        """Sets of the S-lane SSV's sequence blocks on the GPU (one per S and warp count),
        made by the first SSV that needed them and kept for every model's."""

class GpuBlastSubjects:
    """blastp's subjects (NCBIstdaa codes and offsets) uploaded to the GPU once, for every
    search given them (stage option 'subjects'); the arrays must be the searches' own."""

    def __init__(self, codes: ArrayLike, offsets: ArrayLike) -> None: ...
    @property
    def count(self) -> int: ...
    @property
    def residue_count(self) -> int: ...

class GpuProfile:
    """A model's filter tables laid out for the GPU kernels (msv_bits 8 or 16, 0: the device's
    faster one; viterbi 'warp', 'thread' or 'warp_fused' (a warp per target with the
    saturating adds fused into DPX instructions); runtime_compiled: NVRTC kernels for the exact
    stripe count where the static set lacks it; sequences_per_warp: SSV/MSV targets per warp,
    1 to 64 (16-bit) or 128 (8-bit), 0: by model length; viterbi_targets_per_warp: fused
    Viterbi targets per warp, 1, 2 or 4, 0: by model length; viterbi_warps_per_target: 2 to 4
    splits the fused Viterbi's model over that many warps, NVRTC only, 1: one warp, 0: by model
    length; viterbi_systolic: the fused Viterbi's targets through the systolic pipeline first,
    models of at most 384 nodes, on every launch, 1: on, -1: off, 0: the measured default (not
    on every launch: viterbi_by_launch picks it for the largest);
    viterbi_by_launch: with the targets per warp chosen by model length, four a warp and the
    systolic pipeline on the launches with rows enough for them, 1: on, -1: off, 0: where either
    takes the model)."""

    def __init__(
        self,
        profile: SearchProfile,
        msv_bits: int = 0,
        viterbi: str = "auto",
        sequences_per_warp: int = 0,
        runtime_compiled: bool = True,
        viterbi_targets_per_warp: int = 0,
        viterbi_warps_per_target: int = 0,
        viterbi_systolic: int = 0,
        viterbi_by_launch: int = 0,
    ) -> None: ...
    @property
    def runtime_compiled(self) -> bool: ...
    @property
    def msv_bits(self) -> int: ...
    @property
    def msv_stripes(self) -> int: ...
    @property
    def viterbi_stripes(self) -> int: ...
    @property
    def sequences_per_warp(self) -> int: ...
    @property
    def viterbi_targets_per_warp(self) -> int: ...
    @property
    def viterbi_warps_per_target(self) -> int: ...
    @property
    def viterbi_systolic(self) -> bool: ...
    @property
    def viterbi_by_launch(self) -> bool: ...
    @property
    def viterbi_systolic_shape(self) -> tuple[int, int]:
        """(G, B): lanes a target pair and nodes a lane of the systolic Viterbi pipeline
        ((0, 0): not used)."""
    @property
    def viterbi_fast_min_move(self) -> int:
        """The least N/C/J MOVE word of a target whose Viterbi rows the fused kernel runs
        without floors (2**31 - 1: never)."""
    @property
    def ssv_multi_stripes(self) -> int:
        """H of the S-lane SSV kernel (0 if sequences_per_warp is 1)."""
    @property
    def msv_multi_stripes(self) -> int:
        """H of the S-lane MSV kernel (0 if sequences_per_warp is 1)."""
    @property
    def ssv_multi(self) -> bool:
        """The SSV too on the S-lane kernels (True when sequences_per_warp was given); a
        search sets it for models that share S."""
    @ssv_multi.setter
    def ssv_multi(self, on: bool) -> None: ...
    @property
    def ssv_blocks_background(self) -> bool:
        """With ssv_multi: where the targets' sequence blocks are not made yet, plan them on a
        host thread and run this SSV a warp per target meanwhile (same scores), instead of
        waiting for them (False, the default)."""
    @ssv_blocks_background.setter
    def ssv_blocks_background(self, on: bool) -> None: ...

def gpu_choose_sequences_per_warp(M: int, msv_bits: int = 16) -> int: ...
def gpu_choose_viterbi_targets_per_warp(M: int, runtime_compiled: bool = True) -> int: ...
def gpu_viterbi_four_targets_by_launch(M: int, runtime_compiled: bool = True) -> bool: ...
def gpu_last_viterbi_kernel() -> str: ...
def gpu_viterbi_by_launch_rows(four: float, pipeline: float) -> None: ...
def gpu_choose_viterbi_warps_per_target(M: int, runtime_compiled: bool = True) -> int: ...

gpu_max_model_length: int
gpu_static_max_model_length: int

def gpu_run_time_msv_stripes(msv_bits: int, exact: int) -> int: ...
def gpu_run_time_multi_stripes(msv_bits: int, S: int, exact: int, msv: bool = False) -> int:
    """S-lane stripes of an NVRTC-compiled model needing `exact`, for the SSV or (msv) the
    MSV kernel (past that filter's slow counts)."""

def gpu_clear_runtime_kernels() -> None: ...

def gpu_instruction_rates() -> list[dict[str, Any]]: ...
def gpu_allocation_limit_for_tests(bytes: int) -> None: ...
def gpu_fail_allocation_for_tests(n: int) -> None: ...
def gpu_thread_stream_idle_for_tests() -> bool: ...
def gpu_warp_tables_in_shared(on: bool) -> None: ...
def gpu_warp_kernels_claim_targets(on: bool) -> None: ...
def gpu_warp_stripes_past_slow(on: bool) -> None: ...
def gpu_viterbi_rows_without_floors(on: bool) -> None: ...
def gpu_viterbi_systolic_counts() -> dict[str, Any]:
    """This thread's last systolic Viterbi run: targets the pipeline scored (piped), targets
    it handed to the fused kernel (handed_back), and, of a timed run, each kernel's median
    seconds (piped_seconds, handed_back_seconds)."""

def gpu_filter_scores(
    profile: GpuProfile,
    targets: GpuTargets,
    which: str,
    residues: ArrayLike | None = None,
    offsets: ArrayLike | None = None,
) -> NDArray[np.float32]: ...
def gpu_filter_kernel_seconds(
    profile: GpuProfile,
    targets: GpuTargets,
    which: str,
    residues: ArrayLike | None = None,
    offsets: ArrayLike | None = None,
    repeats: int = 5,
) -> float: ...
def gpu_run_cascade(
    profile: GpuProfile,
    targets: GpuTargets,
    residues: ArrayLike | None = None,
    offsets: ArrayLike | None = None,
    F1: float = 0.02,
    F2: float = 1e-3,
    bias_filter: bool = True,
    threads: int = 0,
    F3: float = 1.0,
    all_scores: bool = True,
) -> dict[str, Any]:
    """run_cascade on the GPU, plus ``survivors`` (int32, ascending: the targets that go
    downstream) and ``forward_bound`` (F3 < 1); with F3 < 1 and all_scores also
    ``downstream`` (uint8 per target): the survivors that may pass HMMER's Forward test (the
    Forward bound). all_scores false: no score arrays, only stages, counts and survivors."""

def gpu_bias_filter_scores(
    profile: GpuProfile,
    targets: GpuTargets,
    residues: ArrayLike | None = None,
    offsets: ArrayLike | None = None,
    threads: int = 1,
) -> tuple[NDArray[np.float32], int]:
    """Bias-filter scores of every non-empty target on the GPU (NaN: empty), bit-equal to
    the CPU's, and how many of them the host computed."""

def gpu_forward_scores(profile: GpuProfile, targets: GpuTargets) -> NDArray[np.float64]:
    """forward_scores on the GPU (a warp per target): the same values bit for bit."""

# ---- blast_bindings.cpp (cpp/blast: blastp's stages on the CPU) --------------------------

# Lists (the module does not import NumPy): np.asarray(...) where an array is wanted.
blast_blosum62: list[int]  # 28 x 28, flattened; rows = query NCBIstdaa code
blast_easel_to_ncbi: list[int]  # Easel code -> NCBIstdaa code (255: dropped)
blast_letters: str  # NCBIstdaa letters by code

# Composition-based statistics (cpp/blast/composition, seg): ARNDCQEGHILKMFPSTWYV order.
blast_blosum62_joint_probabilities: list[float]  # 20 x 20, flattened
blast_blosum62_background: list[float]  # 20

def blast_composition(codes: ArrayLike) -> tuple[NDArray[np.float64], int]: ...
def blast_matrix_adjust_rule(
    mode: int, query_length: int, subject_length: int, query: ArrayLike, subject: ArrayLike
) -> str: ...
def blast_composition_lambda(
    scores: ArrayLike, row_probabilities: ArrayLike, column_probabilities: ArrayLike
) -> tuple[float, int]: ...
def blast_ideal_lambda(matrix: str = "BLOSUM62") -> float: ...
def blast_optimize_target_frequencies(
    q: ArrayLike, row_sums: ArrayLike, col_sums: ArrayLike, relative_entropy: float
) -> tuple[NDArray[np.float64], int, int]: ...
def blast_adjusted_matrix(
    mode: int, query: ArrayLike, subject: ArrayLike, matrix: str = "BLOSUM62"
) -> tuple[NDArray[np.int32], str, float, int]: ...
def blast_blosum62_at_lambda(lambda_: float) -> NDArray[np.int32]: ...
def blast_traceback_from_seed(
    query: ArrayLike,
    subject: ArrayLike,
    seed_q: int,
    seed_s: int,
    x_drop: int,
    matrix: ArrayLike,
    gap_open: int,
    gap_extend: int,
) -> tuple[int, int, int, int, int, str]: ...
def blast_seg(
    codes: ArrayLike, window: int = 10, locut: float = 1.8, hicut: float = 2.1
) -> list[tuple[int, int]]: ...
def blast_query_karlin(query: ArrayLike, matrix: str = "BLOSUM62") -> dict[str, Any]: ...
def blast_length_adjustment(
    K: float,
    logK: float,
    alpha_over_lambda: float,
    beta: float,
    query_length: int,
    db_length: int,
    db_sequences: int,
) -> int: ...
def blast_ungapped_query_statistics(
    query: ArrayLike,
    db_length: int,
    db_sequences: int,
    evalue: float,
    x_drop_bits: float = 7.0,
    average_subject_length: int = -1,
) -> dict[str, Any]: ...
def blast_gapped_statistics(
    query_length: int,
    db_length: int,
    db_sequences: int,
    gap_open: int = 11,
    gap_extend: int = 1,
    matrix: str = "BLOSUM62",
) -> dict[str, Any]: ...
def blast_gap_cost_rows(matrix: str = "BLOSUM62") -> list[dict[str, float]]: ...
def blast_matrix_defaults(matrix: str) -> dict[str, int]: ...
def blast_matrix_names() -> list[str]: ...
def blast_matrix_scores(matrix: str) -> NDArray[np.int32]: ...
def blast_gapped_scores(
    scores: ArrayLike,
    query_length: int,
    subject_lengths: ArrayLike,
    db_length: int,
    gap_open: int = 11,
    gap_extend: int = 1,
    matrix: str = "BLOSUM62",
) -> dict[str, NDArray[np.float64]]: ...
def blast_spouge_cutoff(
    evalue: float,
    query_length: int,
    subject_length: int,
    db_length: int,
    gap_open: int = 11,
    gap_extend: int = 1,
) -> int: ...
def blast_gapped_search(
    queries: list[ArrayLike],
    query_letters: list[ArrayLike],
    codes: ArrayLike,
    offsets: ArrayLike,
    db_length: int,
    evalue: float = 10.0,
    max_target_seqs: int = 500,
    threshold: int = 11,
    window: int = 40,
    x_drop_ungapped_bits: float = 7.0,
    x_drop_gapped_bits: float = 15.0,
    x_drop_final_bits: float = 25.0,
    threads: int = 0,
    comp_based_stats: int = 0,
    lookup_segments: list[list[tuple[int, int]]] | None = None,
    stage: str = "cpu",
    stage_options: dict[str, int | str] = ...,
    max_hsps: int = 0,
    searchsp: int = -1,
    qcov_hsp_perc: float = 0.0,
    db_sequences: int = 0,
    subject_letters: ArrayLike | None = None,
    gap_open: int = 11,
    gap_extend: int = 1,
    matrix: str = "BLOSUM62",
) -> tuple[list[dict[str, Any]], dict[str, Any]]: ...
def blast_word_hits(
    query: ArrayLike, codes: ArrayLike, offsets: ArrayLike, threshold: int = 11
) -> dict[str, NDArray[np.int32]]: ...
def blast_ungapped_hsps(
    query: ArrayLike,
    codes: ArrayLike,
    offsets: ArrayLike,
    x_drop: int,
    cutoff: int,
    window: int = 40,
    threshold: int = 11,
) -> tuple[dict[str, NDArray[np.int32]], dict[str, int]]: ...
def blast_seed_extensions(
    query: ArrayLike,
    codes: ArrayLike,
    offsets: ArrayLike,
    subject: ArrayLike,
    q_start: ArrayLike,
    s_start: ArrayLike,
    length: ArrayLike,
    x_drop: int,
    ring_columns: int = 0,
    max_rows: int = 2147483647,
    gap_open: int = 11,
    gap_extend: int = 1,
    matrix: str = "BLOSUM62",
) -> dict[str, NDArray[np.int32]]: ...
def blast_ungapped_search(
    queries: list[ArrayLike],
    query_letters: list[ArrayLike],
    codes: ArrayLike,
    offsets: ArrayLike,
    db_length: int,
    evalue: float = 10.0,
    max_target_seqs: int = 500,
    threshold: int = 11,
    window: int = 40,
    x_drop_bits: float = 7.0,
    threads: int = 0,
    lookup_segments: list[list[tuple[int, int]]] | None = None,
    stage: str = "cpu",
    stage_options: dict[str, int | str] = ...,
    max_hsps: int = 0,
    searchsp: int = 0,
    qcov_hsp_perc: float = 0.0,
    db_sequences: int = 0,
    subject_letters: ArrayLike | None = None,
    matrix: str = "BLOSUM62",
) -> tuple[list[dict[str, Any]], dict[str, Any]]: ...

# CUDA builds only (cuda/blast): the two-hit stage on the GPU, as blast_ungapped_hsps.
def gpu_blast_ungapped_hsps(
    query: ArrayLike,
    codes: ArrayLike,
    offsets: ArrayLike,
    x_drop: int,
    cutoff: int,
    window: int = 40,
    threshold: int = 11,
    bins: int = 0,
    bin_capacity: int = 0,
    batch_hits: int = 0,
    extension: str = "hit",
    scoring: str = "auto",
    hits_per_bin: int = 24,
    gapped_x_drop: int = 0,
    seed_ring_columns: int = 256,
    seed_max_rows: int = 2147483647,
    sort: str = "tiles",
    gap_open: int = 11,
    gap_extend: int = 1,
    matrix: str = "BLOSUM62",
) -> tuple[dict[str, Any], dict[str, int | float]]: ...

# Every build: NVRTC compilation of the GPU filter kernels (no GPU needed).
def nvrtc_info() -> dict[str, Any]: ...
def nvrtc_compile(
    name_expressions: list[str],
    arch: str,
    cache: bool = True,
    device: str = "",
    options: list[str] = ...,
) -> tuple[bytes, list[str]]: ...
def nvrtc_cache_stats() -> dict[str, int]: ...

# ---- mrf_bindings.cpp --------------------------------------------------------------------
def mrf_segment(
    volume: ArrayLike,
    initial_labels: ArrayLike,
    classes: int,
    beta: float,
    neighbourhood: int,
    mode: str,
    max_sweeps: int,
    tolerance: float,
    threshold: float,
    seed: int,
    threads: int,
    backend: str = "cpu",
    kernel: str = "tiled",
) -> dict[str, NDArray[Any]]:
    """Sweeps the MRF from initial_labels (float32 volume, uint8 labels, both z, y, x) on the
    CPU or the GPU (kernel "tiled" or "paper"; the same results): labels, energy and
    means/variances (flat, classes per row) before the first sweep and after each, changed
    (labels changed by each sweep), sweep_seconds (wall time of each sweep's label updates)."""

def mrf_connected_component(labels: ArrayLike, z: int, y: int, x: int) -> NDArray[np.uint8]:
    """uint8 mask of the voxels 6-connected to (z, y, x) through voxels of its label."""

def philox4x32_10(counter: list[int], key0: int, key1: int) -> list[int]:
    """Philox-4x32-10 of four counter words and two key words (the MRF's proposals)."""
