"""Choosing where an algorithm runs: ``backend="auto" | "cpu" | "cuda"``.

Every algorithm has a C++ CPU implementation; a CUDA twin is used when this build has one, a
GPU is visible, and the algorithm's GPU kernels exist (``GPU_ALGORITHMS``).
"""

from __future__ import annotations

import atexit
import os
import queue
import sys
import threading
import warnings
from concurrent.futures import Executor, Future

from . import _checks as checks
from . import _core
from .errors import BackendError

__all__ = ["cuda_devices", "resolve_backend", "worker_threads", "GPU_ALGORITHMS",
           "BackendFallbackWarning"]

#: Algorithms with CUDA kernels in this version.
GPU_ALGORITHMS: frozenset[str] = frozenset({"distance", "hmm_filters", "mrf", "blastp"})

_warned: set[str] = set()


class BackendFallbackWarning(UserWarning):
    """``backend="auto"`` fell back to the CPU although a GPU path might have been expected."""


#: How host threads wait for the GPU (the CUDA context's scheduling flag): "auto" (the
#: runtime spins while there are fewer contexts than cores), "spin", "yield" or "block" (sleep
#: until the GPU signals). The environment variable GPUSEQ_CUDA_WAIT overrides it. "block"
#: against "auto", hmmsearch's packed-database command on two H100 hosts: 0.94x and 1.01x the
#: time with 100 models, 0.95x and 1.04x with six, so "auto" stays
#: (benchmarks/results/gpu-h100-80gb-hbm3-20261128-d/).
CUDA_HOST_WAITS = ("auto", "spin", "yield", "block")
CUDA_HOST_WAIT = "auto"


def worker_threads(requested, name: str = "threads") -> int:
    """The CPU threads a run uses for a request of `requested` (a ``threads=``, ``--cpu`` or
    ``-num_threads`` value): 0 is every core, and more than the cores is the cores, as blastp
    does it ("Number of threads was reduced ... to match the number of available CPUs"). No
    result depends on the count, more threads than cores only wait for them, and each thread
    has its workspace (--cpu 2147483647 asked for one each). ValueError for anything but an
    integer >= 0, named by `name`."""
    if not checks.is_integer(requested):
        raise ValueError(f"{name} must be an integer >= 0 (0: all cores), not {requested!r}")
    if requested < 0:
        raise ValueError(f"{name} must be an integer >= 0 (0: all cores), not {requested}")
    cores = os.cpu_count() or 1
    return cores if requested == 0 else min(int(requested), cores)


def cuda_host_wait() -> str:
    """GPUSEQ_CUDA_WAIT, else CUDA_HOST_WAIT; ValueError for an unknown value."""
    wait = os.environ.get("GPUSEQ_CUDA_WAIT", CUDA_HOST_WAIT)
    if wait not in CUDA_HOST_WAITS:
        raise ValueError(
            f"GPUSEQ_CUDA_WAIT must be one of {', '.join(CUDA_HOST_WAITS)}, not {wait!r}"
        )
    return wait


class KeptThreads(Executor):
    """Up to `workers` daemon threads, made as tasks need them and never ended: they wait for
    the next task, and end only with the process (threads that call CUDA: cuda_threads).

    Daemon threads, so that the interpreter's exit does not end them either (it joins the
    threads of a ThreadPoolExecutor, which would then run the driver's thread-local
    destructors beside the exit's own CUDA calls). At exit the tasks under way are waited
    for (_finish_kept_tasks): a daemon thread coming back from the driver while the
    interpreter ends is stopped inside C++, which aborts the process (a search whose model
    file was missing, its error left uncaught in a script)."""

    def __init__(self, name: str, workers: int) -> None:
        self._name, self._workers = name, workers
        self._tasks: queue.SimpleQueue = queue.SimpleQueue()
        self._idle = threading.Semaphore(0)  # released by each thread waiting for a task
        self._lock = threading.Lock()
        self._threads = 0

    def submit(self, fn, /, *args, **kwargs) -> Future:
        future: Future = Future()
        self._tasks.put((future, fn, args, kwargs))
        if not self._idle.acquire(blocking=False):  # no thread waiting: one more, if allowed
            with self._lock:
                if self._threads < self._workers:
                    name = f"{self._name}_{self._threads}"
                    self._threads += 1
                    threading.Thread(target=self._serve, name=name, daemon=True).start()
        return future

    def _serve(self) -> None:
        while True:
            future, fn, args, kwargs = self._tasks.get()
            if future.set_running_or_notify_cancel():
                with _busy:
                    _busy.count += 1
                try:
                    future.set_result(fn(*args, **kwargs))
                except BaseException as exc:
                    future.set_exception(exc)
                finally:
                    with _busy:
                        _busy.count -= 1
                        _busy.notify_all()
            # (nothing of the task is held while waiting: GPU memory is freed with it)
            del future, fn, args, kwargs
            self._idle.release()


class _Busy(threading.Condition):
    count = 0  # tasks of KeptThreads under way


_busy = _Busy()
_cuda_pools: dict[tuple[str, int], KeptThreads] = {}
_cuda_pools_lock = threading.Lock()


@atexit.register
def _finish_kept_tasks() -> None:
    """At exit, the tasks under way on kept threads end first (a GPU upload, a cascade, an
    NVRTC compilation: seconds at most; a reader left waiting on a pipe is let go)."""
    with _busy:
        _busy.wait_for(lambda: _busy.count == 0, timeout=10)


def cuda_threads(name: str, workers: int) -> KeptThreads:
    """The pool of `workers` threads named `name` for work that calls CUDA, made on first use
    and kept for the process's life (KeptThreads).

    A thread that has used CUDA runs the driver's thread-local destructor when it ends, and
    one ending while other threads of the process called CUDA hung the process now and then
    on an H200 (driver 580.159.04): the ending thread waited inside the destructor while a
    driver thread and another thread's cudaMalloc spun. A pool of cascade threads made and
    ended for every chunk of a packed database hung 9 to 11 of 14 fuzzing processes within
    3-4 minutes (benchmarks/results/gpu-h200-20261130-c)."""
    with _cuda_pools_lock:
        pool = _cuda_pools.get((name, workers))
        if pool is None:
            pool = KeptThreads(name, workers)
            _cuda_pools[name, workers] = pool
        return pool


def start_cuda(name: str) -> Future:
    """Make the CUDA context on a kept thread (cuda_threads), from now (0.1-0.3 s), with the
    host wait of cuda_host_wait(); callers go on with their start-up meanwhile.

    The process's environment must not change while the driver starts: it reads variables
    with getenv, and glibc's putenv may move the array getenv walks. NumPy's first import
    writes one (os.putenv of OPENBLAS_MAIN_FREE while it loads OpenBLAS, os.unsetenv after;
    NumPy 1.x also GOTOBLAS_MAIN_FREE). `gpuseq blastp` crashed twice in 4,682 random
    commands on an H200, each time with its main thread just past that putenv, at the import
    that follows it (benchmarks/results/gpu-h200-20261201-c). So the variables are set here,
    before the thread: NumPy then leaves the environment alone."""
    if "numpy" not in sys.modules:
        for variable in ("OPENBLAS_MAIN_FREE", "GOTOBLAS_MAIN_FREE"):
            os.environ.setdefault(variable, "1")  # (NumPy's value)
    return cuda_threads(name, 1).submit(_core.cuda_initialize, cuda_host_wait())


def cuda_devices() -> list[dict]:
    """CUDA devices this process can use (empty for a CPU-only build or without a GPU)."""
    return list(_core.cuda_devices())


def resolve_backend(requested: str, algorithm: str) -> str:
    """The backend that will run ``algorithm``: ``"cpu"`` or ``"cuda"``.

    Raises:
        ValueError: unknown backend name.
        BackendError: ``"cuda"`` was requested but cannot be used, with the reason.
    """
    if requested not in ("auto", "cpu", "cuda"):
        raise ValueError(f"backend must be 'auto', 'cpu' or 'cuda', not {requested!r}")
    if requested == "cpu":
        return "cpu"
    reason = _cuda_unavailable_reason(algorithm)
    if reason is None:
        return "cuda"
    if requested == "cuda":
        raise BackendError(f"backend='cuda' is not available: {reason}")
    if _core.built_with_cuda and algorithm in GPU_ALGORITHMS and algorithm not in _warned:
        _warned.add(algorithm)
        warnings.warn(
            f"{algorithm}: running on the CPU ({reason})", BackendFallbackWarning, stacklevel=3
        )
    return "cpu"


def _cuda_unavailable_reason(algorithm: str) -> str | None:
    if not _core.built_with_cuda:
        return "this gpuseq build has no CUDA code (nvcc was not found when it was built)"
    status = _core.cuda_runtime_status()
    if status:
        return f"no usable GPU ({status})"
    if algorithm not in GPU_ALGORITHMS:
        return f"gpuseq {__import__('gpuseq').__version__} has no CUDA kernels for {algorithm} yet"
    return None
