"""pyhmmer, imported by one thread at a time.

gpuseq imports pyhmmer when it is first needed, often on threads of its own: the models are
read on one while the targets are read ahead (and uploaded) on another. pyhmmer's extension
modules import each other as they initialise, and two threads importing them at once can make
CPython's deadlock detection fail one import, which takes the half-made package out of
``sys.modules`` under the other: ``KeyError: 'pyhmmer'`` inside importlib (three of five
Stockholm searches on a pipe on an H200 host; 28 of 30 bare two-thread imports on the 2-core
build host). Every import of pyhmmer in gpuseq calls ``load()`` first.
"""

from __future__ import annotations

import threading

_LOCK = threading.Lock()
_loaded = False


def load() -> None:
    """Import pyhmmer (the package imports all its modules), once, on one thread at a time."""
    global _loaded
    if _loaded:
        return
    with _LOCK:
        import pyhmmer  # noqa: F401

        _loaded = True
